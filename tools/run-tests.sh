#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The test command: sets everything up (tools/setup.sh), decodes the corpus,
# runs the Check suites (`make check`), the patch-series check, the
# end-to-end tests of the patched ffmpeg, the Check suites again on a build
# with the sanitizers (tests/sanitize.sh) and the fuzz harnesses
# (tests/fuzz/run.sh, FUZZ_SECONDS each), then prints one summary line.
# Exit status is non-zero if anything failed.

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=${VG_BUILD_DIR:-$top/build}
export VG_BUILD_DIR="$build"
jobs=${JOBS:-2}
passed=0
failed=0
skipped=0

start=$(date +%s)

step() {
    echo
    echo "==== $* (at $(($(date +%s) - start)) s)"
}

count() {   # name, status
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1))
    elif [ "$2" -eq 77 ]; then
        skipped=$((skipped + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $1"
    fi
}

step "set-up"
VG_SETUP_TESTS=1 "$top/tools/setup.sh" || { echo "FAILED: set-up"; echo "tests: 0 passed, 1 failed"; exit 1; }

ffmpeg="$build/ffmpeg/ffmpeg"

# the main job runs tools/setup.sh again on every score: an unchanged tree
# must neither configure FFmpeg nor relink it
step "the main job's ffmpeg: a second build configures nothing"
if [ "${VG_SKIP_FFMPEG:-0}" != 1 ]; then
    t0=$(date +%s)
    VMAFGPU_PREFIX="$build/prefix" JOBS="$jobs" "$top/tools/build-ffmpeg.sh" \
        "$build/ffmpeg" > "$build/rebuild.out" 2>&1
    st=$?
    cat "$build/rebuild.out"
    if [ $st -eq 0 ] && ! grep -q "configuring" "$build/rebuild.out" &&
       ! grep -q "^LD	" "$build/ffmpeg/make.log"; then
        echo "PASS a second build of the main job's ffmpeg: $(($(date +%s) - t0)) s, not configured, not linked"
        count ffmpeg-rebuild 0
    else
        count ffmpeg-rebuild 1
    fi
fi
export VG_SHARED_DIR="${VG_SHARED_DIR:-$top/../shared}"
export VG_CORPUS_RAW="${VG_CORPUS_RAW:-$build/corpus-raw}"

step "decode the corpus"
FFMPEG="$ffmpeg" VG_TOP_BUILDDIR="$build/lib" "$top/tests/prepare-corpus.sh"
count prepare-corpus $?

step "make check"
(cd "$build/lib" && make -j"$jobs" check VERBOSE=1 \
    VG_CORPUS_RAW="$VG_CORPUS_RAW" VG_SHARED_DIR="$VG_SHARED_DIR" > check.out 2>&1)
st=$?
grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS|# [A-Z]+:)' "$build/lib/check.out"
if [ $st -ne 0 ]; then
    tail -n 200 "$build/lib/check.out"
fi
# every Check program's own summary ("100%: Checks: N, Failures: F, Errors: E")
for log in $(find "$build/lib/tests" -name '*.log' | sort); do
    line=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n 1)
    name=${log#"$build/lib/"}
    if grep -qE '^:test-result: SKIP' "${log%.log}.trs" 2>/dev/null; then
        echo "  ${name%.log}: skipped"
        skipped=$((skipped + 1))
        continue
    fi
    if [ -z "$line" ]; then
        # a test program that is not a Check suite, or one that crashed
        if grep -qE '^:test-result: PASS' "${log%.log}.trs" 2>/dev/null; then
            passed=$((passed + 1))
        else
            echo "  ${name%.log}: FAILED"
            failed=$((failed + 1))
        fi
        continue
    fi
    echo "  ${name%.log}: $line"
    n=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
    f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
    e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
    passed=$((passed + n - f - e))
    failed=$((failed + f + e))
done
if [ $st -ne 0 ] && [ $failed -eq 0 ]; then
    echo "FAILED: make check"
    failed=$((failed + 1))
fi

step "feature source lists are up to date"
"$top/tools/gen-features.sh" --check
count gen-features $?

# every tracked source, so the files a change touched among them
# (VG_FORMAT_BASE=REV: only those changed since REV)
step "sources laid out as .clang-format says"
"$top/tools/check-format.sh" ${VG_FORMAT_BASE:-}
count check-format $?

if [ -x "$top/tests/plot/render.sh" ]; then
    step "charts in a browser (headless Chromium)"
    VMAFGPU="$build/lib/tools/vmafgpu" "$top/tests/plot/render.sh" "$build/plot"
    count plot-render $?
fi

if [ -x "$top/tools/gen-patches.sh" ]; then
    step "patch series is up to date"
    "$top/tools/gen-patches.sh" --check
    count gen-patches $?
fi

if [ -x "$top/tests/fate/run.sh" ]; then
    step "ffmpeg -lavfi vmafgpu end to end"
    FFMPEG="$ffmpeg" VMAFGPU="$build/lib/tools/vmafgpu" "$top/tests/fate/run.sh"
    count fate $?
fi

if [ -x "$top/tests/fate/logs.sh" ]; then
    step "ffmpeg -lavfi libvmaf logs = libvmaf's, byte for byte"
    "$top/tests/fate/logs.sh" "$ffmpeg"
    count fate-logs $?
fi

if [ -x "$top/tests/fate/ladder-filter.sh" ]; then
    step "ffmpeg -lavfi vmafgpu=renditions=N: each rendition = its pair run"
    "$top/tests/fate/ladder-filter.sh" "$ffmpeg"
    count fate-ladder $?
fi

if [ -x "$top/tests/fate/emulated.sh" ]; then
    step "ffmpeg -lavfi vmafgpu on CUDA frames, emulated driver"
    "$top/tests/fate/emulated.sh" "$ffmpeg" "$build/lib/tests/gpu/libcudafault.so"
    count emulated $?
fi

if [ -x "$top/tests/fate/chunks.sh" ]; then
    step "chunked scoring: merged chunks = the whole run"
    VMAFGPU="$build/lib/tools/vmafgpu" "$top/tests/fate/chunks.sh"
    count chunks $?
fi

if [ -x "$top/tests/fate/ladder.sh" ]; then
    step "ladders: each rendition of a ladder run = its pair run"
    VMAFGPU="$build/lib/tools/vmafgpu" FFMPEG="$ffmpeg" "$top/tests/fate/ladder.sh"
    count ladder $?
fi

# the Slurm jobs mostly wait for the scheduler: they run beside the FFmpeg
# builds below, their output printed after them
slurm_pid=
if [ -x "$top/tests/fate/slurm.sh" ]; then
    VMAFGPU="$build/lib/tools/vmafgpu" "$top/tests/fate/slurm.sh" \
        > "$build/slurm.out" 2>&1 &
    slurm_pid=$!
fi

# the other FFmpeg releases, a minimal build of each and its scoring runs;
# 7.1.5 without CUDA (no nv-codec-headers), as 9.0.2 above and 8.1.2 have
# it: each release and both configurations are built once. The builds run
# side by side (configure is one process: the other build uses the second
# processor meanwhile), then each release scores.
set --
for rel in ${VG_OTHER_FFMPEG:-8.1.2 7.1.5-nocuda}; do
    case $rel in
    *-nocuda) cuda=0 ;;
    *) cuda=1 ;;
    esac
    VG_FFMPEG_CUDA=$cuda VG_FFMPEG_MINIMAL=1 VMAFGPU_PREFIX="$build/prefix" JOBS="$jobs" \
        "$top/tools/build-ffmpeg.sh" "${rel%-nocuda}" "$build/ffmpeg-n$rel" \
        > "$build/ffmpeg-n$rel.out" 2>&1 &
    set -- "$@" "$rel:$!"
