#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Chunked scoring: a title scored in chunks (vmafgpu --chunk START:COUNT)
# and merged (vmafgpu merge) gives exactly the whole run's log, every
# per-frame and pooled value at --precision max, byte for byte except the
# log's measured fps. Every raw corpus pair (looped, so that chunks hold
# several frames) in 2, 3, 4 and 7 chunks of uneven sizes (chunks of 1 and
# 2 frames among them), for vmaf_v0.6.1 with psnr and its aggregate, every
# vmaf_v1.0.16 model, the float model and each temporal feature
# (integer motion with the five-frame window and moving average, float
# motion, SpEED temporal), also with --subsample; then the decoded
# pairs of the corpus (1080p, its upscaled rendition, 10-bit 720p, 2160p)
# when VG_CORPUS_RAW has them. Then the refusals: a gap, a missing last
# chunk, an overlap, a chunk of another run, a chunk past the end.
#
# Usage: VMAFGPU=tools/vmafgpu tests/fate/chunks.sh
# (VG_SHARED_DIR: the shared folder, default ../shared beside the tree;
# VG_RAW_DIR: the raw pairs, default its corpus/raw; VG_FATE_WORK keeps
# the work files; VG_CORPUS_RAW: the decoded corpus; VG_CHUNK_ARGS: more
# options for every scoring run, such as --backend cuda)

top=$(cd "$(dirname "$0")/../.." && pwd)
fate_name=chunks
fate_no_jsoncmp=1   # logs are compared byte for byte
. "$top/tests/fate/lib.sh"

shared=${VG_SHARED_DIR:-$top/../shared}
work=$w
raw=${VG_RAW_DIR:-$shared/corpus/raw}
# the tool, with VG_CHUNK_ARGS before the command's own options (merge
# takes none of them: it runs as given)
tool() {
    case $1 in
    merge) "${VMAFGPU:?}" "$@" ;;
    # shellcheck disable=SC2086
    *) "${VMAFGPU:?}" ${VG_CHUNK_ARGS:-} "$@" ;;
    esac
}
: "${VMAFGPU:?VMAFGPU: the vmafgpu tool to test}"
vmafgpu=tool

# loop PAIR TIMES: the raw pair repeated into $work
loop() {
    for k in ref dist; do
        i=0
        : > "$work/$1_$k.yuv"
        while [ $i -lt "$2" ]; do
            cat "$raw/$1_$k.yuv" >> "$work/$1_$k.yuv"
            i=$((i + 1))
        done
    done
}

strip_fps() {   # the measured scoring speed is the one field that differs
    sed -e '/"fps"/d' -e 's/ fps="[^"]*"//' "$1"
}

# split N K: the chunk boundaries (START:COUNT ...) of K uneven chunks
split() {
    n=$1
    case $2 in
    2) b="$((n / 2))" ;;
    3) b="$((n / 3 - 1)) $((2 * n / 3 + 1))" ;;
    4) b="1 3 $((n / 2))" ;;
    7) s=$((n / 7)); b="2 3 $((6 + s)) $((7 + s)) $((12 + s)) $((12 + 2 * s))" ;;
    esac
    prev=0
    for e in $b $n; do
        printf '%s:%s ' $prev $((e - prev))
        prev=$e
    done
}

# check LABEL N INPUT_ARGS -- SCORE_ARGS: whole run against every split
check() {
    label=$1 n=$2
    shift 2
    in=""
    while [ "$1" != "--" ]; do in="$in $1"; shift; done
    shift
    base="$work/$(echo "$label" | tr -c 'a-zA-Z0-9_\n' '_')"
    # shellcheck disable=SC2086
    if ! "$vmafgpu" $in "$@" --json --precision max -q --threads 2 \
        -o "$base.whole.json" 2> "$base.err"; then
        cat "$base.err"
        fail "$label: the whole run failed"
        return
    fi
    strip_fps "$base.whole.json" > "$base.whole.cmp"
    for k in 2 3 4 7; do
        chunks=""
        i=0
        ok=1
        for c in $(split "$n" $k); do
            # shellcheck disable=SC2086
            if ! "$vmafgpu" $in "$@" --chunk "$c" -q --threads 2 \
                -o "$base.c$k.$i.json" 2> "$base.err"; then
                cat "$base.err"
                ok=0
            fi
            chunks="$base.c$k.$i.json $chunks"   # merged in any order
            i=$((i + 1))
        done
        # shellcheck disable=SC2086
        if [ $ok = 1 ] && "$vmafgpu" merge $chunks --json --precision max -q \
            -o "$base.m$k.json" 2> "$base.err" &&
            strip_fps "$base.m$k.json" | cmp -s - "$base.whole.cmp"; then
            pass "$label, $k chunks ($(split "$n" $k)): merged = whole run"
        else
            cat "$base.err"
            strip_fps "$base.m$k.json" 2>/dev/null | diff - "$base.whole.cmp" | head -5
            fail "$label, $k chunks ($(split "$n" $k)): merged differs from the whole run"
        fi
    done
}

