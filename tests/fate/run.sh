#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Tests of the patched ffmpeg's vmafgpu filter (software-decoded corpus):
#  - the patch series in patches/ is what tools/gen-patches.sh generates;
#  - for every corpus pair, -lavfi vmafgpu with log_fmt=json and
#    precision=max gives the golden per-frame and pooled values exactly,
#    for every metric present in both logs; the metrics of the features
#    in VG_FATE_FEATURES (and the models in VG_FATE_MODELS) are required;
#  - the per-frame frame metadata equals the golden values;
#  - the distorted frames pass through unchanged;
#  - n_threads > 0 gives the same values;
#  - gray frames (the luma planes of a 4:2:0 pair) give the luma metrics;
#  - plot_path writes a valid SVG chart with the golden's worst frames;
#  - with -frames:v 10 the log and the summary equal those of the inputs
#    cut to 10 frames, on every run;
#  - p210, p012, p016 (bitdepth=12), nv16 and yuv444p10/12msb frames score
#    as the planar frames they hold;
#  - the HEVC pair remuxed into Matroska and MPEG-TS scores as the MP4;
#  - a Matroska distorted input against an MP4 reference warns that frames
#    are paired more than half a frame interval apart (two MP4s do not),
#    ts_sync_mode=nearest gives the golden, a short reference warns that
#    its last frame repeats;
#  - under the libvmaf name, a log_fmt or pool value libvmaf's filter does
#    not know (pool=max too) is taken as it takes it (XML, the mean), with a
#    warning;
#  - under the libvmaf name, the options are read as libvmaf's filter reads
#    them: values without a name in its option order, model and feature
#    strings as av_dict_parse_string() reads them, what libvmaf ignores
#    ignored with a warning, option values read as libvmaf reads them,
#    n_threads and n_subsample up to UINT_MAX, log_path=- a file; what it
#    takes and vmafgpu cannot is refused with a message naming libvmaf's
#    behaviour;
#  - scale=bicubic, bilinear, lanczos score a 540p rendition (and odd and
#    10-bit 4:2:2 sizes) as the scale filter with the same algorithm and
#    accurate_rnd+bitexact in front does; scale with equal sizes is a no-op;
#  - the library's own scaling (CUDA frames, the CLI's --scale) gives
#    libswscale's samples (tests/fate/scalecmp.c), and the CLI's scores
#    equal the filter's;
#  - error cases exit non-zero with a message naming the cause.
# Prints one line per test and a final line "N passed, N failed"; exits
# non-zero if any test failed.
#
# Usage: tests/fate/run.sh [FFMPEG]
# Environment:
#   FFMPEG            the patched ffmpeg (default: the argument, else
#                     $FFMPEG_BUILD_DIR/ffmpeg, else ./ffmpeg-n9.0.2/ffmpeg)
#   VG_SHARED_DIR     corpus/golden/models (default <repo>/../shared)
#   VG_FATE_FEATURES  features that must be implemented (default below)
#   VG_FATE_MODELS    built-in models that must be implemented (default below)
#   VG_FATE_PAIRS     corpus pairs to run (default: all)
#   VG_FATE_WORK      work directory (default: a temporary one, removed)
#   JSONCMP           a built tests/fate/jsoncmp (default: built here with CC)
#   VMAFGPU           the vmafgpu CLI, for its --scale check (skipped unset)
#   CC                C compiler for the JSON comparer (default cc)

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
corpus=$shared/corpus
golden=$shared/golden
ffmpeg=${1:-${FFMPEG:-}}
[ -n "$ffmpeg" ] || ffmpeg=${FFMPEG_BUILD_DIR:-$PWD/ffmpeg-n9.0.2}/ffmpeg
features=${VG_FATE_FEATURES:-psnr motion vif adm}
models=${VG_FATE_MODELS:-vmaf_v0.6.1}
pairs=${VG_FATE_PAIRS:-p1080_crf32 p1080_scaled p2160 p720_10 r577x323_420p8 r640x360_444p8 r640x360_422p10 r352x288_420p12}

if [ -x "$ffmpeg" ]; then :; else
    echo "fate: no ffmpeg at $ffmpeg (build it with tools/build-ffmpeg.sh)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

fate_name=fate
# shellcheck source=tests/fate/lib.sh
. "$top/tests/fate/lib.sh"

# inputs PAIR: sets dis_in / ref_in (ffmpeg input arguments) and gold
inputs() {
    raw=
    case $1 in
    p1080_crf32)     dis=p1080_dist_crf32.mp4;       ref=p1080_ref.mp4 ;;
    p1080_scaled)    dis=p1080_dist_scaled.mp4;      ref=p1080_ref.mp4 ;;
    p2160)           dis=p2160_dist_x265crf30.mp4;   ref=p2160_ref.mp4 ;;
    p720_10)         dis=p720_10_dist_x265crf30.mp4; ref=p720_10_ref.mp4 ;;
    r577x323_420p8)  raw="yuv420p 577x323"; base=raw/r577x323_yuv420p ;;
    r640x360_444p8)  raw="yuv444p 640x360"; base=raw/r640x360_yuv444p ;;
    r640x360_422p10) raw="yuv422p10le 640x360"; base=raw/r640x360_yuv422p10le ;;
    r352x288_420p12) raw="yuv420p12le 352x288"; base=raw/r352x288_yuv420p12le ;;
    *) return 1 ;;
    esac
    if [ -n "$raw" ]; then
        set -- $raw
        rawargs="-f rawvideo -pix_fmt $1 -video_size $2 -framerate 30"
        dis_in="$rawargs -i $corpus/${base}_dist.yuv"
        ref_in="$rawargs -i $corpus/${base}_ref.yuv"
    else
        dis_in="-i $corpus/$dis"
        ref_in="-i $corpus/$ref"
    fi
    return 0
}

# golden PAIR: the %.17g golden if there is one, else the libvmaf filter's
# %.6f log (then our log is written with precision=default); sets gold, prec
golden_of() {
    if [ -f "$golden/hp/$1.json" ]; then
        gold=$golden/hp/$1.json
        prec=max
    elif [ -f "$golden/$1.FROM_FFMPEG.json" ]; then
        gold=$golden/$1.FROM_FFMPEG.json
        prec=default
    else
        return 1
    fi
}

vmafgpu_opts() {
    # $1: log path, $2: precision, $3: extra options
    echo "model=$model_opt:feature=$feature_opt:log_fmt=json:log_path=$1:precision=$2${3:+:$3}"
}

# ---- 1. the patch series is up to date --------------------------------------
rel=${FFMPEG_VERSION:-9.0.2}
if "$top/tools/gen-patches.sh" --check "$rel" > "$w/patches.log" 2>&1; then
    pass "patches: patches/n$rel equals tools/gen-patches.sh output"
else
    fail "patches: patches/n$rel differs from tools/gen-patches.sh output" "$w/patches.log"
fi

# ---- 2. every corpus pair against its golden --------------------------------
for p in $pairs; do
    if ! inputs "$p" || ! golden_of "$p"; then
        fail "golden $p: unknown pair or no golden file"
        continue
    fi
    log=$w/$p.json
    # shellcheck disable=SC2086
    if ! ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$log" "$prec")" \
            -f null - > "$w/$p.out" 2>&1; then
        fail "golden $p: ffmpeg failed" "$w/$p.out"
        continue
    fi
    # shellcheck disable=SC2086
    if "$cmp" "$gold" "$log" $required > "$w/$p.cmp" 2>&1; then
        pass "golden $p: $(tail -n 1 "$w/$p.cmp")"
    else
        fail "golden $p: values differ from $(basename "$gold")" "$w/$p.cmp"
    fi
done

# ---- 3. frame metadata, pass-through, threads --------------------------------
p=r640x360_444p8
inputs $p && golden_of $p
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/meta.json" max),metadata=mode=print:file=$w/meta.txt" \
        -f null - > "$w/meta.out" 2>&1 &&
   "$cmp" --meta "$gold" "$w/meta.txt" $required > "$w/meta.cmp" 2>&1; then
    pass "metadata $p: lavfi.vmafgpu.* on every frame equal the golden"
