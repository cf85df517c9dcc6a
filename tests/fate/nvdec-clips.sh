#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Encode the clip pairs of tests/fate/nvdec-formats.sh: for each output
# format of NVDEC that the filter reads in place, a reference (lossless, or
# near-lossless where the table says "nl") and a distorted (low quality)
# encode of the same 10 source frames of a raw corpus pair, in the
# containers users have them in:
#
#   name        source (raw corpus)      encoded as                     file
#   hevc444p8   r640x360_yuv444p         HEVC Main 4:4:4 (x265)         .mkv
#   hevc444p10  r640x360_yuv422p10le     HEVC Main 4:4:4 10 (x265) nl   .mp4
#   hevc444p12  r352x288_yuv420p12le     HEVC Main 4:4:4 12 (x265)      .mkv
#   hevc420p12  r352x288_yuv420p12le     HEVC Main 12 (x265) nl         .mp4
#   av1p8       r640x360_yuv444p         AV1 Main 8-bit (aomenc)        .webm
#   av1p10      r640x360_yuv422p10le     AV1 Main 10 (SvtAv1EncApp) nl  .ivf
#   vp9p8       r577x323_yuv420p         VP9 profile 0, odd size        .webm
#   vp9p10      r640x360_yuv422p10le     VP9 profile 2, 10-bit nl       .ivf
#   vp9p12      r352x288_yuv420p12le     VP9 profile 2, 12-bit          .webm
#
# Sources are converted to the coded chroma layout and bit depth by the
# patched ffmpeg (format filter, y4m out). The clips are for a GPU machine;
# CI does not encode, so the encoders are not in tools/setup.sh:
#   apt-get install x265 aom-tools svt-av1 vpx-tools mkvtoolnix ffmpeg
# (Debian's ffmpeg only puts the HEVC streams into MP4: the patched one has
# no MP4 muxer.) Writes OUT_DIR/NAME_ref.EXT, OUT_DIR/NAME_dis.EXT and
# OUT_DIR/clips.txt (sizes and sha256 sums).
#
# Usage: tests/fate/nvdec-clips.sh OUT_DIR [FFMPEG]
# Environment:
#   FFMPEG         the patched ffmpeg (default: the argument)
#   REMUX_FFMPEG   an ffmpeg with the mp4 muxer and matroska demuxer
#                  (default /usr/bin/ffmpeg)
#   VG_SHARED_DIR  default <repo>/../shared (corpus/raw)

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
raw=$shared/corpus/raw
out=${1:?usage: $0 OUT_DIR [FFMPEG]}
ffmpeg=${2:-${FFMPEG:-}}
remux=${REMUX_FFMPEG:-/usr/bin/ffmpeg}
frames=10

die() {
    echo "nvdec-clips: $*" >&2
    exit 1
}

{ [ -n "$ffmpeg" ] && [ -x "$ffmpeg" ]; } || die "give the patched ffmpeg (argument or FFMPEG)"
missing=
for t in x265 aomenc SvtAv1EncApp vpxenc mkvmerge "$remux"; do
    command -v "$t" > /dev/null 2>&1 || missing="$missing $t"
done
[ -z "$missing" ] || die "not found:$missing (apt-get install x265 aom-tools svt-av1 vpx-tools mkvtoolnix ffmpeg)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vg-nvdec-clips.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# y4m PAIR PIXFMT SIZE TO_FMT: the first $frames frames of the pair's
# reference, converted to TO_FMT, as $tmp/src.y4m
y4m() {
    "$ffmpeg" -nostdin -hide_banner -v error -y -f rawvideo -pix_fmt "$2" \
        -video_size "$3" -framerate 30 -i "$raw/$1_ref.yuv" -frames:v $frames \
        -vf "format=$4" -strict -1 -f yuv4mpegpipe "$tmp/src.y4m" ||
        die "cannot convert $1 to $4"
}