loop r640x360_yuv444p 4       # 40 frames
loop r640x360_yuv422p10le 3   # 30
loop r352x288_yuv420p12le 3   # 30
loop r577x323_yuv420p 3       # 30
p444="-r $work/r640x360_yuv444p_ref.yuv -d $work/r640x360_yuv444p_dist.yuv -w 640 -h 360 -p 444 -b 8"
p422="-r $work/r640x360_yuv422p10le_ref.yuv -d $work/r640x360_yuv422p10le_dist.yuv -w 640 -h 360 -p 422 -b 10"
p420="-r $work/r352x288_yuv420p12le_ref.yuv -d $work/r352x288_yuv420p12le_dist.yuv -w 352 -h 288 -p 420 -b 12"
podd="-r $work/r577x323_yuv420p_ref.yuv -d $work/r577x323_yuv420p_dist.yuv -w 577 -h 323 -p 420 -b 8"
v061="-m version=vmaf_v0.6.1 --feature psnr=enable_apsnr=true"
temporal="--feature motion=motion_five_frame_window=true:motion_moving_average=true --feature float_motion --feature speed_temporal"

# y4m_of RAW OUT FRAMES: the looped 4:4:4 pair as y4m (chunks seek over
# whole frames, each with its header)
y4m_of() {
    printf 'YUV4MPEG2 W640 H360 F30:1 Ip A1:1 C444\n' > "$2"
    i=0
    while [ $i -lt "$3" ]; do
        printf 'FRAME\n' >> "$2"
        dd if="$1" bs=691200 skip=$i count=1 2> /dev/null >> "$2"
        i=$((i + 1))
    done
}
y4m_of "$work/r640x360_yuv444p_ref.yuv" "$work/ref444.y4m" 40
y4m_of "$work/r640x360_yuv444p_dist.yuv" "$work/dis444.y4m" 40

check "r640x360_444p8 vmaf_v0.6.1+psnr" 40 $p444 -- $v061
check "r640x360_444p8 y4m vmaf_v1.0.16_hfr_3d0h" 40 -r "$work/ref444.y4m" -d "$work/dis444.y4m" -- -m version=vmaf_v1.0.16_hfr_3d0h
check "r640x360_422p10 vmaf_v0.6.1+psnr" 30 $p422 -- $v061
check "r352x288_420p12 vmaf_v0.6.1+psnr" 30 $p420 -- $v061
check "r577x323_420p8 vmaf_v0.6.1+psnr" 30 $podd -- $v061
check "r640x360_444p8 vmaf_v0.6.1+psnr subsample 3" 40 $p444 -- $v061 --subsample 3
check "r352x288_420p12 temporal features" 30 $p420 -- -n $temporal
check "r640x360_422p10 temporal features subsample 2" 30 $p422 -- -n $temporal --subsample 2
check "r640x360_444p8 vmaf_float_v0.6.1" 40 $p444 -- -m version=vmaf_float_v0.6.1
for m in 3d0h 5d0h 1d5h_2160 3d0h_2160 hfr_3d0h hfr_5d0h hfr_1d5h_2160 hfr_3d0h_2160; do
    check "r640x360_444p8 vmaf_v1.0.16_$m" 40 $p444 -- -m version=vmaf_v1.0.16_$m
done
check "r640x360_422p10 vmaf_v1.0.16_hfr_3d0h" 30 $p422 -- -m version=vmaf_v1.0.16_hfr_3d0h
check "r352x288_420p12 vmaf_v1.0.16_hfr_5d0h" 30 $p420 -- -m version=vmaf_v1.0.16_hfr_5d0h

