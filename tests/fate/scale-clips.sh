#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Encode the lower-resolution renditions of tests/fate/gpu-scale.sh, as an
# ABR ladder has them: the corpus references scaled down (bicubic) and
# encoded again, 30 frames each:
#
#   r720.mkv      1280x720  H.264 High (x264 crf 30)     of p1080_ref.mp4
#   r360.mkv      640x360   H.264 High (x264 crf 30)     of p1080_ref.mp4
#   r360p10.mkv   640x360   HEVC Main 10 (x265 crf 30)   of p720_10_ref.mp4
#
# The clips are for a GPU machine; CI does not encode, so the encoders are
# not in tools/setup.sh: apt-get install x264 x265 mkvtoolnix. Writes
# OUT_DIR/*.mkv and OUT_DIR/clips.txt (sizes and sha256 sums).
#
# Usage: tests/fate/scale-clips.sh OUT_DIR FFMPEG
# Environment: VG_SHARED_DIR (default <repo>/../shared)

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
out=${1:?usage: $0 OUT_DIR FFMPEG}
ffmpeg=${2:?usage: $0 OUT_DIR FFMPEG}
frames=30

die() {
    echo "scale-clips: $*" >&2
    exit 1
}

for t in x264 x265 mkvmerge; do
    command -v "$t" > /dev/null 2>&1 || die "$t not found (apt-get install x264 x265 mkvtoolnix)"
done
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vg-scale-clips.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# y4m SRC W H PIX_FMT: the first frames of SRC scaled down, to stdout
y4m() {
    "$ffmpeg" -nostdin -v error -i "$shared/corpus/$1" -frames:v $frames \
        -vf "scale=$2:$3:flags=bicubic" -pix_fmt "$4" -strict -1 \
        -f yuv4mpegpipe -
}

y4m p1080_ref.mp4 1280 720 yuv420p |
    x264 --quiet --no-progress --demuxer y4m --crf 30 --preset fast -o "$out/r720.mkv" -
y4m p1080_ref.mp4 640 360 yuv420p |
    x264 --quiet --no-progress --demuxer y4m --crf 30 --preset fast -o "$out/r360.mkv" -
y4m p720_10_ref.mp4 640 360 yuv420p10le |
    x265 --log-level error --y4m --input - --crf 30 --preset fast \
        --output-depth 10 --profile main10 -o "$tmp/r360p10.hevc"
mkvmerge -q -o "$out/r360p10.mkv" "$tmp/r360p10.hevc"

(cd "$out" && for f in r720.mkv r360.mkv r360p10.mkv; do
    [ -s "$f" ] || die "$f was not written"
    echo "$(stat -c %s "$f") $(sha256sum "$f")"
done) > "$out/clips.txt"
cat "$out/clips.txt"
