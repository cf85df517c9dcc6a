#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The per-frame charts in a real browser: `vmafgpu plot` draws the p1080
# pairs of the goldens (libvmaf's logs of p1080_crf32 and p1080_scaled
# against p1080_ref) on one chart, once with VMAF alone and once with VMAF,
# PSNR and SSIM, and headless Chromium
#  - parses each SVG (its DOM must hold the <svg> root and no parser error),
#  - renders it to a PNG of the chart's size (checked in the PNG header),
#    which must hold far more than a blank page of that size.
# Exits 77 (skipped) with a message when Chromium is not installed.
#
# Usage: tests/plot/render.sh [OUTDIR]    (default: a temporary directory,
#        removed at the end; with OUTDIR the SVG and PNG files stay there)
# Environment:
#   VMAFGPU        the tool (default: <repo>/build/lib/tools/vmafgpu)
#   VG_SHARED_DIR  goldens (default <repo>/../shared)
#   CHROMIUM       the browser (default: chromium, chromium-browser or
#                  google-chrome from PATH)

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
golden=$shared/golden
vmafgpu=${VMAFGPU:-$top/build/lib/tools/vmafgpu}
passed=0
failed=0

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
    for b in chromium chromium-browser google-chrome; do
        if command -v "$b" >/dev/null 2>&1; then
            browser=$b
            break
        fi
    done
fi
if [ -z "$browser" ]; then
    echo "render: SKIP: no Chromium found (apt-get install chromium, or set CHROMIUM)"
    exit 77
fi
[ -x "$vmafgpu" ] || { echo "render: FAIL: no vmafgpu at $vmafgpu (set VMAFGPU)"; exit 1; }

if [ -n "${1:-}" ]; then
    out=$1
    mkdir -p "$out" || exit 1
    out=$(cd "$out" && pwd)
    keep=1
else
    out=$(mktemp -d "${TMPDIR:-/tmp}/vg-render.XXXXXX") || exit 1
    keep=0
fi
# Chromium wants a writable home and profile; keep it out of the user's
profile=$(mktemp -d "${TMPDIR:-/tmp}/vg-chromium.XXXXXX") || exit 1
cleanup() {
    rm -rf "$profile"
    [ "$keep" = 1 ] || rm -rf "$out"
}
trap cleanup EXIT INT TERM

pass() {
    echo "PASS $*"
    passed=$((passed + 1))
}
fail() {
    echo "FAIL $*"
    failed=$((failed + 1))
}

# browser ARGS...: headless Chromium, quiet, bounded in time
browser() {
    HOME=$profile timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
        --no-first-run --disable-extensions --user-data-dir="$profile/data" \
        --hide-scrollbars "$@" 2>"$out/browser.log"
}

# big-endian 32-bit number at byte offset $2 of file $1
be32() {
    od -A n -t u1 -j "$2" -N 4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'
}

# render NAME: $out/NAME.svg -> $out/NAME.png, checked
render() {
    svg=$out/$1.svg
    png=$out/$1.png
    w=$(sed -n 's/^<svg [^>]*width="\([0-9]*\)".*/\1/p' "$svg" | head -n 1)
    h=$(sed -n 's/^<svg [^>]*height="\([0-9]*\)".*/\1/p' "$svg" | head -n 1)
    if [ -z "$w" ] || [ -z "$h" ]; then
        fail "$1: no size on the <svg> element"
        return
    fi

    browser --dump-dom "file://$svg" > "$out/$1.dom"
    if [ ! -s "$out/$1.dom" ]; then
        # nothing at all (a first start on a loaded machine can die before
        # it prints): once more, with what it said
        echo "render: $1: no DOM from Chromium, again ($(tail -n 2 "$out/browser.log" | tr '\n' ' '))"
        browser --dump-dom "file://$svg" > "$out/$1.dom"
    fi
    if grep -q parsererror "$out/$1.dom" || ! grep -q '<svg' "$out/$1.dom"; then
        fail "$1: Chromium did not parse the SVG: $(head -c 300 "$out/$1.dom")"
        return
    fi

    rm -f "$png"
    browser --window-size="$w,$h" --screenshot="$png" "file://$svg" > /dev/null
    if [ ! -s "$png" ] || [ "$(od -A n -t x1 -N 8 "$png" | tr -d ' ')" != 89504e470d0a1a0a ]; then
        fail "$1: no PNG screenshot ($(tail -n 3 "$out/browser.log"))"
        return
    fi
    pw=$(be32 "$png" 16)
    ph=$(be32 "$png" 20)
    if [ "$pw" != "$w" ] || [ "$ph" != "$h" ]; then
        fail "$1: screenshot is ${pw}x$ph, the chart ${w}x$h"
        return
    fi

    # a blank page of the same size, for comparison
    printf '<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s"><rect width="100%%" height="100%%" fill="#fff"/></svg>\n' \
        "$w" "$h" > "$out/blank.svg"
    browser --window-size="$w,$h" --screenshot="$out/blank.png" "file://$out/blank.svg" > /dev/null
    size=$(wc -c < "$png")
    blank=$(wc -c < "$out/blank.png" 2>/dev/null || echo 0)
    if [ "$blank" -le 0 ] || [ "$size" -lt $((blank * 4)) ]; then
        fail "$1: the screenshot ($size bytes) is hardly more than a blank page ($blank bytes)"
        return
    fi
    pass "$1: ${w}x$h, $size bytes of PNG (blank page: $blank)"
}

crf32=$golden/p1080_crf32.json
scaled=$golden/p1080_scaled.json
for f in "$crf32" "$scaled"; do
    [ -f "$f" ] || { echo "render: FAIL: $f missing (set VG_SHARED_DIR)"; exit 1; }
done

if "$vmafgpu" plot "$crf32" "$scaled" --fps 30 -o "$out/p1080.svg" \
        --title "p1080: x264 crf 32 vs 540p upscaled, against p1080_ref"; then
    render p1080
else
    fail "p1080: vmafgpu plot failed"
fi
if "$vmafgpu" plot "$crf32" "$scaled" --fps 30 -o "$out/p1080-metrics.svg" \
        --metrics vmaf,psnr_y,float_ssim; then
    render p1080-metrics
else
    fail "p1080-metrics: vmafgpu plot failed"
fi

[ "$keep" = 1 ] && echo "render: charts and screenshots in $out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
