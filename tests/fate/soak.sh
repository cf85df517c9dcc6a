#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Long runs of the patched ffmpeg's vmafgpu filter on a GPU.
#
#   tests/fate/soak.sh [soak] [FFMPEG]
#       One ffmpeg process scores for SOAK_SECONDS (default 600) frames
#       decoded once with NVDEC and replayed from GPU memory (loop,
#       -extra_hw_frames, as tests/fate/gpu.sh section 5), split into
#       SOAK_INSTANCES (default 3) vmafgpu instances with different
#       options. Every SOAK_INTERVAL seconds the process's device memory
#       (nvidia-smi --query-compute-apps, or the GPU's memory.used when
#       the process is not listed), its host RSS (/proc/PID/status VmRSS)
#       and the frames done are written to a CSV. Then ffmpeg gets SIGINT
#       and must end cleanly, each instance printing its score and writing
#       its JSON log. The instances score the same replayed frames: each
#       one's frame count is printed, and every frame that two instances
#       both scored must have the same scores in both logs, to the bit,
#       but the last two of the shorter run (their temporal features look
#       at the frames after them: a run's last frames are scored as
#       libvmaf scores the end of a stream); and instances with the same
#       count must have the same pooled scores.
#       Judgement, on the samples after SOAK_WARMUP seconds: device memory
#       is flat (the highest sample of the second half exceeds the first
#       sample after warm-up by less than SOAK_GPU_MIB, default 16 MiB);
#       host RSS grows by less than the per-frame scores the library keeps
#       for every frame (SOAK_SCORE_BYTES per frame and instance, default
#       320, about 32 metrics of 9 bytes plus room) plus SOAK_RSS_MIB
#       (default 64 MiB). Prints the samples and one line
#       "soak: PASS ..." or "soak: FAIL ...".
#
#   tests/fate/soak.sh memcheck [FFMPEG]
#       A short clip (MEMCHECK_FRAMES frames of the pair, default 8,
#       replayed twice) through two vmafgpu instances under
#       compute-sanitizer --tool memcheck --leak-check full: no error, no
#       leak, every instance scored. Prints "memcheck: PASS|FAIL ...".
#
# Exit status 0 on PASS, 1 on FAIL, 77 without a usable GPU unless
# VG_REQUIRE_GPU=1.
#
# Environment:
#   FFMPEG           the patched ffmpeg (default ./ffmpeg-n9.0.2/ffmpeg)
#   VG_SHARED_DIR    default <repo>/../shared; VG_CORPUS_DIR default
#                    $VG_SHARED_DIR/corpus (the encoded pairs)
#   SOAK_PAIR        p1080_crf32 (default), p1080_scaled, p2160, p720_10
#   SOAK_MODEL       the model's version (default vmaf_v0.6.1; e.g.
#                    vmaf_v1.0.16_3d0h)
#   SOAK_SECONDS, SOAK_INTERVAL (5), SOAK_WARMUP (60), SOAK_INSTANCES,
#   SOAK_GPU_MIB, SOAK_RSS_MIB, SOAK_SCORE_BYTES  as above
#   SOAK_DECODE      nvdec (default); upload: software decoding and
#                    hwupload into the filter device; cpu: software
#                    decoding and backend=cpu (no GPU column)
#   SOAK_CSV         the CSV (default: in the work directory, printed)
#   MEMCHECK_TIMEOUT seconds for the memcheck run (default 600)
#   VG_N_THREADS     host threads of the instances (default: nproc)
#   VG_FATE_WORK     work directory (default: a temporary one, removed)

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
mode=soak
case ${1:-} in
soak|memcheck) mode=$1; shift ;;
esac
ffmpeg=${1:-${FFMPEG:-$PWD/ffmpeg-n9.0.2/ffmpeg}}
shared=${VG_SHARED_DIR:-$top/../shared}
corpus=${VG_CORPUS_DIR:-$shared/corpus}
pair=${SOAK_PAIR:-p1080_crf32}
seconds=${SOAK_SECONDS:-600}
interval=${SOAK_INTERVAL:-5}
warmup=${SOAK_WARMUP:-60}
instances=${SOAK_INSTANCES:-3}
gpu_mib=${SOAK_GPU_MIB:-16}
rss_mib=${SOAK_RSS_MIB:-64}
score_bytes=${SOAK_SCORE_BYTES:-320}
decode=${SOAK_DECODE:-nvdec}
model=${SOAK_MODEL:-vmaf_v0.6.1}
nthr=${VG_N_THREADS:-$(nproc)}

