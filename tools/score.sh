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
#   Prints the summary on stdout ("VMAF score: X", one line per model),
#   ffmpeg's messages on stderr, and writes the per-frame log (log_fmt=json)
#   to $VG_SCORE_DIR/DISTORTED.json (default <build>/scores), saying where.

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

outdir=${VG_SCORE_DIR:-$build/scores}
mkdir -p "$outdir"
log=$outdir/$(basename "${dis%.*}").json
opts="log_fmt=json:log_path=$log${extra:+:$extra}"
if [ $have_gpu = yes ]; then
    echo "score: NVDEC decode, CUDA scoring" >&2
    set -- -hwaccel cuda -hwaccel_output_format cuda -i "$dis" \
           -hwaccel cuda -hwaccel_output_format cuda -i "$ref" \
           -lavfi "[0:v][1:v]vmafgpu=backend=cuda:$opts"
else
    echo "score: no CUDA driver found; software decode, CPU scoring" >&2
    set -- -i "$dis" -i "$ref" -lavfi "[0:v][1:v]vmafgpu=backend=cpu:$opts"
fi
err=$(mktemp "${TMPDIR:-/tmp}/vg-score.XXXXXX")
trap 'rm -f "$err"' EXIT
st=0
"$ffmpeg" -nostdin -hide_banner -nostats "$@" -f null - 2> "$err" || st=$?
grep -v 'VMAF score:' "$err" >&2 || true
[ $st -eq 0 ] || exit $st
grep -o 'VMAF score: .*' "$err" || true
echo "score: per-frame log in $log" >&2
