#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The main job: set everything up (tools/setup.sh), then score a clip pair
# with `ffmpeg -lavfi vmafgpu`: decoded by NVDEC and scored on the GPU when
# a CUDA driver is present, else decoded and scored on the CPU.
#
# Usage: tools/score.sh [DISTORTED REFERENCE [extra vmafgpu options]]
#   Defaults to the corpus pair p1080_dist_crf32.mp4 / p1080_ref.mp4.
#   Prints the per-model "VMAF score" and writes vmafgpu.json (log_fmt=json)
#   in the current directory.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${VG_BUILD_DIR:-$top/build}
shared=${VG_SHARED_DIR:-$top/../shared}
dis=${1:-$shared/corpus/p1080_dist_crf32.mp4}
ref=${2:-$shared/corpus/p1080_ref.mp4}
[ $# -ge 2 ] && shift 2 || shift $#
extra=${1:-}

VG_BUILD_DIR="$build" "$top/tools/setup.sh" >&2
ffmpeg="$build/ffmpeg/ffmpeg"

have_gpu=no
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1' ||
   [ -e /usr/lib/x86_64-linux-gnu/libcuda.so.1 ] ||
   [ -e /usr/local/nvidia/lib64/libcuda.so.1 ]; then
    have_gpu=yes
fi

opts="log_fmt=json:log_path=vmafgpu.json${extra:+:$extra}"
if [ $have_gpu = yes ]; then
    echo "score: NVDEC decode, CUDA scoring" >&2
    set -- -hwaccel cuda -hwaccel_output_format cuda -i "$dis" \
           -hwaccel cuda -hwaccel_output_format cuda -i "$ref" \
           -lavfi "[0:v][1:v]vmafgpu=backend=cuda:$opts"
else
    echo "score: no CUDA driver found; software decode, CPU scoring" >&2
    set -- -i "$dis" -i "$ref" -lavfi "[0:v][1:v]vmafgpu=backend=cpu:$opts"
fi
exec "$ffmpeg" -nostdin -hide_banner -nostats "$@" -f null -
