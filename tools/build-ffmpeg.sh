#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Build a static `ffmpeg` with the vmafgpu filter: the pristine FFmpeg
# release plus our patch series (patches/n$RELEASE), linked statically
# against an installed libvmafgpu, with NVDEC/CUDA support through
# nv-codec-headers and the components that read what users have:
# demuxers matroska/webm, mpegts, ivf, mov/mp4, y4m, rawvideo; decoders
# h264, hevc, av1 (libdav1d on the CPU, NVDEC on the GPU), vp9,
# mpeg2video, prores, rawvideo; every filter of FFmpeg's own (GPL ones
# included; the CUDA ones, scale_cuda among them, where clang can build
# CUDA kernels, --enable-cuda-llvm); muxers for stream copies (matroska,
# mpegts, mov/mp4) besides null, rawvideo and y4m; and ffprobe.
#
# Usage: tools/build-ffmpeg.sh [RELEASE] [BUILD_DIR]
#   RELEASE is an FFmpeg release with a series in patches/ (9.0.2, 8.1.2,
#   7.1.5; default $FFMPEG_VERSION or 9.0.2).
#   BUILD_DIR defaults to $FFMPEG_BUILD_DIR or ./ffmpeg-n$RELEASE.
#   The result is BUILD_DIR/ffmpeg. Rerunning the script rebuilds
#   incrementally; a changed patch series is reapplied in place.
#
# Environment:
#   VMAFGPU_PREFIX  install prefix of libvmafgpu (holds lib/pkgconfig/vmafgpu.pc
#                   and lib/libvmafgpu.a), e.g. from `make install prefix=...`
#                   or `make install DESTDIR=... ` (then point at DESTDIR/prefix).
#                   Required.
#   VG_DEPS_DIR     directory with ffmpeg_$FFMPEG_VERSION.orig.tar.xz, SHA256SUMS
#                   and libffmpeg-nvenc-dev_*.deb (default <repo>/../shared/deps).
#                   Without the tarball there, the upstream release is
#                   downloaded and must match the same sha256.
#   FFMPEG_VERSION  default release (9.0.2)
#   VG_FFMPEG_MINIMAL=1  only raw video and y4m input (CUDA frames through
#                   hwupload_cuda, no decoders but rawvideo): a quick build
#                   for checking the filter against another release
#   VG_FFMPEG_DAV1D auto (default: when dav1d.pc is found), yes, no
#   VG_FFMPEG_CUDA=0  an FFmpeg without CUDA (no ffnvcodec, NVDEC, CUDA
#                   filters), as on a machine without nv-codec-headers: the
#                   filter takes software frames only
#   JOBS            parallel make jobs (default 2)
#   CC              C compiler (default gcc)

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ver=${FFMPEG_VERSION:-9.0.2}
case "${1:-}" in
[0-9]*.[0-9]*) ver=$1; shift ;;
esac
deps=${VG_DEPS_DIR:-$top/../shared/deps}
jobs=${JOBS:-2}
cc=${CC:-gcc}
cuda=${VG_FFMPEG_CUDA:-1}
b=${1:-${FFMPEG_BUILD_DIR:-$PWD/ffmpeg-n$ver}}
tarball=ffmpeg_$ver.orig.tar.xz
series=$top/patches/n$ver

die() {
    echo "build-ffmpeg: $*" >&2
    exit 1
}
log() {
    echo "build-ffmpeg: $*"
}

