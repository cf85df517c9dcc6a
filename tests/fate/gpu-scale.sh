#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The filter's scale option on CUDA frames, on an NVIDIA GPU: lower-
# resolution renditions decoded by NVDEC and scaled on the GPU by the
# library against their NVDEC-decoded reference.
#  - frames: the GPU's scaled frames equal libswscale's (the same NVDEC
#    frames downloaded and scaled by the scale filter with
#    flags=ALG+accurate_rnd+bitexact, uploaded as the reference): psnr's
#    mse_y, mse_cb and mse_cr are 0 on every frame;
#  - scores: every value (vmaf_v0.6.1's features, vmaf, psnr) equals
#    software decoding scored on the CPU with the same scale option
#    (libswscale in the filter);
#  - equal-sized CUDA inputs whose crop rectangles differ are scaled from
#    the distorted rectangle;
#  - fast_bilinear and 16-bit CUDA frames are refused with a message;
#  - an ABR ladder on NVDEC frames (renditions=1, 2 and 5: the 1080p crf 32
#    encode, the 540p rendition, the corpus's other 1080p encode, the 540p
#    and crf 32 ones again): each rendition's log equals, byte for byte but
#    for the fps, the log of a pair run of that rendition alone on the GPU,
#    the 540p renditions scaled by the library.
# Renditions: the corpus's p1080_dist_540p_crf28 (960x540 H.264) and the
# clips of tests/fate/scale-clips.sh (1280x720 and 640x360 H.264, 640x360
# HEVC Main 10 against the 10-bit 720p reference).
# Prints one line per test and "N passed, N failed"; exits 77 without a
# usable GPU unless VG_REQUIRE_GPU=1.
#
# Usage: tests/fate/gpu-scale.sh [FFMPEG]
# Environment:
#   FFMPEG, VG_SHARED_DIR, JSONCMP as in tests/fate/gpu.sh
#   VG_CORPUS_DIR     the corpus (default $VG_SHARED_DIR/corpus)
#   VG_SCALE_CLIPS    the clips of tests/fate/scale-clips.sh (required)
#   VG_FATE_WORK      work directory (default: a temporary one, removed)

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
corpus=${VG_CORPUS_DIR:-$shared/corpus}
clips=${VG_SCALE_CLIPS:-}
ffmpeg=${1:-${FFMPEG:-}}
features="psnr motion vif adm"
models=vmaf_v0.6.1

fate_name=fate-gpu-scale
# shellcheck source=tests/fate/lib.sh
. "$top/tests/fate/lib.sh"
hw="-init_hw_device cuda=gpu -filter_hw_device gpu"
dec="-hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda"

require_gpu
[ -n "$clips" ] && [ -f "$clips/r720.mkv" ] || {
    fail "no renditions: set VG_SCALE_CLIPS (tests/fate/scale-clips.sh)"
    echo "$fate_name: $n_pass passed, $n_fail failed"
    exit 1
}

# frames NAME ALG DIS FMT W H: the GPU's scaled frames against libswscale's
# scaling of the same NVDEC frames, by their squared error
frames() {
    name=$1 alg=$2 dis=$3 fmt=$4 sw=$5 sh=$6
    # shellcheck disable=SC2086
    if ff -v verbose $hw $dec -i "$dis" -lavfi \
            "[0:v]split[a][b];[b]hwdownload,format=$fmt,scale=$sw:$sh:flags=$alg+accurate_rnd+bitexact,hwupload[s];[a][s]vmafgpu=model=:feature='name=psnr\\:enable_mse=1':scale=$alg:backend=cuda:log_fmt=json:log_path=$w/fr.json:precision=max" \
            -f null - > "$w/fr.out" 2>&1; then
        n=$(grep -c '"frameNum"' "$w/fr.json")
        zero=$(grep -Ec '"mse_(y|cb|cr)": 0,?$' "$w/fr.json")
        all=$(grep -Ec '"mse_(y|cb|cr)": [^{]' "$w/fr.json")
        if ! grep -q "Scaling the distorted (main) CUDA frames from .* on the GPU" "$w/fr.out"; then
            fail "frames $name: the GPU did not scale" "$w/fr.out"
        elif [ "$n" -gt 0 ] && [ "$zero" = $((3 * n)) ] && [ "$all" = "$zero" ]; then
            pass "frames $name: $n frames scaled on the GPU equal libswscale's (mse 0 in every plane)"
        else
            fail "frames $name: $zero of $all plane errors are 0 ($n frames)" "$w/fr.json"
        fi
    else
        fail "frames $name: ffmpeg failed" "$w/fr.out"
    fi
}

