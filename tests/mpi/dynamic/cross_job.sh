#!/bin/bash
# Two jobs at once, each its own launch: the server job accepts, the client
# job connects (cross_job.c or cross_job_kill.c); both must end as the
# program expects and say so.
#   cross_job.sh [--vm HCORED PLUGIN_DIR] [--kill [--abort-mode]|--abort|--second NP] SERVER_NP CLIENT_NP HOW LAUNCHER... PROGRAM
# HOW is the program's third argument (file or names). With --vm a daemon
# running the VM services is started first and both jobs run on it
# (HARNESS_ROOT), so a name one job publishes is seen by the other. With
# --kill the client job's rank 1 writes its pid into DIR/victim and is
# killed here with SIGKILL; both jobs must still end well (comm mode ulfm:
# the client job's launcher says the rank was killed and the job went on).
# With --kill --abort-mode the launchers run comm mode ABORT: the killed
# process ends both jobs, the server's saying it was a process of the other
# job whose connection broke (or that the other job aborted).
# With --second NP a second client job of NP ranks runs at the same time
# as the first (both must say ok).
# With --abort a client process calls MPI_Abort with code 3 once connected:
# both jobs must end with status 3, the server's processes saying that a
# process of another job aborted.
set -u
hcored= plugins= kill_client=0 abort=0
if [[ ${1:-} == --vm ]]; then hcored=$2 plugins=$3; shift 3; fi
abort_mode=0
if [[ ${1:-} == --kill ]]; then kill_client=1; shift; fi
if [[ ${1:-} == --abort-mode ]]; then abort_mode=1; shift; fi
if [[ ${1:-} == --abort ]]; then abort=1; shift; fi
second_np=0
if [[ ${1:-} == --second ]]; then second_np=$2; shift 2; fi
server_np=$1 client_np=$2 how=$3
shift 3
program=${*: -1}
launcher=("${@:1:$#-1}")
dir=$(mktemp -d /tmp/ftmpi-cross-job-XXXXXX)
daemon_pid=
cleanup() {
    [[ -n $daemon_pid ]] && { kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null; }
    rm -rf "$dir"
}
trap cleanup EXIT

if [[ -n $hcored ]]; then
    mkdir "$dir/root"
    coproc daemon { exec "$hcored" --root "$dir/root" --listen 127.0.0.1:0 --foreground \
        --services vm/drd,vm/naming,vm/events,vm/spawn_notify --plugin-path "$plugins" 2>"$dir/daemon.err"; }
    daemon_pid=$daemon_PID
    ready=
    while IFS= read -r -t 30 line <&"${daemon[0]}"; do
        if [[ $line == "hcored ready"* ]]; then ready=$line; break; fi
    done
    [[ -n $ready ]] || { echo "cross_job.sh: hcored did not print its ready line within 30 s" >&2; cat "$dir/daemon.err" >&2; exit 1; }
    export HARNESS_ROOT=$dir/root
    unset HARNESS_HCORE
fi

"${launcher[@]}" -np "$server_np" --timeout 50 "$program" server "$dir" "$how" >"$dir/server.out" 2>&1 &
server=$!
"${launcher[@]}" -np "$client_np" --timeout 50 "$program" client "$dir" "$how" >"$dir/client.out" 2>&1 &
client=$!
second=
if ((second_np > 0)); then
    "${launcher[@]}" -np "$second_np" --timeout 50 "$program" client "$dir" "$how" >"$dir/second.out" 2>&1 &
    second=$!
fi
if ((kill_client)); then
    for ((i = 0; i < 3000; ++i)); do [[ -s $dir/victim ]] && break; sleep 0.01; done
    victim=$(cat "$dir/victim" 2>/dev/null)
    [[ -n $victim ]] || { echo "cross_job.sh: the client's rank 1 never wrote its pid" >&2; kill $server $client; }
    [[ -n $victim ]] && kill -9 "$victim"
fi
wait $client
client_status=$?
second_status=0
if [[ -n $second ]]; then
    wait $second
    second_status=$?
fi
wait $server
server_status=$?
echo "--- server job (status $server_status)"
cat "$dir/server.out"
echo "--- client job (status $client_status)"
cat "$dir/client.out"
if [[ -n $second ]]; then
    echo "--- second client job (status $second_status)"
    cat "$dir/second.out"
    [[ $second_status -eq 0 ]] && grep -q "cross_job.* client: ok" "$dir/second.out" ||
        { echo "cross_job.sh: the second client job did not end well" >&2; exit 1; }
fi
if ((abort_mode)); then
    [[ $server_status -ne 0 && $client_status -ne 0 ]] ||
        { echo "cross_job.sh: server job exited with $server_status, client job with $client_status (want both aborted)" >&2; exit 1; }
    # Its own detection of the killed process, or the abort the client job's
    # survivor sends when its job ends, whichever comes first.
    grep -qE "a process of job .* connected to this job, whose connection broke without MPI_Finalize\); comm mode ABORT: ending the job|a process of another job connected to this one aborted" "$dir/server.out" ||
        { echo "cross_job.sh: the server job did not end for the other job's killed process" >&2; exit 1; }
    echo "cross_job.sh: the other job's killed process ended the server job (comm mode ABORT)"
    exit 0
fi
if ((abort)); then
    [[ $server_status -eq 3 && $client_status -eq 3 ]] ||
        { echo "cross_job.sh: server job exited with $server_status, client job with $client_status (want 3 and 3)" >&2; exit 1; }
    grep -q "a process of another job connected to this one aborted (code 3)" "$dir/server.out" ||
        { echo "cross_job.sh: the server's processes did not say why they ended" >&2; exit 1; }
    echo "cross_job.sh: an MPI_Abort in one job ended the connected processes of the other"
    exit 0
fi
[[ $server_status -eq 0 && $client_status -eq 0 ]] ||
    { echo "cross_job.sh: server job exited with $server_status, client job with $client_status" >&2; exit 1; }
if ((kill_client)); then
    grep -q "rank 1 .* was killed by SIGKILL" "$dir/client.out" ||
        { echo "cross_job.sh: the client job's launcher did not see its rank 1 killed" >&2; exit 1; }
fi
grep -q "cross_job.* server: ok" "$dir/server.out" || { echo "cross_job.sh: no server success line" >&2; exit 1; }
grep -q "cross_job.* client: ok" "$dir/client.out" || { echo "cross_job.sh: no client success line" >&2; exit 1; }
echo "cross_job.sh: $server_np + $client_np ranks in two jobs connected ($how)"