if [ -n "${VG_FATE_WORK:-}" ]; then
    w=$VG_FATE_WORK
    mkdir -p "$w"
else
    w=$(mktemp -d "${TMPDIR:-/tmp}/vg-soak.XXXXXX")
    trap 'rm -rf "$w"' EXIT
fi
csv=${SOAK_CSV:-$w/soak.csv}

say() {
    echo "$mode: $*"
}
finish() { # PASS|FAIL|SKIP, message
    say "$1 $2"
    case $1 in
    PASS) exit 0 ;;
    SKIP) exit 77 ;;
    *) exit 1 ;;
    esac
}
no_gpu() {
    if [ "${VG_REQUIRE_GPU:-0}" = 1 ]; then
        finish FAIL "$1"
    fi
    finish SKIP "$1"
}

# the corpus pairs of tests/fate/gpu.sh: files, frames per pass
case $pair in
p1080_crf32)  dis=p1080_dist_crf32.mp4;       ref=p1080_ref.mp4;    nf=60 ;;
p1080_scaled) dis=p1080_dist_scaled.mp4;      ref=p1080_ref.mp4;    nf=60 ;;
p2160)        dis=p2160_dist_x265crf30.mp4;   ref=p2160_ref.mp4;    nf=30 ;;
p720_10)      dis=p720_10_dist_x265crf30.mp4; ref=p720_10_ref.mp4;  nf=60 ;;
*) finish FAIL "unknown SOAK_PAIR $pair" ;;
esac
for f in "$dis" "$ref"; do
    [ -f "$corpus/$f" ] || finish FAIL "$corpus/$f not found (VG_CORPUS_DIR)"
done
[ -x "$ffmpeg" ] || finish FAIL "no ffmpeg at $ffmpeg (FFMPEG or first argument)"

ff() {
    "$ffmpeg" -nostdin -hide_banner -nostats -y "$@"
}

# ---- the inputs and the graph ----------------------------------------------------
hw="-init_hw_device cuda=gpu -filter_hw_device gpu"
dec="-hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda"
case $decode in
nvdec)  ;;
upload|cpu) ;;
*) finish FAIL "unknown SOAK_DECODE $decode" ;;
esac
if [ "$decode" != cpu ]; then
    # shellcheck disable=SC2086
    if ! ff $hw -f rawvideo -video_size 64x64 -pix_fmt yuv420p -i /dev/zero \
            -frames:v 1 -vf hwupload -f null - > "$w/probe.out" 2>&1; then
        tail -n 5 "$w/probe.out"
        no_gpu "no usable CUDA device"
    fi
fi

# graph_head FRAMES LOOPS COPIES: the inputs (in_args) and the graph's
# head: the first FRAMES frames of each file (the rest is dropped), played
# once and replayed LOOPS more times (-1: until stopped), split into
# [d0]..[dN-1] and [r0]..[rN-1]
graph_head() {
    lp="trim=end_frame=$1,loop=loop=$2:size=$1:start=0"
    case $decode in
    nvdec)
        # decoded once into GPU memory; extra decoder surfaces keep the
        # frames there while loop holds them
        in_args="$hw -extra_hw_frames $(($1 + 4)) $dec -i $corpus/$dis -extra_hw_frames $(($1 + 4)) $dec -i $corpus/$ref"
        head="[0:v]$lp,split=$3"
        rhead="[1:v]$lp,split=$3"
        ;;
    upload)
        in_args="$hw -i $corpus/$dis -i $corpus/$ref"
        head="[0:v]$lp,hwupload,split=$3"
        rhead="[1:v]$lp,hwupload,split=$3"
        ;;
    cpu)
        in_args="-i $corpus/$dis -i $corpus/$ref"
        head="[0:v]$lp,split=$3"
        rhead="[1:v]$lp,split=$3"
        ;;
    esac
    i=0
    while [ $i -lt "$3" ]; do
        head="${head}[d$i]"
        rhead="${rhead}[r$i]"
        i=$((i + 1))
    done
    graph="$head;$rhead"
}

# the options of instance I: every third one with queue_size=0, every
# other one with its own host threads, so that the instances differ; each
# writes a JSON log
instance_opts() {
    o="model=version=$model:feature=name=psnr:log_fmt=json:log_path=$w/instance$1.json"
    [ "$decode" = cpu ] && o="$o:backend=cpu"
    [ $(($1 % 3)) = 1 ] && o="$o:queue_size=0"
    [ $(($1 % 2)) = 0 ] && o="$o:n_threads=$nthr"
    echo "$o"
}

