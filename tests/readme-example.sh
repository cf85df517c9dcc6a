#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# README.md's C API example: its code block is doc/examples/score.c,
# character for character, and the program (built by make check against
# the installed-API library) scores a raw corpus pair as libvmaf did.
# Environment: VG_SHARED_DIR (default <srcdir>/../shared), as the parity
# tests take it; exit 77 (skip) when the pair is missing.
set -eu

src=${VG_TOP_SRCDIR:?}
build=${VG_TOP_BUILDDIR:?}
shared=${VG_SHARED_DIR:-$src/../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the only ```c block of README.md, without its fences
awk '/^```c$/ { on = 1; n++; next } /^```$/ { on = 0 } on' "$src/README.md" > "$tmp/readme.c"
n=$(grep -c '^```c$' "$src/README.md" || true)
if [ "$n" != 1 ]; then
    echo "FAIL: README.md has $n \`\`\`c blocks, expected 1 (the C API example)"
    exit 1
fi
if ! cmp -s "$tmp/readme.c" "$src/doc/examples/score.c"; then
    echo "FAIL: README.md's C API example differs from doc/examples/score.c (< README, > file):"
    diff "$tmp/readme.c" "$src/doc/examples/score.c" || true
    exit 1
fi
echo "PASS: README.md's C API example is doc/examples/score.c"

# r577x323: an odd size, so the ceil-sized chroma of the example's layout
# is exercised; 10 frames, vmaf_v0.6.1 (corpus/MANIFEST.md, golden/)
raw=$shared/corpus/raw
golden=$shared/golden/r577x323_420p8.FROM_FFMPEG.json
if [ ! -f "$raw/r577x323_yuv420p_ref.yuv" ] || [ ! -f "$golden" ]; then
    echo "SKIP: no $raw/r577x323_yuv420p_ref.yuv or $golden (set VG_SHARED_DIR)"
    exit 77
fi
prog=$build/doc/examples/score
"$prog" "$raw/r577x323_yuv420p_ref.yuv" "$raw/r577x323_yuv420p_dist.yuv" \
    577 323 > "$tmp/out" || {
    echo "FAIL: $prog exited with status $?"
    exit 1
}
# the golden's pooled mean, as written (%.6f, libvmaf's format)
want=$(tr -d ' \n' < "$golden" |
    sed -n 's/.*"pooled_metrics":{.*"vmaf":{[^}]*"mean":\([0-9.]*\).*/\1/p')
got=$(sed -n 's/^VMAF score: //p' "$tmp/out")
if [ -z "$want" ] || [ "$got" != "$want" ]; then
    echo "FAIL: the example printed '$(cat "$tmp/out")', the golden's pooled vmaf mean is '$want'"
    exit 1
fi
echo "PASS: the example scores r577x323_420p8 at $got, as the golden"
