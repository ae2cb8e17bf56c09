#!/bin/bash
# Runs stray_connections on 3 ranks and checks that the job ended well and
# that rank 0 logged a refusal for each bad connection.
#   stray_connections.sh LAUNCHER... PROGRAM
set -u
program=${*: -1}
launcher=("${@:1:$#-1}")
out=$(mktemp /tmp/ftmpi-stray-XXXXXX)
trap 'rm -f "$out"' EXIT
"${launcher[@]}" -np 3 --timeout 50 "$program" >"$out" 2>&1
status=$?
cat "$out"
[[ $status -eq 0 ]] || { echo "stray_connections.sh: job exited with $status" >&2; exit 1; }
refused=$(grep -c "rank 0: refused a connection" "$out")
# garbage, no magic, rank 5, meant for rank 7, meant for incarnation 3,
# stale incarnation 0, rank 0 itself, a spawned hello for rank 2 and for
# world rank 2^20, closed at once
[[ $refused -ge 10 ]] || { echo "stray_connections.sh: $refused refusal lines, expected at least 10" >&2; exit 1; }
grep -q "the job was not disturbed" "$out" || { echo "stray_connections.sh: no success line" >&2; exit 1; }
echo "stray_connections.sh: $refused stray connections refused, job finished"
