#!/usr/bin/env bash
# What a job leaves when its daemon or its launcher goes away: a real hcored
# (every VM service) on a root of its own, a 2-rank job of leave_traces.c
# whose ranks start a helper (a uniquely named link to sleep), create
# /dev/shm/ftmpi.<job>.* files and linger; then
#   halt            hconsole halt: the daemon stops, nothing of the job survives
#   daemon_killed   kill -9 of hcored, then a new hcored on the same root: it
#                   kills what its predecessor's job left and removes its files
#   ftmpirun_killed kill -9 of ftmpirun: the ranks finish by themselves, and
#                   their daemon removes the files and kills the helpers
# Usage: daemon_cases.sh CASE HCORED HCONSOLE FTMPIRUN PROGRAM
set -u
case_name=$1 hcored=$2 hconsole=$3 ftmpirun=$4 program=$5
work=$(mktemp -d /tmp/ftmpi-daemon-case.XXXXXX)
root=$work/root
mkdir -p "$root"
marker="$work/ftmpi-orphan-$$-$RANDOM"
ln -s "$(command -v sleep)" "$marker"
fail=0
complain() { echo "FAILED: $*"; fail=1; }
daemon_pid() { cat "$root/var/hcored.pid" 2>/dev/null || pgrep -f -- "--root $root " | head -1; }
finish() {
    "$hconsole" --root "$root" halt >/dev/null 2>&1
    [ -n "${job_pid:-}" ] && kill -9 "$job_pid" 2>/dev/null
    left=$(pgrep -f -- "$marker" | tr '\n' ' ')
    [ -n "$left" ] && kill -9 $left 2>/dev/null
    for f in $(grep -hE 'shm-file ' "$work/job.out" 2>/dev/null | sed -E 's/.*shm-file //'); do rm -f "$f"; done
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
start_daemon() {
    env -u HARNESS_HCORE "$hcored" --root "$root" --vm lifecycle --listen 127.0.0.1:0 --heartbeat-timeout-ms 1000 \
        >"$work/hcored.out" 2>&1 || { cat "$work/hcored.out"; complain "hcored did not start"; exit 1; }
    grep -m1 "hcored ready" "$work/hcored.out"
}
helpers_gone() { ! pgrep -f -- "$marker" >/dev/null; }
files_gone() {
    local f
    for f in $(grep -hE 'shm-file ' "$work/job.out" | sed -E 's/.*shm-file //'); do
        [ -e "$f" ] && return 1
    done
    return 0
}
ready() { [ "$(grep -c 'ready to linger' "$work/job.out" 2>/dev/null)" = 2 ]; }

start_daemon
linger=300
[ "$case_name" = ftmpirun_killed ] && linger=3
env -u HARNESS_HCORE FT_CHILD="$marker" "$ftmpirun" --root "$root" -np 2 --oversubscribe --timeout 100 \
    -x FT_CHILD -x FT_END=linger -x FT_LINGER=$linger "$program" >"$work/job.out" 2>&1 &
job_pid=$!
wait_for 40 ready || { cat "$work/job.out"; complain "the ranks did not get ready"; exit 1; }
pgrep -f -- "$marker" >/dev/null || complain "the ranks' helpers are not running"
files_gone && complain "the ranks made no /dev/shm file"

case "$case_name" in
halt)
    "$hconsole" --root "$root" halt || complain "hconsole halt failed"
    wait_for 20 helpers_gone || complain "helpers survive hconsole halt: $(pgrep -f -- "$marker" | tr '\n' ' ')"
    wait_for 5 files_gone || complain "/dev/shm files survive hconsole halt"
    ;;
daemon_killed)
    pid=$(daemon_pid)
    [ -n "$pid" ] || { complain "no daemon pid"; exit 1; }
    kill -9 "$pid"
    # The ranks leave once their daemon is gone; their helpers stay behind
    # until a daemon on this root starts again.
    wait_for 30 bash -c "! kill -0 $job_pid 2>/dev/null" || complain "ftmpirun did not end after its daemon died"
    pgrep -f -- "$marker" >/dev/null || echo "note: the helpers were already gone before the restart"
    start_daemon
    wait_for 10 helpers_gone || complain "the restarted daemon left the helpers: $(pgrep -f -- "$marker" | tr '\n' ' ')"
    wait_for 5 files_gone || complain "the restarted daemon left the /dev/shm files"
    grep -q "left behind" "$root/var/hcored.log" && grep "left behind" "$root/var/hcored.log" | tail -1
    ;;
ftmpirun_killed)
    kill -9 "$job_pid"
    wait_for 30 files_gone || complain "/dev/shm files left after the ranks ended without ftmpirun"
    wait_for 10 helpers_gone || complain "helpers left after the ranks ended without ftmpirun"
    ;;
*) complain "unknown case $case_name" ;;
esac
cat "$work/job.out"
exit $fail