# scores NAME ALG DIS REF [CHAIN [NOTICE]]: NVDEC + GPU scaling against
# software decoding + the filter's libswscale scaling on the CPU, every
# value; CHAIN (default null) filters the distorted input first on both
# sides, NOTICE must also be in the GPU run's verbose output
scores() {
    name=$1 alg=$2 dis=$3 ref=$4 chain=${5:-null}
    notice=${6:-"cuda engine: distorted pictures scaled from"}
    o="model=version=vmaf_v0.6.1:feature=$feature_opt:scale=$alg:log_fmt=json:precision=max"
    # shellcheck disable=SC2086
    if ff -v verbose $hw $dec -i "$dis" $dec -i "$ref" \
            -lavfi "[0:v]$chain[d];[d][1:v]vmafgpu=$o:backend=cuda:log_path=$w/sc-gpu.json" \
            -f null - > "$w/sc-gpu.out" 2>&1 &&
       ff -i "$dis" -i "$ref" \
            -lavfi "[0:v]$chain[d];[d][1:v]vmafgpu=$o:backend=cpu:n_threads=$(nproc):log_path=$w/sc-cpu.json" \
            -f null - > "$w/sc-cpu.out" 2>&1 &&
       grep -q "cuda engine: distorted pictures scaled from" "$w/sc-gpu.out" &&
       grep -q "$notice" "$w/sc-gpu.out" &&
       "$cmp" "$w/sc-cpu.json" "$w/sc-gpu.json" $required > "$w/sc.cmp" 2>&1; then
        pass "scores $name: NVDEC + GPU scaling = software + libswscale on the CPU, $(tail -n 1 "$w/sc.cmp")"
    else
        fail "scores $name: differs or failed" "$w/sc-gpu.out" "$w/sc-cpu.out" "$w/sc.cmp"
    fi
}

r1080=$corpus/p1080_ref.mp4
r720p10=$corpus/p720_10_ref.mp4
d540=$corpus/p1080_dist_540p_crf28.mp4
for alg in bicubic lanczos bilinear spline neighbor area gauss sinc bicublin; do
    frames "540p -> 1080p $alg" $alg "$d540" nv12 1920 1080
done
for alg in bicubic lanczos bilinear; do
    scores "540p -> 1080p $alg" $alg "$d540" "$r1080"
done
for alg in bicubic lanczos; do
    frames "720p -> 1080p $alg" $alg "$clips/r720.mkv" nv12 1920 1080
    scores "720p -> 1080p $alg" $alg "$clips/r720.mkv" "$r1080"
    frames "360p -> 1080p $alg" $alg "$clips/r360.mkv" nv12 1920 1080
    scores "360p -> 1080p $alg" $alg "$clips/r360.mkv" "$r1080"
    frames "360p 10-bit -> 720p $alg (p010)" $alg "$clips/r360p10.mkv" p010le 1280 720
    scores "360p 10-bit -> 720p $alg (p010)" $alg "$clips/r360p10.mkv" "$r720p10"
done

# equal link sizes, a crop rectangle on the distorted CUDA frames: scaled
# from the rectangle, as a software crop and libswscale on the CPU
scores "crop 1916x1076 of 1080p -> 1080p bicubic" bicubic \
    "$corpus/p1080_dist_crf32.mp4" "$r1080" crop=1916:1076:0:0:exact=1 \
    "the distorted ones scaled on the GPU from their own crop"