[ -n "${VMAFGPU_PREFIX:-}" ] || die "set VMAFGPU_PREFIX to the libvmafgpu install prefix"
prefix=$(cd "$VMAFGPU_PREFIX" && pwd) || die "VMAFGPU_PREFIX=$VMAFGPU_PREFIX not found"
ls "$series"/*.patch >/dev/null 2>&1 || die "no patch series in $series"
mkdir -p "$b"
b=$(cd "$b" && pwd)

# ---- the release tarball, checked against SHA256SUMS ---------------------
[ -f "$deps/SHA256SUMS" ] || die "$deps/SHA256SUMS not found (set VG_DEPS_DIR)"
sum=$(awk -v f="$tarball" '$2 == f || $2 == "*" f { print $1 }' "$deps/SHA256SUMS")
[ -n "$sum" ] || die "$tarball is not listed in $deps/SHA256SUMS"
tar_path=$deps/$tarball
if [ ! -f "$tar_path" ]; then
    tar_path=$b/$tarball
    if [ ! -f "$tar_path" ]; then
        url=https://ffmpeg.org/releases/ffmpeg-$ver.tar.xz
        log "$tarball not in $deps, downloading $url"
        curl -fsSL -o "$tar_path.part" "$url" || die "download of $url failed"
        mv "$tar_path.part" "$tar_path"
    fi
fi
echo "$sum  $tar_path" | sha256sum -c --status ||
    die "sha256 of $tar_path does not match SHA256SUMS"

# ---- source tree: pristine commit + git am of the series -----------------
g() {
    GIT_CONFIG_NOSYSTEM=1 HOME="$b" \
    GIT_AUTHOR_NAME=build GIT_AUTHOR_EMAIL=build@localhost \
    GIT_COMMITTER_NAME=build GIT_COMMITTER_EMAIL=build@localhost \
    git -C "$b/src" -c core.autocrlf=false -c init.defaultBranch=main \
        -c commit.gpgSign=false -c advice.detachedHead=false "$@"
}

want=$(cat "$series"/*.patch | sha256sum | cut -d' ' -f1)
have=$(cat "$b/src/.vg-series" 2>/dev/null || true)
if [ "$want" != "$have" ]; then
    if [ -d "$b/src/.git" ] && g rev-parse -q --verify pristine >/dev/null; then
        log "reapplying the patch series on the existing tree"
        g am --abort >/dev/null 2>&1 || true
        g checkout -q -f --detach pristine
    else
        log "unpacking $tarball"
        rm -rf "$b/src"
        mkdir "$b/src"
        tar -xJf "$tar_path" -C "$b/src" --strip-components=1
        g init -q
        g add -A -f .
        g commit -q -m "FFmpeg $ver"
        g tag pristine
    fi
    g am -q --whitespace=nowarn "$series"/*.patch || die "git am of $series failed"
    echo "$want" > "$b/src/.vg-series"
fi
grep -q '^/.vg-series$' "$b/src/.git/info/exclude" 2>/dev/null ||
    echo /.vg-series >> "$b/src/.git/info/exclude"

# ---- pkg-config files: nv-codec-headers and libvmafgpu --------------------
mkdir -p "$b/pkgconfig" "$b/staticlibs"
deb=$(ls "$deps"/libffmpeg-nvenc-dev_*_all.deb 2>/dev/null | tail -n 1)
if [ "$cuda" = 0 ]; then
    log "without CUDA (VG_FFMPEG_CUDA=0)"
    rm -f "$b/pkgconfig/ffnvcodec.pc"
elif [ -n "$deb" ]; then
    debsum=$(awk -v f="$(basename "$deb")" '$2 == f || $2 == "*" f { print $1 }' "$deps/SHA256SUMS")
    [ -n "$debsum" ] || die "$(basename "$deb") is not listed in $deps/SHA256SUMS"
    echo "$debsum  $deb" | sha256sum -c --status ||
        die "sha256 of $deb does not match SHA256SUMS"
    if [ ! -f "$b/nvcodec/.stamp" ] || [ "$(cat "$b/nvcodec/.stamp")" != "$deb" ]; then
        rm -rf "$b/nvcodec"
        dpkg-deb -x "$deb" "$b/nvcodec" || die "dpkg-deb -x $deb failed"
        echo "$deb" > "$b/nvcodec/.stamp"
    fi
    pc=$(find "$b/nvcodec" -name ffnvcodec.pc | head -n 1)
    [ -n "$pc" ] || die "no ffnvcodec.pc in $deb"
    sed "s|^prefix=.*|prefix=$b/nvcodec/usr|" "$pc" > "$b/pkgconfig/ffnvcodec.pc"
elif pkg-config --exists ffnvcodec; then
    log "no nv-codec-headers .deb in $deps, using the installed ffnvcodec"
else
    die "nv-codec-headers: no libffmpeg-nvenc-dev_*.deb in $deps and no ffnvcodec.pc"
fi

vgpc=
for d in lib lib64 lib/x86_64-linux-gnu; do
    [ -f "$prefix/$d/pkgconfig/vmafgpu.pc" ] && vgpc=$prefix/$d/pkgconfig/vmafgpu.pc && break
done
[ -n "$vgpc" ] || die "no vmafgpu.pc under $prefix/lib*/pkgconfig"
# The .pc names the configure-time prefix; point it at where it is now
# (this also covers installs made with DESTDIR=).
sed "s|^prefix=.*|prefix=$prefix|" "$vgpc" > "$b/pkgconfig/vmafgpu.pc"

export PKG_CONFIG_PATH="$b/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

