#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# What scoring CUDA frames costs the host: the patched ffmpeg with the
# driver shim tests/gpu/libcudafault.so as libcuda.so.1, 1080p frames
# decoded once and replayed through loop as in throughput.sh, for one or
# two builds side by side. Without a GPU the shim emulates the device
# (VG_FAULT_NO_COPY=1: kernels do not run and copies between device
# buffers move no data); on a GPU machine, VG_FAULT_REAL=PATH (the real
# libcuda.so.1, by its full path) makes it forward every call to the
# driver. Per frame, in steady state (what a run of 36,000 frames adds
# over one of 6,000, divided by the 30,000 frames it adds):
#
#   the run's wall time with the pair joined (vmafgpu=enable=0) and with
#   vmaf_v0.6.1 scored; emulated, the filter thread is the one that
#   waits, so this is its cost: FFmpeg's graph, the filter, the
#   library's host side and the driver calls
#   the time spent in driver calls (VG_FAULT_TIME), and the rest
#   the driver calls of the scoring run, in all and per function, with
#   their time
#
# Each wall time is the best of VG_RUNS runs, the builds alternating.
# Emulated calls cost what the shim's bookkeeping costs, not what the
# real driver's do. Figures, not assertions: it fails only when a run
# fails.
#
# Usage: tests/bench/host-cost.sh SHIM FFMPEG [OTHER_FFMPEG]
#   SHIM  tests/gpu/libcudafault.so of a CUDA build
# Environment:
#   VG_CORPUS_DIR  the encoded corpus (default <repo>/../shared/corpus)
#   VG_RUNS        runs per figure (default 3)
#   VG_MODEL       the model scored (default version=vmaf_v0.6.1)
#   VG_FAULT_REAL  forward to this driver instead of emulating one

set -u
set -f  # the filter graphs hold [...] that must not glob

