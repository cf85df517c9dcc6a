#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The patched ffmpeg's vmafgpu filter on an NVIDIA GPU:
#  - NVDEC-decoded corpus pairs (nv12; p010 for p720_10), read in place by
#    the CUDA backend, give the golden (= CPU) values exactly;
#  - software frames uploaded with hwupload (one -filter_hw_device) give
#    them too, and so do inputs from two CUDA contexts on one GPU (two
#    hwupload_cuda, or two -hwaccel_device), whose reference frames the
#    filter copies; inputs on two GPUs are refused (tested with two GPUs);
#  - the vmaf_v1.0.16 models (VG_GPU_V1_MODELS) on NVDEC frames give
#    libvmaf's model goldens;
#  - two vmafgpu instances in one graph both give them;
#  - CUDA inputs of different sizes without the scale option are refused
#    (tests/fate/gpu-scale.sh tests the option on CUDA frames);
#  - throughput: NVDEC decode of the pair alone and with vmafgpu, and frames
#    decoded once and replayed from GPU memory (loop) alone and with vmafgpu.
# Prints one line per test and "N passed, N failed"; exits 77 without a
# usable GPU unless VG_REQUIRE_GPU=1 (then the missing GPU is a failure).
#
# Usage: tests/fate/gpu.sh [FFMPEG]
# Environment:
#   FFMPEG, VG_SHARED_DIR, VG_FATE_FEATURES, VG_FATE_MODELS as in run.sh
#   VG_CORPUS_DIR   encoded/raw corpus (default $VG_SHARED_DIR/corpus)
#   VG_GOLDEN_DIR   golden logs (default $VG_SHARED_DIR/golden)
#   VG_GPU_PAIRS    NVDEC pairs (default: p1080_crf32 p1080_scaled p2160 p720_10)
#   VG_GPU_V1_MODELS v1.0.16 models run on each pair (default: vmaf_v1.0.16_3d0h
#                   vmaf_v1.0.16_hfr_3d0h)
#   VG_BENCH_LOOPS  extra passes of each input for the throughput runs (default 4)
#   VG_REPLAY_LOOPS extra passes of the frames replayed from GPU memory (default 199)
#   VG_N_THREADS    host threads for features without a CUDA kernel (default: nproc)
#   JSONCMP         a built tests/fate/jsoncmp (default: built here with cc)
#   VG_FATE_WORK    work directory (default: a temporary one, removed)

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
corpus=${VG_CORPUS_DIR:-$shared/corpus}
golden=${VG_GOLDEN_DIR:-$shared/golden}
ffmpeg=${1:-${FFMPEG:-}}
[ -n "$ffmpeg" ] || ffmpeg=${FFMPEG_BUILD_DIR:-$PWD/ffmpeg-n9.0.2}/ffmpeg
features=${VG_FATE_FEATURES:-psnr motion vif adm}
models=${VG_FATE_MODELS:-vmaf_v0.6.1}
pairs=${VG_GPU_PAIRS:-p1080_crf32 p1080_scaled p2160 p720_10}
loops=${VG_BENCH_LOOPS:-4}
replay=${VG_REPLAY_LOOPS:-199}
nthr=${VG_N_THREADS:-$(nproc)}

fate_name=fate-gpu
# shellcheck source=tests/fate/lib.sh
. "$top/tests/fate/lib.sh"
hw="-init_hw_device cuda=gpu -filter_hw_device gpu"
dec="-hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda"

# ---- a usable GPU? ------------------------------------------------------------
require_gpu

golden_of() {
    gold=$golden/hp/$1.json
    [ -f "$gold" ]
}

frames_of() {
    case $1 in
    p2160) echo 30 ;;
    *)     echo 60 ;;
    esac
}

encoded() {
    case $1 in
    p1080_crf32)  dis=p1080_dist_crf32.mp4;       ref=p1080_ref.mp4 ;;
    p1080_scaled) dis=p1080_dist_scaled.mp4;      ref=p1080_ref.mp4 ;;
    p2160)        dis=p2160_dist_x265crf30.mp4;   ref=p2160_ref.mp4 ;;
    p720_10)      dis=p720_10_dist_x265crf30.mp4; ref=p720_10_ref.mp4 ;;
    *) return 1 ;;
    esac
}

