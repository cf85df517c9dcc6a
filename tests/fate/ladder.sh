#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Ladders: one reference scored against several renditions in one run
# (vmafgpu -r REF -d R0 -d R1 -d R2 -o log_%d.json). Each rendition's log
# is byte for byte the log of a run of that rendition alone, at
# --precision max, the measured fps aside: for vmaf_v0.6.1 with psnr, a
# vmaf_v1.0.16 model, vmaf_float_v0.6.1, the four-metric set (vmaf_v0.6.1,
# psnr, float_ssim, float_ms_ssim), float_ssim decimated (scale=2) with
# MS-SSIM's l, c and s (enable_lcs), the temporal features (shared between
# the renditions: motion and float_motion are computed once), --subsample,
# and chunked scoring merged per rendition; renditions of three sizes
# scaled with --scale bicubic; VIF and ADM without their scale 0, and
# twice with other options; cambi with full_ref (its reference pass
# shared on the CPU) and its heatmaps (a folder per rendition);
# vmaf_v0.6.1 on 10-bit clips. Then the summary lines, a chart per
# rendition and one of the ladder's logs, and the refusals: more than 16
# renditions, an output path without %d or in a missing folder (before the
# first frame, no file left), inputs of another size or format, a
# rendition that ends early (the pair's rule: a warning naming it, the
# frames all have scored).
#
# The clips are 640x360 4:2:0 (the raw 4:4:4 corpus pair, looped to 24
# frames) with renditions at 640x360, 480x270 and 320x180, made with
# FFMPEG; VG_LADDER_CLIPS names a folder that holds them already (ref.y4m,
# r0.y4m, r1.y4m, r2.y4m, and ref10.y4m, r0_10.y4m, r1_10.y4m,
# r2_10.y4m in 10 bits, as made here), for a machine without ffmpeg.
#
# Usage: VMAFGPU=tools/vmafgpu FFMPEG=ffmpeg tests/fate/ladder.sh
# (VG_LADDER_ARGS: more options for every scoring run, such as
# --backend cuda; VG_SHARED_DIR, VG_RAW_DIR as for chunks.sh; VG_FATE_WORK
# keeps the work files; VG_LADDER_MAKE=DIR only makes the clips in DIR.)

top=$(cd "$(dirname "$0")/../.." && pwd)
fate_name=ladder
fate_no_jsoncmp=1 # logs are compared byte for byte
. "$top/tests/fate/lib.sh"

shared=${VG_SHARED_DIR:-$top/../shared}
raw=${VG_RAW_DIR:-$shared/corpus/raw}
frames=24

# make_clips DIR: the reference and its three renditions as y4m
make_clips() {
    : "${FFMPEG:?FFMPEG: an ffmpeg to make the clips (or VG_LADDER_CLIPS)}"
    for k in ref dist; do
        : > "$w/$k.yuv"
        for i in 1 2 3; do cat "$raw/r640x360_yuv444p_$k.yuv" >> "$w/$k.yuv"; done
    done
    in="-f rawvideo -pix_fmt yuv444p -video_size 640x360 -framerate 30"
    # shellcheck disable=SC2086
    "$FFMPEG" -nostdin -v error -y $in -i "$w/ref.yuv" -frames:v $frames \
        -pix_fmt yuv420p "$1/ref.y4m" &&
        "$FFMPEG" -nostdin -v error -y $in -i "$w/dist.yuv" -frames:v $frames \
            -pix_fmt yuv420p "$1/r0.y4m" &&
        "$FFMPEG" -nostdin -v error -y $in -i "$w/dist.yuv" -frames:v $frames \
            -vf scale=480:270:flags=area -pix_fmt yuv420p "$1/r1.y4m" &&
        "$FFMPEG" -nostdin -v error -y $in -i "$w/dist.yuv" -frames:v $frames \
            -vf scale=320:180:flags=bilinear -pix_fmt yuv420p "$1/r2.y4m" &&
        "$FFMPEG" -nostdin -v error -y $in -i "$w/ref.yuv" -frames:v $frames \
            -pix_fmt yuv420p10le -strict -1 "$1/ref10.y4m" &&
        "$FFMPEG" -nostdin -v error -y $in -i "$w/dist.yuv" -frames:v $frames \
            -pix_fmt yuv420p10le -strict -1 "$1/r0_10.y4m" &&
        "$FFMPEG" -nostdin -v error -y $in -i "$w/dist.yuv" -frames:v $frames \
            -vf scale=480:270:flags=area -pix_fmt yuv420p10le -strict -1 \
            "$1/r1_10.y4m" &&
        "$FFMPEG" -nostdin -v error -y $in -i "$w/dist.yuv" -frames:v $frames \
            -vf scale=320:180:flags=bilinear -pix_fmt yuv420p10le -strict -1 \
            "$1/r2_10.y4m"
}

