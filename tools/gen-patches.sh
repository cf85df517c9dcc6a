#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Generate the FFmpeg patch series that adds the vmafgpu filter.
#
# The series is never edited by hand: this script unpacks the pristine
# FFmpeg release tarball, makes a git repository of it, applies our edits
# (configure, libavfilter/Makefile, libavfilter/allfilters.c,
# doc/filters.texi, Changelog), copies libavfilter/vf_vmafgpu.c from this
# tree, applies fftools/requested-inputs-n$RELEASE.diff (the ffmpeg tool's
# scheduler: every input a filtergraph waits on is decoded, not only one),
# commits with a fixed author and date and runs git format-patch
# into patches/n$RELEASE/, for every supported release from the same
# libavfilter/vf_vmafgpu.c (which handles the releases' differences with
# LIBAVFILTER_VERSION_* / LIBAVUTIL_VERSION_* checks).
#
# Usage: tools/gen-patches.sh [--check] [RELEASE...]
#   --check   regenerate into a temporary directory and fail (exit 1) if
#             the result differs from the committed patches/ directory.
#   RELEASE   FFmpeg releases (default: $FFMPEG_VERSION, else all of
#             9.0.2 8.1.2 7.1.5)
#
# Environment:
#   VG_DEPS_DIR     directory holding ffmpeg_$RELEASE.orig.tar.xz and
#                   SHA256SUMS (default: <repo>/../shared/deps)

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
deps=${VG_DEPS_DIR:-$top/../shared/deps}

check=0
if [ "${1:-}" = --check ]; then
    check=1
    shift
fi
for a in "$@"; do
    case "$a" in
    [0-9]*.[0-9]*) ;;
    *) echo "usage: $0 [--check] [RELEASE...]" >&2; exit 2 ;;
    esac