# x265_pair NAME PROFILE DEPTH CRF EXT [REF]: reference lossless, or with
# x265 options REF; distorted at CRF
x265_pair() {
    for q in ref dis; do
        if [ $q = ref ]; then rc=${6:---lossless}; else rc="--crf $4"; fi
        # shellcheck disable=SC2086
        x265 --log-level error --input "$tmp/src.y4m" --frames $frames \
            --profile "$2" --output-depth "$3" --preset medium $rc --no-info --no-progress \
            -o "$tmp/$q.hevc" || die "x265 failed on $1 $q"
        # Matroska from mkvmerge; MP4 remuxed from it (a raw stream with
        # B-frames has no timestamps to give the MP4 muxer)
        mkvmerge -q -o "$tmp/$q.mkv" --default-duration 0:30fps "$tmp/$q.hevc" ||
            die "mkvmerge failed on $1 $q"
        case $5 in
        mkv) mv "$tmp/$q.mkv" "$out/$1_$q.mkv" ;;
        mp4) "$remux" -nostdin -hide_banner -v error -y -i "$tmp/$q.mkv" \
                 -c copy -tag:v hvc1 -f mp4 "$out/$1_$q.mp4" ||
                 die "remux to mp4 failed on $1 $q" ;;
        esac
    done
}

# aom_pair NAME DEPTH CQ webm|ivf: lossless reference, CQ distorted
aom_pair() {
    for q in ref dis; do
        if [ $q = ref ]; then rc=--lossless=1; else rc="--end-usage=q --cq-level=$3"; fi
        # shellcheck disable=SC2086
        aomenc -q --"$4" --limit=$frames --cpu-used=6 --threads=1 \
            --bit-depth="$2" --input-bit-depth="$2" $rc \
            -o "$out/$1_$q.$4" "$tmp/src.y4m" || die "aomenc failed on $1 $q"
    done
}

# svt_pair NAME DEPTH CRF: CRF 4 reference, CRF distorted, ivf
svt_pair() {
    for q in ref dis; do
        if [ $q = ref ]; then crf=4; else crf=$3; fi
        SvtAv1EncApp --progress 0 -i "$tmp/src.y4m" -n $frames --input-depth "$2" \
            --preset 8 --crf "$crf" -b "$out/$1_$q.ivf" > "$tmp/svt.log" 2>&1 || {
            tail -n 5 "$tmp/svt.log" >&2
            die "SvtAv1EncApp failed on $1 $q"
        }
    done
}

# vpx_pair NAME PROFILE DEPTH CQ webm|ivf [REF]: reference lossless, or
# with vpxenc options REF; distorted at CQ
vpx_pair() {
    for q in ref dis; do
        if [ $q = ref ]; then rc=${6:---lossless=1}; else rc="--end-usage=q --cq-level=$4"; fi
        # shellcheck disable=SC2086
        vpxenc -q --codec=vp9 --"$5" --limit=$frames --good --cpu-used=4 \
            --threads=1 --profile="$2" --bit-depth="$3" --input-bit-depth="$3" \
            $rc -o "$out/$1_$q.$5" "$tmp/src.y4m" || die "vpxenc failed on $1 $q"
    done
}

rm -f "$out"/*_ref.* "$out"/*_dis.* "$out/clips.txt"
y4m r640x360_yuv444p yuv444p 640x360 yuv444p
x265_pair hevc444p8 main444-8 8 28 mkv
y4m r640x360_yuv444p yuv444p 640x360 yuv420p
aom_pair av1p8 8 40 webm
y4m r640x360_yuv422p10le yuv422p10le 640x360 yuv444p10le
x265_pair hevc444p10 main444-10 10 28 mp4 "--qp 4"
y4m r640x360_yuv422p10le yuv422p10le 640x360 yuv420p10le
svt_pair av1p10 10 45
vpx_pair vp9p10 2 10 40 ivf "--end-usage=q --cq-level=4"
y4m r352x288_yuv420p12le yuv420p12le 352x288 yuv444p12le
x265_pair hevc444p12 main444-12 12 26 mkv
y4m r352x288_yuv420p12le yuv420p12le 352x288 yuv420p12le
x265_pair hevc420p12 main12 12 26 mp4 "--qp 4"
vpx_pair vp9p12 2 12 40 webm
y4m r577x323_yuv420p yuv420p 577x323 yuv420p
vpx_pair vp9p8 0 8 40 webm

(cd "$out" && for f in *_ref.* *_dis.*; do
    printf '%s %s %s\n' "$(sha256sum "$f" | cut -d' ' -f1)" "$(wc -c < "$f")" "$f"
done) > "$out/clips.txt"
cat "$out/clips.txt"
du -sh "$out"
