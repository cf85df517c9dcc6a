#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Check C, CUDA and header files against .clang-format.
#   tools/check-format.sh            every tracked source (what CI runs)
#   tools/check-format.sh REV        the sources changed since REV
#   tools/check-format.sh -i [REV]   reformat them in place instead
# libavfilter/ keeps FFmpeg's own layout and patches/ is generated: both
# are left out. Exit status 1 lists the files that differ.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
fix=0
if [ "${1:-}" = -i ]; then
    fix=1
    shift
fi
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "check-format: $cf not found" >&2
    exit 77
fi

if [ $# -gt 0 ]; then
    files=$(git diff --name-only --diff-filter=ACMR "$1" -- \
                '*.c' '*.h' '*.cu' '*.cuh' '*.cc')
else
    files=$(git ls-files '*.c' '*.h' '*.cu' '*.cuh' '*.cc')
fi
files=$(printf '%s\n' $files | grep -v -e '^libavfilter/' -e '^patches/' || true)

bad=0
for f in $files; do
    [ -f "$f" ] || continue
    if [ $fix -eq 1 ]; then
        "$cf" -i --style=file "$f"
    elif ! "$cf" --style=file "$f" | cmp -s "$f" -; then
        echo "check-format: $f differs from .clang-format's layout" \
             "(tools/check-format.sh -i to fix)"
        bad=1
    fi
done
[ $bad -eq 0 ] && [ $fix -eq 0 ] && echo "check-format: $(printf '%s\n' $files | grep -c .) files as .clang-format lays them out"
exit $bad
