#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# The filter's CUDA-frame path on a machine without a GPU: the patched
# ffmpeg with the emulated CUDA driver of tests/gpu/libcudafault.so
# loaded as libcuda.so.1, so that FFmpeg's CUDA device (hwupload) and the
# library share one emulated device. Kernels do not run there, so scores
# are meaningless; what is tested is the host side, against a driver that
# refuses every call a real one would refuse and lists at exit what is
# still allocated:
#  - clean runs, 4 frames each (nv12 and p010 frames from hwupload; a
#    distorted input of half the size that the library scales,
#    scale=bicubic): exit status 0, the summary printed, a log entry per
#    frame, no refused call, nothing left allocated;
#  - a ladder of three renditions (renditions=3), one scaled by the library
#    and one from another CUDA context: the same, a log per rendition;
#  - on the nv12 run (VG_SWEEP), every call of the driver functions that
#    only the filter and the library use (those a run with enable=0 does
#    not make) fails once in turn (VG_FAULT_N): no crash, no hang, no
#    refused call, nothing left allocated, an error line that names the
#    function, and a non-zero exit status unless every frame was scored
#    (a failure while closing can only be logged).
# Prints one line per test and "N passed, N failed"; exits 1 if any test
# failed, 77 when the shim was not built (no CUDA toolkit at configure).
#
# Usage: tests/fate/emulated.sh FFMPEG SHIM
#   SHIM  tests/gpu/libcudafault.so of the build (make check builds it)
# Environment: VG_SHARED_DIR, VG_FATE_WORK, JSONCMP, CC as for run.sh;
#   VG_FAULT_SAMPLE=K fails every K-th call only (default 1: all);
#   VG_SWEEP=nv12|p010|scale the run swept (default nv12)

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${VG_SHARED_DIR:-$top/../shared}
ffmpeg=${1:-}
shim=${2:-}
if [ -z "$ffmpeg" ] || [ ! -x "$ffmpeg" ]; then
    echo "emulated: no ffmpeg at '$ffmpeg'" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
if [ -z "$shim" ] || [ ! -f "$shim" ]; then
    echo "emulated: no emulated driver at '$shim' (built with the CUDA backend only)" >&2
    exit 77
fi
fate_name=emulated
features="psnr motion vif adm"
models=vmaf_v0.6.1
# shellcheck source=tests/fate/lib.sh
. "$top/tests/fate/lib.sh"

mkdir -p "$w/drv"
ln -sf "$(cd "$(dirname "$shim")" && pwd)/$(basename "$shim")" "$w/drv/libcuda.so.1"
sample=${VG_FAULT_SAMPLE:-1}
frames=4
raw="-f rawvideo -pix_fmt yuv444p -video_size 640x360 -framerate 30"
base=$shared/corpus/raw/r640x360_yuv444p
in="$raw -i ${base}_dist.yuv $raw -i ${base}_ref.yuv -init_hw_device cuda=gpu -filter_hw_device gpu -frames:v $frames"
clean="cudafault: outstanding contexts 0 memory 0 pinned 0 streams 0 events 0 modules 0 "

# emu OUT GRAPH: ffmpeg on the emulated driver, the shim's report at the
# end of OUT; the exit status is ffmpeg's (124 after 60 s)
emu() {
    out=$1 graph=$2
    # shellcheck disable=SC2086
    env -u VG_CUDA_DRIVER LD_LIBRARY_PATH="$w/drv${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        VG_FAULT_COUNT=1 timeout 60 "$ffmpeg" -nostdin -hide_banner -nostats \
        $in -lavfi "$graph" -f null - > "$out" 2>&1
}

# scored OUT LOG: the summary printed and one log entry per frame
scored() {
    grep -q "VMAF score:" "$1" && [ -f "$2" ] &&
        [ "$(grep -c '"frameNum"' "$2")" = "$frames" ]
}

# sound OUT: ffmpeg exited (the report printed), no call was refused and
# nothing is left allocated
sound() {
    grep -q "^$clean" "$1" && grep -q "^cudafault: 0 call(s) failed without injection" "$1"
}

