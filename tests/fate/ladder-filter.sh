#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The patched ffmpeg's vmafgpu filter scoring an ABR ladder (renditions=N)
# on software frames, the first 8 frames of the p1080 corpus (cut from the
# decoded corpus, read to their end):
#  - with 1, 2 and 5 renditions, each rendition's log (log_fmt=json,
#    precision=max, vmaf_v0.6.1 and psnr, n_threads=2) equals, the "fps"
#    line removed, byte for byte the log of a pair run of that rendition
#    alone against the reference. The renditions: the 1080p crf 32 encode,
#    the 540p encode and the 1080p encode scaled to 1280x720 in the graph
#    (scale=bicubic in the filter), the reference scaled to 854x480
#    (bilinear), the 1080p encode again;
#  - with 2 renditions, the frame metadata lavfi.vmafgpu.<r>.<metric> on
#    every frame holds rendition r's values of its pair run (and no
#    lavfi.vmafgpu.<metric> key); the summary names each rendition;
#  - a rendition that ends first: the pair's rule (its last frame scored
#    again, a warning naming it), its log its pair run's;
#  - refusals, with a message and a non-zero exit status (no crash):
#    log_path and plot_path without %d, log_path with two, renditions=17,
#    renditions of other sizes without the scale option, a rendition of
#    another format, a rendition whose size changes mid-stream, each
#    naming the rendition; and %% for a '%' in a ladder's log_path.
# Prints one line per test and "N passed, N failed"; exits 1 if any test
# failed, 77 when the corpus is missing.
#
# Usage: tests/fate/ladder-filter.sh [FFMPEG]
# Environment:
#   FFMPEG         the patched ffmpeg (default: the argument, else
#                  $FFMPEG_BUILD_DIR/ffmpeg, else ./ffmpeg-n9.0.2/ffmpeg)
#   VG_CORPUS_RAW  the decoded corpus (tests/prepare-corpus.sh); without
#                  it, the encoded corpus of VG_SHARED_DIR is decoded
#   VG_SHARED_DIR  default <repo>/../shared
#   VG_FATE_WORK, JSONCMP, CC as for tests/fate/run.sh

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
raw=${VG_CORPUS_RAW:-}
ffmpeg=${1:-${FFMPEG:-}}
[ -n "$ffmpeg" ] || ffmpeg=${FFMPEG_BUILD_DIR:-$PWD/ffmpeg-n9.0.2}/ffmpeg

if [ ! -x "$ffmpeg" ]; then
    echo "ladder-filter: no ffmpeg at $ffmpeg (build it with tools/build-ffmpeg.sh)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

fate_name=ladder-filter
features=psnr
models=vmaf_v0.6.1
# shellcheck source=tests/fate/lib.sh
. "$top/tests/fate/lib.sh"

frames=8
# src NAME W H: the ffmpeg input arguments of the first $frames frames of a
# corpus clip, cut into $w/NAME.yuv (from the decoded corpus, else decoded
# here): every run reads its inputs to their end, so that no run depends on
# where ffmpeg stops an output
src() {
    if [ -n "$raw" ] && [ -f "$raw/$1.yuv" ]; then
        head -c $(($2 * $3 * 3 / 2 * frames)) "$raw/$1.yuv" > "$w/$1.yuv" || return 1
    elif [ -f "$shared/corpus/$1.mp4" ]; then
        ff -i "$shared/corpus/$1.mp4" -frames:v $frames -pix_fmt yuv420p \
            -f rawvideo "$w/$1.yuv" > "$w/$1.dec" 2>&1 || return 1
    else
        return 1
    fi
    echo "-f rawvideo -pix_fmt yuv420p -video_size $2x$3 -framerate 24 -i $w/$1.yuv"
}
d1080=$(src p1080_dist_crf32 1920 1080) &&
d540=$(src p1080_dist_540p_crf28 960 540) &&
ref=$(src p1080_ref 1920 1080) || {
    echo "SKIP ladder-filter: no p1080 corpus (VG_CORPUS_RAW, $shared/corpus)"
    exit 77
}

# rendition R: sets in (its input) and chain (the filters in front)
rendition() {
    case $1 in
    0) in=$d1080 chain=null ;;
    1) in=$d540 chain=null ;;
    2) in=$d1080 chain=scale=1280:720:flags=bicubic ;;
    3) in=$ref chain=scale=854:480:flags=bilinear ;;
    4) in=$d1080 chain=null ;;
    esac
}
opts="model=$model_opt:feature=$feature_opt:scale=bicubic:n_threads=2:log_fmt=json:precision=max"

# nofps LOG: the log without its measured fps
nofps() {
    grep -v '^  "fps": ' "$1"
}