opts() {
    echo "model=$model_opt:feature=$feature_opt:log_fmt=json:log_path=$1:precision=max:n_threads=$nthr${2:+:$2}"
}

# check NAME LOG OUT: the log equals the golden, and the CUDA backend ran
check() {
    if ! grep -q "cuda engine" "$3"; then
        fail "$1: the CUDA backend did not run" "$3"
    elif "$cmp" "$gold" "$2" $required > "$2.cmp" 2>&1; then
        pass "$1: $(tail -n 1 "$2.cmp")"
    else
        fail "$1: values differ from the golden" "$2.cmp"
    fi
}

# run_check NAME TAG NOTICE FFMPEG-ARGS...: ffmpeg writes $w/TAG.json, which
# must equal the golden, and its verbose output ($w/TAG.out) must hold NOTICE;
# the result names the frames the filter saw
run_check() {
    name=$1 tag=$2 notice=$3
    shift 3
    if ! ff -v verbose "$@" > "$w/$tag.out" 2>&1; then
        fail "$name: ffmpeg failed" "$w/$tag.out"
    elif ! grep -q "$notice" "$w/$tag.out"; then
        fail "$name: '$notice' not in the output" "$w/$tag.out"
    else
        fmt=$(grep -o -m 1 "CUDA frames [0-9x]* [a-z0-9]*" "$w/$tag.out")
        check "$name (${fmt:-?})" "$w/$tag.json" "$w/$tag.out"
    fi
}
two_ctx="CUDA inputs come from two contexts on device 0"

# ---- 1. NVDEC frames, read in place ---------------------------------------------
for p in $pairs; do
    encoded "$p" && golden_of "$p" || { fail "nvdec $p: unknown pair"; continue; }
    # shellcheck disable=SC2086
    run_check "nvdec $p" "nv_$p" "CUDA frames" $hw $dec -i "$corpus/$dis" \
        $dec -i "$corpus/$ref" \
        -lavfi "[0:v][1:v]vmafgpu=$(opts "$w/nv_$p.json" backend=cuda)" -f null -
done

# ---- 1b. the vmaf_v1.0.16 models on NVDEC frames ---------------------------------
# cambi, speed_chroma, adm3 with the blended CSF, motion3 (five-frame window
# and moving average for _hfr_) and the chroma correction, every frame
# against libvmaf's model golden
required_v06=$required
required="vmaf cambi_hrs_1080_cmxv_17_vlt_0.06"
for p in $pairs; do
    encoded "$p" || continue
    for m in ${VG_GPU_V1_MODELS:-vmaf_v1.0.16_3d0h vmaf_v1.0.16_hfr_3d0h}; do
        gold=$golden/hp/${p}__$m.json
        [ -f "$gold" ] || continue
        # shellcheck disable=SC2086
        run_check "nvdec $p $m" "v1_${p}_$m" "CUDA frames" $hw $dec -i "$corpus/$dis" \
            $dec -i "$corpus/$ref" \
            -lavfi "[0:v][1:v]vmafgpu=model=version=$m:log_fmt=json:log_path=$w/v1_${p}_$m.json:precision=max:n_threads=$nthr:backend=cuda" \
            -f null -
    done
done
required=$required_v06

# ---- 2. software decode + upload into the filter device ----------------------------
for p in p720_10 p1080_crf32; do
    encoded "$p" && golden_of "$p" || continue
    # shellcheck disable=SC2086
    run_check "hwupload $p" "up_$p" "CUDA frames" $hw -i "$corpus/$dis" -i "$corpus/$ref" \
        -lavfi "[0:v]hwupload[d];[1:v]hwupload[r];[d][r]vmafgpu=$(opts "$w/up_$p.json")" \
        -f null -
done

# one hwupload_cuda per input: two CUDA contexts on one GPU; the reference
# frames are copied into the distorted input's context
for p in p720_10 p1080_crf32; do
    encoded "$p" && golden_of "$p" || continue
    run_check "hwupload_cuda x2 $p, two contexts, reference copied" "upc_$p" \
        "$two_ctx" -i "$corpus/$dis" -i "$corpus/$ref" \
        -lavfi "[0:v]hwupload_cuda[d];[1:v]hwupload_cuda[r];[d][r]vmafgpu=$(opts "$w/upc_$p.json")" \
        -f null -
done

