#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Throughput of vmaf_v0.6.1 on an NVIDIA GPU, ours and libvmaf_cuda's side
# by side, in frames/s of a distorted/reference pair, at 1080p and 2160p:
#
#   NVDEC decode of the pair alone
#   NVDEC into vmafgpu=enable=0: the pair joined in one filter graph,
#   frames paired and none scored (what the graph costs decoding)
#   NVDEC + libvmaf_cuda (scale_cuda=format=yuv420p in front, as it needs)
#   NVDEC + vmafgpu
#   NVDEC + vmafgpu with vmaf_v1.0.16_3d0h (libvmaf_cuda has no CUDA
#   cambi or SpEED), alternating with decoding alone
#   frames decoded once and replayed from GPU memory (loop), alone
#   replayed + libvmaf_cuda
#   replayed + vmafgpu
#   the library alone, frames resident (tests/bench/vmafbench), if given
#   time to first score: a run on the pair's first frames alone (one-frame
#   clips) less the same build's decoding of them (library set-up, kernel
#   module load, the first frame), and split: the clips joined into
#   vmafgpu=enable=0 (the graph's share, the same for any filter joining
#   the pair) against scored
#   steady state of the replay rows: the frames a run twice as long adds
#   over the time it adds, which leaves out what both lengths pay once
#   (process and CUDA start-up, decoding the frames to replay)
#
# Each figure is the best of VG_RUNS runs; the runs of one row alternate
# between the two ffmpeg builds, so that both see the same machine state.
# The corpus pairs are looped to at least 1,200 frames at 1080p (600 at
# 2160p) so that start-up is a small share; the replay rows score
# 60 x (VG_REPLAY + 1) frames. Figures, not assertions: it fails only when
# a run fails.
#
# Usage: tests/bench/throughput.sh OUR_FFMPEG ANCHOR_FFMPEG [VMAFBENCH REF DIS]
#   ANCHOR_FFMPEG   an FFmpeg with libvmaf_cuda, NVDEC, scale_cuda and loop
#                   (for measurements only; see ../shared/anchor/README.md)
#   VMAFBENCH REF DIS  tests/bench/vmafbench and its raw 640x360 4:4:4 pair
# Environment:
#   VG_CORPUS_DIR   the encoded corpus (default <repo>/../shared/corpus)
#   VG_RUNS         runs per figure (default 3)
#   VG_REPLAY       extra passes of the replayed frames (default 199)
#   VG_SIZES        the sizes measured (default "1080 2160")
#   VG_ROWS         "startup" for the time to first score rows alone (a
#                   minute on the GPU); "v1" for decoding alone against
#                   vmaf_v1.0.16_3d0h on NVDEC alone; default: every row
#   VG_FATE_WORK    work directory (default: a temporary one, removed)

set -u
set -f  # the filter graphs hold [...] that must not glob

top=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${VG_CORPUS_DIR:-$top/../shared/corpus}
ours=${1:?usage: $0 OUR_FFMPEG ANCHOR_FFMPEG [VMAFBENCH REF DIS]}
anchor=${2:?usage: $0 OUR_FFMPEG ANCHOR_FFMPEG [VMAFBENCH REF DIS]}
runs=${VG_RUNS:-3}
rows=${VG_ROWS:-all}
replay=${VG_REPLAY:-199}
bench_name=throughput
dec="-hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda"
hw="-init_hw_device cuda=gpu -filter_hw_device gpu"
failed=0

# shellcheck source=tests/bench/runs.sh
. "$top/tests/bench/runs.sh"

# row KEY SIZE: runs of the row's ours and libvmaf's commands, alternating;
# sets $KEY_ours_SIZE and $KEY_anchor_SIZE to the best figures
row() {
    key=$1 size=$2
    o= a=
    i=0
    while [ $i -lt "$runs" ]; do
        # shellcheck disable=SC2086
        o="$o $(fps "$ours" $ours_args)"
        [ -z "$anchor_args" ] || a="$a $(fps "$anchor" $anchor_args)"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    eval "${key}_ours_$size=$(best max $o)"
    # shellcheck disable=SC2086
    [ -z "$anchor_args" ] || eval "${key}_anchor_$size=$(best max $a)"
}