# the decoded corpus pairs, when the corpus is decoded (tests/prepare-corpus.sh)
for row in "p1080_crf32 p1080_ref p1080_dist_crf32 1920 1080 8 60" \
           "p1080_scaled p1080_ref p1080_dist_scaled 1920 1080 8 60" \
           "p720_10 p720_10_ref p720_10_dist_x265crf30 1280 720 10 30" \
           "p2160 p2160_ref p2160_dist_x265crf30 3840 2160 8 30"; do
    # shellcheck disable=SC2086
    set -- $row
    if [ -f "${VG_CORPUS_RAW:-}/$2.yuv" ] && [ -f "$VG_CORPUS_RAW/$3.yuv" ]; then
        check "$1 vmaf_v0.6.1+psnr" "$7" -r "$VG_CORPUS_RAW/$2.yuv" \
            -d "$VG_CORPUS_RAW/$3.yuv" -w "$4" -h "$5" -p 420 -b "$6" -- $v061
    fi
done

# refusals, on the first split of 4 chunks of the 4:4:4 pair (1, 2, 17, 20 frames)
c="$work/r640x360_444p8_vmaf_v0_6_1_psnr.c4"
refused "a gap" "frames 1..2 are missing" "$vmafgpu" merge "$c.0.json" "$c.2.json" "$c.3.json"
refused "no last chunk" "no chunk log ends the title" "$vmafgpu" merge "$c.0.json" "$c.1.json" "$c.2.json"
refused "the first chunk missing" "frames 0..0 are missing" "$vmafgpu" merge "$c.1.json" "$c.2.json" "$c.3.json"
refused "an overlap" "overlap" "$vmafgpu" merge "$c.0.json" "$c.1.json" "$c.1.json" "$c.2.json" "$c.3.json"
refused "a chunk of another run" "comes from another run" "$vmafgpu" merge "$c.0.json" "$c.1.json" \
    "$work/r640x360_444p8_vmaf_v1_0_16_3d0h.c4.2.json" "$c.3.json"
refused "not a chunk log" "is not a vmafgpu chunk log" "$vmafgpu" merge "$work/r640x360_444p8_vmaf_v0_6_1_psnr.whole.json"
head -c 300 "$c.1.json" > "$work/truncated.json"
refused "a truncated chunk log" "is not a vmafgpu chunk log" "$vmafgpu" merge "$c.0.json" "$work/truncated.json"
sed 's/"frames":\[\[/"frames":[1,[/' "$c.3.json" > "$work/bad-frame.json"
refused "a malformed frame" "malformed" "$vmafgpu" merge "$c.0.json" "$c.1.json" "$c.2.json" "$work/bad-frame.json"
# one chunk to the end of the inputs (START:) is the whole title
# shellcheck disable=SC2086
if "$vmafgpu" $p444 $v061 --chunk 0: -q -o "$work/single.json" &&
    "$vmafgpu" merge "$work/single.json" --json --precision max -q -o "$work/single-merged.json" &&
    strip_fps "$work/single-merged.json" | cmp -s - "$work/r640x360_444p8_vmaf_v0_6_1_psnr.whole.cmp"; then
    pass "one chunk 0: (to the end): merged = whole run"
else
    fail "one chunk 0: (to the end): merged differs from the whole run"
fi
sed 's/"uses":\[\[/"uses":[7,[/' "$work/single.json" > "$work/bad-uses.json"
refused "malformed uses" "malformed" "$vmafgpu" merge "$work/bad-uses.json"
sed 's/"bitdepth":8/"bitdepth":40/' "$work/single.json" > "$work/bad-depth.json"
refused "a bit depth out of range" "out of range" "$vmafgpu" merge "$work/bad-depth.json"
# shellcheck disable=SC2086
refused "a chunk past the end" "starts past the end" "$vmafgpu" $p444 --chunk 41:5 -o "$work/past.json"
# shellcheck disable=SC2086
refused "--chunk without -o" "chunk log to --output" "$vmafgpu" $p444 --chunk 0:5
# a re-run of one chunk replaces its log
# shellcheck disable=SC2086
if "$vmafgpu" $p444 $v061 --chunk 3:17 -q -o "$c.2.json" &&
    "$vmafgpu" merge "$c.3.json" "$c.2.json" "$c.1.json" "$c.0.json" --json \
        --precision max -q -o "$work/rerun.json" &&
    strip_fps "$work/rerun.json" | cmp -s - "$work/r640x360_444p8_vmaf_v0_6_1_psnr.whole.cmp"; then
    pass "a re-run chunk replaces its log: merged = whole run"
else
    fail "a re-run chunk: merged differs from the whole run"
fi

echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