# Static linking of libvmafgpu and json-c: a directory holding only their
# archives comes first in the library search path, so -lvmafgpu and
# -ljson-c resolve to the .a even where a .so sits beside it.
vglibdir=$(pkg-config --variable=libdir vmafgpu)
[ -f "$vglibdir/libvmafgpu.a" ] ||
    die "$vglibdir/libvmafgpu.a missing: configure libvmafgpu with --enable-static"
ln -sf "$vglibdir/libvmafgpu.a" "$b/staticlibs/libvmafgpu.a"
jclibdir=$(pkg-config --variable=libdir json-c)
[ -f "$jclibdir/libjson-c.a" ] || die "$jclibdir/libjson-c.a missing (libjson-c-dev)"
ln -sf "$jclibdir/libjson-c.a" "$b/staticlibs/libjson-c.a"

# ---- configure -----------------------------------------------------------
asm=
if ! command -v nasm >/dev/null 2>&1; then
    log "nasm not found: building without x86 assembly (slower decoding)"
    asm=--disable-x86asm
fi

# The shared part; then the components of a minimal or a full build.
set -- \
    --cc="$cc" \
    --enable-static --disable-shared \
    --pkg-config-flags=--static \
    --extra-ldflags="-L$b/staticlibs" \
    --disable-autodetect --disable-debug --disable-doc \
    --disable-network --disable-avdevice --disable-ffplay --disable-ffprobe \
    --disable-everything \
    --enable-libvmafgpu \
    --enable-protocol=file,pipe,fd \
    $asm
# vmafgpu_libvmaf(_cuda): the filter under libvmaf's names (in a build
# without libvmaf). The full build has every filter of FFmpeg's own that
# needs no outside library (GPL ones included); `need` lists those that
# metrics tools put around libvmaf, checked after configure.
need=vmafgpu,vmafgpu_libvmaf,vmafgpu_libvmaf_cuda,settb,setpts,fps,scale,psnr,ssim,vif,msad,select,setparams,split,trim,format,null
minfilters=vmafgpu,vmafgpu_libvmaf,vmafgpu_libvmaf_cuda,hwdownload,format,scale,null,buffer,buffersink
if [ "$cuda" != 0 ]; then
    set -- "$@" --enable-ffnvcodec --enable-cuda --enable-nvdec
    need=$need,hwupload_cuda
    minfilters=$minfilters,hwupload_cuda
fi
if [ "${VG_FFMPEG_MINIMAL:-0}" = 1 ]; then
    # raw and y4m input only: no decoder to build but rawvideo's
    set -- "$@" \
        --enable-decoder=rawvideo \
        --enable-demuxer=rawvideo,yuv4mpegpipe \
        --enable-muxer=null,rawvideo \
        --enable-encoder=rawvideo,wrapped_avframe \
        --enable-filter=$minfilters
else
    # AV1 on the CPU: libdav1d (Debian's libdav1d-dev, a shared library
    # only: it is copied next to ffmpeg, which finds it there). The run
    # path is evaluated once by configure and once more by make:
    # config.mak must read \$$ORIGIN.
    dav1d=${VG_FFMPEG_DAV1D:-auto}
    if [ "$dav1d" = auto ]; then
        dav1d=no
        pkg-config --exists 'dav1d >= 1.0.0' 2>/dev/null && dav1d=yes
    fi
    [ "$dav1d" = yes ] || log "no libdav1d (dav1d.pc): AV1 decodes on NVDEC only"
    # NVDEC, and scale_cuda, whose kernels are built with clang
    # (--enable-cuda-llvm)
    cudallvm=no
    if [ "$cuda" != 0 ]; then
        set -- "$@" --enable-hwaccel=h264_nvdec,hevc_nvdec,av1_nvdec,vp9_nvdec,mpeg2_nvdec
        if command -v clang >/dev/null 2>&1; then
            cudallvm=yes
            need=$need,scale_cuda
        else
            log "no clang: building without scale_cuda"
        fi
    fi
    set -- "$@" \
        --enable-decoder=h264,hevc,av1,vp9,mpeg2video,prores,rawvideo \
        --enable-parser=h264,hevc,av1,vp9,mpegvideo \
        --enable-bsf=h264_mp4toannexb,hevc_mp4toannexb,vp9_superframe \
        --enable-demuxer=matroska,mpegts,ivf,mov,rawvideo,yuv4mpegpipe \
        --enable-muxer=null,rawvideo,yuv4mpegpipe,matroska,mpegts,mov,mp4 \
        --enable-encoder=rawvideo,wrapped_avframe \
        --enable-gpl --enable-filters
    if [ "$dav1d" = yes ]; then
        set -- "$@" --enable-libdav1d --enable-decoder=libdav1d \
            '--extra-ldflags=-Wl,-rpath,\\\$\$ORIGIN/lib'
    fi
    [ $cudallvm = no ] || set -- "$@" --enable-cuda-llvm --nvcc=clang
    # metrics tools call ffprobe first
    set -- "$@" --enable-ffprobe