# v1row SIZE: decoding the pair alone and scoring it with
# vmaf_v1.0.16_3d0h, both our build, alternating; sets $v1dec_SIZE and
# $v1_SIZE to the best figures
v1row() {
    d= o=
    i=0
    while [ $i -lt "$runs" ]; do
        # shellcheck disable=SC2086
        d="$d $(fps "$ours" $in -map 0:v -map 1:v -f null -)"
        # shellcheck disable=SC2086
        o="$o $(fps "$ours" $in -lavfi "[0:v][1:v]vmafgpu=model=version=vmaf_v1.0.16_3d0h" -f null -)"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    eval "v1dec_$1=$(best max $d)"
    # shellcheck disable=SC2086
    eval "v1_$1=$(best max $o)"
}

# steady SIZE: the replay rows at a second length (2 VG_REPLAY + 1 extra
# passes), the best time of each command there against the best time of
# the replay rows just measured (their frames over their best frames/s),
# then the added frames over the added time, for the replay alone and
# with each filter (the runs alternate as in row()); "-" when a run failed
# or the longer run was not measurably longer (the replay alone at 2160p)
steady() {
    size=$1
    long=$((2 * replay + 1))
    lp2="loop=loop=$long:size=$nf:start=0"
    n1=$((nf * (replay + 1))) n2=$((nf * (long + 1)))
    rp= ro= ra=
    i=0
    while [ $i -lt "$runs" ]; do
        # shellcheck disable=SC2086
        rp="$rp $(secs "$ours" $in -filter_complex "[0:v]${lp2}[d];[1:v]${lp2}[r]" -map "[d]" -map "[r]" -f null -)"
        # shellcheck disable=SC2086
        ro="$ro $(secs "$ours" $in -filter_complex "[0:v]${lp2}[d];[1:v]${lp2}[r];[d][r]vmafgpu=model=version=vmaf_v0.6.1" -f null -)"
        # shellcheck disable=SC2086
        ra="$ra $(secs "$anchor" $in -filter_complex "[0:v]$lp2,scale_cuda=format=yuv420p[d];[1:v]$lp2,scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda" -f null -)"
        i=$((i + 1))
    done
    for k in "rp replay_ours" "ro rvmaf_ours" "ra rvmaf_anchor"; do
        # shellcheck disable=SC2086
        set -- $k
        # shellcheck disable=SC2046,SC2086
        t2=$(best min $(eval echo "\$$1"))
        f1=$(eval echo "\$${2}_$size")
        v=$(awk -v f="$f1" -v b="$t2" -v n1="$n1" -v n2="$n2" \
            'BEGIN { a = f + 0 > 0 ? n1 / f : 0
                     if (a > 0 && b + 0 > a) printf "%.1f", (n2 - n1) / (b - a); else printf "-" }')
        eval "steady_${1}_$size=$v"
    done
}

# clip FILE: prints the name of FILE's first frame alone: FILE.1f.mp4
# beside it if there, else cut by our build into the work directory, as
# MP4 (which both builds read) where it writes MP4, else as Matroska (the
# libvmaf_cuda rows then fail and show -)
clip() {
    c=${1%.*}.1f.mp4
    [ -f "$c" ] && { echo "$c"; return 0; }
    c=$w/$(basename "${1%.*}").1f
    for x in mp4 mkv; do
        "$ours" -nostdin -v error -y -i "$1" -map 0:v -c copy -frames:v 1 "$c.$x" \
            2> /dev/null && { echo "$c.$x"; return 0; }
    done
    return 1
}