else
    fail "metadata $p: frame metadata missing or different" "$w/meta.out" "$w/meta.cmp"
fi

# a second vmafgpu on frames the first one scored replaces their values:
# one value per key, the second's (precision=max over the first's %.6f)
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[1:v]split[r1][r2];[0:v][r1]vmafgpu=$(vmafgpu_opts "$w/meta1.json" default)[o];[o][r2]vmafgpu=$(vmafgpu_opts "$w/meta2.json" max),metadata=mode=print:file=$w/meta2.txt" \
        -f null - > "$w/meta2.out" 2>&1 &&
   "$cmp" --meta "$gold" "$w/meta2.txt" $required > "$w/meta2.cmp" 2>&1; then
    pass "metadata $p: a second vmafgpu replaces the first one's values"
else
    fail "metadata $p: a second vmafgpu left other or repeated values" "$w/meta2.out" "$w/meta2.cmp"
fi

# shellcheck disable=SC2086
a=$(ff $dis_in -f rawvideo - 2>/dev/null | md5sum | cut -d' ' -f1)
# shellcheck disable=SC2086
b=$(ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/pt.json" max)" \
    -f rawvideo - 2>"$w/pt.out" | md5sum | cut -d' ' -f1)
if [ -n "$a" ] && [ "$a" = "$b" ] && [ -s "$w/pt.json" ]; then
    pass "passthrough $p: distorted frames unchanged (md5 $a)"
else
    fail "passthrough $p: output md5 $b, distorted input md5 $a" "$w/pt.out"
fi

p=r640x360_422p10
inputs $p && golden_of $p
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/thr.json" max n_threads=2:queue_size=2)" \
        -f null - > "$w/thr.out" 2>&1 &&
   "$cmp" "$gold" "$w/thr.json" $required > "$w/thr.cmp" 2>&1; then
    pass "threads $p: n_threads=2 equals the golden"
else
    fail "threads $p: n_threads=2 differs" "$w/thr.out" "$w/thr.cmp"
fi
# libvmaf takes any n_threads (tools pass the processor count): past our
# pool's limit it is clamped, with a warning, and the scores stay
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/thr-big.json" max n_threads=100000)" \
        -f null - > "$w/thr-big.out" 2>&1 &&
   grep -q "n_threads=100000 is more host threads than vmafgpu runs; using 256" "$w/thr-big.out" &&
   "$cmp" "$w/thr.json" "$w/thr-big.json" $required > "$w/thr-big.cmp" 2>&1; then
    pass "threads $p: n_threads=100000 runs 256 threads with a warning, scores equal n_threads=2's"
else
    fail "threads $p: n_threads=100000 refused, unwarned or different" "$w/thr-big.out" "$w/thr-big.cmp"
fi

# gray: the luma planes of the 4:2:0 pair as gray frames give the golden's
# luma-only metrics (psnr_y, motion, VIF, ADM, vmaf)
p=r577x323_420p8
golden_of $p
for s in ref dist; do
    : > "$w/gray_$s.yuv"
    i=0
    while [ $i -lt 10 ]; do
        dd if="$corpus/raw/r577x323_yuv420p_$s.yuv" bs=280007 skip=$i count=1 2>/dev/null |
            head -c $((577 * 323)) >> "$w/gray_$s.yuv"
        i=$((i + 1))
    done
done
graw="-f rawvideo -pix_fmt gray -video_size 577x323 -framerate 30"
luma=
for k in $required; do
    case $k in psnr_cb|psnr_cr) ;; *) luma="$luma $k" ;; esac
done
# shellcheck disable=SC2086
if ff $graw -i "$w/gray_dist.yuv" $graw -i "$w/gray_ref.yuv" \
        -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/gray.json" "$prec")" -f null - > "$w/gray.out" 2>&1 &&
   "$cmp" "$gold" "$w/gray.json" $luma > "$w/gray.cmp" 2>&1; then
    pass "gray $p: luma metrics equal the golden"
else
    fail "gray $p: luma metrics differ" "$w/gray.out" "$w/gray.cmp"
fi

# plot_path: a valid SVG 1.1 chart (xmllint, with the DTD from the XML
# catalog) with one VMAF curve, a time axis from the input's frame rate
# and the golden's three lowest frames labelled
p=r640x360_444p8
inputs $p && golden_of $p
worst=$(awk '/"frameNum"/ { f = $2 + 0 } /"vmaf": [-0-9]/ { print $2 + 0, f }' "$gold" |
        sort -g | head -n 3 | awk '{ printf "#%s ", $2 }')
got=
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/plot.json" max plot_path=$w/plot.svg)" \
        -f null - > "$w/plot.out" 2>&1 &&
   xmllint --noout --valid --nonet "$w/plot.svg" > "$w/plot.xmllint" 2>&1 &&
   grep -q '<title>distorted (main): vmaf, 10 frames</title>' "$w/plot.svg" &&
   grep -q '>0.1 s</text>' "$w/plot.svg"; then
    got=$(sed -n 's/.*class="worst"[^>]*>\(#[0-9]*\)<.*/\1/p' "$w/plot.svg" | sort | tr '\n' ' ')
fi
if [ -n "$got" ] && [ "$got" = "$(echo "$worst" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')" ]; then
    pass "plot $p: valid SVG 1.1, one vmaf curve, time axis, worst frames $got"
else
    fail "plot $p: chart missing, invalid or wrong (worst frames '$got', want '$worst')" \
        "$w/plot.out" "$w/plot.xmllint"
fi
# a chart that cannot be written: refused when the filter starts
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=plot_path=/nonexistent-dir/x.svg" \
    -f null - > "$w/plot-err.out" 2>&1; then
    fail "plot unwritable: ffmpeg succeeded" "$w/plot-err.out"
elif grep -q "Cannot write the plot_path file '/nonexistent-dir/x.svg'" "$w/plot-err.out"; then
    pass "plot unwritable: $(grep -m 1 'Cannot write the plot_path' "$w/plot-err.out" | sed 's/^\[[^]]*\] //')"
else
    fail "plot unwritable: no message" "$w/plot-err.out"
fi

# ---- models: the -neg model, two models in one instance, pool=max ----------
if [ -n "$model_opt" ]; then
    p=p1080_crf32
    inputs $p
    gold=$golden/hp/${p}__vmaf_v0.6.1neg.json
    # shellcheck disable=SC2086
    if ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model=version=vmaf_v0.6.1neg:log_fmt=json:log_path=$w/neg.json:precision=max" \
            -f null - > "$w/neg.out" 2>&1 &&
       "$cmp" "$gold" "$w/neg.json" vmaf integer_vif_scale0_egl_1 integer_adm2_egl_1 > "$w/neg.cmp" 2>&1; then
        pass "model vmaf_v0.6.1neg $p: $(tail -n 1 "$w/neg.cmp")"
    else
        fail "model vmaf_v0.6.1neg $p: differs from $(basename "$gold")" "$w/neg.out" "$w/neg.cmp"
    fi

    p=r640x360_444p8
    inputs $p && golden_of $p
    want=$("$cmp" --pooled "$gold" vmaf max)
    # shellcheck disable=SC2086
    if ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model='version=vmaf_v0.6.1\\:name=vmaf|version=vmaf_v0.6.1neg\\:name=neg':pool=max:log_fmt=json:log_path=$w/two.json:precision=max" \
            -f null - > "$w/two.out" 2>&1 &&
       grep -q '"neg"' "$w/two.json" &&
       "$cmp" "$gold" "$w/two.json" vmaf > "$w/two.cmp" 2>&1 &&
       grep -q "VMAF score: $want (vmaf)" "$w/two.out" &&
       [ "$(grep -c 'VMAF score: ' "$w/two.out")" = 2 ]; then
        pass "models $p: two models by name, pool=max summary VMAF score: $want"
    else
        fail "models $p: two-model run (expected VMAF score: $want (vmaf) and a neg line)" "$w/two.out" "$w/two.cmp"
    fi
fi

