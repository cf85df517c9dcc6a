#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The shared library exports exactly the functions include/vmafgpu.h
# declares (less its static inline ones), and libvmafgpu.sym lists the same.
set -eu

src=${VG_TOP_SRCDIR:?}
so=${VG_TOP_BUILDDIR:?}/.libs/libvmafgpu.so
if [ ! -f "$so" ]; then
    echo "SKIP: no shared library ($so): a --disable-shared build"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -E -P -I"$src/include" "$src/include/vmafgpu.h" |
    tr -s ' \n' ' ' | sed 's/;/;\n/g; s/}/}\n/g' |
    grep -v 'static inline' | grep -oE '\bvg_[a-z0-9_]+ *\(' | tr -d '( ' |
    sort -u > "$tmp/header"
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRV]$/ { print $3 }' |
    sort -u > "$tmp/exported"
sort -u "$src/libvmafgpu.sym" > "$tmp/sym"
st=0
if ! cmp -s "$tmp/header" "$tmp/exported"; then
    echo "FAIL: exports differ from include/vmafgpu.h (< header, > library):"
    diff "$tmp/header" "$tmp/exported" || true
    st=1
fi
if ! cmp -s "$tmp/header" "$tmp/sym"; then
    echo "FAIL: libvmafgpu.sym differs from include/vmafgpu.h (< header, > sym):"
    diff "$tmp/header" "$tmp/sym" || true
    st=1
fi
[ $st = 0 ] && echo "PASS: $(wc -l < "$tmp/exported") exported functions, all declared in include/vmafgpu.h"
exit $st
