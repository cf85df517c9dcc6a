# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Shared part of the ffmpeg benchmarks (throughput.sh, graph-inputs.sh,
# ladder-nvdec.sh), sourced after they set w (their work directory) or
# bench_name: then w is VG_FATE_WORK, or a temporary directory named after
# bench_name, removed on exit. It provides
#   secs FFMPEG ARGS...   wall seconds of one run (the whole process; its
#                         output in $w/run.out), or nothing when it failed
#   fps FFMPEG ARGS...    frames/s of one run (frames of the first output
#                         over the run's wall time), or nothing when it
#                         failed
#   best OP VALUES...     the largest (OP=max) or smallest (min) value, or
#                         "failed" when there is none
#   ratio A B             A / B to two decimals, or "-"

if [ -z "${w:-}" ]; then
    if [ -n "${VG_FATE_WORK:-}" ]; then
        w=$VG_FATE_WORK
        mkdir -p "$w"
    else
        w=$(mktemp -d "${TMPDIR:-/tmp}/vg-${bench_name:-bench}.XXXXXX")
        trap 'rm -rf "$w"' EXIT INT TERM
    fi
fi

secs() {
    bin=$1
    shift
    t0=$(date +%s.%N)
    if "$bin" -nostdin -hide_banner -nostats -y "$@" > "$w/run.out" 2>&1; then
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.9f\n", b - a }'
    else
        tail -n 3 "$w/run.out" >&2
    fi
}

fps() {
    t=$(secs "$@")
    [ -n "$t" ] || return 0
    n=$(grep -o "frame= *[0-9]*" "$w/run.out" | tail -n 1 | tr -dc 0-9)
    awk -v n="$n" -v t="$t" 'BEGIN { printf "%.1f\n", n / t }'
}

best() {
    op=$1
    shift
    printf '%s\n' "$@" | awk -v op="$op" 'NF {
        if (!n || (op == "max" ? $1 > b : $1 < b)) b = $1; n++ }
        END { if (n) print b; else print "failed" }'
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'
}
