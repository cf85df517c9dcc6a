#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The Check suites on a build with AddressSanitizer (leak checking on) and
# UndefinedBehaviorSanitizer: a separate --disable-cuda build in its own
# directory, `make check` there. Any sanitizer report fails the test that
# hit it (UBSan does not recover; ASan and LSan end the program with an
# error), so a failing program here is a memory error, a leak or undefined
# behaviour unless the same program fails in the ordinary build too.
# The tool's valgrind runs in test_cli are left out here (valgrind cannot
# run a sanitized program); the sanitizers check those runs instead.
#
# Usage: tests/sanitize.sh [TEST...]   (default: $VG_SANITIZE_TESTS, or
#                                       every program of make check)
#
# Environment:
#   VG_SANITIZE_DIR    build directory (default $VG_BUILD_DIR/sanitize, or
#                      <repo>/build-sanitize)
#   VG_SANITIZE_TESTS  the Check programs to run (automake TESTS syntax,
#                      e.g. "tests/unit/test_model"; default "all")
#   VG_CORPUS_PAIRS    the corpus pairs of the parity programs (default:
#                      the small raw pairs, see below)
#   VG_CORPUS_RAW, VG_SHARED_DIR   as for make check
#   CC                 compiler (default clang when installed, whose UBSan
#                      also reports arithmetic on null pointers; else cc)
#   JOBS               parallel make jobs (default 2)

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${VG_SANITIZE_DIR:-}" ]; then
    build=$VG_SANITIZE_DIR
elif [ -n "${VG_BUILD_DIR:-}" ]; then
    build=$VG_BUILD_DIR/sanitize
else
    build=$top/build-sanitize
fi
jobs=${JOBS:-2}
cc=${CC:-}
cxx=${CXX:-}
if [ -z "$cc" ]; then
    cc=cc
    command -v clang >/dev/null 2>&1 && cc=clang
fi
# the C++ test links the sanitized library: the same compiler family
if [ -z "$cxx" ]; then
    cxx=c++
    [ "$cc" = clang ] && command -v clang++ >/dev/null 2>&1 && cxx=clang++
fi
san_cflags="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

# The corpus parity programs run on the small raw pairs only (odd size,
# 4:4:4, 4:2:2 10-bit, 12-bit: ten frames each): at -O1 with the
# sanitizers the 1080p and 2160p pairs take more than half an hour.
small_pairs="r577x323_420p8,r640x360_444p8,r640x360_422p10,r352x288_420p12"
export VG_CORPUS_PAIRS="${VG_CORPUS_PAIRS:-$small_pairs}"

if [ $# -gt 0 ]; then
    tests="$*"
else
    tests=${VG_SANITIZE_TESTS:-all}
fi

say() {
    echo "sanitize: $*"
}

if [ ! -x "$top/configure" ]; then
    say "autoreconf"
    (cd "$top" && autoreconf -fi >/dev/null) || exit 1
fi
mkdir -p "$build" || exit 1
cd "$build" || exit 1
flags="CC=$cc CXX=$cxx CFLAGS=$san_cflags"
if [ ! -f Makefile ] || [ ! -f config.status ] ||
   [ "$top/configure" -nt config.status ] ||
   [ "$(cat flags 2>/dev/null)" != "$flags" ]; then
    say "configure in $build"
    "$top/configure" -q --disable-cuda --disable-shared CC="$cc" CXX="$cxx" \
        CFLAGS="$san_cflags -Wno-missing-field-initializers" \
        CXXFLAGS="$san_cflags" \
        LDFLAGS="-fsanitize=address,undefined" ||
        { say "configure failed (see $build/config.log)"; exit 1; }
    # objects built with other flags would be kept: start afresh
    make -s clean >/dev/null 2>&1
    echo "$flags" > flags
fi

# A report ends a program with exit status 86: the sanitizers' default, 1,
# is the status the tests expect of the tool on bad input.
export ASAN_OPTIONS="exitcode=86:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="exitcode=86:print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

say "build"
make -s -j"$jobs" || { say "build failed"; exit 1; }

if [ "$tests" = all ]; then
    set --
else
    # one line of names
    # shellcheck disable=SC2086,SC2116
    set -- TESTS="$(echo $tests)"
fi
say "make check $* (corpus pairs: $VG_CORPUS_PAIRS)"
start=$(date +%s)
touch check.stamp
make -j"$jobs" check VERBOSE=1 "$@" > check.out 2>&1
st=$?
end=$(date +%s)
grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS|# [A-Z]+:)' check.out
for log in $(find tests -name '*.log' -newer check.stamp | sort); do
    line=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n 1)
    [ -n "$line" ] && echo "  ${log%.log}: $line"
done
if [ $st -ne 0 ]; then
    # the sanitizer reports and failing checks of each failed program
    tail -n 200 check.out
fi
say "make check: $((end - start)) s, exit status $st"
exit $st
