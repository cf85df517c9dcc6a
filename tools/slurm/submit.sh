#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Score one title in chunks on a Slurm cluster and merge them into exactly
# the whole run's log:
#
#   tools/slurm/submit.sh -f FRAMES -n CHUNKS -o OUTDIR [-g|-c] [-l LOG_ARGS]
#                         [-s "SBATCH_ARGS"] -- VMAFGPU [vmafgpu arguments...]
#
#   -f FRAMES   frames of the title (a raw file: its size / the frame size;
#               a container: ffprobe -count_frames)
#   -n CHUNKS   tasks of the job array (sbatch --array=0..CHUNKS-1)
#   -o OUTDIR   a folder every node sees: chunk-K.json, then title.json
#   -g | -c     one GPU per task (--gres=gpu:1; vmafgpu's --backend auto
#               uses it) | none; default: a GPU when the cluster's nodes
#               have GPU resources (sinfo's GRES column names gpu)
#   -l ARGS     the merged log's format (default: --json --precision max)
#   -s ARGS     more sbatch arguments for both jobs (partition, time, ...)
#
# The array job runs tools/slurm/vmafgpu-chunk.sbatch per task; a merge
# job that depends on it (afterany: it also runs when a task failed, and
# then names the missing frames) runs `VMAFGPU merge`. Prints the two job
# ids. After a failed task, `sbatch --array=K ...` re-runs that chunk (its
# log is replaced) and the merge is run again.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
frames="" chunks="" outdir="" gres=auto logargs="--json --precision max" extra=""
while getopts f:n:o:gcl:s: o; do
    case $o in
    f) frames=$OPTARG ;;
    n) chunks=$OPTARG ;;
    o) outdir=$OPTARG ;;
    g) gres="--gres=gpu:1" ;;
    c) gres="" ;;
    l) logargs=$OPTARG ;;
    s) extra=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ -z "$frames" ] || [ -z "$chunks" ] || [ -z "$outdir" ] || [ $# -lt 1 ]; then
    sed -n '5,18p' "$0" >&2
    exit 2
fi
if [ "$chunks" -lt 1 ] || [ "$chunks" -gt "$frames" ]; then
    echo "$0: -n $chunks: between 1 and the $frames frames" >&2
    exit 2
fi
vmafgpu=$1
shift
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
for f in "$outdir"/chunk-*.json "$outdir"/title.json; do
    if [ -e "$f" ]; then
        echo "$0: $outdir holds the logs of an earlier run ($f): give an empty folder" >&2
        exit 2
    fi
done
set -f   # the sbatch arguments are not file patterns
if [ "$gres" = auto ]; then
    # GPUs in the partition the jobs go to (-s "--partition=P"), else any
    part=$(echo " $extra" | sed -n 's/.* --partition[= ]\([^ ]*\).*/\1/p; s/.* -p \([^ ]*\).*/\1/p')
    gres=""
    sinfo -h ${part:+-p "$part"} -o %G 2> /dev/null | grep -q gpu && gres="--gres=gpu:1"
fi
# the merge command for sh -c: each word single-quoted
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# shellcheck disable=SC2086
array=$(sbatch --parsable --array=0-$((chunks - 1)) $gres $extra \
    --output="$outdir/chunk-%a.out" \
    "$here/vmafgpu-chunk.sbatch" "$frames" "$chunks" "$outdir" "$vmafgpu" "$@")
array=${array%%;*}
# the chunk logs there are: merge names the frames of any that is missing
# shellcheck disable=SC2086
merge=$(sbatch --parsable --dependency=afterany:"$array" $extra \
    --job-name=vmafgpu-merge --output="$outdir/merge.out" \
    --wrap="$(q "$vmafgpu") merge $(q "$outdir")/chunk-*.json -o $(q "$outdir/title.json") $logargs")
merge=${merge%%;*}
echo "array job $array ($chunks chunks), merge job $merge: $outdir/title.json"