# startup SIZE: the best (shortest) of 2 x VG_RUNS runs of each build on
# the pair's first frames alone (one-frame clips, stream copies), decoded,
# scored, and (ours) joined into vmafgpu=enable=0; the difference is the
# time to first score. A clip of one frame, not -frames:v 1 on the whole
# pair: the filter holds a frame until its scores are ready (motion needs
# the next frame), so a run cut at its first output frame decodes more
# frames scored than unscored, and the difference would count their
# decoding as start-up.
startup() {
    size=$1
    d= da= o= a= p=
    cd1=$(clip "$dis") && cr1=$(clip "$ref") || {
        echo "throughput: cannot cut the one-frame clips of the ${size}p pair" >&2
        failed=1
        return
    }
    i=0
    while [ $i -lt $((2 * runs)) ]; do
        # shellcheck disable=SC2086
        d="$d $(secs "$ours" $hw $dec -i "$cd1" $dec -i "$cr1" -map 0:v -map 1:v -f null -)"
        # shellcheck disable=SC2086
        da="$da $(secs "$anchor" $hw $dec -i "$cd1" $dec -i "$cr1" -map 0:v -map 1:v -f null -)"
        # shellcheck disable=SC2086
        p="$p $(secs "$ours" $hw $dec -i "$cd1" $dec -i "$cr1" \
            -lavfi "[0:v][1:v]vmafgpu=enable=0" -f null -)"
        # shellcheck disable=SC2086
        o="$o $(secs "$ours" $hw $dec -i "$cd1" $dec -i "$cr1" \
            -lavfi "[0:v][1:v]vmafgpu=model=version=vmaf_v0.6.1" -f null -)"
        # shellcheck disable=SC2086
        a="$a $(secs "$anchor" $hw $dec -i "$cd1" $dec -i "$cr1" \
            -lavfi "[0:v]scale_cuda=format=yuv420p[d];[1:v]scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda" -f null -)"
        i=$((i + 1))
    done
    eval "start_dec_$size=$(best min $d)"
    eval "start_deca_$size=$(best min $da)"
    eval "start_pair_$size=$(best min $p)"
    eval "start_ours_$size=$(best min $o)"
    eval "start_anchor_$size=$(best min $a)"
}

for size in ${VG_SIZES:-1080 2160}; do
    case $size in
    1080) dis=$corpus/p1080_dist_crf32.mp4 ref=$corpus/p1080_ref.mp4 nf=60 loops=19 ;;
    2160) dis=$corpus/p2160_dist_x265crf30.mp4 ref=$corpus/p2160_ref.mp4 nf=30 loops=19 ;;
    *) echo "throughput: VG_SIZES: unknown size $size (1080, 2160)" >&2; exit 2 ;;
    esac
    echo "throughput: ${size}p, $runs runs per figure" >&2
    if [ "$rows" = startup ]; then
        startup "$size"
        continue
    fi
    in="$hw $dec -stream_loop $loops -i $dis $dec -stream_loop $loops -i $ref"
    v1row $size
    [ "$rows" = v1 ] && continue
    ours_args="$in -map 0:v -map 1:v -f null -"
    anchor_args=$ours_args
    row dec $size
    ours_args="$in -lavfi [0:v][1:v]vmafgpu=enable=0 -f null -"
    anchor_args=
    row pair $size
    ours_args="$in -lavfi [0:v][1:v]vmafgpu=model=version=vmaf_v0.6.1 -f null -"
    anchor_args="$in -lavfi [0:v]scale_cuda=format=yuv420p[d];[1:v]scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda -f null -"
    row vmaf $size
    rp="-extra_hw_frames $((nf + 4)) $dec"
    lp="loop=loop=$replay:size=$nf:start=0"
    in="$hw $rp -i $dis $rp -i $ref"
    ours_args="$in -filter_complex [0:v]$lp[d];[1:v]$lp[r] -map [d] -map [r] -f null -"
    anchor_args=$ours_args
    row replay $size
    ours_args="$in -filter_complex [0:v]$lp[d];[1:v]$lp[r];[d][r]vmafgpu=model=version=vmaf_v0.6.1 -f null -"
    anchor_args="$in -filter_complex [0:v]$lp,scale_cuda=format=yuv420p[d];[1:v]$lp,scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda -f null -"
    row rvmaf $size
    steady $size
    startup $size