vm="vmafgpu=log_fmt=json:log_path=$w/log.json"
# uploads KIND: the graph in front of the filter; graph KIND FILTER
uploads() {
    case $1 in
    nv12)  echo "[0:v]format=nv12,hwupload[d];[1:v]format=nv12,hwupload[r];[d][r]" ;;
    p010)  echo "[0:v]format=p010le,hwupload[d];[1:v]format=p010le,hwupload[r];[d][r]" ;;
    scale) echo "[0:v]scale=320:180,format=nv12,hwupload[d];[1:v]format=nv12,hwupload[r];[d][r]" ;;
    esac
}
graph() {
    case $1 in scale) echo "$(uploads "$1")$2:scale=bicubic" ;; *) echo "$(uploads "$1")$2" ;; esac
}
for t in "nv12|nv12" "p010|p010" "scale|nv12, distorted 320x180, scale=bicubic"; do
    k=${t%%|*} name=${t#*|}
    rm -f "$w/log.json"
    if emu "$w/clean.out" "$(graph "$k" "$vm")" && scored "$w/clean.out" "$w/log.json" &&
       sound "$w/clean.out"; then
        pass "clean run, $name: $frames frames scored, $(sed -n 's/^cudafault: total \([0-9]*\) calls.*/\1/p' "$w/clean.out") driver calls, none refused, nothing left"
    else
        fail "clean run, $name: failed, a call refused or objects left" "$w/clean.out"
    fi
done

# a ladder of three renditions: one of half the size that the library
# scales, one uploaded into a CUDA context of its own (hwupload_cuda),
# copied into rendition 0's
rm -f "$w"/lad-*.json
lad="[0:v]format=nv12,hwupload[d0];[1:v]scale=320:180,format=nv12,hwupload[d1];[2:v]format=nv12,hwupload_cuda[d2];[3:v]format=nv12,hwupload[r];[d0][d1][d2][r]vmafgpu=renditions=3:scale=bicubic:log_fmt=json:log_path=$w/lad-%d.json"
in_pair=$in
in="$raw -i ${base}_dist.yuv $in_pair"
in="-v verbose $raw -i ${base}_dist.yuv $in"
ok=0
if emu "$w/lad.out" "$lad" && sound "$w/lad.out" &&
   [ "$(grep -c "rendition [0-2]: VMAF score:" "$w/lad.out")" = 3 ] &&
   grep -q "rendition 2 frames are copied into rendition 0's context" "$w/lad.out"; then
    ok=1
    for r in 0 1 2; do
        scored "$w/lad.out" "$w/lad-$r.json" || ok=0
    done
fi
if [ $ok = 1 ]; then
    pass "clean run, a ladder of 3 renditions (one 320x180 scaled by the library, one from another context): $frames frames in each log, none refused, nothing left"
else
    fail "clean run, a ladder of 3 renditions: failed, a call refused or objects left" "$w/lad.out"
fi
in=$in_pair

# the functions only the filter and the library call
sw=${VG_SWEEP:-nv12}
case $sw in nv12|p010|scale) ;; *) echo "emulated: VG_SWEEP: nv12, p010 or scale" >&2; exit 1 ;; esac
sweep=$(graph "$sw" "$vm")
emu "$w/ffonly.out" "$(graph "$sw" vmafgpu=enable=0)"
emu "$w/all.out" "$sweep"
sed -n 's/^cudafault: calls \([a-zA-Z0-9_]*\) .*/\1/p' "$w/ffonly.out" | sort > "$w/ffonly.lst"
sed -n 's/^cudafault: calls \([a-zA-Z0-9_]*\) .*/\1/p' "$w/all.out" | sort > "$w/all.lst"
funcs=$(comm -13 "$w/ffonly.lst" "$w/all.lst" | paste -sd, -)
if [ -z "$funcs" ] || [ ! -s "$w/ffonly.lst" ]; then
    fail "fault sweep: no driver function of the filter's own found" "$w/ffonly.out" "$w/all.out"
    echo "$n_pass passed, $n_fail failed"
    exit 1
fi
export VG_FAULT_FUNCS="$funcs"
emu "$w/count.out" "$sweep"
n=$(sed -n 's/^cudafault: total [0-9]* calls, \([0-9]*\) of the selected.*/\1/p' "$w/count.out")
i=1 runs=0 bad=0 crashed=0 hung=0 silent=0 zero=0 unsound=0
while [ "$i" -le "${n:-0}" ]; do
    rm -f "$w/log.json"
    VG_FAULT_N=$i emu "$w/f.out" "$sweep"
    rc=$?
    runs=$((runs + 1))
    f=$(sed -n 's/^cudafault: injected [0-9]* failure(s), first \([a-zA-Z0-9_]*\) at.*/\1/p' "$w/f.out")
    ok=1
    if [ $rc = 124 ]; then
        hung=$((hung + 1)) ok=0
    elif ! grep -q "^cudafault: outstanding" "$w/f.out"; then
        crashed=$((crashed + 1)) ok=0
    elif ! sound "$w/f.out"; then
        unsound=$((unsound + 1)) ok=0
    elif [ -n "$f" ] && ! grep -v "^cudafault:" "$w/f.out" | grep -Eq "$f(\(.*\))? failed"; then
        silent=$((silent + 1)) ok=0
    elif [ $rc = 0 ] && ! scored "$w/f.out" "$w/log.json"; then
        zero=$((zero + 1)) ok=0
    fi
    if [ $ok = 0 ]; then
        bad=$((bad + 1))
        [ $bad -le 3 ] && { echo "    call $i ($f), exit status $rc:"; grep -v "^cudafault: calls " "$w/f.out" | tail -n 8 | sed 's/^/      /'; }
    fi
    i=$((i + sample))
done
what="$runs runs failing each of $n calls to $(echo "$funcs" | tr ',' ' ' | wc -w) functions in turn"
if [ "$runs" -gt 0 ] && [ $bad = 0 ]; then
    pass "fault sweep, $sw: $what; each named in an error line, nothing left, no crash or hang"
else
    fail "fault sweep, $sw: $what: $crashed crashed, $hung hung, $unsound refused calls or left objects, $silent did not name the failure, $zero exited 0 without scores"
fi

echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