# ---- 3. two instances in one graph -------------------------------------------------
p=p1080_crf32
encoded $p && golden_of $p
# shellcheck disable=SC2086
if ff -v verbose $hw $dec -i "$corpus/$dis" $dec -i "$corpus/$ref" \
        -filter_complex "[0:v]split[d1][d2];[1:v]split[r1][r2];[d1][r1]vmafgpu=$(opts "$w/two_a.json")[o1];[d2][r2]vmafgpu=$(opts "$w/two_b.json" queue_size=0)[o2]" \
        -map "[o1]" -f null - -map "[o2]" -f null - > "$w/two.out" 2>&1; then
    check "two instances $p (1)" "$w/two_a.json" "$w/two.out"
    check "two instances $p (2)" "$w/two_b.json" "$w/two.out"
else
    fail "two instances $p: ffmpeg failed" "$w/two.out"
fi

# ---- 3b. frame metadata on CUDA frames: every frame, golden values ------------------
# shellcheck disable=SC2086
if ff $hw $dec -i "$corpus/$dis" $dec -i "$corpus/$ref" \
        -lavfi "[0:v][1:v]vmafgpu=$(opts "$w/meta.json"),metadata=mode=print:file=$w/meta.txt" \
        -f null - > "$w/meta.out" 2>&1 &&
   "$cmp" --meta "$gold" "$w/meta.txt" $required > "$w/meta.cmp" 2>&1; then
    pass "metadata $p: lavfi.vmafgpu.* on every CUDA frame equal the golden"
else
    fail "metadata $p: frame metadata missing or different" "$w/meta.out" "$w/meta.cmp"
fi
# for information: with queue_size=0 frames leave at once, with what is ready
# shellcheck disable=SC2086
ff $hw $dec -i "$corpus/$dis" $dec -i "$corpus/$ref" \
    -lavfi "[0:v][1:v]vmafgpu=$(opts "$w/meta0.json" queue_size=0),metadata=mode=print:file=$w/meta0.txt" \
    -f null - > "$w/meta0.out" 2>&1
echo "INFO metadata $p queue_size=0: $(grep -c '^lavfi.vmafgpu.vmaf=' "$w/meta0.txt" 2>/dev/null) of $(grep -c '"frameNum"' "$w/meta0.json" 2>/dev/null) frames carry lavfi.vmafgpu.vmaf"

# ---- 4. CUDA frames from a CPU backend: refused ------------------------------------
# shellcheck disable=SC2086
run_refused "backend=cpu on CUDA frames" cpu "backend=cpu cannot read CUDA frames" \
    $hw $dec -i "$corpus/$dis" $dec -i "$corpus/$ref" \
    -lavfi "[0:v][1:v]vmafgpu=backend=cpu" -f null -

# ---- 4a. CUDA inputs of different sizes without the scale option: refused,
# naming it (tests/fate/gpu-scale.sh scales them) ----------------------------
# shellcheck disable=SC2086
run_refused "CUDA inputs of different sizes, no scale option" cudasize \
    "Input sizes differ: distorted (main) is 960x540, reference is 1920x1080; set the scale option" \
    $hw $dec -i "$corpus/p1080_dist_540p_crf28.mp4" $dec -i "$corpus/p1080_ref.mp4" \
    -lavfi "[0:v][1:v]vmafgpu" -f null -

# ---- 4b. NVDEC inputs from two CUDA contexts on one GPU: scored exactly -----------
for p in p1080_crf32 p720_10; do
    encoded "$p" && golden_of "$p" || continue
    run_check "two CUDA contexts $p, nvdec, reference copied" "ctx_$p" \
        "$two_ctx" -init_hw_device cuda=a:0 -init_hw_device cuda=b:0 \
        -hwaccel cuda -hwaccel_device a -hwaccel_output_format cuda -i "$corpus/$dis" \
        -hwaccel cuda -hwaccel_device b -hwaccel_output_format cuda -i "$corpus/$ref" \
        -lavfi "[0:v][1:v]vmafgpu=$(opts "$w/ctx_$p.json")" -f null -
done