# ---- libvmaf's name: in a build without libvmaf the filter is also
# registered as libvmaf and libvmaf_cuda, and the graphs that metrics
# tools build for libvmaf run verbatim, with libvmaf's numbers ------------
if "$ffmpeg" -hide_banner -filters 2>/dev/null | grep -q ' libvmaf  *VV->V' &&
   "$ffmpeg" -hide_banner -filters 2>/dev/null | grep -q ' libvmaf_cuda  *VV->V' &&
   "$ffmpeg" -hide_banner -h filter=libvmaf 2>/dev/null | grep -q 'the vmafgpu filter under libvmaf' &&
   "$ffmpeg" -hide_banner -h filter=libvmaf 2>/dev/null | grep -q 'log_fmt'; then
    pass "libvmaf name: -filters lists libvmaf and libvmaf_cuda, -h filter=libvmaf says it is vmafgpu"
else
    fail "libvmaf name: libvmaf or libvmaf_cuda missing from -filters or -h"
fi
p=p1080_crf32
inputs $p
# a Python metrics wrapper's graph: settb, setpts, scale, then libvmaf with
# a model file, shortest=1:repeatlast=0
mp=$shared/models/vmaf_v0.6.1.json
# shellcheck disable=SC2086
if ff $dis_in $ref_in -filter_complex "[0:v]settb=AVTB,setpts=PTS-STARTPTS[main];[1:v]settb=AVTB,setpts=PTS-STARTPTS[ref];[main]scale=1920:1080:flags=bicubic[main1];[ref]scale=1920:1080:flags=bicubic[ref1];[main1][ref1]libvmaf='model=path=$mp:log_path=$w/tool1.json:log_fmt=json:n_threads=0:n_subsample=1:shortest=1:repeatlast=0'" \
        -f null - > "$w/tool1.out" 2>&1 &&
   "$cmp" "$golden/$p.json" "$w/tool1.json" vmaf > "$w/tool1.cmp" 2>&1; then
    pass "libvmaf name $p: a wrapper's settb/setpts/scale graph into libvmaf=model=path=..., $(tail -n 1 "$w/tool1.cmp")"
else
    fail "libvmaf name $p: the wrapper's graph failed or differs" "$w/tool1.out" "$w/tool1.cmp"
fi
# an auto-scaling tool's graph: scale and fps, two models by name with
# escaped separators, n_threads of the processor count past our limit; one
# unnamed summary line per model, in model order, as libvmaf prints them
want=$("$cmp" --pooled "$golden/hp/$p.json" vmaf mean)
want_neg=$("$cmp" --pooled "$golden/hp/${p}__vmaf_v0.6.1neg.json" vmaf mean)
# shellcheck disable=SC2086
if ff $dis_in $ref_in -filter_complex "[0:v]scale=1920:1080:flags=bicubic,fps=fps=30[d];[1:v]scale=1920:1080:flags=bicubic,fps=fps=30[r];[d][r]libvmaf=log_fmt=json:model=version=vmaf_v0.6.1\\\\:name=vmaf_hd|version=vmaf_v0.6.1neg\\\\:name=vmaf_hd_neg:n_subsample=1:log_path=$w/tool2.json:n_threads=300:shortest=0:feature=name=psnr" \
        -f null - > "$w/tool2.out" 2>&1 &&
   [ "$(grep -o "VMAF score: .*" "$w/tool2.out" | tr '\n' '|')" = \
     "VMAF score: $want|VMAF score: $want_neg|" ] &&
   grep -q '"psnr_y"' "$w/tool2.json"; then
    pass "libvmaf name $p: an auto-scaling tool's scale/fps graph, two models by name, n_threads=300: $want, $want_neg"
else
    fail "libvmaf name $p: the auto-scaling tool's graph failed or differs (want $want and $want_neg)" "$w/tool2.out"
fi
# the graphs of two encoding tools that score with libvmaf, with n_threads
# of the processor count as they pass it
nt=$(nproc)
# ab-av1's vmaf command with its defaults: distorted then reference, both
# read at -r 25; each converted to the richer of the two pixel formats
# (format=yuv420p here) and no scale (a 1080p distorted input needs none),
# setpts and settb=AVTB; libvmaf with shortest=true, ts_sync_mode=nearest
# and the default model. It reads the score from the summary line, as a
# number to the end of the line
# shellcheck disable=SC2086
if ff -r 25 $dis_in -r 25 $ref_in -filter_complex "[0:v]format=yuv420p,setpts=PTS-STARTPTS,settb=AVTB[dis];[1:v]format=yuv420p,setpts=PTS-STARTPTS,settb=AVTB[ref];[dis][ref]libvmaf=shortest=true:ts_sync_mode=nearest:n_threads=$nt" \
        -an -sn -dn -f null - > "$w/tool3.out" 2>&1 &&
   [ "$(grep -o "VMAF score: .*" "$w/tool3.out")" = "VMAF score: $want" ]; then
    pass "libvmaf name $p: ab-av1's vmaf graph (format, setpts, settb=AVTB, shortest=true, ts_sync_mode=nearest, inputs at -r 25): VMAF score: $want"
else
    fail "libvmaf name $p: ab-av1's vmaf graph failed or differs (want VMAF score: $want)" "$w/tool3.out"
fi
# ab-av1's crf-search and auto-encode score each sample encode with the
# same graph; with their default encoder (libsvtav1, yuv420p10le) both
# inputs go through format=yuv420p10le, so the frames scored are 10-bit
# ones, which have no golden: the run must give one summary line with a
# number, the same as the same graph with vmafgpu for libvmaf
g="[0:v]format=yuv420p10le,setpts=PTS-STARTPTS,settb=AVTB[dis];[1:v]format=yuv420p10le,setpts=PTS-STARTPTS,settb=AVTB[ref];[dis][ref]"
got=
# shellcheck disable=SC2086
if ff -r 25 $dis_in -r 25 $ref_in -filter_complex "${g}libvmaf=shortest=true:ts_sync_mode=nearest:n_threads=$nt" \
        -an -sn -dn -f null - > "$w/tool4.out" 2>&1 &&
   ff -r 25 $dis_in -r 25 $ref_in -filter_complex "${g}vmafgpu=shortest=true:ts_sync_mode=nearest:n_threads=$nt" \
        -an -sn -dn -f null - > "$w/tool4v.out" 2>&1 &&
   [ "$(grep -c "VMAF score: " "$w/tool4.out")" = 1 ] &&
   got=$(grep -o "VMAF score: .*" "$w/tool4.out") &&
   echo "$got" | grep -qx 'VMAF score: [0-9][0-9]*\.[0-9]*' &&
   [ "$got" = "$(grep -o "VMAF score: .*" "$w/tool4v.out")" ]; then
    pass "libvmaf name $p: ab-av1's sample-encode graph with format=yuv420p10le: $got, as vmafgpu's"
else
    fail "libvmaf name $p: ab-av1's yuv420p10le graph failed, gave no score or not vmafgpu's ('$got')" \
        "$w/tool4.out" "$w/tool4v.out"
fi
# Av1an's --vmaf run (the chart of the finished encode) with its defaults:
# the reference decoded by a second ffmpeg into a y4m pipe, both inputs at
# -r 60 with a thread_queue_size; each scaled to --vmaf-res given as one
# size (scale=1920x1080) with flags=bicubic and
# force_original_aspect_ratio=decrease, setpts and setsar=1; libvmaf with a
# quoted log_fmt='json', eof_action=endall, a log_path and no model (the
# default). Its own -loglevel error leaves no summary line: it reads the
# per-frame vmaf of the log. FFmpeg reads an input named - through the fd
# protocol (tools/build-ffmpeg.sh builds it)
# shellcheck disable=SC2086
if ff $ref_in -strict -1 -f yuv4mpegpipe - 2> "$w/tool5.src" |
   ff -loglevel error -thread_queue_size 1024 -r 60 $dis_in -r 60 -i - -filter_complex "[0:v]scale=1920x1080:flags=bicubic:force_original_aspect_ratio=decrease,setpts=PTS-STARTPTS,setsar=1[distorted];[1:v]scale=1920x1080:flags=bicubic:force_original_aspect_ratio=decrease,setpts=PTS-STARTPTS,setsar=1[ref];[distorted][ref]libvmaf=log_fmt='json':eof_action=endall:log_path=$w/tool5.json:n_threads=$nt" \
        -f null - > "$w/tool5.out" 2>&1 &&
   "$cmp" "$golden/$p.json" "$w/tool5.json" vmaf > "$w/tool5.cmp" 2>&1; then
    pass "libvmaf name $p: Av1an's --vmaf graph (y4m pipe, scale=WxH:flags=bicubic:force_original_aspect_ratio, setsar, eof_action=endall), $(tail -n 1 "$w/tool5.cmp")"