done
if [ $# = 0 ]; then
    if [ -n "${FFMPEG_VERSION:-}" ]; then
        set -- "$FFMPEG_VERSION"
    else
        set -- 9.0.2 8.1.2 7.1.5
    fi
fi
if [ $# -gt 1 ]; then
    # one release per process, side by side (each unpacks and commits a
    # whole FFmpeg tree), printed in order
    out=$(mktemp -d "${TMPDIR:-/tmp}/vg-gen-patches.XXXXXX")
    st=0
    pids=
    for v in "$@"; do
        if [ $check = 1 ]; then
            "$0" --check "$v" > "$out/$v" 2>&1 &
        else
            "$0" "$v" > "$out/$v" 2>&1 &
        fi
        pids="$pids $!"
    done
    for v in "$@"; do
        set -- $pids
        wait "$1" || st=1
        shift
        pids=$*
        cat "$out/$v"
    done
    rm -rf "$out"
    exit $st
fi
ver=$1
tarball=ffmpeg_$ver.orig.tar.xz
outdir=$top/patches/n$ver

die() {
    echo "gen-patches: $*" >&2
    exit 1
}

[ -f "$deps/$tarball" ] || die "$deps/$tarball not found (set VG_DEPS_DIR)"
[ -f "$deps/SHA256SUMS" ] || die "$deps/SHA256SUMS not found"
sum=$(awk -v f="$tarball" '$2 == f || $2 == "*" f { print $1 }' "$deps/SHA256SUMS")
[ -n "$sum" ] || die "$tarball is not listed in $deps/SHA256SUMS"
echo "$sum  $deps/$tarball" | sha256sum -c --status ||
    die "sha256 of $deps/$tarball does not match SHA256SUMS"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vg-gen-patches.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# A git that reads no user or system configuration, so that the output
# depends only on the inputs.
mkdir "$tmp/home"
g() {
    HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home" GIT_CONFIG_NOSYSTEM=1 \
    GIT_AUTHOR_NAME="vmafgpu authors" GIT_AUTHOR_EMAIL="vmafgpu@localhost" \
    GIT_COMMITTER_NAME="vmafgpu authors" GIT_COMMITTER_EMAIL="vmafgpu@localhost" \
    GIT_AUTHOR_DATE="2026-01-01T00:00:00+0000" \
    GIT_COMMITTER_DATE="2026-01-01T00:00:00+0000" \
    git -C "$tmp/ffmpeg" -c core.autocrlf=false -c core.fileMode=true \
        -c core.abbrev=12 -c diff.algorithm=myers -c diff.noprefix=false -c diff.renames=false \
        -c init.defaultBranch=main -c commit.gpgSign=false "$@"
}

mkdir "$tmp/ffmpeg"
tar -xJf "$deps/$tarball" -C "$tmp/ffmpeg" --strip-components=1
g init -q
g add -A -f .
g commit -q -m "FFmpeg $ver"

src=$tmp/ffmpeg

# insert_after FILE ANCHOR-LINE TEXT: insert TEXT (may hold newlines) after
# the one line of FILE equal to ANCHOR-LINE; fail unless it occurs once.
insert_after() {
    n=$(grep -c -x -F -- "$2" "$1" || true)
    [ "$n" = 1 ] || die "$1: anchor '$2' found $n times, expected 1"
    TEXT=$3 awk -v anchor="$2" '
        { print }
        $0 == anchor { print ENVIRON["TEXT"] }
    ' "$1" > "$1.new"
    mv "$1.new" "$1"
}

# insert_before FILE ANCHOR-LINE TEXT
insert_before() {
    n=$(grep -c -x -F -- "$2" "$1" || true)
    [ "$n" = 1 ] || die "$1: anchor '$2' found $n times, expected 1"
    TEXT=$3 awk -v anchor="$2" '
        $0 == anchor { print ENVIRON["TEXT"] }
        { print }
    ' "$1" > "$1.new"
    mv "$1.new" "$1"
}

# ---- patch 1: the filter and its build integration -----------------------
chmod_x=$(stat -c %a "$src/configure")
insert_after "$src/configure" \
    "  --enable-libvmaf         enable vmaf filter via libvmaf [no]" \
    "  --enable-libvmafgpu      enable vmafgpu filter via libvmafgpu [no]"
insert_after "$src/configure" "    libvmaf" "    libvmafgpu"
# the filter, and the same filter under libvmaf's names (libvmaf,
# libvmaf_cuda) where the build has no libvmaf of its own
insert_after "$src/configure" \
    'libvmaf_cuda_filter_deps="libvmaf libvmaf_cuda ffnvcodec"' \
    'vmafgpu_filter_deps="libvmafgpu swscale"
vmafgpu_libvmaf_filter_deps="libvmafgpu swscale"
vmafgpu_libvmaf_filter_conflict="libvmaf"
vmafgpu_libvmaf_cuda_filter_deps="libvmafgpu swscale"
vmafgpu_libvmaf_cuda_filter_conflict="libvmaf"'
insert_after "$src/configure" \
    'enabled libvmaf           && check_pkg_config libvmaf_cuda "libvmaf >= 2.0.0" libvmaf_cuda.h vmaf_cuda_state_init' \
    'enabled libvmafgpu        && require_pkg_config libvmafgpu "vmafgpu >= 0.2.0" vmafgpu.h vg_context_create
enabled libvmafgpu && enabled libvmaf &&
    warn "libvmaf is enabled: vmafgpu is registered as vmafgpu only, not also as libvmaf and libvmaf_cuda"'
# libavfilter links libswscale for the filters that scale
insert_before "$src/configure" \
    'enabled zoompan_filter      && prepend avfilter_deps "swscale"' \
    'enabled vmafgpu_filter      && prepend avfilter_deps "swscale"
enabled vmafgpu_libvmaf_filter && prepend avfilter_deps "swscale"
enabled vmafgpu_libvmaf_cuda_filter && prepend avfilter_deps "swscale"'
chmod "$chmod_x" "$src/configure"

insert_before "$src/libavfilter/Makefile" \
    'OBJS-$(CONFIG_VMAFMOTION_FILTER)             += vf_vmafmotion.o framesync.o' \
    'OBJS-$(CONFIG_VMAFGPU_FILTER)                += vf_vmafgpu.o framesync.o
OBJS-$(CONFIG_VMAFGPU_LIBVMAF_FILTER)        += vf_vmafgpu.o framesync.o
OBJS-$(CONFIG_VMAFGPU_LIBVMAF_CUDA_FILTER)   += vf_vmafgpu.o framesync.o'
# FFFilter from libavfilter 11 (FFmpeg 8.0), AVFilter before
ftype=FFFilter
grep -q -x -F 'extern const FFFilter ff_vf_vmafmotion;' "$src/libavfilter/allfilters.c" ||
    ftype=AVFilter
insert_before "$src/libavfilter/allfilters.c" \
    "extern const $ftype ff_vf_vmafmotion;" \
    "extern const $ftype ff_vf_vmafgpu;
extern const $ftype ff_vf_vmafgpu_libvmaf;
extern const $ftype ff_vf_vmafgpu_libvmaf_cuda;"

[ -f "$top/libavfilter/vf_vmafgpu.c" ] || die "libavfilter/vf_vmafgpu.c missing"
cp "$top/libavfilter/vf_vmafgpu.c" "$src/libavfilter/vf_vmafgpu.c"
chmod 644 "$src/libavfilter/vf_vmafgpu.c"

g add configure libavfilter/Makefile libavfilter/allfilters.c \
    libavfilter/vf_vmafgpu.c
g commit -q -F - <<'EOF'
avfilter: add vmafgpu filter

Computes VMAF and its elementary features (PSNR, motion, VIF, ADM, ...)
through libvmafgpu, on the CPU (bit-exact with libvmaf) or with CUDA.
CUDA frames are read in place, without a copy; software frames in
yuv420p/422p/444p at 8 to 16 bits are accepted as well.

The first input is the distorted video, the second the reference, as in
the libvmaf filter, whose model and feature syntax this filter accepts.
Per-frame scores are exported as lavfi.vmafgpu.<metric> frame metadata.

In a build without libvmaf (--enable-libvmafgpu without --enable-libvmaf),
the same filter is also registered as libvmaf and libvmaf_cuda, so that
the tools that drive the libvmaf filter by name find it; with libvmaf
enabled too, configure says that only vmafgpu is registered.

With the scale option, a distorted input of a lower (or higher)
resolution is scored scaled to the reference's size with libswscale, as
the scale filter with flags=<algorithm>+accurate_rnd+bitexact in front
of it scales it; hence the dependency on libswscale.
EOF

# ---- patch 2: documentation and Changelog --------------------------------
doc=$top/doc/filters-vmafgpu.texi
[ -f "$doc" ] || die "doc/filters-vmafgpu.texi missing"
insert_before "$src/doc/filters.texi" "@section vmafmotion" "$(cat "$doc")
"
first=$(grep -m 1 '^version .*:$' "$src/Changelog" || true)
[ -n "$first" ] || die "Changelog: no 'version X:' line"
insert_before "$src/Changelog" "$first" "version <next>:
- vmafgpu filter
"

g add doc/filters.texi Changelog
g commit -q -F - <<'EOF'
doc/filters: document the vmafgpu filter

Options, input formats, metadata and examples; Changelog entry.
EOF

# ---- patch 3: the inputs a filtergraph waits on decoded side by side -----
sched=$top/fftools/requested-inputs-n$ver.diff
[ -f "$sched" ] || die "fftools/requested-inputs-n$ver.diff missing"
g apply "$sched" || die "fftools/requested-inputs-n$ver.diff does not apply"
g add fftools/ffmpeg_filter.c fftools/ffmpeg_sched.c fftools/ffmpeg_sched.h
g commit -q -F - <<'EOF'
fftools/ffmpeg_sched: let every input a filtergraph waits on proceed

The scheduler unchoked the source of one filtergraph input only: the
one the filtergraph thread chose, with the most failed requests. A
filter that needs a frame on each of its inputs before it outputs one
(framesync: vmafgpu, libvmaf, overlay, ...) asks for a frame on both
inputs at once; the decoders of the two then ran in turn rather than
side by side, each choked while the graph chose the other.

The filtergraph thread now passes sch_filter_receive() every input with
an unanswered request, and the scheduler unchokes the sources of all of
them. An input the graph has not asked for stays choked, so no more
frames are decoded ahead of the graph than before.

Two single-threaded H.264 1080p decoders (-threads 1) of 180 frames
each on two cores: both into null outputs 26.7 frames/s; into
[0:v][1:v]vmafgpu=enable=0 18.3 before, 26.3 after.

The same holds from the start: until its first frame arrived, the
thread asked for its first input only, so the other sources began only
when that frame was decoded. A one-frame run of a 2160p pair (H.264
reference, HEVC distorted, -threads 1) into [0:v][1:v]vmafgpu=enable=0
took 0.71-0.80 s before and 0.55-0.68 s after, against 0.58-0.75 s for
decoding the two alone.
EOF

# ---- format-patch ----------------------------------------------------------
g format-patch -q --zero-commit --no-signature --stat=72 \
    -o "$tmp/out" HEAD~3..HEAD

if [ "$check" = 1 ]; then
    if ! diff -ru "$outdir" "$tmp/out"; then
        echo "gen-patches: patches/n$ver is out of date; run tools/gen-patches.sh" >&2
        exit 1
    fi
    echo "gen-patches: patches/n$ver is up to date"
else
    rm -rf "$outdir"
    mkdir -p "$outdir"
    cp "$tmp/out"/*.patch "$outdir/"
    echo "gen-patches: wrote" "$outdir"/*.patch
fi
