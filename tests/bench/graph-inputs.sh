#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# What joining a pair's two streams in one filtergraph costs their
# decoding, apart from scoring: frames/s of a pair
#
#   decoded alone, each stream to its own null output
#   decoded into [0:v][1:v]vmafgpu=enable=0 (frames paired, none scored)
#
# and their ratio, for one or two ffmpeg builds side by side (each row's
# runs alternate between the builds). The ffmpeg tool's scheduler lets a
# filtergraph's inputs be decoded side by side only with patch 0003 of
# patches/n<release> (fftools/requested-inputs-n<release>.diff); a build
# without it decodes them in turn. With single-threaded decoders (the
# default here) the two decoders are as independent as two NVDEC
# sessions, and the difference shows at its largest.
#
# Usage: tests/bench/graph-inputs.sh FFMPEG [OTHER_FFMPEG]
# Environment:
#   VG_CORPUS_DIR  the encoded corpus (default <repo>/../shared/corpus)
#   VG_PAIR        "DISTORTED REFERENCE" in it (default: p1080_ref.mp4 twice,
#                  two decoders of equal load)
#   VG_LOOPS       extra passes of each stream (default 2)
#   VG_THREADS     decoder threads (default 1; 0 is FFmpeg's automatic count)
#   VG_HWACCEL     cuda: NVDEC into CUDA frames (default: software decoding)
#   VG_RUNS        runs per figure, the fastest counts (default 3)
# Figures, not assertions: it fails only when a run fails.

set -u
set -f  # the filter graph holds [...] that must not glob

[ $# -ge 1 ] || { sed -n 5,27p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${VG_CORPUS_DIR:-$top/../shared/corpus}
pair=${VG_PAIR:-p1080_ref.mp4 p1080_ref.mp4}
loops=${VG_LOOPS:-2}
threads=${VG_THREADS:-1}
runs=${VG_RUNS:-3}
w=$(mktemp -d "${TMPDIR:-/tmp}/vg-graph-inputs.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM

builds=$#
b1=$1 b2=${2:-}
# shellcheck disable=SC2086
set -- $pair
dis=$corpus/$1 ref=$corpus/$2
for f in "$dis" "$ref"; do
    [ -f "$f" ] || { echo "graph-inputs: $f not found" >&2; exit 2; }
done
dec="-threads $threads"
hw=
if [ "${VG_HWACCEL:-}" = cuda ]; then
    dec="$dec -hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda"
    hw="-init_hw_device cuda=gpu -filter_hw_device gpu"
fi
in="$hw $dec -stream_loop $loops -i $dis $dec -stream_loop $loops -i $ref"
failed=0
alone_1=failed graph_1=failed alone_2=failed graph_2=failed

# shellcheck source=tests/bench/runs.sh
. "$top/tests/bench/runs.sh"

# row KEY ARGS...: runs of ARGS with each build, alternating; sets
# KEY_1 and KEY_2 to the best figures
row() {
    key=$1
    shift
    o1='' o2=''
    i=0
    while [ $i -lt "$runs" ]; do
        o1="$o1 $(fps "$b1" "$@")"
        [ "$builds" -lt 2 ] || o2="$o2 $(fps "$b2" "$@")"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    eval "${key}_1=$(best max $o1)"
    # shellcheck disable=SC2086
    [ "$builds" -lt 2 ] || eval "${key}_2=$(best max $o2)"
}

echo "graph-inputs: $(basename "$dis") / $(basename "$ref"), $((loops + 1)) passes," \
     "decoder threads $threads, ${VG_HWACCEL:-software} decoding, best of $runs" >&2
# shellcheck disable=SC2086
row alone $in -map 0:v -map 1:v -f null -
# shellcheck disable=SC2086
row graph $in -lavfi "[0:v][1:v]vmafgpu=enable=0" -f null -

hdr="| frames/s of the pair | $b1"
sep="| --- | ---"
[ "$builds" -lt 2 ] || { hdr="$hdr | $b2"; sep="$sep | ---"; }
echo "$hdr |"
echo "$sep |"
for k in alone graph; do
    line="| $k | $(eval echo "\$${k}_1")"
    [ "$builds" -lt 2 ] || line="$line | $(eval echo "\$${k}_2")"
    echo "$line |"
done
line="| graph / alone | $(ratio "$graph_1" "$alone_1")"
[ "$builds" -lt 2 ] || line="$line | $(ratio "$graph_2" "$alone_2")"
echo "$line |"
for v in $alone_1 $graph_1 $([ "$builds" -lt 2 ] || echo "$alone_2 $graph_2"); do
    [ "$v" = failed ] && failed=1
done
exit $failed