[ $# -ge 2 ] || { sed -n 5,37p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${VG_CORPUS_DIR:-$top/../shared/corpus}
runs=${VG_RUNS:-3}
model=${VG_MODEL:-version=vmaf_v0.6.1}
shim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
[ -f "$shim" ] || { echo "host-cost: no shim at $shim" >&2; exit 2; }
w=$(mktemp -d "${TMPDIR:-/tmp}/vg-host-cost.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM
mkdir "$w/drv"
ln -s "$shim" "$w/drv/libcuda.so.1"
unset VG_CUDA_DRIVER
LD_LIBRARY_PATH="$w/drv${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
VG_FAULT_NO_COPY=1
export LD_LIBRARY_PATH VG_FAULT_NO_COPY
if [ -n "${VG_FAULT_REAL:-}" ]; then
    case $VG_FAULT_REAL in
    /*) ;;
    *) echo "host-cost: VG_FAULT_REAL must be the driver's full path" >&2; exit 2 ;;
    esac
    export VG_FAULT_REAL
fi

# shellcheck source=tests/bench/runs.sh
. "$top/tests/bench/runs.sh"

nf=60 short=99 long=599
added=$((nf * (long - short)))
in="-init_hw_device cuda=gpu -filter_hw_device gpu -i $corpus/p1080_dist_crf32.mp4 -i $corpus/p1080_ref.mp4"
# graph LOOPS TAIL
graph() {
    lp="loop=loop=$1:size=$nf:start=0"
    echo "[0:v]format=nv12,hwupload,${lp}[d];[1:v]format=nv12,hwupload,${lp}[r];[d][r]$2"
}
failed=0

# steady KEY TAIL: sets KEY_<build> to the microseconds per added frame
steady() {
    key=$1 tail=$2
    for b in $builds; do
        eval "s_$b= l_$b="
    done
    i=0
    while [ $i -lt "$runs" ]; do
        for b in $builds; do
            eval "bin=\$bin_$b"
            # shellcheck disable=SC2086,SC2154
            t1=$(secs "$bin" $in -filter_complex "$(graph $short "$tail")" -f null -)
            # shellcheck disable=SC2086
            t2=$(secs "$bin" $in -filter_complex "$(graph $long "$tail")" -f null -)
            [ -n "$t1" ] && [ -n "$t2" ] || failed=1
            eval "s_$b=\"\$s_$b $t1\" l_$b=\"\$l_$b $t2\""
        done
        i=$((i + 1))
    done
    for b in $builds; do
        # shellcheck disable=SC2046
        t1=$(best min $(eval echo "\$s_$b"))
        # shellcheck disable=SC2046
        t2=$(best min $(eval echo "\$l_$b"))
        eval "${key}_$b=$(awk -v a="$t1" -v b="$t2" -v n="$added" \
            'BEGIN { if (a + 0 > 0 && b + 0 > a) printf "%.1f", (b - a) / n * 1e6; else printf "-" }')"
    done
}

# calls B: the driver calls and their time per added frame of build B's
# scoring run, by function, into $w/calls_B ("NAME CALLS US" lines, "all"
# first)
calls() {
    b=$1
    eval "bin=\$bin_$b"
    for n in $short $long; do
        # shellcheck disable=SC2086
        VG_FAULT_COUNT=1 VG_FAULT_TIME=1 "$bin" -nostdin -hide_banner -nostats $in \
            -filter_complex "$(graph $n "vmafgpu=model=$model")" -f null - \
            > "$w/count_$n" 2>&1 || { tail -n 3 "$w/count_$n" >&2; failed=1; }
    done
    awk -v n="$added" '
        /^cudafault: (calls|ns) / {
            v[FILENAME == ARGV[1] ? 0 : 1, $2, $3] = $4; names[$3] = 1 }
        END {
            for (f in names) {
                d = (v[1, "calls", f] - v[0, "calls", f]) / n
                t = (v[1, "ns", f] - v[0, "ns", f]) / n / 1000
                all += d; tall += t
                if (d > 0) printf "%s %.2f %.2f\n", f, d, t
            }
            printf "all %.2f %.2f\n", all, tall
        }' "$w/count_$short" "$w/count_$long" | sort -k2,2nr -k1,1 > "$w/calls_$b"
}

builds=1
# shellcheck disable=SC2034 # read through eval
bin_1=$1
# shellcheck disable=SC2034
[ $# -ge 2 ] && { builds="1 2"; bin_2=$2; }
for b in $builds; do
    eval "bin=\$bin_$b"
    [ -x "$bin" ] || { echo "host-cost: no ffmpeg at $bin" >&2; exit 2; }
done

echo "host-cost: $runs runs per figure, $added frames added" >&2
steady pair "vmafgpu=enable=0"
steady score "vmafgpu=model=$model"
for b in $builds; do
    calls "$b"
done

hdr="| per frame, steady state |" sep="| --- |"
for b in $builds; do
    eval "hdr=\"\$hdr \$bin_$b |\""
    sep="$sep --- |"
done
echo "$hdr"
echo "$sep"
for k in "pair|frames paired, none scored (enable=0), us" \
         "score|scored ($model), us"; do
    line="| ${k#*|} |"
    for b in $builds; do
        eval "line=\"\$line \${${k%%|*}_$b} |\""
    done
    echo "$line"
done
line="| scoring's own (scored less paired), us |"
line2="| of which in driver calls, us |"
line3="| the rest (filter, library, FFmpeg), us |"
for b in $builds; do
    eval "sc=\$score_$b pa=\$pair_$b"
    drv=$(awk '$1 == "all" { print $3 }' "$w/calls_$b")
    # shellcheck disable=SC2154
    line="$line $(awk -v a="$sc" -v b="$pa" \
        'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.1f", a - b; else printf "-" }') |"
    line2="$line2 ${drv:--} |"
    line3="$line3 $(awk -v a="$sc" -v b="$pa" -v d="$drv" \
        'BEGIN { if (a + 0 > 0 && b + 0 > 0 && d != "") printf "%.1f", a - b - d; else printf "-" }') |"
done
printf '%s\n%s\n%s\n' "$line" "$line2" "$line3"
# the union of the functions, in the first build's order
for b in $builds; do
    cut -d' ' -f1 "$w/calls_$b"
done | awk '!seen[$1]++' > "$w/names"
while read -r f; do
    if [ "$f" = all ]; then line="| driver calls (us) |"; else line="| $f |"; fi
    for b in $builds; do
        v=$(awk -v f="$f" '$1 == f { printf "%s (%s)", $2, $3 }' "$w/calls_$b")
        line="$line ${v:-0} |"
    done
    echo "$line"
done < "$w/names"
exit $failed