# ---- 4c. inputs on two GPUs: refused, naming both -----------------------------------
p=p720_10
encoded $p
if ff -init_hw_device cuda=x:1 -f rawvideo -video_size 16x16 -pix_fmt yuv420p \
        -i /dev/zero -frames:v 1 -f null - > "$w/gpu1.out" 2>&1; then
    run_refused "two GPUs, naming both sides" gpus \
        "CUDA inputs are on different GPUs: distorted (main) on device 0 (.*), reference on device 1" \
        -init_hw_device cuda=a:0 -init_hw_device cuda=b:1 \
        -hwaccel cuda -hwaccel_device a -hwaccel_output_format cuda -i "$corpus/$dis" \
        -hwaccel cuda -hwaccel_device b -hwaccel_output_format cuda -i "$corpus/$ref" \
        -lavfi "[0:v][1:v]vmafgpu" -f null -
else
    echo "SKIP two GPUs: this machine has one CUDA device"
fi

# ---- 5. throughput ---------------------------------------------------------------------
now() {
    date +%s.%N
}
# bench LABEL FFMPEG-ARGS...: prints frames, seconds and fps
bench() {
    label=$1
    shift
    t0=$(now)
    if ff "$@" > "$w/bench.out" 2>&1; then
        t1=$(now)
        n=$(grep -o "frame= *[0-9]*" "$w/bench.out" | tail -n 1 | tr -dc 0-9)
        awk -v l="$label" -v n="$n" -v a="$t0" -v b="$t1" \
            'BEGIN { printf "BENCH %-44s %5d frames %7.2f s %8.1f fps\n", l, n, b - a, n / (b - a) }'
    else
        echo "BENCH $label: failed"
        tail -n 5 "$w/bench.out"
    fi
}
for p in p1080_crf32 p2160; do
    encoded "$p" || continue
    in="$dec -stream_loop $loops -i $corpus/$dis $dec -stream_loop $loops -i $corpus/$ref"
    # shellcheck disable=SC2086
    bench "$p nvdec decode only" $hw $in -map 0:v -map 1:v -f null -
    # shellcheck disable=SC2086
    bench "$p nvdec + vmafgpu psnr+motion" $hw $in \
        -lavfi "[0:v][1:v]vmafgpu=model=:feature=name=psnr|name=motion" -f null -
    # shellcheck disable=SC2086
    bench "$p nvdec + vmafgpu vmaf+psnr" $hw $in \
        -lavfi "[0:v][1:v]vmafgpu=model=version=vmaf_v0.6.1:feature=name=psnr:n_threads=$nthr" -f null -
    # decoding taken out: each input's frames decoded once into GPU memory
    # (extra decoder surfaces keep them there) and replayed by loop
    nf=$(frames_of "$p")
    rp="-extra_hw_frames $((nf + 4)) $dec"
    lp="loop=loop=$replay:size=$nf:start=0"
    # shellcheck disable=SC2086
    bench "$p nvdec once, replay only" $hw $rp -i "$corpus/$dis" $rp -i "$corpus/$ref" \
        -filter_complex "[0:v]$lp[d];[1:v]$lp[r]" -map "[d]" -map "[r]" -f null -
    # shellcheck disable=SC2086
    bench "$p replay + vmafgpu psnr+motion" $hw $rp -i "$corpus/$dis" $rp -i "$corpus/$ref" \
        -filter_complex "[0:v]$lp[d];[1:v]$lp[r];[d][r]vmafgpu=model=:feature=name=psnr|name=motion" -f null -
    # shellcheck disable=SC2086
    bench "$p replay + vmafgpu vmaf+psnr" $hw $rp -i "$corpus/$dis" $rp -i "$corpus/$ref" \
        -filter_complex "[0:v]$lp[d];[1:v]$lp[r];[d][r]vmafgpu=model=version=vmaf_v0.6.1:feature=name=psnr:n_threads=$nthr" -f null -
    # the same on the CPU, for comparison
    in="-stream_loop $loops -i $corpus/$dis -stream_loop $loops -i $corpus/$ref"
    # shellcheck disable=SC2086
    bench "$p sw decode only" $in -map 0:v -map 1:v -f null -
    # shellcheck disable=SC2086
    bench "$p sw decode + vmafgpu cpu vmaf+psnr ($nthr thr)" $in \
        -lavfi "[0:v][1:v]vmafgpu=backend=cpu:model=version=vmaf_v0.6.1:feature=name=psnr:n_threads=$nthr" -f null -
done

echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