fi
progs=ffmpeg
[ "${VG_FFMPEG_MINIMAL:-0}" = 1 ] || progs="ffmpeg ffprobe"

cfg="$*"
if [ ! -f "$b/obj/ffbuild/config.mak" ] || [ "$(cat "$b/obj/.vg-configure" 2>/dev/null)" != "$cfg|$want|$prefix" ] ||
   [ "$b/src/configure" -nt "$b/obj/ffbuild/config.mak" ]; then
    log "configuring"
    mkdir -p "$b/obj"
    (cd "$b/obj" && "$b/src/configure" "$@") > "$b/configure.log" 2>&1 || {
        tail -n 30 "$b/configure.log" >&2
        tail -n 40 "$b/obj/ffbuild/config.log" >&2 2>/dev/null || true
        die "configure failed (see $b/configure.log, $b/obj/ffbuild/config.log)"
    }
    # printf, not echo: the arguments hold backslashes (the run path)
    printf '%s\n' "$cfg|$want|$prefix" > "$b/obj/.vg-configure"
fi
grep -q '^#define CONFIG_VMAFGPU_FILTER 1' "$b/obj/config_components.h" ||
    die "configure did not enable the vmafgpu filter"
grep -q '^#define CONFIG_VMAFGPU_LIBVMAF_FILTER 1' "$b/obj/config_components.h" ||
    log "the filter is not registered as libvmaf (libvmaf is enabled too)"
if [ "${VG_FFMPEG_MINIMAL:-0}" != 1 ]; then
    for f in $(echo "$need" | tr , ' '); do
        case $f in vmafgpu_libvmaf*) continue ;; esac
        grep -q "^#define CONFIG_$(echo "$f" | tr a-z A-Z)_FILTER 1" \
            "$b/obj/config_components.h" || die "configure did not enable the $f filter"
    done
    log "$(grep -c '^#define CONFIG_[A-Z0-9_]*_FILTER 1' "$b/obj/config_components.h") filters"
fi

# ---- build ---------------------------------------------------------------
# FFmpeg's Makefile does not know the external archives: relink when
# libvmafgpu.a is newer than the last link.
for p in $progs; do
    if [ -f "$b/obj/${p}_g" ] && [ "$vglibdir/libvmafgpu.a" -nt "$b/obj/${p}_g" ]; then
        rm -f "$b/obj/${p}_g" "$b/obj/$p"
    fi
done
log "building $progs with $jobs jobs"
# shellcheck disable=SC2086
make -C "$b/obj" -j"$jobs" $progs > "$b/make.log" 2>&1 || {
    grep -E 'error|Error' "$b/make.log" | head -n 30 >&2
    die "make failed (see $b/make.log)"
}
rm -f "$b/ffprobe"
for p in $progs; do
    cp "$b/obj/$p" "$b/$p.new"
    mv "$b/$p.new" "$b/$p"
done

# libdav1d (shared only in Debian) travels with the binary: $b/lib, found
# through the binary's $ORIGIN/lib run path
rm -rf "$b/lib"
dav=$(ldd "$b/ffmpeg" | awk '$1 ~ /^libdav1d\.so/ { print $3 }')
if [ -n "$dav" ]; then
    mkdir -p "$b/lib"
    cp -L "$dav" "$b/lib/$(ldd "$b/ffmpeg" | awk '$1 ~ /^libdav1d\.so/ { print $1 }')"
fi

# ---- the binary must run on a machine without our Debian packages --------
bad=$(for p in $progs; do ldd "$b/$p"; done |
      awk -v lib="$b/lib/" 'index($3, lib) != 1 { print $1 }' |
      grep -v -E '^(linux-vdso\.so|/lib64/ld-linux|ld-linux|libc\.so|libm\.so|libmvec\.so|libpthread\.so|libdl\.so|librt\.so|libgcc_s\.so)' || true)
[ -z "$bad" ] || die "ffmpeg links libraries that are not part of glibc: $bad"
"$b/ffmpeg" -hide_banner -h filter=vmafgpu > /dev/null ||
    die "the built ffmpeg has no vmafgpu filter"
log "built $b/ffmpeg"