else
    fail "libvmaf name $p: Av1an's --vmaf graph failed or differs" "$w/tool5.out" "$w/tool5.src" "$w/tool5.cmp"
fi
# Av1an's target-quality probe with its defaults, for a chunk of the whole
# clip: the chunk's reference piped as y4m with select=between(n\,0\,59)
# and -pix_fmt yuv420p10le (--pix-format), both inputs at the chunk's
# -r 30, scaled as above, and the default model given as a quoted
# model='version=vmaf_v0.6.1' (Av1an names it vmaf_v0.6.1.json, and turns
# any model file name ending in .json into a version). The reference is
# 10-bit, the distorted input 8-bit: libvmaf's formats are common to its
# inputs and output, so FFmpeg negotiates yuv420p for both (as it does for
# psnr) and the reference's scale takes the frames back to 8 bits, exactly:
# libvmaf scores the golden's frames
# shellcheck disable=SC2086
if ff -loglevel error $ref_in -vf 'select=between(n\,0\,59)' -pix_fmt yuv420p10le -strict -1 -f yuv4mpegpipe - 2> "$w/tool6.src" |
   ff -loglevel error -thread_queue_size 1024 -r 30 $dis_in -r 30 -i - -filter_complex "[0:v]scale=1920x1080:flags=bicubic:force_original_aspect_ratio=decrease,setpts=PTS-STARTPTS,setsar=1[distorted];[1:v]scale=1920x1080:flags=bicubic:force_original_aspect_ratio=decrease,setpts=PTS-STARTPTS,setsar=1[ref];[distorted][ref]libvmaf=log_fmt='json':eof_action=endall:log_path=$w/tool6.json:model='version=vmaf_v0.6.1':n_threads=$nt" \
        -f null - > "$w/tool6.out" 2>&1 &&
   "$cmp" "$golden/$p.json" "$w/tool6.json" vmaf > "$w/tool6.cmp" 2>&1; then
    pass "libvmaf name $p: Av1an's target-quality graph (10-bit y4m reference against 8-bit frames, model='version=...'), $(tail -n 1 "$w/tool6.cmp")"
else
    fail "libvmaf name $p: Av1an's target-quality graph failed or differs" "$w/tool6.out" "$w/tool6.src" "$w/tool6.cmp"
fi

# ---- libvmaf's option grammar: under libvmaf's names the options are read
# as vf_libvmaf.c (FFmpeg 7.1 to 9.0) with libvmaf v3.2.0 reads them;
# what libvmaf ignores is ignored with a warning, what it takes but
# vmafgpu cannot is refused with a message naming libvmaf's behaviour ------
p=r640x360_444p8
inputs $p && golden_of $p
# values without a name: libvmaf's option order (log_path, log_fmt, pool,
# n_threads, n_subsample, model, feature), not vmafgpu's
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]libvmaf=$w/lv-pos.json:json:precision=max" \
        -f null - > "$w/lv-pos.out" 2>&1 &&
   "$cmp" "$gold" "$w/lv-pos.json" vmaf > "$w/lv-pos.cmp" 2>&1; then
    pass "libvmaf grammar $p: libvmaf=FILE:json is log_path=FILE:log_fmt=json, $(tail -n 1 "$w/lv-pos.cmp")"
else
    fail "libvmaf grammar $p: values without a name not taken in libvmaf's option order" "$w/lv-pos.out" "$w/lv-pos.cmp"
fi
# a model spelled as av_dict_parse_string() reads it (blanks around keys and
# values, an escaped character), with what libvmaf's filter ignores: an
# unknown key, path= beside version=, enable_transform=1 (only true sets
# it), an option name with a second '.', an extractor that computes no
# model feature (libvmaf matches the CPU extractors): the golden's vmaf
m='version = vmaf_v0.6.1 \: name = v\\maf \: path = /nonexistent/x.json \: enable_transform = 1 \: foo = bar \: vif.vif_enhn_gain_limit.x = 1.0 \: adm_cuda.adm_enhn_gain_limit = 1.2'
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]libvmaf=model='$m':log_fmt=json:log_path=$w/lv-model.json:precision=max" \
        -f null - > "$w/lv-model.out" 2>&1 &&
   "$cmp" "$gold" "$w/lv-model.json" vmaf > "$w/lv-model.cmp" 2>&1 &&
   grep -q "unknown key 'foo' ignored, as libvmaf's filter ignores it" "$w/lv-model.out" &&
   grep -q "path=/nonexistent/x.json ignored: with version=, libvmaf's filter loads the built-in model" "$w/lv-model.out" &&
   grep -q "enable_transform=1 leaves the flag unset, as libvmaf's filter does: it sets it for the value true only" "$w/lv-model.out" &&
   grep -q "libvmaf's vif extractor has no option 'vif_enhn_gain_limit.x'; 'vif.vif_enhn_gain_limit.x=1.0' ignored" "$w/lv-model.out" &&
   grep -q "'adm_cuda.adm_enhn_gain_limit' ignored, as libvmaf's filter ignores it" "$w/lv-model.out"; then
    pass "libvmaf grammar $p: blanks, escapes and what libvmaf ignores in a model (unknown key, path beside version, enable_transform=1, option a.b, adm_cuda.x), with warnings, $(tail -n 1 "$w/lv-model.cmp")"
else
    fail "libvmaf grammar $p: the model spelled as libvmaf reads it refused or differs" "$w/lv-model.out" "$w/lv-model.cmp"
fi
# <extractor>.<option> overloads with numbers libvmaf normalises (1.00,
# 1e0): vmaf_4k_v0.6.1 with both enhancement gain limits at 1 is
# vmaf_4k_v0.6.1neg
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]libvmaf=model='version=vmaf_4k_v0.6.1\\:vif.vif_enhn_gain_limit=1.00\\:adm.adm_enhn_gain_limit=1e0':log_fmt=json:log_path=$w/lv-ovl.json:precision=max" \
        -f null - > "$w/lv-ovl.out" 2>&1 &&
   "$cmp" "$golden/hp/${p}__vmaf_4k_v0.6.1neg.json" "$w/lv-ovl.json" vmaf integer_vif_scale0_egl_1 integer_adm2_egl_1 > "$w/lv-ovl.cmp" 2>&1; then
    pass "libvmaf grammar $p: vmaf_4k_v0.6.1 with vif.vif_enhn_gain_limit=1.00:adm.adm_enhn_gain_limit=1e0 is vmaf_4k_v0.6.1neg, $(tail -n 1 "$w/lv-ovl.cmp")"
else
    fail "libvmaf grammar $p: the overloaded model differs from vmaf_4k_v0.6.1neg" "$w/lv-ovl.out" "$w/lv-ovl.cmp"
fi
# features as libvmaf reads them: options their extractor does not have
# ignored, the null extractor (nothing), vif_cuda (vif's outputs, without
# vif_skip_scale0, which it does not have), an int read by atoi (65.4:
# cambi's default 65) and a double by atof (0.6x: its default 0.6)
f='name=psnr\:enable_chorma=false|name=null|name=vif_cuda\:vif_skip_scale0=true|name=cambi\:window_size=65.4\:topk=0.6x|name=float_ssim\:foo=1'
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]libvmaf=feature='$f':log_fmt=json:log_path=$w/lv-feat.json:precision=max" \
        -f null - > "$w/lv-feat.out" 2>&1 &&
   "$cmp" "$gold" "$w/lv-feat.json" vmaf psnr_y psnr_cb psnr_cr integer_vif_scale0 cambi float_ssim > "$w/lv-feat.cmp" 2>&1 &&
   grep -q "libvmaf's psnr extractor has no option 'enable_chorma'; 'enable_chorma=false' ignored" "$w/lv-feat.out" &&
   grep -q "libvmaf's vif_cuda extractor has no option 'vif_skip_scale0'" "$w/lv-feat.out" &&
   grep -q "window_size=65.4 is read as 65, as libvmaf reads it (atoi)" "$w/lv-feat.out" &&
   grep -q "topk=0.6x is read as 0.6, as libvmaf reads it (atof)" "$w/lv-feat.out" &&
   grep -q "libvmaf's float_ssim extractor has no option 'foo'" "$w/lv-feat.out"; then
    pass "libvmaf grammar $p: features as libvmaf reads them (unknown options, null, vif_cuda, atoi/atof values), $(tail -n 1 "$w/lv-feat.cmp")"