if [ -n "${VG_LADDER_MAKE:-}" ]; then
    mkdir -p "$VG_LADDER_MAKE" && make_clips "$VG_LADDER_MAKE"
    exit
fi
clips=${VG_LADDER_CLIPS:-}
if [ -z "$clips" ]; then
    clips=$w/clips
    mkdir -p "$clips"
    if ! make_clips "$clips"; then
        echo "FAIL ladder: cannot make the clips"
        echo "0 passed, 1 failed"
        exit 1
    fi
fi
ref=$clips/ref.y4m
r0=$clips/r0.y4m r1=$clips/r1.y4m r2=$clips/r2.y4m

: "${VMAFGPU:?VMAFGPU: the vmafgpu tool to test}"
# shellcheck disable=SC2086
tool() { "$VMAFGPU" ${VG_LADDER_ARGS:-} "$@"; }

strip_fps() { # the measured scoring speed is the one field that differs
    sed -e '/"fps"/d' -e 's/ fps="[^"]*"//' "$1"
}

# same_as_pairs LABEL BASE N: BASE.N.json of a ladder against BASE.pN.json
# of the pair runs, for renditions 0..N-1
same_as_pairs() {
    i=0
    while [ $i -lt "$3" ]; do
        if ! strip_fps "$2.$i.json" | cmp -s - "$2.p$i.cmp"; then
            strip_fps "$2.$i.json" | diff - "$2.p$i.cmp" | head -5
            fail "$1: rendition $i's log differs from its pair run's"
            return
        fi
        i=$((i + 1))
    done
    pass "$1: each of the $3 renditions' logs = its pair run's"
}

# check LABEL SCORE_ARGS...: the ladder r0, r1, r2 with --scale bicubic
check() {
    label=$1
    shift
    base="$w/$(echo "$label" | tr -c 'a-zA-Z0-9_\n' '_')"
    i=0
    for d in "$r0" "$r1" "$r2"; do
        if ! tool -r "$ref" -d "$d" --scale bicubic "$@" --json \
            --precision max -q -o "$base.p$i.json" 2> "$base.err"; then
            cat "$base.err"
            fail "$label: the pair run of rendition $i failed"
            return
        fi
        strip_fps "$base.p$i.json" > "$base.p$i.cmp"
        i=$((i + 1))
    done
    if ! tool -r "$ref" -d "$r0" -d "$r1" -d "$r2" --scale bicubic "$@" \
        --json --precision max -q -o "$base.%d.json" 2> "$base.err"; then
        cat "$base.err"
        fail "$label: the ladder failed"
        return
    fi
    same_as_pairs "$label" "$base" 3
}

v061="-m version=vmaf_v0.6.1 --feature psnr"
check "vmaf_v0.6.1+psnr" $v061 --threads 2
check "vmaf_v0.6.1+psnr, no threads" $v061 --threads 0
check "vmaf_v1.0.16_hfr_3d0h" -m version=vmaf_v1.0.16_hfr_3d0h --threads 3
check "vmaf_float_v0.6.1" -m version=vmaf_float_v0.6.1 --threads 2
check "four metrics" $v061 --feature float_ssim --feature float_ms_ssim --threads 2
# the SSIM family's stages with float_ssim's decimation and every sum of
# MS-SSIM's maps
check "float_ssim scale=2, float_ms_ssim with l, c and s" -n \
    --feature float_ssim=scale=2 --feature float_ms_ssim=enable_lcs=true --threads 2
check "temporal features" -n --feature motion=motion_five_frame_window=true:motion_moving_average=true \
    --feature float_motion --feature speed_temporal --threads 2
check "vmaf_v0.6.1+psnr subsample 3" $v061 --subsample 3 --threads 2
# cambi's reference pass, shared (on the CPU); then every scale pooled on
# the host (on CUDA, from the c-values the device spills). The corpus's
# reference has no banding (cambi 0): the encoded rendition is the
# reference here, the source one of the renditions.
ref=$clips/r0.y4m r0=$clips/ref.y4m
check "cambi full_ref" -n --feature cambi=full_ref=true --threads 2
# the shared pass's score: not 0, and not one value for every frame
if [ "$(grep -o '"cambi_source": [0-9.e+-]*' "$w/cambi_full_ref.2.json" |
    sort -u | grep -cv ': 0$')" -gt 1 ]; then
    pass "cambi full_ref: the reference's cambi_source differs from frame to frame"
else
    fail "cambi full_ref: the reference's cambi_source is 0 or constant: no test of its stage"
