#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The CPU backend beside libvmaf's own CPU code, side by side on the same
# frames: frames/s of each, and ours over libvmaf's (above 1: faster).
#
# Usage: tests/bench/cpu-vs-libvmaf.sh OUR_CLI LIBVMAF_CLI
#
#   OUR_CLI      tools/vmafgpu
#   LIBVMAF_CLI  libvmaf's `vmaf` tool (for the comparison only)
#
# Environment:
#   VG_CORPUS_RAW  decoded corpus: p1080_ref.yuv, p1080_dist_crf32.yuv,
#                  p2160_ref.yuv, p2160_dist_x265crf30.yuv (tests/prepare-corpus.sh)
#   VG_MODELS      libvmaf's model folder (default <repo>/../shared/models),
#                  for vmaf_v1.0.16_3d0h
#   THREADS        thread counts (default "1 2"; 1 is each tool's
#                  single-threaded mode, no worker pool)
#   SETS           which sets (default "v0.6.1 v1.0.16 ssim"):
#                  v0.6.1   vmaf_v0.6.1,
#                  v1.0.16  vmaf_v1.0.16_3d0h,
#                  ssim     vmaf_v0.6.1 + psnr + float_ssim + float_ms_ssim
#   SIZES          "p1080 p2160" (default)
#   FRAMES_1080, FRAMES_2160   frames scored (default 60 and 30)
#   REPEAT         runs of each tool per row, alternating; the fastest counts
#                  (default 3)
#   CLI=0          leave out the CLI rows
#   FFMPEG, ANCHOR_FFMPEG, CORPUS
#                  with all three: the same rows through FFmpeg with software
#                  decoding of the corpus' encoded pairs (CORPUS: folder of
#                  p1080_ref.mp4 ...), our patched ffmpeg's vmafgpu
#                  (backend=cpu) against an ffmpeg with libvmaf
#
# Prints one line per row:
#   <set> <size> threads=<n> cli: ours <fps> libvmaf <fps> ratio <r>

set -eu

test $# -eq 2 || { sed -n 5,33p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
ours=$1
theirs=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
raw=${VG_CORPUS_RAW:-$top/build/corpus-raw}
models=${VG_MODELS:-$top/../shared/models}
threads=${THREADS:-1 2}
sets=${SETS:-v0.6.1 v1.0.16 ssim}
sizes=${SIZES:-p1080 p2160}
repeat=${REPEAT:-3}

die() {
    echo "cpu-vs-libvmaf: $*" >&2
    exit 1
}

test -x "$ours" || die "no $ours"
test -x "$theirs" || die "no $theirs"

now() {
    date +%s.%N
}

# seconds of one run of "$@" (output discarded; a failure stops the script)
timed() {
    t0=$(now)
    "$@" > /dev/null 2>&1 || die "failed: $*"
    t1=$(now)
    echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }'
}

min() {
    echo "$1 ${2:-}" | awk '{ print ($2 == "" || $1 < $2) ? $1 : $2 }'
}

# the CLI arguments of a set (both tools take the same ones)
set_args() {
    case $1 in
    v0.6.1) echo "" ;;
    v1.0.16) echo "-m path=$models/vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json" ;;
    ssim) echo "--feature psnr --feature float_ssim --feature float_ms_ssim" ;;
    *) die "unknown set $1" ;;
    esac
}

# the filter options of a set: model, then feature
set_filter() {
    case $1 in
    v0.6.1) echo "version=vmaf_v0.6.1|" ;;
    v1.0.16) echo "path=$models/vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json|" ;;
    ssim) echo "version=vmaf_v0.6.1|name=psnr|name=float_ssim|name=float_ms_ssim" ;;
    esac
}

size_info() { # size -> w h frames ref dis
    case $1 in
    p1080) echo "1920 1080 ${FRAMES_1080:-60} p1080_ref p1080_dist_crf32" ;;
    p2160) echo "3840 2160 ${FRAMES_2160:-30} p2160_ref p2160_dist_x265crf30" ;;
    *) die "unknown size $1" ;;
    esac
}

report() { # set size threads kind frames ours_s theirs_s
    echo "$1 $2 $3 $4 $5 $6 $7" | awk '{
        printf "%s %s threads=%s %s: ours %.2f libvmaf %.2f ratio %.2f\n",
               $1, $2, $3, $4, $5 / $6, $5 / $7, $7 / $6 }'
}

for size in $sizes; do
    test "${CLI:-1}" = 0 && break
    # shellcheck disable=SC2046
    set -- $(size_info "$size")
    w=$1 h=$2 n=$3 ref=$raw/$4.yuv dis=$raw/$5.yuv
    test -f "$ref" && test -f "$dis" || die "no $ref or $dis"
    cat "$ref" "$dis" > /dev/null
    for s in $sets; do
        args=$(set_args "$s")
        for t in $threads; do
            ot=$t lt=$t
            test "$t" = 1 && ot=0 && lt=0
            best_o= best_l= i=0
            while test $i -lt "$repeat"; do
                # shellcheck disable=SC2086
                best_o=$(min "$(timed "$ours" -r "$ref" -d "$dis" -w "$w" \
                    -h "$h" -p 420 -b 8 --frame_cnt "$n" --backend cpu \
                    --threads "$ot" -q -o /dev/null $args)" "$best_o")
                # shellcheck disable=SC2086
                best_l=$(min "$(timed "$theirs" -r "$ref" -d "$dis" -w "$w" \
                    -h "$h" -p 420 -b 8 --frame_cnt "$n" --threads "$lt" -q \
                    -o /dev/null $args)" "$best_l")
                i=$((i + 1))
            done
            report "$s" "$size" "$t" cli "$n" "$best_o" "$best_l"
        done
    done
done

test -n "${FFMPEG:-}" && test -n "${ANCHOR_FFMPEG:-}" && test -n "${CORPUS:-}" ||
    exit 0
for size in $sizes; do
    # shellcheck disable=SC2046
    set -- $(size_info "$size")
    n=$3 ref=$CORPUS/$4.mp4 dis=$CORPUS/$5.mp4
    cat "$ref" "$dis" > /dev/null
    for s in $sets; do
        f=$(set_filter "$s")
        model=${f%%|*} feat=${f#*|}
        for t in $threads; do
            ft=$t
            test "$t" = 1 && ft=0
            ofilt="vmafgpu=backend=cpu:n_threads=$ft:model=$model"
            lfilt="libvmaf=n_threads=$ft:model=$model"
            if test -n "$feat"; then
                ofilt="$ofilt:feature=$feat"
                lfilt="$lfilt:feature=$feat"
            fi
            best_o= best_l= i=0
            while test $i -lt "$repeat"; do
                best_o=$(min "$(timed "$FFMPEG" -nostdin -i "$dis" -i "$ref" \
                    -frames:v "$n" -lavfi "[0:v][1:v]$ofilt" -f null -)" \
                    "$best_o")
                best_l=$(min "$(timed "$ANCHOR_FFMPEG" -nostdin -i "$dis" \
                    -i "$ref" -frames:v "$n" -lavfi "[0:v][1:v]$lfilt" \
                    -f null -)" "$best_l")
                i=$((i + 1))
            done
            report "$s" "$size" "$t" ffmpeg "$n" "$best_o" "$best_l"
        done
    done
done
