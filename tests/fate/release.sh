#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# One scoring run of an ffmpeg built from another FFmpeg release's patch
# series (tools/build-ffmpeg.sh RELEASE): the corpus's p1080_crf32 pair
# (H.264 in MP4) must give its golden values exactly.
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

gold=$shared/golden/hp/p1080_crf32.json
if ff -i "$shared/corpus/p1080_dist_crf32.mp4" -i "$shared/corpus/p1080_ref.mp4" \
       -lavfi "[0:v][1:v]vmafgpu=model=$model_opt:feature=$feature_opt:log_fmt=json:log_path=$w/log.json:precision=max" \
       -f null - > "$w/out" 2>&1 &&
   "$cmp" "$gold" "$w/log.json" $required > "$w/cmp" 2>&1; then
    pass "$("$ffmpeg" -hide_banner -version | head -n 1): p1080_crf32 $(tail -n 1 "$w/cmp")"
else
    fail "$ffmpeg: p1080_crf32 differs from its golden or failed" "$w/out" "$w/cmp"
fi
echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