fi
pool_was=${VG_CAMBI_DEVICE_POOL-unset}
export VG_CAMBI_DEVICE_POOL=0
check "cambi full_ref, pooled on the host" -n --feature cambi=full_ref=true \
    --threads 2
if [ "$pool_was" = unset ]; then
    unset VG_CAMBI_DEVICE_POOL
else
    VG_CAMBI_DEVICE_POOL=$pool_was
fi
# cambi's heatmaps: a folder per rendition (heatmaps_path with %d), each
# rendition's files byte for byte its pair run's; without %d, refused
hm=$w/heatmaps
ok=1 n=0 i=0
for d in "$r0" "$r1" "$r2"; do
    tool -r "$ref" -d "$d" --scale bicubic -n --threads 2 -q \
        --feature "cambi=heatmaps_path=$hm/pair$i" -o "$hm.p$i.json" \
        2> "$hm.err" || ok=0
    i=$((i + 1))
done
tool -r "$ref" -d "$r0" -d "$r1" -d "$r2" --scale bicubic -n --threads 2 -q \
    --feature "cambi=heatmaps_path=$hm/rend%d" -o "$hm.%d.json" \
    2> "$hm.err" || ok=0
for i in 0 1 2; do
    for f in "$hm/pair$i"/cambi_heatmap_scale_*.gray; do
        [ -s "$f" ] && cmp -s "$f" "$hm/rend$i/${f##*/}" || ok=0
        n=$((n + 1))
    done
done
# the renditions' heatmaps differ, so that a mix-up would show
first=$(cd "$hm/pair0" && ls cambi_heatmap_scale_0_* 2> /dev/null)
if [ -n "$first" ] && cmp -s "$hm/pair0/$first" "$hm/pair1/$first"; then
    ok=0
fi
if [ $ok = 1 ] && [ $n = 15 ]; then
    pass "cambi heatmaps_path with %d: each rendition's 5 heatmaps = its pair run's"
else
    cat "$hm.err"
    fail "cambi heatmaps_path with %d: $n heatmaps, not each its pair run's"
fi
refused "a ladder's heatmaps_path without %d" "put one %d in the path" \
    tool -r "$ref" -d "$r0" -d "$r1" --scale bicubic -n -q \
    --feature "cambi=heatmaps_path=$hm/one" -o "$w/hm1_%d.json"
ref=$clips/ref.y4m r0=$clips/r0.y4m
# only shared features: renditions 1 and 2 compute nothing of their own
check "motion and float_motion alone" -n --feature motion --feature float_motion --threads 2
# the reference stages (VIF's and ADM's) with their scale 0 skipped
check "vif and adm without scale 0" -n --feature vif=vif_skip_scale0=true \
    --feature adm=adm_skip_scale0=true --threads 2
# a feature twice with other options: each instance has its own stage
check "vmaf_v0.6.1 and vmaf_v0.6.1neg" -m version=vmaf_v0.6.1 \
    -m version=vmaf_v0.6.1neg:name=vmaf_neg --threads 2
check "vif and adm twice, the first without scale 0" -n \
    --feature vif=vif_skip_scale0=true --feature vif \
    --feature adm=adm_skip_scale0=true --feature adm --threads 3
# 10-bit samples
if [ -f "$clips/ref10.y4m" ]; then
    ref=$clips/ref10.y4m
    r0=$clips/r0_10.y4m r1=$clips/r1_10.y4m r2=$clips/r2_10.y4m
    check "10-bit vmaf_v0.6.1+psnr" $v061 --threads 2
    ref=$clips/ref.y4m
    r0=$clips/r0.y4m r1=$clips/r1.y4m r2=$clips/r2.y4m
else
    fail "10-bit vmaf_v0.6.1+psnr: no 10-bit clips in $clips"
fi

# chunked: each rendition's chunks merged = its pair run's whole log
base="$w/vmaf_v0_6_1_psnr"
ok=1
for c in 0:7 7:9 16:; do
    tool -r "$ref" -d "$r0" -d "$r1" -d "$r2" --scale bicubic $v061 \
        --chunk "$c" -q --threads 2 -o "$base.chunk${c%%:*}_%d.json" 2> "$base.err" ||
        { cat "$base.err"; ok=0; }
done
i=0
while [ $ok = 1 ] && [ $i -lt 3 ]; do
    "$VMAFGPU" merge "$base.chunk16_$i.json" "$base.chunk0_$i.json" \
        "$base.chunk7_$i.json" --json --precision max -q \
        -o "$base.merged$i.json" 2> "$base.err" &&
        strip_fps "$base.merged$i.json" | cmp -s - "$base.p$i.cmp" ||
        { cat "$base.err"; ok=0; }
    i=$((i + 1))
done
if [ $ok = 1 ]; then
    pass "chunked ladder (0:7 7:9 16:): each rendition's merged chunks = its pair run's log"
