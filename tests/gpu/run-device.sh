#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The CUDA backend's checks on a machine with a GPU but without our build
# dependencies, in two steps:
#
#   tests/gpu/run-device.sh prepare [BUILD_DIR]
#       on the build machine, from any directory: configures (once,
#       --disable-shared, so libvmafgpu is linked in) and builds the GPU
#       programs in BUILD_DIR (default: ../build-cuda-device next to the
#       source tree), then fills the carry folder .devcarry-cuda/ in the
#       source tree with them, the non-glibc shared libraries they need,
#       the raw corpus pairs and their goldens. The folder is listed in
#       .git/info/exclude. VG_CARRY_ROOT puts it into another checkout.
#
#   sh tests/gpu/run-device.sh run
#       on the GPU machine, from the repository root, with .devcarry-cuda/
#       carried along: the loader test, the parity programs with a GPU
#       required (what `make check-gpu` runs: the parallel
#       sequential sums of tests/gpu/test_seqsum and test_f32sum, the scaling of distorted
#       pictures of tests/gpu/test_scale, and checkasm, each
#       feature alone and the whole-API cases of its test api, ciede
#       again with VG_CIEDE_RECORDS=0; checkasm --test=api also runs
#       alone first), compute-sanitizer memcheck on the api test and on
#       checkasm --quick, racecheck and synccheck on samples of the api
#       test's cases,
#       the CLI with --backend cuda on the raw corpus pairs against the
#       goldens (every per-frame and pooled value of every key the golden
#       and the run share: vmaf_v0.6.1's features and vmaf, plus the
#       features named in CLI_FEATURES, default psnr), the driver-fault sweep on the real driver
#       (tests/gpu/test_fault --real, every FAULT_SAMPLE-th call, default
#       8), eight contexts in eight threads (tests/gpu/threads8), and the
#       benchmarks (checkasm --bench among them). Logs go to $OUT when
#       set; CHECKASM_SEED repeats a run. Exit status 0
#       when every step passed.
#
#   sh tests/gpu/run-device.sh run-parity | run-rest
#       the same in two calls, for a machine that limits a command's time:
#       run-parity the loader test and what `make check-gpu` runs (full
#       checkasm takes about seven minutes on an H200), run-rest all the
#       rest.
#
#   sh tests/gpu/run-device.sh run-host
#       for a change to the host code alone, the kernels unchanged since
#       the last full run (about four minutes): the loader test,
#       checkasm --test=api and its memcheck on the quick cases, the sequential sums, the
#       scaler, checkasm --quick, the CLI against the goldens and chunked
#       scoring (tests/fate/chunks.sh), the fault sweep and threads8.
#
#   sh tests/gpu/run-device.sh ladder
#       on the GPU machine, with .devcarry-cuda/ carried along: ladders
#       (tests/fate/ladder.sh with --backend cuda: each rendition's log
#       equals its pair run's) and tests/bench/ladderbench (a ladder
#       context against five pair contexts, CUDA and CPU; LADDERBENCH_FRAMES,
#       LADDERBENCH_CPU_FRAMES). run-host and run-rest run both as well.
#
#   sh tests/gpu/run-device.sh features FEATURE...
#       on the GPU machine, with .devcarry-cuda/ carried along: checkasm
#       --test=FEATURE and its memcheck (--quick) for each, then the
#       vmaf_v1.0.16 models through the CLI with --backend cuda against
#       their goldens (CLI_MODELS picks models: a v1.0.16 suffix such as
#       3d0h, or a whole name such as vmaf_float_v0.6.1; NO_CLI=1 leaves
#       them out; CHECKASM_ARGS, e.g.
#       --quick, go to the first checkasm run).
#
#   tests/gpu/run-device.sh prepare-soak [BUILD_DIR]
#       on the build machine: the same build, installed into
#       BUILD_DIR/prefix, and the patched static ffmpeg built against it
#       (tools/build-ffmpeg.sh, into BUILD_DIR/ffmpeg); fills the carry
#       folder .devcarry-soak/ with ffmpeg and the p1080_crf32 pair.
#
#   sh tests/gpu/run-device.sh soak | soak-memcheck
#       on the GPU machine, with .devcarry-soak/ carried along:
#       tests/fate/soak.sh (SOAK_SECONDS, default 600, of replayed NVDEC
#       frames through three filter instances, device memory and RSS
#       sampled into $OUT/soak.csv), or its memcheck variant (a short clip
#       under compute-sanitizer). Exit status 0 on PASS.
#
#   tests/gpu/run-device.sh prepare-bench [BUILD_DIR]
#       on the build machine: the ffmpeg of prepare-soak, vmafbench, the
#       driver shim (tests/gpu/libcudafault.so), the FFmpeg with
#       libvmaf_cuda of ../shared/anchor (for measurements only), the
#       p1080 and p2160 corpus pairs and the raw 640x360 pair in the carry
#       folder .devcarry-bench/.
#
#   sh tests/gpu/run-device.sh bench throughput|startup|host|graph
#       on the GPU machine, with .devcarry-bench/ carried along, one part
#       per call (each fits a 10-minute command): tests/bench/throughput.sh
#       against libvmaf_cuda with vmafbench (VG_RUNS, default 2); its time
#       to first score rows alone (VG_RUNS, default 4, about a minute);
#       tests/bench/host-cost.sh forwarding to the real driver (the
#       driver's time per call and per scored frame); or
#       tests/bench/graph-inputs.sh on NVDEC for both pairs. Output in
#       $OUT/bench-PART.log.
#
#   tests/gpu/run-device.sh prepare-nvdec [BUILD_DIR]
#       on the build machine, with the encoders of tests/fate/nvdec-clips.sh
#       installed: the ffmpeg of prepare-soak, tests/fate/jsoncmp and the
#       clip pairs of every NVDEC output format (tests/fate/nvdec-clips.sh)
#       in the carry folder .devcarry-nvdec/; checks that they decode and
#       score in software (tests/fate/nvdec-formats.sh --cpu-only).
#
#   sh tests/gpu/run-device.sh nvdec
#       on the GPU machine, with .devcarry-nvdec/ carried along:
#       tests/fate/nvdec-formats.sh (NVDEC into CUDA frames scored by the
#       CUDA backend equal software decoding scored on the CPU, for each
#       format), its work files in $OUT/nvdec. Exit status 0 when every
#       format passed.
#
#   tests/gpu/run-device.sh prepare-scale [FFMPEG]
#       on the build machine, with the encoders of tests/fate/scale-clips.sh
#       installed: a patched static ffmpeg (default: the one tools/setup.sh
#       builds, <repo>/build/ffmpeg/ffmpeg), tests/fate/jsoncmp, the 1080p
#       and 10-bit 720p corpus references, the corpus's 540p rendition and
#       1080p encodes, and the renditions of tests/fate/scale-clips.sh
#       in .devcarry-scale/.
#
#   sh tests/gpu/run-device.sh scale
#       on the GPU machine, with .devcarry-scale/ carried along:
#       tests/fate/gpu-scale.sh (renditions scaled on the GPU by the filter's
#       scale option: frames equal to libswscale's, scores equal to a CPU
#       run; an ABR ladder, renditions=N, equal to its pair runs), its work
#       files in $OUT/scale, then the ladder benchmark on NVDEC frames
#       (tests/bench/ladder-nvdec.sh, the clips of its --make in
#       .devcarry-scale/ladder). Exit status 0 when all passed.
set -u
CARRY=.devcarry-cuda
SOAK_CARRY=.devcarry-soak
NVDEC_CARRY=.devcarry-nvdec
SCALE_CARRY=.devcarry-scale
BENCH_CARRY=.devcarry-bench