else
    fail "libvmaf grammar $p: the features as libvmaf reads them refused or differ" "$w/lv-feat.out" "$w/lv-feat.cmp"
fi
# n_threads and n_subsample up to UINT_MAX, as libvmaf's filter takes
# them: 4294967295 scores frame 0 only, as n_subsample=10 does on 10 frames
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]libvmaf=n_subsample=4294967295:n_threads=4294967295" \
        -f null - > "$w/lv-umax.out" 2>&1 &&
   ff $dis_in $ref_in -lavfi "[0:v][1:v]libvmaf=n_subsample=10" -f null - > "$w/lv-sub10.out" 2>&1 &&
   grep -q "n_threads=4294967295 is more host threads than vmafgpu runs; using 256" "$w/lv-umax.out" &&
   [ -n "$(grep -o "VMAF score: .*" "$w/lv-sub10.out")" ] &&
   [ "$(grep -o "VMAF score: .*" "$w/lv-umax.out")" = "$(grep -o "VMAF score: .*" "$w/lv-sub10.out")" ]; then
    pass "libvmaf grammar $p: n_subsample=4294967295 scores as n_subsample=10, n_threads=4294967295 runs 256 threads with a warning"
else
    fail "libvmaf grammar $p: n_threads or n_subsample above INT_MAX refused or different" "$w/lv-umax.out" "$w/lv-sub10.out"
fi
# log_path=-: libvmaf's filter writes a file named - (run in $w, with
# ffmpeg's absolute path)
rm -f "$w/-"
ffabs=$(cd "$(dirname "$ffmpeg")" && pwd)/$(basename "$ffmpeg")
# shellcheck disable=SC2086
if (cd "$w" && ffmpeg=$ffabs && ff $dis_in $ref_in -lavfi "[0:v][1:v]libvmaf=log_path=-:log_fmt=json" \
        -f null - > "$w/lv-dash.out" 2>&1) &&
   grep -q '"vmaf"' "$w/-" && ! grep -q '"vmaf"' "$w/lv-dash.out"; then
    pass "libvmaf grammar $p: log_path=- writes a file named -, as libvmaf's filter does"
else
    fail "libvmaf grammar $p: log_path=- wrote no file named -" "$w/lv-dash.out"
fi
rm -f "$w/-"
# what libvmaf takes but vmafgpu refuses: the message names libvmaf's
# behaviour and the reason
# lv_refused NAME TAG REGEX FILTER-OPTIONS
lv_refused() {
    # shellcheck disable=SC2086
    if ff $dis_in $ref_in -lavfi "[0:v][1:v]libvmaf=$4" -f null - > "$w/$2.out" 2>&1; then
        fail "libvmaf grammar $1: ffmpeg succeeded" "$w/$2.out"
    elif grep -E -q -- "$3" "$w/$2.out"; then
        pass "libvmaf grammar $1: $(grep -E -m 1 -- "$3" "$w/$2.out" | sed 's/^\[[^]]*\] //')"
    else
        fail "libvmaf grammar $1: no message matching '$3'" "$w/$2.out"
    fi
}
lv_refused "two models named vmaf" lv-dup \
    "Models 1 and 2 are both named 'vmaf': libvmaf's filter would score the first one only and print its score for both" \
    "model=version=vmaf_v0.6.1|version=vmaf_v0.6.1neg"
lv_refused "a model without version= or path=" lv-nover \
    "Model 'Version=vmaf_v0.6.1' has neither version= nor path=: libvmaf's filter loads no model from it" \
    "model=Version=vmaf_v0.6.1"
# (a level of escapes for the filter graph: the model option reads
# path=/nonexistent/a\:b.json, libvmaf's path /nonexistent/a:b.json)
c='path=/nonexistent/a\\\:b.json'
lv_refused "a model path with a ':'" lv-colon \
    "the path has a ':', which vmafgpu's model specifications cannot carry \(libvmaf's filter takes it, escaped as .:\); refused: link or copy the file to a path without one" \
    "model='$c'"
c='version=vmaf\\\:v0.6.1'
lv_refused "a model version with a ':'" lv-vcolon \
    "no built-in model is named 'vmaf:v0.6.1' \(libvmaf's filter fails on it too\)" \
    "model='$c'"
c='name=cambi\:heatmaps_path=/nonexistent/a\\\:b'
lv_refused "a feature option value with a ':'" lv-fcolon \
    "the value of heatmaps_path, '/nonexistent/a:b', has a ':', which vmafgpu's option lists cannot carry \(libvmaf's filter takes it, escaped as .:\); refused" \
    "feature='$c'"
lv_refused "a model key of dots alone" lv-dots \
    "key '\.\.' names no extractor; libvmaf's filter fails on it too" \
    "model='version=vmaf_v0.6.1\\:..=1'"
lv_refused "a model pair without a value" lv-noval \
    "Could not parse model 'version': it must be ':'-separated key=value pairs, each with a value, as libvmaf's filter requires too" \
    "model=version"
lv_refused "a number libvmaf reads past its end" lv-atof \
    "libvmaf reads topk=0.123456789x as 0.123456789 \(atof, up to the end of the number\), a value vmafgpu reads as 0.123457; give the number alone" \
    "feature='name=cambi\\:topk=0.123456789x'"
lv_refused "a log_path that cannot be written" lv-logpath \
    "Cannot write the log_path file '/nonexistent/vmafgpu/log.xml': No such file or directory \(libvmaf's filter would find it out at the end, after scoring every frame, and exit 0 without a log" \
    "log_path=/nonexistent/vmafgpu/log.xml"

# ---- the output stops first (-frames:v): the log and the summary cover
# exactly the frames passed on, on every run, whatever the timing ----------
if [ -n "$model_opt" ]; then
    p=p1080_crf32
    inputs $p
    # reference: the inputs cut to 10 frames before the filter, which then
    # scores to the end of its inputs
    # shellcheck disable=SC2086
    ff $dis_in $ref_in -lavfi "[0:v]trim=end_frame=10[d];[1:v]trim=end_frame=10[r];[d][r]vmafgpu=$(vmafgpu_opts "$w/cut10.json" max)" \
        -f null - > "$w/cut10.out" 2>&1
    want=$(grep -o 'VMAF score: [0-9.]*' "$w/cut10.out")
    if [ "$(grep -c '"frameNum"' "$w/cut10.json" 2>/dev/null)" != 10 ] || [ -z "$want" ]; then
        fail "frames:v 10 $p: the run on inputs cut to 10 frames failed" "$w/cut10.out"
    else
        bad=0
        runs=0
        # default queue, no queue, worker threads; then -pix_fmt, which
        # inserts a format filter before the encoder, and null filters
        # around the filter, which then is freed after the consumer
        # (worker threads finish frames at varying times: the frame ffmpeg's
        # last peek finds ready, or not, must make no difference)
        for k in 1 2 3 4 5 6 1 2 3 4 5 6; do
            pre= post= out="-f null -" opts=
            case $k in
            2) opts=queue_size=0 ;;
            3) opts=n_threads=2 ;;
            6) opts=n_threads=4:queue_size=2 ;;
            4) opts=queue_size=0 out="-pix_fmt yuv420p -f rawvideo /dev/null" ;;
            5) pre="[0:v]null[d0];[d0]" post=",null" ;;
            esac
            [ -n "$pre" ] || pre="[0:v]"
            runs=$((runs + 1))
            # shellcheck disable=SC2086
            ff $dis_in $ref_in -lavfi "$pre[1:v]vmafgpu=$(vmafgpu_opts "$w/early.json" max "$opts")$post" \
                -frames:v 10 $out > "$w/early.out" 2>&1 &&
                "$cmp" "$w/cut10.json" "$w/early.json" $required > "$w/early.cmp" 2>&1 &&
                grep -q "$want\$" "$w/early.out" && continue
            bad=1
            break
        done
        if [ $bad = 0 ]; then
            pass "frames:v 10 $p: $runs runs, each log holds the 10 frames of the cut inputs, $want"
        else
            fail "frames:v 10 $p: run $runs (case $k) differs from the inputs cut to 10 frames ($want)" \
                "$w/early.out" "$w/early.cmp"
        fi
    fi