else
    fail "chunked ladder: a rendition's merged chunks differ from its pair run's log"
fi

# five renditions (the first twice), and the summary line of each
if tool -r "$ref" -d "$r0" -d "$r1" -d "$r2" -d "$r1" -d "$r0" --scale bicubic \
    $v061 --threads 4 --json --precision max -o "$w/five.%d.json" \
    > "$w/five.out" 2> "$w/five.err" &&
    [ "$(grep -c '^rendition [0-4] (r[012]\.y4m): vmaf_v0\.6\.1: ' "$w/five.out")" = 5 ] &&
    strip_fps "$w/five.3.json" | cmp -s - "$base.p1.cmp" &&
    strip_fps "$w/five.4.json" | cmp -s - "$base.p0.cmp"; then
    pass "five renditions: a summary line each, logs = the pair runs'"
else
    cat "$w/five.out" "$w/five.err"
    fail "five renditions"
fi

# a chart per rendition (--plot with %d)
rm -f "$w"/chart.*.svg
if tool -r "$ref" -d "$r0" -d "$r2" --scale bicubic --plot "$w/chart.%d.svg" -q \
    > /dev/null 2> "$w/chart.err" && grep -q 'r0\.y4m' "$w/chart.0.svg" &&
    grep -q 'r2\.y4m' "$w/chart.1.svg" && [ ! -f "$w/chart.2.svg" ]; then
    pass "--plot chart.%d.svg: a chart per rendition"
else
    cat "$w/chart.err"
    fail "--plot chart.%d.svg"
fi

# a chart of the ladder's logs: one curve per rendition
if "$VMAFGPU" plot "$w/five.0.json" "$w/five.1.json" "$w/five.2.json" \
    -o "$w/ladder.svg" 2> "$w/plot.err" &&
    grep -q 'five\.0\.json' "$w/ladder.svg" && grep -q 'five\.1\.json' "$w/ladder.svg" &&
    grep -q 'five\.2\.json' "$w/ladder.svg"; then
    pass "vmafgpu plot of three renditions' logs: one chart, a curve each"
else
    cat "$w/plot.err"
    fail "vmafgpu plot of the ladder's logs"
fi

many=""
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do many="$many -d $r0"; done
# shellcheck disable=SC2086
refused "17 renditions" "at most 16 renditions" tool -r "$ref" $many -o "$w/x_%d.json"
refused "a ladder's log path without %d" "put one %d in the path" \
    tool -r "$ref" -d "$r0" -d "$r1" --scale bicubic -o "$w/x.json"
refused "a ladder's log on stdout" "put one %d in the path" \
    tool -r "$ref" -d "$r0" -d "$r1" --scale bicubic -o -
refused "a ladder's chart path without %d" "put one %d in the path" \
    tool -r "$ref" -d "$r0" -d "$r1" --scale bicubic --plot "$w/x.svg"
refused "a ladder's log in a missing folder" "cannot write --output $w/none/x_0.json" \
    tool -r "$ref" -d "$r0" -d "$r1" --scale bicubic -o "$w/none/x_%d.json"
[ ! -e "$w/none" ] && [ ! -e "$w/x_0.json" ] || fail "a refused ladder left files"
refused "a rendition of another size without --scale" "rendition 1: inputs differ" \
    tool -r "$ref" -d "$r0" -d "$r1" -o "$w/x_%d.json"
"${FFMPEG:-false}" -nostdin -v error -y -i "$r1" -pix_fmt yuv444p "$w/r1_444.y4m" 2> /dev/null &&
    refused "a rendition of another format" "rendition 1: inputs differ" \
        tool -r "$ref" -d "$r0" -d "$w/r1_444.y4m" --scale bicubic -o "$w/x_%d.json"
# a rendition that ends early: 10 of its frames, the others 24
hdr=$(head -n 1 "$r1" | wc -c)
head -c $((hdr + 10 * (6 + 480 * 270 * 3 / 2))) "$r1" > "$w/r1_short.y4m"
if tool -r "$ref" -d "$r0" -d "$w/r1_short.y4m" -d "$r2" --scale bicubic -q \
    --json -o "$w/short_%d.json" 2> "$w/short.err" &&
    grep -q 'rendition 1 ("[^"]*r1_short.y4m") has 10 frames' "$w/short.err" &&
    [ "$(grep -c '"frameNum"' "$w/short_0.json")" = 10 ] &&
    [ "$(grep -c '"frameNum"' "$w/short_2.json")" = 10 ]; then
    pass "a rendition that ends early: a warning naming it, the 10 frames all have scored"
else
    cat "$w/short.err"
    fail "a rendition that ends early"
fi

echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
