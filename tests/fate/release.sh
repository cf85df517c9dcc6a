#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Scoring runs of a minimal ffmpeg built from another FFmpeg release's
# patch series (VG_FFMPEG_MINIMAL=1 tools/build-ffmpeg.sh RELEASE): the
# corpus's 12-bit raw pair, as read (yuv420p12) and as p012 frames, must
# give its golden values exactly; the library's scaling equals this
# release's libswscale (tests/fate/scalecmp.c).
#
# Usage: tests/fate/release.sh FFMPEG
# Environment: VG_SHARED_DIR, JSONCMP, CC as for tests/fate/run.sh

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
ffmpeg=${1:-}
if [ -z "$ffmpeg" ] || [ ! -x "$ffmpeg" ]; then
    echo "release: no ffmpeg at '$ffmpeg'" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
fate_name=release
features="psnr motion vif adm"
models=vmaf_v0.6.1
# shellcheck source=tests/fate/lib.sh
. "$top/tests/fate/lib.sh"

gold=$shared/golden/hp/r352x288_420p12.json
raw="-f rawvideo -pix_fmt yuv420p12le -video_size 352x288 -framerate 30"
base=$shared/corpus/raw/r352x288_yuv420p12le
version=$("$ffmpeg" -hide_banner -version | head -n 1 | cut -d' ' -f1-3)
for chain in null format=p012; do
    # shellcheck disable=SC2086
    if ff $raw -i "${base}_dist.yuv" $raw -i "${base}_ref.yuv" \
           -lavfi "[0:v]$chain[d];[1:v]$chain[r];[d][r]vmafgpu=model=$model_opt:feature=$feature_opt:log_fmt=json:log_path=$w/log.json:precision=max" \
           -f null - > "$w/out" 2>&1 &&
       "$cmp" "$gold" "$w/log.json" $required > "$w/cmp" 2>&1; then
        pass "$version: r352x288_420p12 through $chain, $(tail -n 1 "$w/cmp")"
    else
        fail "$version: r352x288_420p12 through $chain differs from its golden or failed" \
            "$w/out" "$w/cmp"
    fi
done
# the same filter under libvmaf's name (this build has no libvmaf)
# shellcheck disable=SC2086
if ff $raw -i "${base}_dist.yuv" $raw -i "${base}_ref.yuv" \
       -lavfi "[0:v][1:v]libvmaf=model=$model_opt:feature=$feature_opt:log_fmt=json:log_path=$w/lv.json:precision=max" \
       -f null - > "$w/lv.out" 2>&1 &&
   "$ffmpeg" -hide_banner -filters 2>/dev/null | grep -q ' libvmaf_cuda  *VV->V' &&
   "$cmp" "$gold" "$w/lv.json" $required > "$w/lv.cmp" 2>&1; then
    pass "$version: r352x288_420p12 through the libvmaf name (libvmaf_cuda registered too), $(tail -n 1 "$w/lv.cmp")"
else
    fail "$version: the libvmaf name missing, or its scores differ" "$w/lv.out" "$w/lv.cmp"
fi
# the library's scaling (CUDA frames' scale option) against this release's
# libswscale, sample for sample
scalecmp_gen "$version: scaling as libswscale"
echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