fi

# ---- pixel formats: semi-planar and MSB-aligned frames score as the
# planar LSB frames they hold (the forms of NVDEC's CUDA frames, here as
# software frames) --------------------------------------------------------
# fmt_case NAME PAIR CHAIN [OPTS]: both inputs through CHAIN, against the
# golden of PAIR
fmt_case() {
    name=$1 p=$2 chain=$3 opts=${4:-}
    inputs "$p" && golden_of "$p"
    # shellcheck disable=SC2086
    if ff $dis_in $ref_in -lavfi "[0:v]$chain[d];[1:v]$chain[r];[d][r]vmafgpu=$(vmafgpu_opts "$w/fmt.json" "$prec" "$opts")" \
            -v verbose -f null - > "$w/fmt.out" 2>&1 &&
       grep -q "Software frames [0-9x]* ${chain##*=}" "$w/fmt.out" &&
       "$cmp" "$gold" "$w/fmt.json" $required > "$w/fmt.cmp" 2>&1; then
        pass "format $name $p: $(tail -n 1 "$w/fmt.cmp")"
    else
        fail "format $name $p: differs from $(basename "$gold")" "$w/fmt.out" "$w/fmt.cmp"
    fi
}
fmt_case p210 r640x360_422p10 format=p210
fmt_case p012 r352x288_420p12 format=p012
fmt_case "p016 bitdepth=12" r352x288_420p12 format=p016 bitdepth=12
# 8-bit 4:2:2 and MSB-aligned 4:4:4 against the planar frames they come from
# cmp_case NAME PAIR PLANAR-CHAIN FORMAT [OPTS]
cmp_case() {
    name=$1 p=$2 planar=$3 fmt=$4 opts=${5:-}
    inputs "$p"
    # shellcheck disable=SC2086
    if ff $dis_in $ref_in -lavfi "[0:v]$planar[d];[1:v]$planar[r];[d][r]vmafgpu=$(vmafgpu_opts "$w/fmt-a.json" max)" \
            -f null - > "$w/fmt-a.out" 2>&1 &&
       ff $dis_in $ref_in -lavfi "[0:v]$planar,format=$fmt[d];[1:v]$planar,format=$fmt[r];[d][r]vmafgpu=$(vmafgpu_opts "$w/fmt-b.json" max "$opts")" \
            -v verbose -f null - > "$w/fmt-b.out" 2>&1 &&
       grep -q "Software frames [0-9x]* $fmt" "$w/fmt-b.out" &&
       "$cmp" "$w/fmt-a.json" "$w/fmt-b.json" $required > "$w/fmt.cmp" 2>&1; then
        pass "format $name $p: equals the planar frames, $(tail -n 1 "$w/fmt.cmp")"
    else
        fail "format $name $p: differs from the planar frames" "$w/fmt-b.out" "$w/fmt.cmp"
    fi
}
cmp_case nv16 r640x360_422p10 format=yuv422p nv16
cmp_case "yuv444p16 bitdepth=12" r352x288_420p12 format=yuv444p12 yuv444p16 bitdepth=12
if ff -pix_fmts 2>/dev/null | grep -q yuv444p12msb; then
    cmp_case yuv444p12msb r352x288_420p12 format=yuv444p12 yuv444p12msb
    cmp_case yuv444p10msb r640x360_422p10 format=yuv444p10 yuv444p10msb
fi

# ---- containers: the corpus's HEVC pair remuxed (-c copy) into Matroska
# and MPEG-TS scores as the MP4 does -------------------------------------
if ff -h muxer=matroska > /dev/null 2>&1 && ff -h muxer=mpegts > /dev/null 2>&1; then
    p=p720_10
    inputs $p && golden_of $p
    for ext in mkv ts; do
        if ff -i "$corpus/$dis" -c copy "$w/dis.$ext" > "$w/remux.out" 2>&1 &&
           ff -i "$corpus/$ref" -c copy "$w/ref.$ext" >> "$w/remux.out" 2>&1 &&
           ff -i "$w/dis.$ext" -i "$w/ref.$ext" \
               -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/remux.json" "$prec")" \
               -f null - > "$w/remux-score.out" 2>&1 &&
           "$cmp" "$gold" "$w/remux.json" $required > "$w/remux.cmp" 2>&1; then
            pass "container $ext $p: the remuxed pair equals the mp4 golden, $(tail -n 1 "$w/remux.cmp")"
        else
            fail "container $ext $p: the remuxed pair differs or failed" "$w/remux.out" \
                "$w/remux-score.out" "$w/remux.cmp"
        fi
    done
else
    fail "container: no matroska/mpegts muxers in $ffmpeg"
fi

# ---- pairing: a Matroska distorted input (millisecond timestamps) against
# the MP4 reference pairs frames a frame apart, as libvmaf does: the filter
# warns once and counts them; two MP4s do not warn; ts_sync_mode=nearest
# pairs them right (the golden); a reference that ends early repeats its
# last frame, with a warning ----------------------------------------------
apart="more than half a frame interval apart"
if [ -f "$w/dis.mkv" ]; then
    p=p720_10
    inputs $p && golden_of $p
    ff -i "$w/dis.mkv" -i "$corpus/$ref" \
        -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/pair-mkv.json" "$prec")" \
        -f null - > "$w/pair-mkv.out" 2>&1
    n=$(sed -n 's/.* \([0-9]*\) of the [0-9]* frames scored were paired with a reference frame more than half.*/\1/p' \
        "$w/pair-mkv.out")
    if [ "$(grep -c "$apart" "$w/pair-mkv.out")" = 1 ] && [ -n "$n" ] &&
       grep -q "^  \"frames_paired_apart\": $n,\$" "$w/pair-mkv.json"; then
        pass "pairing: mkv against mp4 warns once, with the count ($n) in the summary and the log"
    else
        fail "pairing: mkv against mp4 gave no warning or no count" "$w/pair-mkv.out"
    fi
    if ff -i "$corpus/$dis" -i "$corpus/$ref" \
           -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/pair-mp4.json" "$prec")" \
           -f null - > "$w/pair-mp4.out" 2>&1 &&
       ! grep -q "$apart\|ended first" "$w/pair-mp4.out" &&
       ! grep -q '"frames_' "$w/pair-mp4.json"; then
        pass "pairing: two mp4s give no pairing warning and no count in the log"
    else
        fail "pairing: two mp4s warned or failed" "$w/pair-mp4.out"
    fi
    if ff -i "$w/dis.mkv" -i "$corpus/$ref" \
           -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/pair-near.json" "$prec" ts_sync_mode=nearest)" \
           -f null - > "$w/pair-near.out" 2>&1 &&
       ! grep -q "$apart" "$w/pair-near.out" &&
       "$cmp" "$gold" "$w/pair-near.json" $required > "$w/pair-near.cmp" 2>&1; then
        pass "pairing: ts_sync_mode=nearest gives the golden, $(tail -n 1 "$w/pair-near.cmp")"
    else
        fail "pairing: ts_sync_mode=nearest differs, warned or failed" "$w/pair-near.out" \
            "$w/pair-near.cmp"
    fi
    if ff -i "$corpus/$dis" -i "$corpus/$ref" \
           -lavfi "[1:v]trim=end_frame=25[r];[0:v][r]vmafgpu=$(vmafgpu_opts "$w/pair-rep.json" "$prec")" \
           -f null - > "$w/pair-rep.out" 2>&1 &&
       grep -q "The reference input ended first: its last frame, at 0.800000 s, was scored again against the last 5 of the 30 frames" \
           "$w/pair-rep.out" && ! grep -q "$apart" "$w/pair-rep.out" &&
       grep -q '^  "frames_after_reference_ended": 5,$' "$w/pair-rep.json"; then
        pass "pairing: a reference 5 frames short repeats its last frame, with a warning and the count in the log"
    else
        fail "pairing: no warning for the repeated reference frame" "$w/pair-rep.out"
    fi
