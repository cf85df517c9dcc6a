#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# An ABR ladder on NVDEC frames, in frames/s of the ladder (the reference
# and its five renditions), our build alone, side by side:
#
#   NVDEC decode of the six streams alone
#   NVDEC into one vmafgpu=renditions=5 (the ladder in one filter)
#   NVDEC into five vmafgpu instances, the reference split between them
#
# for vmaf_v0.6.1 and vmaf_v1.0.16_3d0h. The renditions are those of
# ladder-clips (1080p crf 32, 900p, 720p, 540p crf 28, 360p), each scaled
# to the 1080p reference with bicubic in the filter (on the GPU), looped to
# 1,200 frames. Each figure is the best of VG_RUNS runs (default 3), the
# three commands of a model alternating; the ratios are to decoding alone.
# Figures, not assertions: it fails only when a run fails.
#
# Usage: tests/bench/ladder-nvdec.sh FFMPEG CLIPS_DIR
#   CLIPS_DIR  r1.mkv, r2.mkv, r4.mkv (tests/bench/ladder-nvdec.sh --make
#              CLIPS_DIR FFMPEG makes them from the corpus with x264); the
#              reference, r0 and r3 are the corpus's p1080_ref.mp4,
#              p1080_dist_crf32.mp4 and p1080_dist_540p_crf28.mp4
# Environment: VG_CORPUS_DIR (default <repo>/../shared/corpus), VG_RUNS,
# VG_FATE_WORK (work directory)
set -u
set -f # the filter graphs hold [...] that must not glob
top=$(cd "$(dirname "$0")/../.." && pwd)

if [ "${1:-}" = --make ]; then
    out=${2:?usage: $0 --make CLIPS_DIR FFMPEG} ff=${3:?usage: $0 --make CLIPS_DIR FFMPEG}
    corpus=${VG_CORPUS_DIR:-$top/../shared/corpus}
    set -e
    mkdir -p "$out"
    for r in "r1 1600 900" "r2 1280 720" "r4 640 360"; do
        # shellcheck disable=SC2086
        set -- $r
        "$ff" -nostdin -v error -i "$corpus/p1080_ref.mp4" \
            -vf "scale=$2:$3:flags=bicubic" -pix_fmt yuv420p -strict -1 \
            -f yuv4mpegpipe - |
            x264 --quiet --no-progress --demuxer y4m --crf 30 --preset fast \
                -o "$out/$1.264" -
        mkvmerge -q -o "$out/$1.mkv" "$out/$1.264"
        rm -f "$out/$1.264"
    done
    ls -l "$out"
    exit 0
fi

ff=${1:?usage: $0 FFMPEG CLIPS_DIR}
clips=${2:?usage: $0 FFMPEG CLIPS_DIR}
corpus=${VG_CORPUS_DIR:-$top/../shared/corpus}
runs=${VG_RUNS:-3}
bench_name=ladder-nvdec
# shellcheck source=tests/bench/runs.sh
. "$top/tests/bench/runs.sh"

dec="-hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda -stream_loop 19"
hw="-init_hw_device cuda=gpu -filter_hw_device gpu"
in="$hw $dec -i $corpus/p1080_ref.mp4 $dec -i $corpus/p1080_dist_crf32.mp4"
in="$in $dec -i $clips/r1.mkv $dec -i $clips/r2.mkv"
in="$in $dec -i $corpus/p1080_dist_540p_crf28.mp4 $dec -i $clips/r4.mkv"
failed=0

# fps() reads ffmpeg's frame count, that of the output's first stream:
# the frames of the ladder
decode="$in -map 0:v -map 1:v -map 2:v -map 3:v -map 4:v -map 5:v -f null -"
echo "ladder-nvdec: $runs runs per figure, the best kept"
for model in vmaf_v0.6.1 vmaf_v1.0.16_3d0h; do
    opts="model=version=$model:scale=bicubic"
    ladder="$in -lavfi [1:v][2:v][3:v][4:v][5:v][0:v]vmafgpu=renditions=5:$opts -f null -"
    five="[0:v]split=5[s0][s1][s2][s3][s4]"
    maps=
    for r in 0 1 2 3 4; do
        five="$five;[$((r + 1)):v][s$r]vmafgpu=$opts[o$r]"
        maps="$maps -map [o$r]"
    done
    d= l= s=
    i=0
    while [ $i -lt "$runs" ]; do
        # shellcheck disable=SC2086
        d="$d $(fps "$ff" $decode)"
        # shellcheck disable=SC2086
        l="$l $(fps "$ff" $ladder)"
        # shellcheck disable=SC2086
        s="$s $(fps "$ff" $in -filter_complex "$five" $maps -f null -)"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    bd=$(best max $d) bl=$(best max $l) bs=$(best max $s)
    for v in $bd $bl $bs; do
        [ "$v" = failed ] && failed=1
    done
    echo "ladder-nvdec: $model: decoding alone $bd frames/s; one vmafgpu=renditions=5 $bl frames/s ($(ratio "$bl" "$bd")x of decoding); five vmafgpu instances $bs frames/s ($(ratio "$bs" "$bd")x of decoding)"
done
exit $failed
