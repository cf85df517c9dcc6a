#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The vmafgpu filter on every CUDA frame format NVDEC gives, on an NVIDIA
# GPU: for each clip pair of tests/fate/nvdec-clips.sh (HEVC 4:4:4 8/10/12
# bits, HEVC Main 12, AV1 8/10 bits, VP9 8/10/12 bits, in mkv, mp4, webm
# and ivf),
#  (a) both files decoded with NVDEC into CUDA frames of one device,
#      scored by the CUDA backend in place (backend=cuda);
#  (b) both decoded in software, scored with backend=cpu;
#  (c) the two per-frame JSON logs are equal on every frame and every
#      pooled value of every key, each key of the CPU log required in the
#      CUDA log too (tests/fate/jsoncmp); vmaf_v0.6.1's features, vmaf,
#      psnr and float_ssim must be there;
# and the filter's verbose output shows that the CUDA frames had the
# expected sw_format (not a software fallback of the decoder: those are
# software frames), came from one context (no reference copy), and that
# every feature ran on the GPU (no host copy of the frames). The software
# frames must have the expected pixel format too.
# Prints one PASS or FAIL line per format and "nvdec-formats: N passed,
# N failed"; exit status 1 on any failure, 77 without a usable GPU unless
# VG_REQUIRE_GPU=1 (then a failure).
#
# Usage: tests/fate/nvdec-formats.sh [--cpu-only] [FFMPEG]
#   --cpu-only  only (b), with the software pixel format checked: the
#               clips decode and score without a GPU
# Environment:
#   FFMPEG          the patched ffmpeg (default: the argument, else
#                   ./ffmpeg-n9.0.2/ffmpeg)
#   VG_NVDEC_CLIPS  the clips (default <repo>/.devcarry-nvdec/clips)
#   VG_NVDEC_PAIRS  the formats to run (default: all of the table below)
#   VG_N_THREADS    host threads of the CPU runs (default: nproc)
#   JSONCMP         a built tests/fate/jsoncmp (default: built here with cc)
#   VG_FATE_WORK    work directory (default: a temporary one, removed)

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
cpu_only=0
if [ "${1:-}" = --cpu-only ]; then
    cpu_only=1
    shift
fi
ffmpeg=${1:-${FFMPEG:-$PWD/ffmpeg-n9.0.2/ffmpeg}}
clips=${VG_NVDEC_CLIPS:-$top/.devcarry-nvdec/clips}
nthr=${VG_N_THREADS:-$(nproc)}
features=psnr
models=vmaf_v0.6.1

fate_name=nvdec-formats
# shellcheck source=tests/fate/lib.sh
. "$top/tests/fate/lib.sh"
feature_opt="$feature_opt|name=float_ssim"
required="$required float_ssim integer_motion2 integer_vif_scale0
    integer_vif_scale1 integer_vif_scale2 integer_vif_scale3 integer_adm2"

# name  distorted  reference  size  CUDA sw_format  software pix_fmt  decoder
table='
hevc444p8  hevc444p8_dis.mkv  hevc444p8_ref.mkv  640x360 yuv444p        yuv444p     -
hevc444p10 hevc444p10_dis.mp4 hevc444p10_ref.mp4 640x360 yuv444p10msble yuv444p10le -
hevc444p12 hevc444p12_dis.mkv hevc444p12_ref.mkv 352x288 yuv444p12msble yuv444p12le -
hevc420p12 hevc420p12_dis.mp4 hevc420p12_ref.mp4 352x288 p012le         yuv420p12le -
av1p8      av1p8_dis.webm     av1p8_ref.webm     640x360 nv12           yuv420p     av1
av1p10     av1p10_dis.ivf     av1p10_ref.ivf     640x360 p010le         yuv420p10le av1
vp9p8      vp9p8_dis.webm     vp9p8_ref.webm     577x323 nv12           yuv420p     -
vp9p10     vp9p10_dis.ivf     vp9p10_ref.ivf     640x360 p010le         yuv420p10le -
vp9p12     vp9p12_dis.webm    vp9p12_ref.webm    352x288 p012le         yuv420p12le -
'
frames=10
n_skip=0
pairs=${VG_NVDEC_PAIRS:-$(echo "$table" | awk 'NF { print $1 }')}

