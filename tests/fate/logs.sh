#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The filter under libvmaf's name writes libvmaf's logs: for each command
# line of golden/logs/README.md (the p1080_crf32 pair, 60 frames, n_threads=2;
# variants default, features and models) and each log_fmt (json, xml, csv,
# sub), the patched ffmpeg's -lavfi libvmaf log equals libvmaf v3.2.0's
# (golden/logs/p1080_crf32.VARIANT.FMT) byte for byte, but for the two
# fields that cannot match: the version (ours names our library) and the
# measured fps, masked on both sides. The json runs also check the
# summary: their "VMAF score:" lines (without the "[Parsed_libvmaf_0 @
# 0x...]" prefix) equal golden/logs/p1080_crf32.VARIANT.summary.txt's.
# Prints one line per test and "N passed, N failed"; exits 1 if any test
# failed, 77 when the ffmpeg's libvmaf filter is libvmaf's own (a build
# with --enable-libvmaf) or the corpus is missing.
#
# Usage: tests/fate/logs.sh [FFMPEG]
# Environment:
#   FFMPEG         the patched ffmpeg (default: the argument, else
#                  $FFMPEG_BUILD_DIR/ffmpeg, else ./ffmpeg-n9.0.2/ffmpeg)
#   VG_SHARED_DIR  corpus and golden logs (default <repo>/../shared)
#   VG_FATE_WORK   work directory (default: a temporary one, removed)

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
corpus=$shared/corpus
logs=$shared/golden/logs
ffmpeg=${1:-${FFMPEG:-}}
[ -n "$ffmpeg" ] || ffmpeg=${FFMPEG_BUILD_DIR:-$PWD/ffmpeg-n9.0.2}/ffmpeg

if [ ! -x "$ffmpeg" ]; then
    echo "logs: no ffmpeg at $ffmpeg (build it with tools/build-ffmpeg.sh)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

fate_name=logs
fate_no_jsoncmp=1   # logs are compared as text
features=
models=
# shellcheck source=tests/fate/lib.sh
. "$top/tests/fate/lib.sh"

dis=$corpus/p1080_dist_crf32.mp4
ref=$corpus/p1080_ref.mp4
for f in "$dis" "$ref" "$logs/p1080_crf32.default.json"; do
    if [ ! -f "$f" ]; then
        echo "SKIP logs: no $f"
        exit 77
    fi
done
"$ffmpeg" -hide_banner -h filter=libvmaf > "$w/help.out" 2>&1
if ! grep -q "vmafgpu" "$w/help.out"; then
    echo "SKIP logs: this ffmpeg's libvmaf filter is not vmafgpu"
    exit 77
fi

# mask LOG: the version and the fps, in every format that has them
mask() {
    sed -E -e 's/^(  "version": )"[^"]*"/\1"X"/' -e 's/^(  "fps": )[^,]*/\1X/' \
        -e 's/^<VMAF version="[^"]*"/<VMAF version="X"/' \
        -e 's/^(  <fyi fps=)"[^"]*"/\1"X"/' "$1"
}

for variant in default features models; do
    case $variant in
    default)  opts= ;;
    features) opts=':feature=name=psnr|name=float_ssim|name=cambi' ;;
    models)   opts=':model=version=vmaf_v0.6.1\\:name=vmaf|version=vmaf_v0.6.1neg\\:name=vmaf_neg' ;;
    esac
    for fmt in json xml csv sub; do
        name=p1080_crf32.$variant.$fmt
        if ! ff -i "$dis" -i "$ref" -lavfi \
                "[0:v][1:v]libvmaf=n_threads=2:log_fmt=$fmt:log_path=$w/$name$opts" \
                -f null - > "$w/$name.out" 2>&1; then
            fail "$name: ffmpeg failed" "$w/$name.out"
            continue
        fi
        mask "$logs/$name" > "$w/$name.want"
        mask "$w/$name" > "$w/$name.got"
        if diff -u "$w/$name.want" "$w/$name.got" > "$w/$name.diff"; then
            pass "$name: libvmaf's log, byte for byte (version, fps masked)"
        else
            fail "$name: differs from libvmaf's" "$w/$name.diff"
        fi
        summary=$logs/p1080_crf32.$variant.summary.txt
        [ "$fmt" = json ] && [ -f "$summary" ] || continue
        grep -o 'VMAF score: .*' "$summary" > "$w/$variant.sum.want"
        grep -o 'VMAF score: .*' "$w/$name.out" > "$w/$variant.sum.got"
        if diff -u "$w/$variant.sum.want" "$w/$variant.sum.got" > "$w/$variant.sum.diff"; then
            pass "$variant: summary $(tr '\n' ' ' < "$w/$variant.sum.got")"
        else
            fail "$variant: summary differs from libvmaf's" "$w/$variant.sum.diff"
        fi
    done
done

echo "$n_pass passed, $n_fail failed"
[ "$n_fail" -eq 0 ]
