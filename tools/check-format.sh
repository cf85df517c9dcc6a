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

# one clang-format per batch of files, two batches at a time: a process
# per file costs more than the formatting itself
existing=$(for f in $files; do [ -f "$f" ] && echo "$f"; done || true)
n=$(printf '%s\n' $existing | grep -c . || true)
if [ $fix -eq 1 ]; then
    printf '%s\n' $existing | xargs -r -n 64 -P 2 "$cf" -i --style=file
    exit 0
fi
report=$(printf '%s\n' $existing |
         xargs -r -n 64 -P 2 "$cf" --style=file --dry-run --Werror 2>&1) && st=0 || st=$?
bad=$(printf '%s\n' "$report" |
      sed -n 's/^\([^ :]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' |
      sort -u)
for f in $bad; do
    echo "check-format: $f differs from .clang-format's layout" \
         "(tools/check-format.sh -i to fix)"
done
if [ $st -ne 0 ] && [ -z "$bad" ]; then
    # clang-format itself failed
    printf '%s\n' "$report" >&2
    exit 1
fi
[ $st -ne 0 ] && exit 1
echo "check-format: $n files as .clang-format lays them out"