done
t0=$(date +%s)
for job in "$@"; do
    rel=${job%:*}
    case $rel in
    *-nocuda) what="${rel%-nocuda} without CUDA" ;;
    *) what=$rel ;;
    esac
    step "ffmpeg $what: minimal build and one scoring run"
    wait "${job##*:}"
    st=$?
    cat "$build/ffmpeg-n$rel.out"
    echo "ffmpeg $what: built at $(($(date +%s) - t0)) s of the side-by-side builds"
    if [ $st -eq 0 ]; then
        "$top/tests/fate/release.sh" "$build/ffmpeg-n$rel/ffmpeg"
        count "ffmpeg-$rel" $?
    else
        count "ffmpeg-$rel build" 1
    fi
done

if [ -n "$slurm_pid" ]; then
    step "chunks on a local Slurm: job array and merge job (run beside the builds)"
    wait "$slurm_pid"
    st=$?
    cat "$build/slurm.out"
    count slurm $st
fi

if [ -x "$top/tests/sanitize.sh" ]; then
    step "make check with AddressSanitizer and UndefinedBehaviorSanitizer"
    "$top/tests/sanitize.sh"
    count sanitize $?
fi

# 30 s per harness; the long runs (10^6 inputs
# each) are made by hand: FUZZ_SECONDS=0 FUZZ_RUNS=1000000 tests/fuzz/run.sh
# The instrumented library and the harnesses are built first; the harnesses
# then run two at a time, one per processor, each printed when both are done.
if [ -x "$top/tests/fuzz/run.sh" ]; then
    export FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
    step "fuzz harnesses: build"
    "$top/tests/fuzz/run.sh" --build
    st=$?
    # clang missing (77): every harness is skipped, as run.sh would skip it
    if [ $st -ne 0 ]; then
        count fuzz-build $st
        set --
    else
        set -- $("$top/tests/fuzz/run.sh" --list)
    fi
    while [ $# -gt 0 ]; do
        a=$1 b=${2:-}
        shift
        [ -n "$b" ] && shift
        step "fuzz harness${b:+es} $a${b:+ and $b} ($FUZZ_SECONDS s${b:+, side by side})"
        "$top/tests/fuzz/run.sh" "$a" > "$build/fuzz-$a.out" 2>&1 &
        pa=$!
        if [ -n "$b" ]; then
            "$top/tests/fuzz/run.sh" "$b" > "$build/fuzz-$b.out" 2>&1 &
            pb=$!
        fi
        wait $pa
        sa=$?
        cat "$build/fuzz-$a.out"
        count "fuzz-$a" $sa
        if [ -n "$b" ]; then
            wait $pb
            sb=$?
            cat "$build/fuzz-$b.out"
            count "fuzz-$b" $sb
        fi
    done
fi

echo
echo "run time: $(($(date +%s) - start)) s"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
