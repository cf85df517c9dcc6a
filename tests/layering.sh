#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The backends meet only in the features' homes: no file of cpu/ includes
# a file of gpu/ or calls a function one defines, nor the reverse, and
# common/ includes neither (both include the home, common/features/).
set -eu

src=${VG_TOP_SRCDIR:?}
build=${VG_TOP_BUILDDIR:?}
st=0

# includes, read from the sources
for rule in "cpu gpu" "gpu cpu" "common cpu" "common gpu"; do
    set -- $rule
    hits=$(cd "$src" && grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"$2/" \
               "$1" 2>/dev/null || true)
    if [ -n "$hits" ]; then
        echo "FAIL: $1/ includes $2/:"
        echo "$hits"
        st=1
    fi
done

# calls, read from the objects: a symbol one backend's objects use and
# the other's define
defined() {  # folder
    find "$build/$1" -name '*.o' -exec nm --defined-only {} + 2>/dev/null |
        awk 'NF == 3 && $2 ~ /^[TDBR]$/ { print $3 }' | sort -u
}
used() {     # folder
    find "$build/$1" -name '*.o' -exec nm --undefined-only {} + 2>/dev/null |
        awk 'NF >= 2 && $(NF - 1) == "U" { print $NF }' | sort -u
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$(find "$build/cpu" -name '*.o' 2>/dev/null)" ]; then
    echo "SKIP: no objects under $build/cpu"
    exit 77
fi
defined cpu > "$tmp/cpu.def"
used cpu > "$tmp/cpu.use"
defined gpu > "$tmp/gpu.def"
used gpu > "$tmp/gpu.use"
for pair in "gpu cpu" "cpu gpu"; do
    set -- $pair
    calls=$(comm -12 "$tmp/$1.use" "$tmp/$2.def")
    if [ -n "$calls" ]; then
        echo "FAIL: $1/ calls what $2/ defines:"
        echo "$calls"
        st=1
    fi
done
[ $st -eq 0 ] && echo "PASS: cpu/ and gpu/ meet only in common/"
exit $st