# ---- a usable GPU? ------------------------------------------------------------
[ $cpu_only = 1 ] || require_gpu

opts() { # LOG BACKEND
    echo "backend=$2:model=$model_opt:feature=$feature_opt:log_fmt=json:log_path=$1:precision=max:n_threads=$nthr"
}

# decoder lines of an ffmpeg output, for a failure's report
decoder_lines() {
    grep -E "hwaccel|nvdec|cuvid|CUDA|Stream #[0-9]+:[0-9]+.*: Video:|frames [0-9]+x[0-9]+|[Ee]rror[: ]|[Ff]ailed|[Uu]nsupported" "$1" |
        grep -v " 0 decode errors" > "$1.dec"
    echo "$1.dec"
}

# frames_in LOG: the frames of a JSON log
frames_in() {
    grep -c '"frameNum"' "$1" 2>/dev/null
}

# keys_of LOG: the metric names of a JSON log's first frame
keys_of() {
    awk '/"metrics"/ { m = 1; next } m && /}/ { exit }
         m { gsub(/[":,]/, " "); print $1 }' "$1"
}

hw="-init_hw_device cuda=gpu -filter_hw_device gpu"
dec="-hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda"

# $required, $hw, $dec, $codec and the keys are word lists
# shellcheck disable=SC2086,SC2046
for p in $pairs; do
    # shellcheck disable=SC2046
    set -- $(echo "$table" | awk -v p="$p" '$1 == p')
    if [ $# != 7 ]; then
        fail "$p: not in the table"
        continue
    fi
    dis=$clips/$2 ref=$clips/$3 size=$4 cuda_fmt=$5 sw_fmt=$6
    codec=
    [ "$7" = - ] || codec="-c:v $7"
    if [ ! -f "$dis" ] || [ ! -f "$ref" ]; then
        fail "$p: $dis or $ref missing (tests/fate/nvdec-clips.sh makes them)"
        continue
    fi

    # (b) software decoding, CPU backend
    cpu=$w/$p.cpu
    if ! ff -v verbose -i "$dis" -i "$ref" \
            -lavfi "[0:v][1:v]vmafgpu=$(opts "$cpu.json" cpu)" -f null - > "$cpu.out" 2>&1; then
        fail "$p: software decoding + backend=cpu failed" "$cpu.out"
        continue
    fi
    if ! grep -q "Software frames $size $sw_fmt," "$cpu.out"; then
        fail "$p: software frames are not $size $sw_fmt" "$(decoder_lines "$cpu.out")"
        continue
    fi
    if [ "$(frames_in "$cpu.json")" != $frames ]; then
        fail "$p: $(frames_in "$cpu.json") frames scored on the CPU, not $frames" "$cpu.out"
        continue
    fi
    if [ $cpu_only = 1 ]; then
        # the log has every required key on every frame
        if "$cmp" "$cpu.json" "$cpu.json" $required > "$cpu.cmp" 2>&1; then
            pass "$p: software $sw_fmt $size, backend=cpu, $frames frames, $(grep -o 'VMAF score: [0-9.]*' "$cpu.out" | head -n 1)"
        else
            fail "$p: keys missing from the CPU log" "$cpu.cmp"
        fi
        continue
    fi

    # (a) NVDEC into CUDA frames, CUDA backend. NVDEC pads VP9 and AV1
    # frames of odd sizes to even ones: crop=W:H:0:0 gives the stream's
    # size back (crop fields of the CUDA frames, read in place)
    gpu=$w/$p.gpu
    crops=''
    ins="[0:v][1:v]"
    case $size in
    *[13579]x*|*[13579])
        c="crop=${size%x*}:${size#*x}:0:0:exact=1"
        crops="[0:v]${c}[d];[1:v]${c}[r];"
        ins="[d][r]"
        ;;
    esac
    if ! ff -v verbose $hw $dec $codec -i "$dis" $dec $codec -i "$ref" \
            -lavfi "$crops${ins}vmafgpu=$(opts "$gpu.json" cuda)" -f null - > "$gpu.out" 2>&1; then
        if grep -q "doesn't support hardware accelerated" "$gpu.out"; then
            n_skip=$((n_skip + 1))
            echo "SKIP $p: $(grep -o -m 1 "Your platform doesn't support hardware accelerated [A-Za-z0-9]* decoding" "$gpu.out")"
            continue
        fi
        fail "$p: NVDEC + backend=cuda failed" "$gpu.out"
        continue
    fi
    got=$(grep -o -m 1 "[A-Za-z]* frames [0-9]*x[0-9]* [a-z0-9]*" "$gpu.out")
    if [ -n "$crops" ]; then
        # the link keeps the padded size; the crop rectangle sets what is scored
        if grep -q "Scoring the CUDA frames cropped to $size" "$gpu.out"; then
            got="CUDA frames $size ${got##* }"
        else
            got="$got, not cropped to $size"
        fi
    fi
    if [ "$got" != "CUDA frames $size $cuda_fmt" ]; then
        fail "$p: NVDEC gave '${got:-nothing}', not CUDA frames $size $cuda_fmt" \
            "$(decoder_lines "$gpu.out")"
    elif grep -q "CUDA inputs come from two contexts" "$gpu.out"; then
        fail "$p: the inputs came from two CUDA contexts (reference copied)" "$gpu.out"
    elif ! grep -q "cuda engine: .* feature(s) on the GPU, 0 on 0 host thread(s)" "$gpu.out" ||
         grep -q "no CUDA implementation" "$gpu.out"; then
        fail "$p: not every feature ran on the GPU (frames copied to the host)" "$gpu.out"
    elif "$cmp" "$cpu.json" "$gpu.json" $required $(keys_of "$cpu.json") > "$gpu.cmp" 2>&1; then
        pass "$p: NVDEC $cuda_fmt $size (cuda) = software $sw_fmt (cpu), $frames frames: $(tail -n 1 "$gpu.cmp")"
    elif [ -n "$crops" ]; then
        # NVDEC decodes odd-sized VP9 at the padded size, and its chroma
        # there is not the software decoder's: the same NVDEC frames,
        # downloaded and cropped, scored on the CPU are the reference
        dl=$w/$p.dl
        sc="hwdownload,format=$cuda_fmt,$c"
        if ! ff -v verbose $hw $dec $codec -i "$dis" $dec $codec -i "$ref" \
                -lavfi "[0:v]${sc}[d];[1:v]${sc}[r];[d][r]vmafgpu=$(opts "$dl.json" cpu)" \
                -f null - > "$dl.out" 2>&1; then
            fail "$p: NVDEC + hwdownload + backend=cpu failed" "$dl.out"
        elif "$cmp" "$dl.json" "$gpu.json" $required $(keys_of "$dl.json") > "$dl.cmp" 2>&1; then
            pass "$p: NVDEC $cuda_fmt cropped to $size (cuda) = the same frames downloaded (cpu), $frames frames: $(tail -n 1 "$dl.cmp"); software decoding differs: $(grep -c ' frame ' "$gpu.cmp") values"
        else
            fail "$p: NVDEC $cuda_fmt (cuda) differs from its frames downloaded (cpu)" "$dl.cmp"
        fi
    else
        fail "$p: NVDEC $cuda_fmt (cuda) differs from software $sw_fmt (cpu)" "$gpu.cmp"
    fi
done

# a cropping rectangle that starts between two chroma samples of the NVDEC
# frames is refused, not read off the chroma grid
if [ $cpu_only = 0 ] && [ -f "$clips/vp9p8_dis.webm" ]; then
    p=crop-odd-offset
    # shellcheck disable=SC2086
    if ff -v verbose $hw $dec -i "$clips/vp9p8_dis.webm" $dec -i "$clips/vp9p8_ref.webm" \
            -lavfi "[0:v]crop=575:321:1:1:exact=1[d];[1:v]crop=575:321:1:1:exact=1[r];[d][r]vmafgpu=backend=cuda" \
            -f null - > "$w/$p.out" 2>&1; then
        fail "$p: scored" "$w/$p.out"
    elif grep -q "starts between two chroma samples" "$w/$p.out"; then
        pass "$p: crop=575:321:1:1 on nv12 CUDA frames refused with a message"
    else
        fail "$p: failed without the message" "$w/$p.out"
    fi
fi

echo "$fate_name: $n_pass passed, $n_fail failed, $n_skip skipped (not decodable by this GPU's NVDEC)"
[ "$n_fail" = 0 ]