# graph_tail COPIES: the vmafgpu instances and the -map arguments
graph_tail() {
    maps=
    i=0
    while [ $i -lt "$1" ]; do
        graph="$graph;[d$i][r$i]vmafgpu=$(instance_opts $i)[o$i]"
        maps="$maps -map [o$i] -f null -"
        i=$((i + 1))
    done
}

# scores printed by the instances at their end ("VMAF score: X")
scores_of() {
    grep -o 'VMAF score: [0-9.]*' "$1" | awk '{ print $3 }'
}

# ---- memcheck ------------------------------------------------------------------------
if [ "$mode" = memcheck ]; then
    command -v compute-sanitizer > /dev/null || finish FAIL "compute-sanitizer not found"
    frames=${MEMCHECK_FRAMES:-8}
    graph_head "$frames" 1 2
    graph_tail 2
    out=$w/memcheck.out
    start=$(date +%s)
    # shellcheck disable=SC2086
    timeout "${MEMCHECK_TIMEOUT:-600}" compute-sanitizer --tool memcheck \
        --leak-check full --error-exitcode 3 "$ffmpeg" -nostdin -hide_banner \
        -nostats -y -v info $in_args -filter_complex "$graph" $maps > "$out" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    errs=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$out" | tail -n 1)
    n_scores=$(scores_of "$out" | wc -l)
    grep -E 'ERROR SUMMARY|LEAK SUMMARY|Leaked|VMAF score|Invalid|vmafgpu.*(rror|fail)' "$out" | head -n 40
    if [ $rc = 124 ]; then
        tail -n 20 "$out"
        finish FAIL "timed out after ${MEMCHECK_TIMEOUT:-600} s"
    elif [ $rc != 0 ] || [ "$errs" != "ERROR SUMMARY: 0 error" ]; then
        tail -n 40 "$out"
        finish FAIL "compute-sanitizer: ${errs:-no summary} (exit $rc, $secs s)"
    elif [ "$n_scores" != 2 ]; then
        tail -n 20 "$out"
        finish FAIL "$n_scores of 2 instances printed a score"
    fi
    finish PASS "$pair, $((2 * frames)) frames (replayed), 2 instances: $errs(s), no leak, scores $(scores_of "$out" | tr '\n' ' ')($secs s)"
fi

# ---- soak ----------------------------------------------------------------------------
[ "$warmup" -lt "$seconds" ] || finish FAIL "SOAK_WARMUP ($warmup) must be below SOAK_SECONDS ($seconds)"
graph_head "$nf" -1 "$instances"
graph_tail "$instances"
out=$w/soak.out
prog=$w/progress.txt
: > "$prog"
echo "# $ffmpeg $in_args -filter_complex \"$graph\"$maps" > "$w/command.txt"
# shellcheck disable=SC2086
"$ffmpeg" -nostdin -hide_banner -nostats -y -v info -progress "$prog" -stats_period 1 \
    $in_args -filter_complex "$graph" $maps > "$out" 2>&1 &
pid=$!

# device memory of the process in MiB, or of the whole GPU; sets gpu, gsrc
gpu_sample() {
    gpu=
    gsrc=
    [ "$decode" = cpu ] && return
    gpu=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null |
          awk -F', *' -v p="$pid" '$1 == p { s += $2 } END { if (s != "") print s }')
    gsrc=process
    if [ -z "$gpu" ]; then
        gpu=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 2>/dev/null | head -n 1)
        gsrc=gpu
    fi
    [ -n "$gpu" ] || gsrc=
}

echo "t_s,frames,rss_kib,gpu_mib,gpu_source" > "$csv"
t0=$(date +%s)
t=0
while [ $t -lt "$seconds" ]; do
    sleep "$interval"
    t=$(($(date +%s) - t0))
    kill -0 $pid 2>/dev/null || break
    rss=$(awk '/^VmRSS:/ { print $2 }' /proc/$pid/status 2>/dev/null)
    frames=$(grep '^frame=' "$prog" | tail -n 1 | tr -dc 0-9)
    gpu_sample
    echo "$t,${frames:-0},${rss:-},$gpu,$gsrc" >> "$csv"
done

alive=0
kill -0 $pid 2>/dev/null && alive=1
if [ $alive = 1 ]; then
    kill -INT $pid
    # a clean end: the instances flush and print their scores
    i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt 60 ]; do
        sleep 1
        i=$((i + 1))
    done
    if kill -0 $pid 2>/dev/null; then
        kill -KILL $pid
        wait $pid 2>/dev/null
        tail -n 20 "$out"
        finish FAIL "ffmpeg did not end within 60 s of SIGINT"
    fi