# an ABR ladder on NVDEC frames: each rendition's log = its pair run's
lframes=20
# every input cut to its first frames, read to its end: no run depends on
# where ffmpeg stops an output
trim=trim=end_frame=$lframes
lopts="model=version=vmaf_v0.6.1:feature=$feature_opt:scale=bicubic:backend=cuda:n_threads=$(nproc):log_fmt=json:precision=max"
# ladder_clip R: rendition R's clip
# (MP4s: a pair run of a Matroska clip pairs its millisecond timestamps
# with the reference frame before, a ladder with rendition 0's frame)
ladder_clip() {
    case $1 in
    0|4) echo "$corpus/p1080_dist_crf32.mp4" ;;
    1|3) echo "$d540" ;;
    2) echo "$corpus/p1080_dist_scaled.mp4" ;;
    esac
}
for r in 0 1 2 3 4; do
    # shellcheck disable=SC2086
    if ! ff -v verbose $hw $dec -i "$(ladder_clip $r)" $dec -i "$r1080" \
            -lavfi "[0:v]$trim[d];[1:v]$trim[r];[d][r]vmafgpu=$lopts:log_path=$w/lp$r.json" \
            -f null - > "$w/lp$r.out" 2>&1 || ! grep -q "cuda engine" "$w/lp$r.out"; then
        fail "ladder: the pair run of rendition $r failed or ran on the CPU" "$w/lp$r.out"
    fi
done
for n in 1 2 5; do
    ins='' graph='' pads=''
    r=0
    while [ $r -lt $n ]; do
        ins="$ins $dec -i $(ladder_clip $r)"
        graph="${graph}[$r:v]$trim[d$r];"
        pads="${pads}[d$r]"
        r=$((r + 1))
    done
    # shellcheck disable=SC2086
    if ! ff -v verbose $hw $ins $dec -i "$r1080" \
            -lavfi "$graph[$n:v]$trim[r];${pads}[r]vmafgpu=renditions=$n:$lopts:log_path=$w/ln$n-%d.json" \
            -f null - > "$w/ln$n.out" 2>&1; then
        fail "ladder of $n on NVDEC frames: ffmpeg failed" "$w/ln$n.out"
        continue
    fi
    if ! grep -q "CUDA frames 1920x1080 nv12" "$w/ln$n.out" ||
       { [ $n -gt 1 ] && ! grep -q "rendition 1: cuda engine: distorted pictures scaled from 960x540" "$w/ln$n.out"; }; then
        fail "ladder of $n on NVDEC frames: not CUDA frames, or the 540p rendition not scaled on the GPU" "$w/ln$n.out"
        continue
    fi
    r=0 same=0
    while [ $r -lt $n ]; do
        if [ $n = 1 ]; then log=$w/ln1-%d.json; else log=$w/ln$n-$r.json; fi
        if [ -f "$log" ] && grep -v '^  "fps": ' "$log" > "$w/ln.got" &&
           grep -v '^  "fps": ' "$w/lp$r.json" > "$w/ln.want" &&
           diff -u "$w/ln.want" "$w/ln.got" > "$w/ln$n-$r.diff"; then
            same=$((same + 1))
        else
            fail "ladder of $n on NVDEC frames: rendition $r's log differs from its pair run's" "$w/ln$n-$r.diff"
        fi
        r=$((r + 1))
    done
    [ $same = $n ] && pass "ladder of $n on NVDEC frames: each rendition's log = its pair run's on the GPU, byte for byte (fps aside), $lframes frames"
done

# refusals
# shellcheck disable=SC2086
run_refused "fast_bilinear on CUDA frames" fb \
    "libswscale's fast_bilinear is its own arithmetic, not done on CUDA frames: use scale=bilinear" \
    $hw $dec -i "$d540" $dec -i "$r1080" -lavfi "[0:v][1:v]vmafgpu=scale=fast_bilinear" -f null -
# shellcheck disable=SC2086
run_refused "16-bit CUDA frames with scale" 16 "the GPU scales 8- to 14-bit formats" \
    $hw -i "$d540" -i "$r1080" \
    -lavfi "[0:v]format=p016le,hwupload[d];[1:v]format=p016le,hwupload[r];[d][r]vmafgpu=scale=bicubic" -f null -

echo "$fate_name: $n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