done

lib_1080=- lib_2160=-
for size in 1080 2160; do
    for k in dec_ours dec_anchor pair_ours vmaf_ours vmaf_anchor replay_ours replay_anchor \
             rvmaf_ours rvmaf_anchor steady_rp steady_ro steady_ra start_dec \
             start_deca start_pair start_ours start_anchor v1dec v1; do
        eval "[ -n \"\${${k}_$size:-}\" ] || ${k}_$size=-"
    done
done
if [ $# -ge 5 ] && [ "$rows" = all ]; then
    echo "throughput: the library alone (vmafbench)" >&2
    "$3" "$4" "$5" 1200 > "$w/vmafbench.out" 2>&1 || failed=1
    lib_1080=$(awk '/^vmafbench/ && /1920x1080/ && /nv12/ && /vmaf_v0.6.1/ { for (i = 1; i <= NF; i++) if ($i ~ /^frames\/s/) { print $(i - 1); exit } }' "$w/vmafbench.out")
    lib_2160=$(awk '/^vmafbench/ && /3840x2160/ && /nv12/ && /vmaf_v0.6.1/ { for (i = 1; i <= NF; i++) if ($i ~ /^frames\/s/) { print $(i - 1); exit } }' "$w/vmafbench.out")
    grep '^vmafbench' "$w/vmafbench.out" | head -n 4
fi

ms() {
    awk -v a="$1" -v b="${2:-0}" 'BEGIN { if (a + 0 > 0 && b + 0 >= 0) printf "%.0f", (a - b) * 1000; else printf "-" }'
}
v1_table() {
    echo "| path (vmaf_v1.0.16_3d0h, best of $runs, alternating) | 1080p fps | 2160p fps |"
    echo "| --- | --- | --- |"
    echo "| NVDEC decode of the pair alone | $v1dec_1080 | $v1dec_2160 |"
    echo "| NVDEC + vmafgpu=model=version=vmaf_v1.0.16_3d0h | $v1_1080 | $v1_2160 |"
    echo "| vmafgpu (vmaf_v1.0.16_3d0h) on NVDEC / decode alone | $(ratio "$v1_1080" "$v1dec_1080") | $(ratio "$v1_2160" "$v1dec_2160") |"
}
if [ "$rows" = v1 ]; then
    v1_table
    for v in $v1dec_1080 $v1_1080 $v1dec_2160 $v1_2160; do
        [ "$v" = failed ] && failed=1
    done
    exit $failed
fi
if [ "$rows" = startup ]; then
    echo "| start-up (vmaf_v0.6.1, best of $((2 * runs))) | 1080p | 2160p |"
    echo "| --- | --- | --- |"
else
    echo "| path (vmaf_v0.6.1, best of $runs) | 1080p fps | 2160p fps |"
    echo "| --- | --- | --- |"
    echo "| NVDEC decode of the pair alone (our build / libvmaf's) | $dec_ours_1080 / $dec_anchor_1080 | $dec_ours_2160 / $dec_anchor_2160 |"
    echo "| NVDEC into vmafgpu=enable=0 (paired, none scored) | $pair_ours_1080 | $pair_ours_2160 |"
    echo "| NVDEC + libvmaf_cuda | $vmaf_anchor_1080 | $vmaf_anchor_2160 |"
    echo "| NVDEC + vmafgpu | $vmaf_ours_1080 | $vmaf_ours_2160 |"
    echo "| replay alone (our build / libvmaf's) | $replay_ours_1080 / $replay_anchor_1080 | $replay_ours_2160 / $replay_anchor_2160 |"
    echo "| replay + libvmaf_cuda | $rvmaf_anchor_1080 | $rvmaf_anchor_2160 |"
    echo "| replay + vmafgpu | $rvmaf_ours_1080 | $rvmaf_ours_2160 |"
    echo "| the library alone (vmafbench, resident frames) | $lib_1080 | $lib_2160 |"
    echo "| replay alone, steady state (frames added / time added) | $steady_rp_1080 | $steady_rp_2160 |"
    echo "| replay + libvmaf_cuda, steady state | $steady_ra_1080 | $steady_ra_2160 |"
    echo "| replay + vmafgpu, steady state | $steady_ro_1080 | $steady_ro_2160 |"
    echo "| vmafgpu / libvmaf_cuda on NVDEC | $(ratio "$vmaf_ours_1080" "$vmaf_anchor_1080") | $(ratio "$vmaf_ours_2160" "$vmaf_anchor_2160") |"
    echo "| vmafgpu on NVDEC / decode alone | $(ratio "$vmaf_ours_1080" "$dec_ours_1080") | $(ratio "$vmaf_ours_2160" "$dec_ours_2160") |"
    echo "| the pair joined, unscored / decode alone | $(ratio "$pair_ours_1080" "$dec_ours_1080") | $(ratio "$pair_ours_2160" "$dec_ours_2160") |"
    echo "| vmafgpu / libvmaf_cuda on replay | $(ratio "$rvmaf_ours_1080" "$rvmaf_anchor_1080") | $(ratio "$rvmaf_ours_2160" "$rvmaf_anchor_2160") |"
    echo "| replay + vmafgpu / the library alone | $(ratio "$rvmaf_ours_1080" "$lib_1080") | $(ratio "$rvmaf_ours_2160" "$lib_2160") |"
    echo "| replay + vmafgpu, steady state / the library alone | $(ratio "$steady_ro_1080" "$lib_1080") | $(ratio "$steady_ro_2160" "$lib_2160") |"
    echo "| vmafgpu / libvmaf_cuda on replay, steady state | $(ratio "$steady_ro_1080" "$steady_ra_1080") | $(ratio "$steady_ro_2160" "$steady_ra_2160") |"
fi
[ "$rows" = all ] && v1_table
echo "| decode of the one-frame clips, ms (our build / libvmaf's) | $(ms "$start_dec_1080") / $(ms "$start_deca_1080") | $(ms "$start_dec_2160") / $(ms "$start_deca_2160") |"
echo "| time to first score, ms: vmafgpu / libvmaf_cuda (the clips scored less the same build's decode of them) | $(ms "$start_ours_1080" "$start_dec_1080") / $(ms "$start_anchor_1080" "$start_deca_1080") | $(ms "$start_ours_2160" "$start_dec_2160") / $(ms "$start_anchor_2160" "$start_deca_2160") |"
echo "| of which the graph's: the clips into vmafgpu=enable=0 less their decode, ms | $(ms "$start_pair_1080" "$start_dec_1080") | $(ms "$start_pair_2160" "$start_dec_2160") |"
echo "| of which scoring's: the clips scored less unscored, ms | $(ms "$start_ours_1080" "$start_pair_1080") | $(ms "$start_ours_2160" "$start_pair_2160") |"
for v in $dec_ours_1080 $vmaf_ours_1080 $vmaf_anchor_1080 $rvmaf_ours_1080 $rvmaf_anchor_1080 \
         $dec_ours_2160 $vmaf_ours_2160 $vmaf_anchor_2160 $rvmaf_ours_2160 $rvmaf_anchor_2160 \
         $start_dec_1080 $start_deca_1080 $start_pair_1080 $start_ours_1080 $start_anchor_1080 \
         $start_dec_2160 $start_deca_2160 $start_pair_2160 $start_ours_2160 $start_anchor_2160 \
         $v1dec_1080 $v1_1080 $v1dec_2160 $v1_2160; do
    [ "$v" = failed ] && failed=1
done
exit $failed