fi
wait $pid
rc=$?

echo "samples ($csv):"
cat "$csv"
cat "$w/command.txt"
grep -E 'cuda engine|VMAF score|rror|fail' "$out" | head -n 20

if [ $alive = 0 ]; then
    tail -n 30 "$out"
    finish FAIL "ffmpeg ended after $t s of $seconds (exit $rc)"
fi
# SIGINT ends ffmpeg with 255 after a normal shutdown
if [ $rc != 0 ] && [ $rc != 255 ]; then
    tail -n 30 "$out"
    finish FAIL "ffmpeg exited with $rc"
fi
if grep -q 'vmafgpu.*\(rror\|fail\)' "$out"; then
    finish FAIL "a vmafgpu instance reported an error"
fi
n_scores=$(scores_of "$out" | wc -l)
[ "$n_scores" = "$instances" ] || finish FAIL "$n_scores of $instances instances printed a score"
# the instances scored the same frames, up to the count each reached: the
# same values for every frame two of them scored, and the same pooled
# values where the counts are equal
same=$(python3 - "$w" "$instances" <<'PY'
import json, sys
w, n = sys.argv[1], int(sys.argv[2])
logs = [json.load(open("%s/instance%d.json" % (w, i))) for i in range(n)]
counts = [len(l["frames"]) for l in logs]
bad = []
for i in range(n):
    for j in range(i + 1, n):
        a, b = logs[i], logs[j]
        # the shorter run's last two frames are scored as a stream's end
        both = min(counts[i], counts[j])
        for k in range(both - 2 if counts[i] != counts[j] else both):
            if a["frames"][k]["metrics"] != b["frames"][k]["metrics"]:
                bad.append("instances %d and %d differ at frame %d" % (i, j, k))
                break
        if counts[i] == counts[j] and a["pooled_metrics"] != b["pooled_metrics"]:
            bad.append("instances %d and %d scored %d frames each, pooled "
                       "values differ" % (i, j, counts[i]))
print("frames scored per instance: %s; %s" % (
    " ".join(map(str, counts)), "; ".join(bad) if bad else
    "every frame scored by two instances has the same values"))
sys.exit(1 if bad else 0)
PY
) || finish FAIL "$same"
say "$same"

# flat after warm-up: the first sample at or after SOAK_WARMUP against the
# highest one of the second half of those samples
verdict=$(awk -F, -v warm="$warmup" -v inst="$instances" -v gmib="$gpu_mib" \
              -v rmib="$rss_mib" -v sb="$score_bytes" -v dec="$decode" '
    NR > 1 && $1 >= warm && $3 != "" { n++; t[n] = $1; f[n] = $2; r[n] = $3; g[n] = $4 }
    END {
        if (n < 4) { print "FAIL only " n " samples after the warm-up"; exit }
        h = int((n + 1) / 2)
        rmax = r[h]; gmax = g[h]; fmax = f[h]
        for (i = h; i <= n; i++) {
            if (r[i] > rmax) { rmax = r[i]; fmax = f[i] }
            if (g[i] != "" && g[i] > gmax) gmax = g[i]
        }
        if (f[n] <= f[1]) { print "FAIL no frames were scored after the warm-up"; exit }
        frames = f[n] - f[1]
        rgrow = (rmax - r[1]) / 1024
        rallow = (fmax - f[1]) * inst * sb / 1048576 + rmib
        msg = sprintf("%d samples from %d s, %d frames (%.0f/s per instance); host RSS %+.1f MiB (allowed %.1f: %d B/frame/instance of scores + %d MiB)",
                      n, t[1], frames, frames / (t[n] - t[1]), rgrow, rallow, sb, rmib)
        bad = rgrow >= rallow
        if (dec != "cpu") {
            if (g[1] == "") { print "FAIL no device memory samples (nvidia-smi)"; exit }
            ggrow = gmax - g[1]
            msg = msg sprintf("; device memory %d MiB at %d s, %+d MiB after (allowed < %d)", g[1], t[1], ggrow, gmib)
            bad = bad || ggrow >= gmib
        }
        print (bad ? "FAIL " : "PASS ") msg
    }' "$csv")
case $verdict in
PASS*) finish PASS "${verdict#PASS }; $instances instances, $pair, $decode; scores $(scores_of "$out" | tr '\n' ' ')" ;;
*) finish FAIL "${verdict#FAIL }" ;;
esac
