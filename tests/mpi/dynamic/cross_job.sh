#!/bin/bash
# Two jobs at once: the server job opens a port, the client job tries to
# connect and join to it. Both must end well, the client's connect with
# MPI_ERR_PORT and a line naming the two jobs.
#   cross_job.sh LAUNCHER... PROGRAM
set -u
program=${*: -1}
launcher=("${@:1:$#-1}")
dir=$(mktemp -d /tmp/ftmpi-cross-job-XXXXXX)
trap 'rm -rf "$dir"' EXIT
"${launcher[@]}" -np 1 --timeout 50 "$program" server "$dir" >"$dir/server.out" 2>&1 &
server=$!
"${launcher[@]}" -np 1 --timeout 50 "$program" client "$dir" >"$dir/client.out" 2>&1
client_status=$?
wait $server
server_status=$?
cat "$dir/server.out" "$dir/client.out"
[[ $server_status -eq 0 && $client_status -eq 0 ]] ||
    { echo "cross_job.sh: server job exited with $server_status, client job with $client_status" >&2; exit 1; }
grep -q "cross_job server: ok" "$dir/server.out" || { echo "cross_job.sh: no server success line" >&2; exit 1; }
grep -q "cross_job client: ok" "$dir/client.out" || { echo "cross_job.sh: no client success line" >&2; exit 1; }
grep -q "MPI_Comm_connect: port .* belongs to job" "$dir/client.out" ||
    { echo "cross_job.sh: the client did not say why its connect failed" >&2; exit 1; }
echo "cross_job.sh: both jobs refused each other cleanly"