# carry_exclude NAME: list the carry folder NAME in the checkout's
# info/exclude (a path relative to the checkout in a main checkout,
# absolute in a linked worktree)
carry_exclude() {
    excl=$(cd "$root" && git rev-parse --git-path info/exclude)
    case $excl in /*) ;; *) excl=$root/$excl ;; esac
    grep -qx "/$1/" "$excl" 2>/dev/null || echo "/$1/" >> "$excl"
}

# the GPU's name, driver and compute capability, for the logs
device_name() {
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1 | head -1
}

# build_paths [BUILD_DIR]: src (this checkout), build (default
# ../build-cuda-device beside it), shared and root (the checkout whose tree
# the GPU machine gets) for the prepare steps
build_paths() {
    src=$(cd "$(dirname "$0")/../.." && pwd)
    build=${1:-$src/../build-cuda-device}
    shared=${VG_SHARED_DIR:-$src/../shared}
    root=${VG_CARRY_ROOT:-$src}
}

prepare() {
    build_paths "$@"
    set -e
    mkdir -p "$build"
    cd "$build"
    if [ ! -f Makefile ]; then
        [ -x "$src/configure" ] || (cd "$src" && autoreconf -fi)
        "$src/configure" --disable-shared --enable-cuda
    fi
    make -j2 tools/vmafgpu tests/checkasm/checkasm \
        tests/unit/test_cuda_loader tests/bench/cudabench tests/bench/vifbench \
        tests/bench/admbench tests/bench/vmafbench tests/bench/ladderbench \
        tests/gpu/test_fault \
        tests/gpu/libcudafault.so tests/gpu/threads8 tests/gpu/test_seqsum \
        tests/gpu/test_f32sum tests/gpu/test_scale tests/parity/test_cambi_corpus
    rm -rf "${root:?}/$CARRY"
    mkdir -p "$root/$CARRY/bin" "$root/$CARRY/lib" "$root/$CARRY/corpus" \
        "$root/$CARRY/golden/hp"
    for p in tools/vmafgpu tests/checkasm/checkasm \
             tests/unit/test_cuda_loader tests/bench/cudabench \
             tests/bench/vifbench tests/bench/admbench tests/bench/vmafbench \
             tests/bench/ladderbench tests/gpu/test_fault tests/gpu/libcudafault.so tests/gpu/threads8 \
             tests/gpu/test_seqsum tests/gpu/test_f32sum tests/gpu/test_scale \
             tests/parity/test_cambi_corpus; do
        cp "$p" "$root/$CARRY/bin/"
    done
    # shared libraries other than glibc's (json-c, subunit)
    for b in "$root/$CARRY"/bin/*; do
        ldd "$b" | awk '/=> \// { print $3 }'
    done | sort -u | while read -r lib; do
        case $(basename "$lib") in
        libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) ;;
        *) cp -L "$lib" "$root/$CARRY/lib/" ;;
        esac
    done
    for pair in r577x323_yuv420p r640x360_yuv444p r640x360_yuv422p10le \
                r352x288_yuv420p12le; do
        cp "$shared/corpus/raw/${pair}_ref.yuv" "$shared/corpus/raw/${pair}_dist.yuv" \
            "$root/$CARRY/corpus/"
    done
    for g in r640x360_444p8 r640x360_422p10 r352x288_420p12; do
        cp "$shared/golden/hp/$g.json" "$shared/golden/hp/${g}__vmaf_v1.0.16_"*.json \
            "$shared/golden/hp/${g}__vmaf_float_"*.json "$root/$CARRY/golden/hp/"
    done
    cp "$shared/golden/r577x323_420p8.FROM_FFMPEG.json" "$root/$CARRY/golden/"
    # the clips of tests/fate/ladder.sh, made with the build's ffmpeg
    VG_LADDER_MAKE="$root/$CARRY/ladder" VG_SHARED_DIR="$shared" \
        FFMPEG="${FFMPEG:-$src/build/ffmpeg/ffmpeg}" sh "$src/tests/fate/ladder.sh"
    # stripped and compressed: the carried tree is limited to 64 MiB;
    # run() unpacks
    for b in "$root/$CARRY"/bin/*; do
        case $b in *.so) ;; *) strip "$b" ;; esac
    done
    gzip -9 -f "$root/$CARRY"/bin/* "$root/$CARRY"/corpus/* "$root/$CARRY"/ladder/*
    carry_exclude "$CARRY"
    du -sh "$root/$CARRY"
    echo "now: run tool, command 'sh tests/gpu/run-device.sh run', carry ['$CARRY']"
}

# compare.py GOLDEN OURS EXACT [MUST]: every key of ours that the golden has,
# every frame and pooled value; EXACT=1 compares doubles, 0 the %.6f text;
# MUST (comma-separated) names keys that must be among them
compare_py='
import json, sys
g = json.load(open(sys.argv[1])); o = json.load(open(sys.argv[2]))
exact = sys.argv[3] == "1"
# every key both have (the features asked for), and at least these
must = ["psnr_y", "integer_motion2", "integer_vif_scale0", "integer_adm2", "vmaf"]
if len(sys.argv) > 4:
    must = sys.argv[4].split(",")
keys = sorted(set(g["frames"][0]["metrics"]) & set(o["frames"][0]["metrics"]))
for k in must:
    if k not in keys:
        print("missing", k); sys.exit(1)
n = bad = 0
if len(g["frames"]) != len(o["frames"]):
    print("frame count", len(g["frames"]), len(o["frames"])); sys.exit(1)
def same(a, b):
    if exact or a is None or b is None:
        return a == b
    return "%.6f" % a == "%.6f" % b
for gf, of in zip(g["frames"], o["frames"]):
    for k in keys:
        if k not in gf["metrics"]:
            continue
        if k not in of["metrics"]:
            print("missing", k); sys.exit(1)
        n += 1
        if not same(gf["metrics"][k], of["metrics"][k]):
            bad += 1
            print("frame", gf["frameNum"], k, repr(gf["metrics"][k]), repr(of["metrics"][k]))
for k in keys:
    if k in g.get("pooled_metrics", {}):
        for m in ("min", "max", "mean", "harmonic_mean"):
            n += 1
            if not same(g["pooled_metrics"][k][m], o["pooled_metrics"][k][m]):
                bad += 1
                print("pooled", k, m, g["pooled_metrics"][k][m], o["pooled_metrics"][k][m])
print("%d values of %d keys compared, %d differ" % (n, len(keys), bad))
sys.exit(1 if bad or not n else 0)
'

# refuses PATTERN COMMAND...: COMMAND exits non-zero with PATTERN on stderr
refuses() {
    pat=$1; shift
    if "$@" 2> "$out/refuses.err"; then
        echo "exit status 0, expected a refusal"; return 1
    fi
    cat "$out/refuses.err"
    grep -q "$pat" "$out/refuses.err"
}

# the carried programs unpacked, the log folder, note() and step()
run_setup() {
    out=${OUT:-/tmp/run-device-out}
    mkdir -p "$out"
    bin=$CARRY/bin
    c=$CARRY/corpus
    for z in "$CARRY"/bin/*.gz "$CARRY"/corpus/*.gz "$CARRY"/ladder/*.gz; do
        [ -f "$z" ] && gunzip -f "$z"
    done
    chmod +x "$CARRY"/bin/*
    export LD_LIBRARY_PATH="$PWD/$CARRY/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    fails=0
    summary=$out/summary.txt
    : > "$summary"
    note "device: $(device_name)"
}
note() { echo "$*" | tee -a "$summary"; }
step() { # name, command...
    name=$1; shift
    start=$(date +%s)
    "$@" > "$out/$name.log" 2>&1
    rc=$?
    note "$name: $([ $rc = 0 ] && echo PASS || echo "FAIL (rc $rc)") ($(( $(date +%s) - start )) s)"
    [ $rc = 0 ] || fails=$((fails + 1))
    return $rc
}

# the vmaf_v1.0.16 models through the CLI with --backend cuda against their
# goldens; where libvmaf has none (it crashes), a refusal that names the
# feature
cli_v1_models() {
    for row in "r640x360_444p8 r640x360_yuv444p 640 360 444 8" \
               "r640x360_422p10 r640x360_yuv422p10le 640 360 422 10" \
               "r352x288_420p12 r352x288_yuv420p12le 352 288 420 12"; do
        set -- $row
        for m in ${CLI_MODELS:-3d0h 5d0h 1d5h_2160 3d0h_2160 hfr_3d0h hfr_5d0h \
                 hfr_1d5h_2160 hfr_3d0h_2160}; do
            case $m in vmaf_*) ;; *) m=vmaf_v1.0.16_$m ;; esac
            golden=$CARRY/golden/hp/$1__$m.json
            args="-r $c/$2_ref.yuv -d $c/$2_dist.yuv -w $3 -h $4 -p $5 -b $6
                  --backend cuda --threads 2 -m version=$m --json
                  --precision max -o $out/$1__$m.json -q"
            if [ -f "$golden" ]; then
                step "cli-$1__$m" "$bin/vmafgpu" $args &&
                step "golden-$1__$m" python3 -c "$compare_py" "$golden" \
                    "$out/$1__$m.json" 1 vmaf
                tail -1 "$out/golden-$1__$m.log" 2>/dev/null |
                    sed "s/^/  $1 $m: /" | tee -a "$summary"
            else
                step "refuse-$1__$m" refuses "speed_chroma: .* too small" \
                    "$bin/vmafgpu" $args
            fi
        done
    done
}

# checkasm and its memcheck (--quick) for the features named, then the
# vmaf_v1.0.16 models through the CLI
run_features() {
    run_setup
    for f in "$@"; do
        step "checkasm-$f" env VG_REQUIRE_GPU=1 "$bin/checkasm" --test="$f" \
            ${CHECKASM_SEED:+--seed=$CHECKASM_SEED} ${CHECKASM_ARGS:-}
        grep "^checkasm: [^ ]" "$out/checkasm-$f.log" | grep -v "^checkasm: seed\|device" |
            tee -a "$summary"
        step "memcheck-$f" timeout "${CHECKASM_SANITIZER_TIMEOUT:-300}" \
            compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 \
            env VG_REQUIRE_GPU=1 "$bin/checkasm" --test="$f" --quick
        grep -E "ERROR SUMMARY|^checkasm: $f" "$out/memcheck-$f.log" | tail -2 | tee -a "$summary"
        if [ "$f" = cambi ]; then
            # every scale pooled on the host, from the spilled c-values
            step checkasm-cambi-hostpool env VG_REQUIRE_GPU=1 \
                VG_CAMBI_DEVICE_POOL=0 "$bin/checkasm" --test=cambi --quick \
                ${CHECKASM_SEED:+--seed=$CHECKASM_SEED}
            grep "^checkasm: cambi" "$out/checkasm-cambi-hostpool.log" |
                sed 's/^/  VG_CAMBI_DEVICE_POOL=0: /' | tee -a "$summary"
        fi
    done
    cambi_api_step
    [ -n "${NO_CLI:-}" ] || cli_v1_models
    note "run-device: $fails step(s) failed"
    pack_out
    [ $fails = 0 ]
}

# the CLI with --backend cuda on the raw corpus pairs against the goldens,
# then chunked scoring
cli_goldens() {
    # the features of the golden runs (every one the CUDA backend has)
    feature_args=
    for f in ${CLI_FEATURES:-psnr}; do
        feature_args="$feature_args --feature $f"
    done
    for row in "r640x360_444p8 r640x360_yuv444p 640 360 444 8 1" \
               "r640x360_422p10 r640x360_yuv422p10le 640 360 422 10 1" \
               "r352x288_420p12 r352x288_yuv420p12le 352 288 420 12 1" \
               "r577x323_420p8 r577x323_yuv420p 577 323 420 8 0"; do
        set -- $row
        if [ "$7" = 1 ]; then
            golden=$CARRY/golden/hp/$1.json prec=max
        else
            golden=$CARRY/golden/$1.FROM_FFMPEG.json prec=default
        fi
        step "cli-$1" "$bin/vmafgpu" -r "$c/$2_ref.yuv" -d "$c/$2_dist.yuv" \
            -w "$3" -h "$4" -p "$5" -b "$6" --backend cuda --threads 2 \
            $feature_args --json --precision $prec -o "$out/$1.json" -q &&
        step "golden-$1" python3 -c "$compare_py" "$golden" "$out/$1.json" "$7"
        tail -1 "$out/golden-$1.log" 2>/dev/null | sed "s/^/  $1: /" | tee -a "$summary"
    done
    cli_v1_models
    # chunked scoring on the device: each chunk rebuilds the device state
    # of the temporal features from its lead-in frames
    step chunks env VMAFGPU="$bin/vmafgpu" VG_RAW_DIR="$c" \
        VG_CHUNK_ARGS="--backend cuda" sh tests/fate/chunks.sh
    grep -E "^[0-9]+ passed, [0-9]+ failed" "$out/chunks.log" |
        sed 's/^/  chunks, --backend cuda: /' | tee -a "$summary"
    ladder_steps
}

# ladders on the device: each rendition's log = its pair run's
ladder_steps() {
    step ladder env VMAFGPU="$bin/vmafgpu" VG_LADDER_CLIPS="$CARRY/ladder" \
        VG_LADDER_ARGS="--backend cuda" sh tests/fate/ladder.sh
    grep -E "^[0-9]+ passed, [0-9]+ failed" "$out/ladder.log" |
        sed 's/^/  ladder, --backend cuda: /' | tee -a "$summary"
}

# the ladder benchmark: one ladder context against five pair contexts
ladder_bench() {
    step ladderbench "$bin/ladderbench" "$c/r640x360_yuv444p_ref.yuv" \
        "$c/r640x360_yuv444p_dist.yuv" ${LADDERBENCH_FRAMES:-300} \
        ${LADDERBENCH_CPU_FRAMES:-30}
    grep "^ladderbench" "$out/ladderbench.log" | tee -a "$summary"
}

# the driver-fault sweep on the real driver, and threads8
fault_steps() {
    # every FAULT_SAMPLE-th driver call of a scoring run fails, on the real
    # driver; then eight contexts at once in eight threads
    step fault "$bin/test_fault" --real --shim="$PWD/$bin/libcudafault.so" \
        --sample="${FAULT_SAMPLE:-8}"
    grep -E "^test_fault: real: [0-9]|^FAIL" "$out/fault.log" | head -n 20 | tee -a "$summary"
    step threads8 env VG_REQUIRE_GPU=1 "$bin/threads8"
    grep -E "^threads8: (PASS|FAIL)" "$out/threads8.log" | tee -a "$summary"
}

# cambi through the API on the CUDA backend, the frames' host steps on
# the engine's host pool: vmaf_v1.0.16_3d0h's cambi against libvmaf's
# goldens, and heatmaps_path's files against libvmaf's bytes
# (tests/parity/test_cambi_corpus on the raw pairs)
cambi_api_step() {
    vgshared=/tmp/run-device-shared
    rm -rf "$vgshared" /tmp/run-device-cambi
    mkdir -p "$vgshared/corpus" /tmp/run-device-cambi
    ln -s "$PWD/$CARRY/corpus" "$vgshared/corpus/raw"
    ln -s "$PWD/$CARRY/golden" "$vgshared/golden"
    for pool in 1 0; do
        # VG_CAMBI_DEVICE_POOL=0: every scale pooled on the host, from the
        # c-values the device spills
        step cambi-api-pool$pool env -C /tmp/run-device-cambi \
            VG_TEST_BACKEND=cuda VG_CAMBI_DEVICE_POOL=$pool \
            VG_SHARED_DIR="$vgshared" \
            VG_CORPUS_PAIRS=r640x360_444p8,r640x360_422p10,r352x288_420p12 \
            "$PWD/$bin/test_cambi_corpus"
        grep -E "^[0-9]+%:|Checks" "$out/cambi-api-pool$pool.log" | tail -1 |
            sed "s/^/  cambi-api, CUDA backend, device pooling $pool: /" |
            tee -a "$summary"
    done
}

# the loader test and make check-gpu's programs but checkasm
program_steps() {
    step loader "$bin/test_cuda_loader"
    step checkasm-api env VG_REQUIRE_GPU=1 "$bin/checkasm" --test=api \
        ${CHECKASM_SEED:+--seed=$CHECKASM_SEED}
    step seqsum env VG_REQUIRE_GPU=1 "$bin/test_seqsum"
    step f32sum env VG_REQUIRE_GPU=1 "$bin/test_f32sum"
    grep "^test_f32sum: psnr-hvs" "$out/f32sum.log" | tee -a "$summary"
    step scale env VG_REQUIRE_GPU=1 "$bin/test_scale"
    grep "^checkasm: api" "$out/checkasm-api.log" | tee -a "$summary"
    cambi_api_step
}

# make check-gpu's programs, and the loader test
parity_steps() {
    program_steps
    step checkasm env VG_REQUIRE_GPU=1 "$bin/checkasm" ${CHECKASM_SEED:+--seed=$CHECKASM_SEED}
    step checkasm-ciede-whole env VG_CIEDE_RECORDS=0 VG_REQUIRE_GPU=1 "$bin/checkasm" \
        --test=ciede --quick ${CHECKASM_SEED:+--seed=$CHECKASM_SEED}
    # the seed, the per-feature and total lines, the first failing cases
    grep "^checkasm: [^ ]" "$out/checkasm.log" | tee -a "$summary"
}

# the sanitizers, the CLI against the goldens, the benchmarks, the fault
# sweep and threads8
rest_steps() {
    if command -v compute-sanitizer > /dev/null; then
        # memcheck on every case; racecheck and synccheck (slower) on
        # every RACECHECK_SAMPLE-th / SYNCCHECK_SAMPLE-th small case; each
        # tool gets SANITIZER_TIMEOUT seconds, so that a slow tool fails
        # visibly instead of using up the device call
        st=${SANITIZER_TIMEOUT:-150}
        step memcheck timeout "$st" compute-sanitizer --tool memcheck --leak-check full \
            --error-exitcode 1 env VG_REQUIRE_GPU=1 "$bin/checkasm" --test=api \
            ${MEMCHECK_ARGS:-}
        grep -E "ERROR SUMMARY|^checkasm: [0-9]" "$out/memcheck.log" | tail -2 | tee -a "$summary"
        step checkasm-memcheck timeout "${CHECKASM_SANITIZER_TIMEOUT:-300}" \
            compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 \
            env VG_REQUIRE_GPU=1 "$bin/checkasm" --quick \
            ${CHECKASM_SEED:+--seed=$CHECKASM_SEED}
        grep -E "ERROR SUMMARY|^checkasm: [0-9]" "$out/checkasm-memcheck.log" | tail -2 | tee -a "$summary"
        step racecheck timeout "$st" compute-sanitizer --tool racecheck --racecheck-report all \
            --error-exitcode 1 env VG_REQUIRE_GPU=1 "$bin/checkasm" --test=api --quick \
            --sample=${RACECHECK_SAMPLE:-40}
        grep -E "RACECHECK SUMMARY|ERROR SUMMARY|^checkasm: [0-9]" "$out/racecheck.log" | tail -2 | tee -a "$summary"
        step synccheck timeout "$st" compute-sanitizer --tool synccheck \
            --error-exitcode 1 env VG_REQUIRE_GPU=1 "$bin/checkasm" --test=api --quick \
            --sample=${SYNCCHECK_SAMPLE:-12}
        grep -E "ERROR SUMMARY|^checkasm: [0-9]" "$out/synccheck.log" | tail -2 | tee -a "$summary"
    else
        note "compute-sanitizer: not found"
        fails=$((fails + 1))
    fi

    cli_goldens
    step bench "$bin/cudabench" 200
    grep "^cudabench" "$out/bench.log" | tee -a "$summary"
    step vifbench "$bin/vifbench" 100
    grep "^vifbench" "$out/vifbench.log" | tee -a "$summary"
    step admbench "$bin/admbench" 100
    grep "^admbench" "$out/admbench.log" | tee -a "$summary"
    step vmafbench "$bin/vmafbench" "$c/r640x360_yuv444p_ref.yuv" \
        "$c/r640x360_yuv444p_dist.yuv" ${VMAFBENCH_FRAMES:-600}
    grep "^vmafbench" "$out/vmafbench.log" | tee -a "$summary"
    ladder_bench
    step checkasm-bench env VG_REQUIRE_GPU=1 "$bin/checkasm" --bench
    grep "^checkasm: bench" "$out/checkasm-bench.log" | tee -a "$summary"
    fault_steps
}

# for a change to the host code alone (the engine's scheduling, the
# device's calls), the kernels unchanged since the last full run: the
# loader test, checkasm --test=api (and its memcheck on the quick cases), the
# sequential sums, the scaler, checkasm --quick, the CLI against the
# goldens, the fault sweep and threads8
host_steps() {
    program_steps
    step checkasm-quick env VG_REQUIRE_GPU=1 "$bin/checkasm" --quick \
        ${CHECKASM_SEED:+--seed=$CHECKASM_SEED}
    grep "^checkasm: [^ ]" "$out/checkasm-quick.log" | tail -1 | tee -a "$summary"
    if command -v compute-sanitizer > /dev/null; then
        step memcheck-quick timeout "${SANITIZER_TIMEOUT:-150}" compute-sanitizer \
            --tool memcheck --leak-check full --error-exitcode 1 \
            env VG_REQUIRE_GPU=1 "$bin/checkasm" --test=api --quick
        grep -E "ERROR SUMMARY|^checkasm: [0-9]" "$out/memcheck-quick.log" | tail -2 | tee -a "$summary"
    else
        note "compute-sanitizer: not found"
        fails=$((fails + 1))
    fi
    cli_goldens
    fault_steps
}

# the device tool brings back at most eight files from $OUT: past that,
# every file but the summary goes into logs.tar.gz
pack_out() {
    [ "$(find "$out" -type f | wc -l)" -le 8 ] && return 0
    (cd "$out" &&
        find . -type f ! -name summary.txt ! -name logs.tar.gz ! -name .packed > .packed &&
        tar -czf logs.tar.gz -T .packed &&
        xargs rm -f < .packed && rm -f .packed)
}

# $1: the steps (parity_steps, rest_steps or both)
run() {
    run_setup
    for part in "$@"; do
        $part
    done
    note "run-device: $fails step(s) failed"
    pack_out
    [ $fails = 0 ]
}

# the library (CUDA, static) installed into $build/prefix and the patched
# static ffmpeg built against it in $build/ffmpeg
build_ffmpeg() {
    mkdir -p "$build"
    cd "$build"
    if [ ! -f Makefile ]; then
        [ -x "$src/configure" ] || (cd "$src" && autoreconf -fi)
        "$src/configure" --disable-shared --enable-cuda
    fi
    make -j2
    make install prefix="$build/prefix" > /dev/null
    VMAFGPU_PREFIX="$build/prefix" JOBS=2 "$src/tools/build-ffmpeg.sh" "$build/ffmpeg"
}

# copy_libs FILE DIR: the shared libraries FILE needs, other than glibc's
copy_libs() {
    ldd "$1" | awk '/=> \// { print $3 }' | while read -r lib; do
        case $(basename "$lib") in
        libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) ;;
        *) cp -L "$lib" "$2/" ;;
        esac
    done
}

prepare_soak() {
    build_paths "$@"
    set -e
    build_ffmpeg
    rm -rf "${root:?}/$SOAK_CARRY"
    mkdir -p "$root/$SOAK_CARRY/lib" "$root/$SOAK_CARRY/corpus"
    cp "$build/ffmpeg/ffmpeg" "$root/$SOAK_CARRY/"
    copy_libs "$root/$SOAK_CARRY/ffmpeg" "$root/$SOAK_CARRY/lib"
    cp "$shared/corpus/p1080_dist_crf32.mp4" "$shared/corpus/p1080_ref.mp4" \
        "$root/$SOAK_CARRY/corpus/"
    gzip -f "$root/$SOAK_CARRY/ffmpeg"
    carry_exclude "$SOAK_CARRY"
    du -sh "$root/$SOAK_CARRY"
    echo "now: run tool, command 'sh tests/gpu/run-device.sh soak' (or soak-memcheck), carry ['$SOAK_CARRY']"
}

# ffmpeg_carry DIR FFMPEG: DIR/ffmpeg, tests/fate/jsoncmp built into DIR and
# the shared libraries both need, other than glibc's, in DIR/lib
ffmpeg_carry() {
    cp "$2" "$1/ffmpeg"
    # shellcheck disable=SC2046
    ${CC:-cc} -std=c11 -O2 $(pkg-config --cflags json-c) "$src/tests/fate/jsoncmp.c" \
        -o "$1/jsoncmp" $(pkg-config --libs json-c)
    copy_libs "$1/ffmpeg" "$1/lib"
    copy_libs "$1/jsoncmp" "$1/lib"
}

# carry_ready NAME COMMAND: compress the carried ffmpeg, list the carry
# folder NAME in the checkout's info/exclude and say how to run it
carry_ready() {
    gzip -f "$root/$1/ffmpeg"
    carry_exclude "$1"
    du -sh "$root/$1"
    echo "now: run tool, command 'sh tests/gpu/run-device.sh $2', carry ['$1']"
}

# carry_open NAME: on the GPU machine, the ffmpeg and jsoncmp of carry
# folder NAME made runnable (c, out and LD_LIBRARY_PATH set), the device
# named in $out/summary.txt
carry_open() {
    out=${OUT:-/tmp/run-device-out}
    mkdir -p "$out"
    c=$1
    if [ -f "$c/ffmpeg.gz" ]; then
        gunzip -f "$c/ffmpeg.gz"
    fi
    chmod +x "$c/ffmpeg" "$c/jsoncmp"
    export LD_LIBRARY_PATH="$PWD/$c/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "device: $(device_name)" |
        tee -a "$out/summary.txt"
}

prepare_scale() {
    src=$(cd "$(dirname "$0")/../.." && pwd)
    ff=${1:-$src/build/ffmpeg/ffmpeg}
    shared=${VG_SHARED_DIR:-$src/../shared}
    root=${VG_CARRY_ROOT:-$src}
    set -e
    c=$root/$SCALE_CARRY
    rm -rf "${c:?}"
    mkdir -p "$c/lib" "$c/clips" "$c/corpus"
    ffmpeg_carry "$c" "$ff"
    cp "$shared/corpus/p1080_ref.mp4" "$shared/corpus/p1080_dist_540p_crf28.mp4" \
        "$shared/corpus/p1080_dist_crf32.mp4" "$shared/corpus/p1080_dist_scaled.mp4" \
        "$shared/corpus/p720_10_ref.mp4" "$c/corpus/"
    sh "$src/tests/fate/scale-clips.sh" "$c/clips" "$c/ffmpeg"
    sh "$src/tests/bench/ladder-nvdec.sh" --make "$c/ladder" "$c/ffmpeg"
    carry_ready "$SCALE_CARRY" scale
}

scale() {
    carry_open "$SCALE_CARRY"
    VG_REQUIRE_GPU=1 JSONCMP=$PWD/$c/jsoncmp VG_CORPUS_DIR=$PWD/$c/corpus \
        VG_SCALE_CLIPS=$PWD/$c/clips VG_FATE_WORK=$out/scale \
        sh tests/fate/gpu-scale.sh "$PWD/$c/ffmpeg" > "$out/gpu-scale.log" 2>&1
    rc=$?
    grep -E "^(PASS|FAIL|SKIP|    )|^fate-gpu-scale: " "$out/gpu-scale.log" | tee -a "$out/summary.txt"
    # the ladder on NVDEC frames: one filter against five, against decoding
    VG_CORPUS_DIR=$PWD/$c/corpus VG_RUNS=${VG_RUNS:-3} \
        sh tests/bench/ladder-nvdec.sh "$PWD/$c/ffmpeg" "$PWD/$c/ladder" \
        > "$out/ladder-nvdec.log" 2>&1 || rc=1
    grep "^ladder-nvdec" "$out/ladder-nvdec.log" | tee -a "$out/summary.txt"
    return $rc
}

prepare_nvdec() {
    build_paths "$@"
    set -e
    build_ffmpeg
    c=$root/$NVDEC_CARRY
    rm -rf "${c:?}"
    mkdir -p "$c/lib" "$c/clips"
    ffmpeg_carry "$c" "$build/ffmpeg/ffmpeg"
    sh "$src/tests/fate/nvdec-clips.sh" "$c/clips" "$c/ffmpeg"
    # what the GPU machine runs, less the GPU
    LD_LIBRARY_PATH="$c/lib" JSONCMP="$c/jsoncmp" VG_NVDEC_CLIPS="$c/clips" \
        sh "$src/tests/fate/nvdec-formats.sh" --cpu-only "$c/ffmpeg"
    carry_ready "$NVDEC_CARRY" nvdec
}

nvdec() {
    carry_open "$NVDEC_CARRY"
    VG_REQUIRE_GPU=1 JSONCMP=$PWD/$c/jsoncmp VG_NVDEC_CLIPS=$PWD/$c/clips \
        VG_FATE_WORK=$out/nvdec sh tests/fate/nvdec-formats.sh "$PWD/$c/ffmpeg" \
        > "$out/nvdec-formats.log" 2>&1
    rc=$?
    grep -E "^(PASS|FAIL|SKIP|    )|^nvdec-formats: " "$out/nvdec-formats.log" | tee -a "$out/summary.txt"
    return $rc
}

soak() { # soak | memcheck
    out=${OUT:-/tmp/run-device-out}
    mkdir -p "$out"
    if [ -f "$SOAK_CARRY/ffmpeg.gz" ]; then
        gunzip -f "$SOAK_CARRY/ffmpeg.gz"
    fi
    chmod +x "$SOAK_CARRY/ffmpeg"
    export LD_LIBRARY_PATH="$PWD/$SOAK_CARRY/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "device: $(device_name)" |
        tee -a "$out/summary.txt"
    SOAK_CSV=$out/soak.csv VG_REQUIRE_GPU=1 VG_CORPUS_DIR=$PWD/$SOAK_CARRY/corpus \
        sh tests/fate/soak.sh "$1" "$PWD/$SOAK_CARRY/ffmpeg" > "$out/soak-$1.log" 2>&1
    rc=$?
    grep -E "^(soak|memcheck): " "$out/soak-$1.log" | tee -a "$out/summary.txt"
    return $rc
}

prepare_bench() {
    build_paths "$@"
    set -e
    build_ffmpeg
    make -j2 tests/bench/vmafbench tests/gpu/libcudafault.so
    c=$root/$BENCH_CARRY
    rm -rf "${c:?}"
    mkdir -p "$c/lib" "$c/corpus"
    cp "$build/ffmpeg/ffmpeg" "$shared/anchor/ffmpeg-anchor" "$c/"
    strip -o "$c/vmafbench" tests/bench/vmafbench
    cp tests/gpu/libcudafault.so "$c/lib/"
    for b in "$c/ffmpeg" "$c/ffmpeg-anchor" "$c/vmafbench"; do
        copy_libs "$b" "$c/lib"
    done
    cp "$shared/corpus/p1080_dist_crf32.mp4" "$shared/corpus/p1080_ref.mp4" \
        "$shared/corpus/p2160_dist_x265crf30.mp4" "$shared/corpus/p2160_ref.mp4" \
        "$shared/corpus/raw/r640x360_yuv444p_ref.yuv" \
        "$shared/corpus/raw/r640x360_yuv444p_dist.yuv" "$c/corpus/"
    gzip -9 -f "$c/ffmpeg" "$c/ffmpeg-anchor" "$c/vmafbench" "$c"/corpus/*.yuv
    carry_exclude "$BENCH_CARRY"
    du -sh "$c"
    echo "now: run tool, command 'sh tests/gpu/run-device.sh bench throughput' (or host, graph), carry ['$BENCH_CARRY']"
}

bench() { # throughput | startup | host | graph
    out=${OUT:-/tmp/run-device-out}
    mkdir -p "$out"
    c=$PWD/$BENCH_CARRY
    for z in "$c"/*.gz "$c"/corpus/*.gz; do
        [ -f "$z" ] && gunzip -f "$z"
    done
    chmod +x "$c/ffmpeg" "$c/ffmpeg-anchor" "$c/vmafbench"
    export LD_LIBRARY_PATH="$c/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" VG_CORPUS_DIR="$c/corpus"
    echo "device: $(device_name)" |
        tee -a "$out/summary.txt"
    case $1 in
    startup)
        VG_ROWS=startup VG_RUNS=${VG_RUNS:-4} sh tests/bench/throughput.sh "$c/ffmpeg" \
            "$c/ffmpeg-anchor" > "$out/bench-$1.log" 2>&1 ;;
    throughput)
        VG_RUNS=${VG_RUNS:-2} sh tests/bench/throughput.sh "$c/ffmpeg" "$c/ffmpeg-anchor" \
            "$c/vmafbench" "$c/corpus/r640x360_yuv444p_ref.yuv" \
            "$c/corpus/r640x360_yuv444p_dist.yuv" > "$out/bench-$1.log" 2>&1 ;;
    host)
        real=$(ldconfig -p | awk '/libcuda\.so\.1 / { print $NF; exit }')
        echo "the real driver: ${real:-not found}" > "$out/bench-$1.log"
        [ -n "$real" ] &&
            VG_FAULT_REAL=$real VG_RUNS=${VG_RUNS:-2} sh tests/bench/host-cost.sh \
                "$c/lib/libcudafault.so" "$c/ffmpeg" >> "$out/bench-$1.log" 2>&1 ;;
    graph)
        for p in "p1080_dist_crf32.mp4 p1080_ref.mp4" "p2160_dist_x265crf30.mp4 p2160_ref.mp4"; do
            VG_PAIR=$p VG_LOOPS=19 VG_HWACCEL=cuda VG_RUNS=${VG_RUNS:-2} \
                sh tests/bench/graph-inputs.sh "$c/ffmpeg" || return 1
        done > "$out/bench-$1.log" 2>&1 ;;
    *) echo "run-device: bench throughput|startup|host|graph" >&2; return 2 ;;
    esac
    rc=$?
    grep "^|" "$out/bench-$1.log" | tee -a "$out/summary.txt"
    return $rc
}

case ${1:-} in
prepare) shift; prepare "$@" ;;
prepare-bench) shift; prepare_bench "$@" ;;
bench) shift; bench "${1:-}" ;;
prepare-soak) shift; prepare_soak "$@" ;;
prepare-nvdec) shift; prepare_nvdec "$@" ;;
nvdec) nvdec ;;
prepare-scale) shift; prepare_scale "$@" ;;
scale) scale ;;
run) run parity_steps rest_steps ;;
run-parity) run parity_steps ;;
run-rest) run rest_steps ;;
run-host) run host_steps ;;
ladder) run ladder_steps ladder_bench ;;
features) shift; run_features "$@" ;;
soak) soak soak ;;
soak-memcheck) soak memcheck ;;
*) echo "usage: $0 prepare [BUILD_DIR] | run | run-parity | run-rest | run-host | ladder | features FEATURE... | prepare-soak [BUILD_DIR] | soak | soak-memcheck | prepare-bench [BUILD_DIR] | bench throughput|startup|host|graph | prepare-nvdec [BUILD_DIR] | nvdec | prepare-scale [FFMPEG] | scale" >&2; exit 2 ;;
esac
