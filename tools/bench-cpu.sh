#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# CPU throughput of the vmafgpu tool on the 1080p corpus pair (60 frames,
# p1080_ref vs p1080_dist_crf32, decoded by tests/prepare-corpus.sh).
#
# Usage: tools/bench-cpu.sh [MODE...]      (default: every mode)
# Environment:
#   VG_TOP_BUILDDIR  build directory holding tools/vmafgpu (default: .)
#   VG_CORPUS_RAW    decoded corpus (default: $VG_TOP_BUILDDIR/tests/corpus-raw)
#   THREADS          thread counts to try (default: "1 2")
#   REPEAT           runs per case, the fastest counts (default: 3)
#
# Prints one line per mode and thread count:
#   <mode> p1080 threads=<n>: <fps> fps (<seconds> s for <frames> frames)
# fps = frames / wall-clock seconds of the whole run (reading included;
# the input is read once beforehand so that it comes from the page cache).

set -eu

builddir=${VG_TOP_BUILDDIR:-.}
raw=${VG_CORPUS_RAW:-$builddir/tests/corpus-raw}
cli=$builddir/tools/vmafgpu
threads=${THREADS:-1 2}
repeat=${REPEAT:-3}
frames=60
ref=$raw/p1080_ref.yuv
dis=$raw/p1080_dist_crf32.yuv

# Modes: name and the tool arguments that select what is computed.
# To add one, append a line "name|arguments" (e.g. "vif|-n --feature vif").
modes='motion+psnr|-n --feature motion --feature psnr
vif|-n --feature vif'

die() {
    echo "bench-cpu: $*" >&2
    exit 1
}

test -x "$cli" || die "no $cli (set VG_TOP_BUILDDIR)"
test -f "$ref" && test -f "$dis" ||
    die "no $ref or $dis (run tests/prepare-corpus.sh, or set VG_CORPUS_RAW)"

cat "$ref" "$dis" > /dev/null

now() {
    date +%s.%N
}

run_mode() {
    name=$1
    args=$2
    for t in $threads; do
        best=
        i=0
        while test $i -lt "$repeat"; do
            t0=$(now)
            # shellcheck disable=SC2086
            "$cli" -r "$ref" -d "$dis" -w 1920 -h 1080 -p 420 -b 8 \
                --backend cpu --threads "$t" --frame_cnt $frames -q \
                $args > /dev/null || die "$name: vmafgpu failed"
            t1=$(now)
            best=$(echo "$t0 $t1 ${best:-}" | awk '{ d = $2 - $1;
                if ($3 == "" || d < $3) print d; else print $3 }')
            i=$((i + 1))
        done
        echo "$name $best $t" | awk -v f=$frames '{
            printf "%s p1080 threads=%s: %.2f fps (%.3f s for %d frames)\n",
                   $1, $3, f / $2, $2, f }'
    done
}

want=${*:-}
echo "$modes" | while IFS='|' read -r name args; do
    if test -z "$want" || echo " $want " | grep -q " $name "; then
        run_mode "$name" "$args"
    fi
done
