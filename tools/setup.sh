#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Set up everything on a fresh machine: Debian packages (when run as root
# on a system with apt-get), libvmafgpu (configured, built and installed
# into $VG_BUILD_DIR/prefix) and the patched static ffmpeg
# ($VG_BUILD_DIR/ffmpeg/ffmpeg). Idempotent: a second run rebuilds only what
# changed.
#
# Environment:
#   VG_SETUP_TESTS=1    also install what the tests need (tools/run-tests.sh)
#   VG_BUILD_DIR        build directory (default <repo>/build)
#   VG_DEPS_DIR         FFmpeg tarballs + nv-codec-headers (default <repo>/../shared/deps)
#   VG_CONFIGURE_FLAGS  extra ./configure flags (e.g. --disable-cuda)
#   VG_SKIP_APT=1       do not install packages
#   VG_SKIP_FFMPEG=1    build the library only

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${VG_BUILD_DIR:-$top/build}
jobs=${JOBS:-2}

log() {
    echo "setup: $*"
}

# what the main job needs: the library (json-c), FFmpeg (nasm, dav1d;
# clang builds scale_cuda's kernels); with VG_SETUP_TESTS=1 (the test
# command) also what the tests need: Check, libxml2 and the SVG DTDs for
# the charts, Chromium, valgrind, Slurm and munge, clang-format
packages="build-essential autoconf automake libtool pkg-config libjson-c-dev
nasm xz-utils git ca-certificates dpkg-dev curl clang libclang-rt-dev
libdav1d-dev"
if [ "${VG_SETUP_TESTS:-0}" = 1 ]; then
    packages="$packages check libsubunit-dev valgrind libxml2-dev
libxml2-utils w3c-sgml-lib chromium slurmctld slurmd slurm-client munge
clang-format"
fi

if [ "${VG_SKIP_APT:-0}" != 1 ] && command -v apt-get >/dev/null 2>&1 &&
   [ "$(id -u)" = 0 ]; then
    missing=
    for p in $packages; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
            missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        log "installing:$missing"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends $missing >/dev/null
        # configure looks for the tests' libraries (Check, libxml2): a
        # build configured before they came configures again
        rm -f "$build/lib/config.status"
    fi
fi

mkdir -p "$build/lib"
if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ] ||
   [ "$top/Makefile.am" -nt "$top/configure" ]; then
    log "autoreconf"
    (cd "$top" && autoreconf -fi >/dev/null)
fi
cd "$build/lib"
if [ ! -f Makefile ] || [ "$top/configure" -nt config.status ]; then
    log "configure"
    # shellcheck disable=SC2086
    "$top/configure" -q --prefix="$build/prefix" \
        --with-deps="${VG_DEPS_DIR:-$top/../shared/deps}" ${VG_CONFIGURE_FLAGS:-}
fi
log "build libvmafgpu"
make -s -j"$jobs"
make -s install >/dev/null

if [ "${VG_SKIP_FFMPEG:-0}" != 1 ]; then
    log "build ffmpeg with the vmafgpu filter"
    VMAFGPU_PREFIX="$build/prefix" JOBS="$jobs" \
        "$top/tools/build-ffmpeg.sh" "$build/ffmpeg"
fi
log "done: $build/prefix/bin/vmafgpu${VG_SKIP_FFMPEG:+}, $build/ffmpeg/ffmpeg"
