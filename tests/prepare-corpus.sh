#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Decode the encoded test corpus ($VG_SHARED_DIR/corpus/*.mp4) to raw planar
# .yuv files in $VG_CORPUS_RAW, the way the goldens were made
# ($VG_SHARED_DIR/golden/commands.log: `-f rawvideo -pix_fmt yuv420p` or
# `yuv420p10le`, FFmpeg's rawvideo layout with ceil-sized chroma).
#
# Environment:
#   VG_SHARED_DIR  corpus + goldens (default: <srcdir>/../shared)
#   VG_CORPUS_RAW  output directory (default: <builddir>/tests/corpus-raw,
#                  where <builddir> is $VG_TOP_BUILDDIR or the current directory)
#   FFMPEG         ffmpeg binary (default: ffmpeg in PATH)
#
# A file that already exists with the size that corpus/MANIFEST.md implies
# (width x height x frames, pix_fmt) is kept. Every file is written to a
# temporary name in the output directory and renamed when complete, so
# concurrent runs and interrupted runs never leave a truncated .yuv behind.

set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
shared=${VG_SHARED_DIR:-$srcdir/../shared}
builddir=${VG_TOP_BUILDDIR:-$(pwd)}
out=${VG_CORPUS_RAW:-$builddir/tests/corpus-raw}
ffmpeg=${FFMPEG:-ffmpeg}

manifest=$shared/corpus/MANIFEST.md
cmdlog=$shared/golden/commands.log

die() {
    echo "prepare-corpus: $*" >&2
    exit 1
}

test -f "$manifest" || die "no $manifest (set VG_SHARED_DIR)"
command -v "$ffmpeg" >/dev/null 2>&1 || die "ffmpeg not found (set FFMPEG)"
mkdir -p "$out" || die "cannot create $out"

# Pixel format used by the golden run for an encoded file: the decode line
# of golden/commands.log, else the pix_fmt column of the manifest.
golden_pix_fmt() {
    f=
    if test -f "$cmdlog"; then
        f=$(sed -n "s|.*-i corpus/$1 -f rawvideo -pix_fmt \([a-z0-9]*\) .*|\1|p" \
            "$cmdlog" | head -n 1)
    fi
    if test -z "$f"; then
        f=$(awk -F'|' -v n="\`$1\`" '{ gsub(/ /, "", $2) } $2 == n {
                gsub(/ /, "", $4); print $4; exit }' "$manifest")
    fi
    echo "$f"
}

# Expected raw size: luma + 2 ceil-sized chroma planes, x2 above 8 bits.
expected_size() {
    awk -F'|' -v n="\`$1\`" -v fmt="$2" '{ gsub(/ /, "", $2) } $2 == n {
        gsub(/ /, "", $3); gsub(/ /, "", $5)
        split($3, wh, "x"); w = wh[1]; h = wh[2]; frames = $5
        if (fmt ~ /^yuv420p/)      { cw = int((w + 1) / 2); ch = int((h + 1) / 2) }
        else if (fmt ~ /^yuv422p/) { cw = int((w + 1) / 2); ch = h }
        else                       { cw = w; ch = h }
        bps = (fmt ~ /(9|10|12|14|16)le$/) ? 2 : 1
        printf "%.0f\n", (w * h + 2 * cw * ch) * bps * frames; exit }' "$manifest"
}

file_size() {
    wc -c < "$1" | tr -d ' '
}

status=0
for src in "$shared"/corpus/*.mp4; do
    test -f "$src" || die "no .mp4 in $shared/corpus"
    name=$(basename "$src")
    base=${name%.mp4}
    fmt=$(golden_pix_fmt "$name")
    test -n "$fmt" || die "$name: pix_fmt unknown (not in MANIFEST.md)"
    size=$(expected_size "$name" "$fmt")
    test -n "$size" || die "$name: size unknown (not in MANIFEST.md)"
    dst=$out/$base.yuv

    if test -f "$dst" && test "$(file_size "$dst")" = "$size"; then
        echo "prepare-corpus: $base.yuv present"
        continue
    fi

    echo "prepare-corpus: decoding $name -> $dst ($fmt)"
    tmp=$out/.$base.yuv.tmp.$$
    if "$ffmpeg" -nostdin -hide_banner -v error -y -i "$src" \
           -f rawvideo -pix_fmt "$fmt" "$tmp" &&
       test "$(file_size "$tmp")" = "$size"; then
        mv -f "$tmp" "$dst"
    else
        rm -f "$tmp"
        echo "prepare-corpus: $name: decode failed or wrong size (want $size bytes)" >&2
        status=1
    fi
done
exit $status
