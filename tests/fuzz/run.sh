#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Build the libFuzzer harnesses of tests/fuzz/ with clang against the
# library compiled with AddressSanitizer (leak checking on) and
# UndefinedBehaviorSanitizer, then run each for a bounded time. Fails on
# any crash, sanitizer report, leak, timeout (-timeout=10 s per input) or
# memory use over 2 GiB; prints the executions of each harness. Exit
# status 0, 1 if anything failed, 77 if clang is not installed.
#
# Usage: tests/fuzz/run.sh [HARNESS...]   (default: all of them)
#        tests/fuzz/run.sh --list         (their names)
#        tests/fuzz/run.sh --build [HARNESS...]   (build them, run none)
#
#   y4m     the tool's .y4m / raw .yuv reader (tools/yuv_input.c)
#   model   model files: JSON and the libsvm text in it (vg_use_model path=)
#   spec    model specs and feature option strings (vg_use_model,
#           vg_use_feature)
#   filter  the FFmpeg filter's model= and feature= option values, split
#           as the filter splits them
#
# Each harness starts from its seed corpus (tests/fuzz/corpus/<harness>/,
# also the regression inputs of fixed findings) and its dictionary
# (tests/fuzz/<harness>.dict); new inputs go to <build>/corpus/<harness>/,
# a failing input to <build>/artifacts/.
#
# Environment:
#   FUZZ_SECONDS   time per harness (default 60; 0 = until FUZZ_RUNS)
#   FUZZ_RUNS      stop each harness after this many inputs (default: none)
#   FUZZ_CC        clang to build with (default clang)
#   VG_FUZZ_DIR    build directory (default $VG_BUILD_DIR/fuzz, or
#                  <repo>/build-fuzz)
#   JOBS           parallel make jobs (default 2)
#
# One failing input is replayed with: <build>/fuzz_<harness> FILE

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${VG_FUZZ_DIR:-}" ]; then
    build=$VG_FUZZ_DIR
elif [ -n "${VG_BUILD_DIR:-}" ]; then
    build=$VG_BUILD_DIR/fuzz
else
    build=$top/build-fuzz
fi
seconds=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:-}
cc=${FUZZ_CC:-clang}
jobs=${JOBS:-2}
all="y4m model spec filter"
if [ "${1:-}" = --list ]; then
    echo "$all"
    exit 0
fi
build_only=0
if [ "${1:-}" = --build ]; then
    build_only=1
    shift
fi
harnesses=${*:-$all}

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cflags="-O1 -g -fno-omit-frame-pointer $san"

say() {
    echo "fuzz: $*"
}

# without clang (tools/setup.sh installs it) the harnesses are skipped
command -v "$cc" >/dev/null 2>&1 || { say "$cc not found: skipped"; exit 77; }

# ---- the library, instrumented for coverage and the sanitizers ----------
if [ ! -x "$top/configure" ]; then
    say "autoreconf"
    (cd "$top" && autoreconf -fi >/dev/null) || exit 1
fi
mkdir -p "$build/lib" "$build/artifacts" || exit 1
cd "$build/lib" || exit 1
libflags="CC=$cc CFLAGS=$cflags -fsanitize=fuzzer-no-link -Wno-missing-field-initializers"
if [ ! -f Makefile ] || [ ! -f config.status ] ||
   [ "$top/configure" -nt config.status ] ||
   [ "$(cat flags 2>/dev/null)" != "$libflags" ]; then
    say "configure the library in $build/lib"
    "$top/configure" -q --disable-cuda --disable-shared CC="$cc" \
        CFLAGS="${libflags#*CFLAGS=}" ||
        { say "configure failed (see $build/lib/config.log)"; exit 1; }
    # objects built with other flags would be kept: start afresh
    make -s clean >/dev/null 2>&1
    echo "$libflags" > flags
fi
say "build the library"
make -s -j"$jobs" libvmafgpu_core.la || { say "library build failed"; exit 1; }
lib=$build/lib/.libs/libvmafgpu_core.a
# shellcheck disable=SC2046
set -- $(pkg-config --libs json-c) -lm -lpthread -ldl

# ---- harnesses -----------------------------------------------------------
for h in $harnesses; do
    case " $all " in
    *" $h "*) ;;
    *) say "unknown harness '$h' (known: $all)"; exit 1 ;;
    esac
    src="$top/tests/fuzz/fuzz_$h.c"
    [ "$h" = y4m ] && src="$src $top/tools/yuv_input.c"
    say "build fuzz_$h"
    # shellcheck disable=SC2086
    "$cc" $cflags -fsanitize=fuzzer -std=c11 -D_GNU_SOURCE -Wall -Wextra \
        -Wno-unused-parameter -I"$top" -I"$top/include" -I"$build/lib" \
        -o "$build/fuzz_$h" $src "$lib" "$@" ||
        { say "build of fuzz_$h failed"; exit 1; }
done

[ $build_only -eq 1 ] && exit 0

# ---- runs ------------------------------------------------------------------
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
failed=0
for h in $harnesses; do
    work="$build/corpus/$h"
    seeds="$top/tests/fuzz/corpus/$h"
    log="$build/fuzz_$h.log"
    mkdir -p "$work"
    set -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
        -artifact_prefix="$build/artifacts/$h-"
    [ -n "$runs" ] && set -- "$@" -runs="$runs"
    [ -f "$top/tests/fuzz/$h.dict" ] && set -- "$@" -dict="$top/tests/fuzz/$h.dict"
    say "run fuzz_$h (${seconds}s${runs:+, at most $runs inputs})"
    start=$(date +%s)
    "$build/fuzz_$h" "$@" "$work" "$seeds" > "$log" 2>&1
    st=$?
    end=$(date +%s)
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
    cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    if [ $st -eq 0 ]; then
        say "$h: ${n:-?} executions in $((end - start)) s (${rate:-?}/s), coverage ${cov:-?}, peak ${rss:-?} MB: ok"
    else
        failed=$((failed + 1))
        say "$h: FAILED (exit status $st) after ${n:-?} executions; log $log"
        grep -E -A 40 '^(==[0-9]+==ERROR|.*runtime error|fuzz: invariant|ALARM|==[0-9]+== ERROR: libFuzzer)' "$log" | head -n 80
        ls "$build/artifacts/$h-"* 2>/dev/null
    fi
done
[ $failed -eq 0 ]