else
    fail "pairing: no remuxed Matroska file (the container test failed)"
fi

# ---- option values as libvmaf's filter takes them: a log_fmt it does not
# know writes XML, a pool it does not know pools by the mean, each with a
# warning; pool=max under libvmaf's name pools by the mean too, as there --
p=p720_10
inputs $p
if ff -i "$corpus/$dis" -i "$corpus/$ref" \
       -lavfi "[0:v][1:v]libvmaf=log_fmt=JSON:log_path=$w/names.log:pool=median" \
       -f null - > "$w/names.out" 2>&1 &&
   grep -q '^<VMAF version=' "$w/names.log" &&
   grep -q "log_fmt 'JSON' is none of xml, json, csv and sub: writing XML" "$w/names.out" &&
   grep -q "pool 'median' is none of mean, harmonic_mean, min and max: pooling by the mean" "$w/names.out" &&
   [ -n "$(grep -o "VMAF score: .*" "$w/pair-mp4.out")" ] &&
   [ "$(grep -o "VMAF score: .*" "$w/names.out")" = "$(grep -o "VMAF score: .*" "$w/pair-mp4.out")" ]; then
    pass "option values: log_fmt=JSON writes XML, pool=median pools by the mean, with warnings"
else
    fail "option values: unknown log_fmt / pool not taken as libvmaf takes them" "$w/names.out"
fi
if ff -i "$corpus/$dis" -i "$corpus/$ref" -lavfi "[0:v][1:v]libvmaf=pool=max" \
       -f null - > "$w/poolmax.out" 2>&1 &&
   grep -q "pool=max: libvmaf's filter knows no max and pools by the mean; so does this one under libvmaf's name" "$w/poolmax.out" &&
   [ "$(grep -o "VMAF score: .*" "$w/poolmax.out")" = "$(grep -o "VMAF score: .*" "$w/pair-mp4.out")" ]; then
    pass "option values: pool=max under libvmaf's name pools by the mean, as libvmaf's filter does, with a warning"
else
    fail "option values: pool=max under libvmaf's name not pooled by the mean with a warning" "$w/poolmax.out"
fi

# ---- scale: a distorted input of another size, scaled in the filter, gives
# the scores of the scale filter in front (libswscale, same algorithm,
# accurate_rnd+bitexact); the frames pass through at their own size -------
# scale_case NAME ALG DIS-INPUT REF-INPUT DIS-CHAIN REF-CHAIN W H
#   DIS-CHAIN, REF-CHAIN: filters applied to each input first (trim, ...)
scale_case() {
    name=$1 alg=$2 sdis=$3 sref=$4 dchain=$5 rchain=$6 sw=$7 sh=$8
    # shellcheck disable=SC2086
    if ff $sdis $sref -lavfi "[0:v]$dchain,scale=$sw:$sh:flags=$alg+accurate_rnd+bitexact[d];[1:v]${rchain}[r];[d][r]vmafgpu=$(vmafgpu_opts "$w/sc-a.json" max)" \
            -f null - > "$w/sc-a.out" 2>&1 &&
       ff $sdis $sref -lavfi "[0:v]${dchain}[d];[1:v]${rchain}[r];[d][r]vmafgpu=$(vmafgpu_opts "$w/sc-b.json" max scale=$alg)" \
            -v verbose -f rawvideo "$w/sc-b.yuv" > "$w/sc-b.out" 2>&1 &&
       grep -q "Scaling the distorted (main) frames from [0-9]*x[0-9]* to the reference's ${sw}x$sh: libswscale $alg+accurate_rnd+bitexact" "$w/sc-b.out" &&
       "$cmp" "$w/sc-a.json" "$w/sc-b.json" $required > "$w/sc.cmp" 2>&1 &&
       ff $sdis -vf "$dchain" -f rawvideo "$w/sc-dis.yuv" > "$w/sc-dis.out" 2>&1 &&
       cmp -s "$w/sc-dis.yuv" "$w/sc-b.yuv"; then
        pass "scale $name: equals scale=$sw:$sh:flags=$alg+accurate_rnd+bitexact in front, $(tail -n 1 "$w/sc.cmp"); frames passed on unscaled"
    else
        fail "scale $name: differs from the scale filter in front" "$w/sc-b.out" "$w/sc.cmp"
    fi
}
trim3=trim=end_frame=3
for alg in bicubic bilinear lanczos; do
    scale_case "$alg 960x540 -> 1920x1080" $alg "-i $corpus/p1080_dist_540p_crf28.mp4" \
        "-i $corpus/p1080_ref.mp4" $trim3 $trim3 1920 1080
done
inputs r577x323_420p8
scale_case "bicubic 577x323 -> 576x322 (odd, down)" bicubic "$dis_in" "$ref_in" \
    null crop=576:322:0:0 576 322
inputs r640x360_422p10
scale_case "lanczos 426x240 -> 640x360 yuv422p10" lanczos "$dis_in" "$ref_in" \
    scale=426:240:flags=area null 640 360

# the library's scaling (the CUDA frames' path, and the CLI's --scale):
# sample for sample libswscale's, on generated cases and on every frame of
# the corpus rendition, in its decoded format and as nv12
scalecmp_gen "scale, the library's arithmetic"
if [ -x "$w/scalecmp" ]; then
    for fmt in yuv420p nv12; do
        for alg in bicubic lanczos; do
            if ff -i "$corpus/p1080_dist_540p_crf28.mp4" -pix_fmt $fmt -f rawvideo \
                    "$w/r540.yuv" > "$w/r540.out" 2>&1 &&
               "$w/scalecmp" "$w/r540.yuv" $fmt 960x540 1920x1080 $alg > "$w/r540.cmp" 2>&1; then
                pass "scale, the library's arithmetic: $(sed -n 's|^PASS [^:]*: ||p' "$w/r540.cmp") (p1080_dist_540p_crf28)"
            else
                fail "scale, the library's arithmetic: p1080_dist_540p_crf28 $fmt $alg" "$w/r540.out" "$w/r540.cmp"
            fi
        done
    done
fi
# the CLI's --scale (the library on the CPU) scores as the filter's scale
# option (libswscale), every value of 20 frames
if [ -n "${VMAFGPU:-}" ] && [ -x "$VMAFGPU" ]; then
    if ff -i "$corpus/p1080_dist_540p_crf28.mp4" -frames:v 20 "$w/sc-d.y4m" > "$w/sc-y4m.out" 2>&1 &&
       ff -i "$corpus/p1080_ref.mp4" -frames:v 20 "$w/sc-r.y4m" >> "$w/sc-y4m.out" 2>&1 &&
       ff -i "$w/sc-d.y4m" -i "$w/sc-r.y4m" -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/sc-ff.json" max scale=lanczos)" \
            -f null - >> "$w/sc-y4m.out" 2>&1 &&
       "$VMAFGPU" -r "$w/sc-r.y4m" -d "$w/sc-d.y4m" --scale lanczos --feature psnr \
            --json --precision max -o "$w/sc-cli.json" -q --threads 2 > "$w/sc-cli.out" 2>&1 &&
       "$cmp" "$w/sc-ff.json" "$w/sc-cli.json" $required > "$w/sc-cli.cmp" 2>&1; then
        pass "scale, CLI --scale lanczos 960x540 -> 1920x1080 equals the filter's scale=lanczos, $(tail -n 1 "$w/sc-cli.cmp")"
    else
        fail "scale, CLI --scale lanczos differs from the filter's scale=lanczos" "$w/sc-y4m.out" "$w/sc-cli.out" "$w/sc-cli.cmp"
    fi
    # without psnr no feature reads chroma, and the library scales the
    # luma plane alone
    if "$VMAFGPU" -r "$w/sc-r.y4m" -d "$w/sc-d.y4m" --scale lanczos \
            --json --precision max -o "$w/sc-cli-y.json" -q --threads 2 > "$w/sc-cli-y.out" 2>&1 &&
       "$cmp" "$w/sc-ff.json" "$w/sc-cli-y.json" vmaf integer_vif_scale0 integer_adm2 > "$w/sc-cli-y.cmp" 2>&1; then
        pass "scale, CLI --scale lanczos without chroma features (luma scaled alone) equals the filter's scale=lanczos, $(tail -n 1 "$w/sc-cli-y.cmp")"
    else
        fail "scale, CLI --scale lanczos without chroma features differs from the filter's scale=lanczos" "$w/sc-cli-y.out" "$w/sc-cli-y.cmp"
    fi
