#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Chunked scoring through a real Slurm: starts munged, slurmctld and slurmd
# (Debian's packages) on this machine in a scratch folder, on ports of
# their own, submits a looped corpus pair in 4 chunks with
# tools/slurm/submit.sh (a job array and the merge job that depends on
# it), and compares the merged log with a whole run, byte for byte at
# --precision max (the measured fps aside). Then a task that fails: the
# merge job runs, fails and names the missing frames; the task alone is
# submitted again and the merge then gives the whole run's log. Stops the
# daemons on exit. Exit status 77 without the Slurm and munge programs.
#
# Usage: VMAFGPU=tools/vmafgpu tests/fate/slurm.sh

top=$(cd "$(dirname "$0")/../.." && pwd)
fate_name=slurm
. "$top/tests/fate/lib.sh"

vmafgpu=$(cd "$(dirname "${VMAFGPU:?VMAFGPU: the vmafgpu tool to test}")" && pwd)/$(basename "$VMAFGPU")
shared=${VG_SHARED_DIR:-$top/../shared}
raw=$shared/corpus/raw
PATH=$PATH:/usr/sbin:/sbin

for p in munged slurmctld slurmd sbatch squeue scontrol; do
    if ! command -v $p > /dev/null; then
        echo "SKIP: $p is not installed (Debian: slurmctld slurmd slurm-client munge)"
        exit 77
    fi
done

# a cluster of one node in $w/slurm, stopped on exit
s=$w/slurm
mkdir -p "$s/state" "$s/spool"
host=$(hostname -s)
port=$((20000 + $$ % 20000))
stop() {
    SLURM_CONF=$s/slurm.conf scontrol shutdown > /dev/null 2>&1
    sleep 1
    for f in slurmd slurmctld munged; do
        [ -f "$s/$f.pid" ] || continue
        pid=$(cat "$s/$f.pid")
        kill "$pid" 2> /dev/null
        i=0
        while kill -0 "$pid" 2> /dev/null && [ $i -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
    done
    [ -n "${VG_FATE_WORK:-}" ] || rm -rf "$w"
}
trap stop EXIT
trap 'exit 130' INT TERM
dd if=/dev/urandom of="$s/munge.key" bs=1024 count=1 2> /dev/null
chmod 400 "$s/munge.key"
cat > "$s/slurm.conf" <<EOF
ClusterName=vmafgpu-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$s/munge.sock
CredType=cred/munge
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=vmafgpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$s/slurm.conf
if ! munged --key-file="$s/munge.key" --socket="$s/munge.sock" \
        --pid-file="$s/munged.pid" --log-file="$s/munged.log" \
        --seed-file="$s/munge.seed" --force ||
   ! slurmctld -f "$SLURM_CONF" || ! slurmd -f "$SLURM_CONF"; then
    fail "the local Slurm does not start" "$s/munged.log" "$s/slurmctld.log" "$s/slurmd.log"
    echo "$n_pass passed, $n_fail failed"
    exit 1
fi
i=0
until sinfo -h -o %t 2> /dev/null | grep -q idle; do
    i=$((i + 1))
    if [ $i -gt 30 ]; then
        fail "the local Slurm's node is not idle after 30 s" "$s/slurmctld.log" "$s/slurmd.log"
        echo "$n_pass passed, $n_fail failed"
        exit 1
    fi
    sleep 1
done
pass "a local Slurm ($(slurmctld -V)): node $host idle"

# wait_job ID: until the job has left the queue (at most 300 s)
wait_job() {
    i=0
    while squeue -h -j "$1" 2> /dev/null | grep -q .; do
        i=$((i + 1))
        [ $i -gt 300 ] && return 1
        sleep 1
    done
}

# the title: the 4:4:4 pair looped to 40 frames
for k in ref dist; do
    for i in 1 2 3 4; do cat "$raw/r640x360_yuv444p_$k.yuv"; done > "$w/title_$k.yuv"
done
args="-r $w/title_ref.yuv -d $w/title_dist.yuv -w 640 -h 360 -p 444 -b 8 --backend cpu --threads 1 -m version=vmaf_v1.0.16_hfr_3d0h --feature psnr=enable_apsnr=true -q"
strip_fps() { sed -e '/"fps"/d' "$1"; }

# shellcheck disable=SC2086
"$vmafgpu" $args --json --precision max -o "$w/whole.json" || fail "the whole run failed"
strip_fps "$w/whole.json" > "$w/whole.cmp"

# shellcheck disable=SC2086
out=$("$top/tools/slurm/submit.sh" -f 40 -n 4 -o "$w/run1" -- "$vmafgpu" $args) || fail "submit.sh failed"
echo "$out"
merge=$(echo "$out" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')
if [ -n "$merge" ] && wait_job "$merge" && [ -f "$w/run1/title.json" ] &&
    strip_fps "$w/run1/title.json" | cmp -s - "$w/whole.cmp"; then
    pass "4 chunks as a job array, merged by a dependent job: = the whole run ($(ls "$w"/run1/chunk-*.json | wc -l) chunk logs)"
else
    fail "4 chunks through Slurm: the merged log differs from the whole run or is missing" \
        "$w/run1/merge.out" "$w/run1/chunk-0.out" "$s/slurmctld.log"
fi

# a task that fails (task 2 of 4: its tool exits 1), then its re-run
cat > "$w/flaky" <<EOF
#!/bin/sh
[ "\${SLURM_ARRAY_TASK_ID:-}" = 2 ] && [ ! -f "$w/fixed" ] && { echo "flaky: task 2 fails" >&2; exit 1; }
exec "$vmafgpu" "\$@"
EOF
chmod +x "$w/flaky"
# shellcheck disable=SC2086
out=$("$top/tools/slurm/submit.sh" -f 40 -n 4 -o "$w/run2" -- "$w/flaky" $args) || fail "submit.sh failed"
merge=$(echo "$out" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')
if [ -n "$merge" ] && wait_job "$merge" && [ ! -f "$w/run2/title.json" ] &&
    grep -q "frames 20..29 are missing" "$w/run2/merge.out"; then
    pass "a failed task: the merge job fails and names the frames ($(grep -o 'frames 20..29 are missing' "$w/run2/merge.out"))"
else
    fail "a failed task: the merge did not name the missing frames 20..29" "$w/run2/merge.out"
fi
touch "$w/fixed"
# shellcheck disable=SC2086
job=$(sbatch --parsable --array=2 --output="$w/run2/chunk-%a.out" \
    "$top/tools/slurm/vmafgpu-chunk.sbatch" 40 4 "$w/run2" "$w/flaky" $args)
if wait_job "${job%%;*}" &&
    "$vmafgpu" merge "$w"/run2/chunk-*.json --json --precision max -q -o "$w/run2/title.json" &&
    strip_fps "$w/run2/title.json" | cmp -s - "$w/whole.cmp"; then
    pass "the failed task re-run alone, merged again: = the whole run"
else
    fail "the re-run task: the merged log differs from the whole run" "$w/run2/chunk-2.out"
fi

echo "$n_pass passed, $n_fail failed"
[ "$n_fail" = 0 ]