# ---- 1. each rendition's log = a pair run of that rendition alone ------------
for r in 0 1 2 3 4; do
    rendition $r
    # shellcheck disable=SC2086
    if ! ff $in $ref \
            -lavfi "[0:v]${chain}[d];[d][1:v]vmafgpu=$opts:log_path=$w/pair$r.json" \
            -f null - > "$w/pair$r.out" 2>&1 ||
       [ "$(grep -c '"frameNum"' "$w/pair$r.json")" != $frames ]; then
        fail "pair run of rendition $r ($chain): ffmpeg failed" "$w/pair$r.out"
    fi
done
nofps "$w/pair0.json" > "$w/pair0.nofps"
for n in 1 2 5; do
    ins='' graph='' pads=''
    r=0
    while [ $r -lt $n ]; do
        rendition $r
        ins="$ins $in"
        graph="${graph}[$r:v]${chain}[d$r];"
        pads="${pads}[d$r]"
        r=$((r + 1))
    done
    # shellcheck disable=SC2086
    if ! ff $ins $ref \
            -lavfi "$graph${pads}[$n:v]vmafgpu=renditions=$n:$opts:log_path=$w/l$n-%d.json" \
            -f null - > "$w/l$n.out" 2>&1; then
        fail "ladder of $n: ffmpeg failed" "$w/l$n.out"
        continue
    fi
    r=0 same=0
    while [ $r -lt $n ]; do
        if [ "$n" = 1 ]; then log=$w/l1-%d.json; else log=$w/l$n-$r.json; fi
        if [ -f "$log" ] && nofps "$log" > "$w/l.got" && nofps "$w/pair$r.json" > "$w/l.want" &&
           diff -u "$w/l.want" "$w/l.got" > "$w/l$n-$r.diff"; then
            same=$((same + 1))
        else
            fail "ladder of $n: rendition $r's log differs from its pair run's" "$w/l$n-$r.diff" "$w/l$n.out"
        fi
        r=$((r + 1))
    done
    [ $same = "$n" ] && pass "ladder of $n: each rendition's log = its pair run's, byte for byte (fps aside), $frames frames"
done
# the summary: one line per rendition, its pair run's score
want=$(for r in 0 1; do grep -o 'VMAF score: .*' "$w/pair$r.out" | sed "s/^/rendition $r: /"; done)
got=$(grep -o 'rendition [0-9]: VMAF score: .*' "$w/l5.out" | head -n 2)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
    pass "ladder of 5: the summary names each rendition ($(echo "$got" | head -n 1))"
else
    fail "ladder of 5: summary lines differ from the pair runs' ($want)" "$w/l5.out"
fi

# ---- 2. frame metadata of a ladder of 2 --------------------------------------
# shellcheck disable=SC2086
if ff $d1080 $d540 $ref \
        -lavfi "[0:v][1:v][2:v]vmafgpu=renditions=2:$opts,metadata=mode=print:file=$w/meta.txt" \
        -f null - > "$w/meta.out" 2>&1; then
    ok=1
    for r in 0 1; do
        sed -n -e '/^frame:/p' -e "s/^lavfi\.vmafgpu\.$r\./lavfi.vmafgpu./p" \
            "$w/meta.txt" > "$w/meta$r.txt"
        # shellcheck disable=SC2086
        "$cmp" --meta "$w/pair$r.json" "$w/meta$r.txt" $required > "$w/meta$r.cmp" 2>&1 || {
            ok=0
            fail "metadata of a ladder of 2: lavfi.vmafgpu.$r.* differ from rendition $r's pair run" "$w/meta$r.cmp"
        }
    done
    if grep -Eq '^lavfi\.vmafgpu\.[a-zA-Z]' "$w/meta.txt"; then
        ok=0
        fail "metadata of a ladder of 2: a key without its rendition" "$w/meta.txt"
    fi
    [ $ok = 1 ] && pass "metadata of a ladder of 2: lavfi.vmafgpu.0.* and lavfi.vmafgpu.1.* on every frame, the pair runs' values ($(tail -n 1 "$w/meta1.cmp"))"
else
    fail "metadata of a ladder of 2: ffmpeg failed" "$w/meta.out"
fi