fi

# scale set, inputs of one size: nothing is scaled, the golden values
p=r577x323_420p8
inputs $p && golden_of $p
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=$(vmafgpu_opts "$w/sc-noop.json" "$prec" scale=bicubic)" \
        -v verbose -f null - > "$w/sc-noop.out" 2>&1 &&
   grep -q "scale=bicubic: the inputs have the same size, 577x323; nothing to scale" "$w/sc-noop.out" &&
   ! grep -q "Scaling the distorted" "$w/sc-noop.out" &&
   "$cmp" "$gold" "$w/sc-noop.json" $required > "$w/sc-noop.cmp" 2>&1; then
    pass "scale no-op $p: scale=bicubic with inputs of one size equals the golden, $(tail -n 1 "$w/sc-noop.cmp")"
else
    fail "scale no-op $p: logged no no-op or differs from the golden" "$w/sc-noop.out" "$w/sc-noop.cmp"
fi

# ---- 4. errors: non-zero exit and a message naming the cause -----------------
# expect_error NAME REGEX FFMPEG-ARGS...
expect_error() {
    name=$1 re=$2
    shift 2
    if ff "$@" -f null - > "$w/err.out" 2>&1; then
        fail "error $name: ffmpeg succeeded" "$w/err.out"
    elif grep -E -q -- "$re" "$w/err.out"; then
        pass "error $name: $(grep -E -m 1 -- "$re" "$w/err.out" | sed 's/^\[[^]]*\] //')"
    else
        fail "error $name: no message matching '$re'" "$w/err.out"
    fi
}

p=r577x323_420p8
inputs $p
# shellcheck disable=SC2086
expect_error "size mismatch" "Input sizes differ: distorted \(main\) is 577x323, reference is 576x322; set the scale option \(scale=bicubic, bilinear, lanczos, ...\)" \
    $dis_in $ref_in -lavfi "[1:v]crop=576:322:0:0[r];[0:v][r]vmafgpu=model=:feature=name=psnr"
# shellcheck disable=SC2086
expect_error "size mismatch, scale=none" "Input sizes differ: distorted \(main\) is 577x323, reference is 576x322; set the scale option" \
    $dis_in $ref_in -lavfi "[1:v]crop=576:322:0:0[r];[0:v][r]vmafgpu=model=:feature=name=psnr:scale=none"
# shellcheck disable=SC2086
expect_error "unknown scale algorithm" "Unknown scale algorithm 'cubic'; valid are: none, fast_bilinear, bilinear, bicubic, neighbor, area, bicublin, gauss, sinc, lanczos, spline" \
    $dis_in $ref_in -lavfi "[1:v]crop=576:322:0:0[r];[0:v][r]vmafgpu=model=:feature=name=psnr:scale=cubic"
# shellcheck disable=SC2086
expect_error "frame size change, scale=bicubic" "Frame size changed: distorted \(main\) 288x180, reference 577x323; configured: distorted 320x180, reference 577x323" \
    $dis_in $ref_in -lavfi "[0:v]scale=w='if(lt(n\,3)\,320\,288)':h=180:eval=frame[d];[d][1:v]vmafgpu=model=:feature=name=psnr:scale=bicubic"
# shellcheck disable=SC2086
expect_error "format mismatch" "Input formats differ: distorted \(main\) is yuv420p, reference is yuv444p" \
    $dis_in $ref_in -lavfi "[1:v]format=yuv444p[r];[0:v][r]vmafgpu=model=:feature=name=psnr"
# shellcheck disable=SC2086
expect_error "bit depth mismatch" "Input formats differ: distorted \(main\) is yuv420p10le, reference is yuv420p" \
    $dis_in $ref_in -lavfi "[0:v]format=yuv420p10le[d];[d][1:v]vmafgpu=model=:feature=name=psnr"
# shellcheck disable=SC2086
expect_error "bitdepth on LSB-aligned frames" "bitdepth=12 applies to p016, p216 and yuv444p16 inputs only; the inputs are yuv420p, 8-bit" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model=:feature=name=psnr:bitdepth=12"
# shellcheck disable=SC2086
expect_error "bad model" "Could not load model 'version=no_such_model'" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model=version=no_such_model"
# shellcheck disable=SC2086
expect_error "bad feature" "Could not use feature 'no_such_feature'" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model=:feature=name=no_such_feature"
# shellcheck disable=SC2086
expect_error "bad feature option" "Could not use feature 'psnr' with options 'no_such_option=1'" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model=:feature='name=psnr\\:no_such_option=1'"
# shellcheck disable=SC2086
expect_error "feature without name" "Feature 'eps=1' has no name=" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model=:feature=eps=1"
# shellcheck disable=SC2086
expect_error "bad option" "Error applying option 'no_such_option' to filter 'vmafgpu'" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=no_such_option=1"
# shellcheck disable=SC2086
expect_error "negative n_threads" "Value -1.* for parameter 'n_threads' out of range" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model=:feature=name=psnr:n_threads=-1"
# shellcheck disable=SC2086
expect_error "bad log_fmt" "Invalid log_fmt 'yaml'" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=log_fmt=yaml"
# shellcheck disable=SC2086
expect_error "bad pool" "Invalid pool 'median'" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=pool=median"

# outputs that cannot be written: refused when the filter starts, before
# any frame is scored
# shellcheck disable=SC2086
expect_error "log_path in a missing folder" "Cannot write the log_path file '/nonexistent/vmafgpu/log.xml': No such file or directory" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=model=:feature=name=psnr:log_path=/nonexistent/vmafgpu/log.xml"
if grep -q "psnr_y:\|VMAF score" "$w/err.out"; then
    fail "error log_path in a missing folder: frames were scored first" "$w/err.out"
fi
# shellcheck disable=SC2086
expect_error "plot_path a folder" "Cannot write the plot_path file '$w': Is a directory" \
    $dis_in $ref_in -lavfi "[0:v][1:v]vmafgpu=plot_path=$w"
# a run that fails leaves a log already there as it was: the check appends
# nothing
printf 'an earlier log\n' > "$w/kept.xml"
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[1:v]format=yuv444p[r];[0:v][r]vmafgpu=model=:feature=name=psnr:log_path=$w/kept.xml" \
    -f null - > "$w/kept.out" 2>&1; then
    fail "a failed run keeps the earlier log: ffmpeg succeeded" "$w/kept.out"
elif [ "$(cat "$w/kept.xml")" = "an earlier log" ]; then
    pass "a failed run keeps the earlier log"
else
    fail "a failed run keeps the earlier log: it changed" "$w/kept.xml"
fi
# and makes no new log or chart
# shellcheck disable=SC2086
if ff $dis_in $ref_in -lavfi "[1:v]format=yuv444p[r];[0:v][r]vmafgpu=model=:feature=name=psnr:log_path=$w/new.xml:plot_path=$w/new.svg" \
    -f null - > "$w/new.out" 2>&1; then
    fail "a failed run makes no new log: ffmpeg succeeded" "$w/new.out"
elif [ -e "$w/new.xml" ] || [ -e "$w/new.svg" ]; then
    fail "a failed run makes no new log: $(ls "$w"/new.xml "$w"/new.svg 2>/dev/null | tr '\n' ' ')left behind"
else
    pass "a failed run makes no new log or chart"
fi

echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
