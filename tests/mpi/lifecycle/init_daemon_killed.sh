#!/usr/bin/env bash
# A rank's daemon killed while the job wires up: three real hcored (every VM
# service; a third member keeps the DRD's quorum when one dies) on roots of
# their own, a 4-rank job of init_kill.c (FT_KILL_WHEN=daemon) with ranks
# 0-2 on daemon A and rank 3 on daemon B. Rank 0 holds before its MPI_Init
# until the go file exists; once rank 3 is in MPI_Init, B is killed with
# kill -9 and the go file made. The VM declares B failed, ftmpirun publishes
# rank_lost for rank 3, and the others' wire-up stops waiting for it: they
# start without it (comm mode MODE) and recover.
# The job starts only once the DRD has all three voters: with two, losing
# one leaves no quorum, and no failure notice could be published.
# Usage: init_daemon_killed.sh MODE HCORED FTMPIRUN PROGRAM HOSTINFO
set -u
mode=$1 hcored=$2 ftmpirun=$3 program=$4 hostinfo=$5
work=$(mktemp -d /tmp/ftmpi-init-daemon.XXXXXX)
fail=0
complain() { echo "FAILED: $*"; fail=1; }
pids=()
finish() {
    [ -n "${job_pid:-}" ] && kill -9 "$job_pid" 2>/dev/null
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap finish EXIT
# Waits up to $1 s for the command that follows to succeed.
wait_for() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
# start_daemon NAME [JOIN]: the daemon's id in $id, address in $addr, pid in $pid.
start_daemon() {
    local name=$1 join=${2:-}
    mkdir -p "$work/$name"
    [ -f "$work/a/vm.key" ] && cp "$work/a/vm.key" "$work/$name/vm.key"
    env -u HARNESS_HCORE -u HARNESS_SERVICES "$hcored" --root "$work/$name" --vm initkill --listen 127.0.0.1:0 \
        --heartbeat-timeout-ms 1000 ${join:+--join "$join"} >"$work/$name.out" 2>&1 ||
        { cat "$work/$name.out"; complain "hcored $name did not start"; exit 1; }
    local ready
    ready=$(grep -m1 "hcored ready" "$work/$name.out")
    id=$(sed -E 's/.* id=([^ ]+).*/\1/' <<<"$ready")
    addr=$(sed -E 's/.* tcp=([^ ]+).*/\1/' <<<"$ready")
    pid=$(pgrep -f -- "--root $work/$name " | head -1)  # the daemon detached: its pid by its unique root
    pids+=("$pid")
}
start_daemon a
id_a=$id addr_a=$addr
start_daemon b "$addr_a"
id_b=$id pid_b=$pid
[ -n "$pid_b" ] || { complain "no pid for daemon b"; exit 1; }
start_daemon c "$addr_a"
drd_voters() {
    "$hostinfo" --hcore "$addr_a" --key "$work/a/vm.key" --json 2>/dev/null | tr -d ' \n' |
        grep -o '"voters":\[[^]]*\]' | grep -o '"[0-9a-f]\+"' | wc -l
}
three_voters() { [ "$(drd_voters)" = 3 ]; }
wait_for 30 three_voters || { complain "the DRD did not get three voters (has $(drd_voters))"; exit 1; }

go="$work/go"
env -u HARNESS_HCORE "$ftmpirun" --root "$work/a" --hcore "$addr_a" -np 4 --host "$id_a:3,$id_b:1" --timeout 50 \
    --comm-mode "$mode" -x FT_KILL_RANK=3 -x FT_KILLER_RANK=0 -x FT_KILL_WHEN=daemon -x FT_GO_FILE="$go" "$program" \
    >"$work/job.out" 2>&1 &
job_pid=$!
in_init() { grep -q "rank 3: entering MPI_Init, its daemon to be killed" "$work/job.out"; }
wait_for 30 in_init || { cat "$work/job.out"; complain "rank 3 did not reach MPI_Init"; exit 1; }
kill -9 "$pid_b"
echo go >"$go"
job_ended() { ! kill -0 "$job_pid" 2>/dev/null; }
wait_for 45 job_ended || complain "the job did not end within 45 s"
wait "$job_pid"
status=$?
job_pid=
cat "$work/job.out"
echo "init_daemon_killed.sh: job status $status"
[ "$status" = 0 ] || complain "status $status, expected 0"
for line in "rank 3 \\(daemon $id_b\\) was lost" "rank 0: MPI_Init returned in [0-9.]+ s without rank 3" \
    "rank 0: recovered, communicator of 3" "rank 1: recovered, communicator of 3" \
    "rank 2: recovered, communicator of 3"; do
    grep -Eq -- "$line" "$work/job.out" || complain "no line matches /$line/"
done
grep -Eq "aborting job|FAILED: |wire-up timed out" "$work/job.out" && complain "the job aborted or a check failed"
exit $fail