# ---- 3. a rendition that ends first: the pair's rule ----------------------------
# its last frame is scored again against the reference's later frames, as a
# pair's distorted input that ends first is, with a warning naming it
cut="trim=end_frame=5"
# shellcheck disable=SC2086
if ff $d540 $ref -lavfi "[0:v]$cut[d];[d][1:v]vmafgpu=$opts:log_path=$w/short-pair.json" \
        -f null - > "$w/short-pair.out" 2>&1 &&
   ff $d1080 $d540 $ref \
        -lavfi "[1:v]$cut[s];[0:v][s][2:v]vmafgpu=renditions=2:$opts:log_path=$w/short-%d.json" \
        -f null - > "$w/short.out" 2>&1 &&
   grep -q "rendition 1 input ended first" "$w/short.out" &&
   nofps "$w/short-1.json" > "$w/short.got" && nofps "$w/short-pair.json" > "$w/short.want" &&
   diff -u "$w/short.want" "$w/short.got" > "$w/short.diff" &&
   nofps "$w/short-0.json" | cmp -s - "$w/pair0.nofps"; then
    pass "a rendition that ends first: a warning naming it; its log = its pair run's, rendition 0's = its own"
else
    fail "a rendition that ends first" "$w/short.diff" "$w/short.out"
fi

# ---- 4. refusals ---------------------------------------------------------------
# refused NAME MESSAGE FFMPEG-ARGS...: a non-zero exit status that is no
# crash, and MESSAGE (an extended regular expression) in the output
refused() {
    name=$1 msg=$2
    shift 2
    ff "$@" -f null - > "$w/err.out" 2>&1
    rc=$?
    case $rc in
    0) fail "refused $name: ffmpeg succeeded" "$w/err.out" ;;
    124|13[2-9]) fail "refused $name: ffmpeg crashed or hung (exit status $rc)" "$w/err.out" ;;
    *)
        if grep -Eq "$msg" "$w/err.out"; then
            pass "refused $name: exit status $rc, $(grep -Eo "$msg" "$w/err.out" | head -n 1)"
        else
            fail "refused $name: no message matching '$msg'" "$w/err.out"
        fi ;;
    esac
}
l2="[0:v][1:v][2:v]vmafgpu=renditions=2:model=:feature=name=psnr:scale=bicubic"
# shellcheck disable=SC2086
refused "log_path without %d" "log_path '$w/x.json': with renditions=2, each rendition writes a file of its own" \
    $d1080 $d540 $ref -lavfi "$l2:log_path=$w/x.json"
# shellcheck disable=SC2086
refused "plot_path without %d" "plot_path '$w/x.svg': with renditions=2, each rendition writes a file of its own" \
    $d1080 $d540 $ref -lavfi "$l2:log_path=$w/x%d.json:plot_path=$w/x.svg"
# shellcheck disable=SC2086
refused "log_path with two %d" "log_path '$w/x%d_%d.json': with renditions=2, each rendition writes a file of its own" \
    $d1080 $d540 $ref -lavfi "$l2:log_path=$w/x%d_%d.json"
if ls "$w"/x*.json > /dev/null 2>&1; then
    fail "refused log_path and plot_path: a log was left behind"
fi
# %% is a '%' in a ladder's paths, as in the CLI's
# shellcheck disable=SC2086
ff $d1080 $d540 $ref -lavfi "$l2:log_fmt=json:log_path=$w/pct%%_%d.json" \
    -f null - > "$w/pct.out" 2>&1
if [ -s "$w/pct%_0.json" ] && [ -s "$w/pct%_1.json" ]; then
    pass "log_path with %% and %d: pct%_0.json and pct%_1.json"
else
    fail "log_path with %% and %d: no pct%_0.json and pct%_1.json" "$w/pct.out"
fi
# shellcheck disable=SC2086
refused "renditions=17" "Value 17.* for parameter 'renditions' out of range \[1 - 16\]" \
    $d1080 $d540 $ref -lavfi "[0:v][1:v][2:v]vmafgpu=renditions=17"
# shellcheck disable=SC2086
refused "a rendition of another size, no scale option" \
    "Input sizes differ: rendition 1 is 960x540, reference is 1920x1080; set the scale option" \
    $d1080 $d540 $ref -lavfi "[0:v][1:v][2:v]vmafgpu=renditions=2:model=:feature=name=psnr"
# shellcheck disable=SC2086
refused "a rendition of another format" "Input formats differ: rendition 2 is yuv444p, reference is yuv420p" \
    $d1080 $d540 $d1080 $ref \
    -lavfi "[2:v]format=yuv444p[f];[0:v][1:v][f][3:v]vmafgpu=renditions=3:model=:feature=name=psnr:scale=bicubic"
# shellcheck disable=SC2086
refused "a rendition whose size changes mid-stream" \
    "Frame size changed: rendition 1 640x540, reference 1920x1080; configured: rendition 1 960x540, reference 1920x1080" \
    $d1080 $d540 $ref \
    -lavfi "[1:v]scale=w='if(lt(n\,3)\,960\,640)':h=540:eval=frame[s];[0:v][s][2:v]vmafgpu=renditions=2:model=:feature=name=psnr:scale=bicubic"

echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
