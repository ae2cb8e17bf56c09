#!/bin/bash
# The drd: wire-up with a real daemon: start hcored with the vm/drd service,
# wait for its ready line, run an MPI program whose ranks find each other
# only through DRD records, stop the daemon.
#   drd_wireup.sh HCORED PLUGIN_DIR LAUNCHER PROGRAM
set -u
hcored=$1 plugins=$2 launcher=$3 program=$4
root=$(mktemp -d /tmp/ftmpi-drd-XXXXXX)
coproc daemon { exec "$hcored" --root "$root" --listen 127.0.0.1:0 --foreground --services vm/drd \
    --plugin-path "$plugins" 2>"$root/stderr"; }
pid=$daemon_PID
cleanup() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$root"; }
trap cleanup EXIT
ready=
while IFS= read -r -t 30 line <&"${daemon[0]}"; do
    if [[ $line == "hcored ready"* ]]; then ready=$line; break; fi
done
if [[ -z $ready ]]; then
    echo "drd_wireup: hcored did not print its ready line within 30 s:" >&2
    cat "$root/stderr" >&2
    exit 1
fi
HARNESS_ROOT=$root "$launcher" -np 3 --wireup drd --timeout 40 "$program"
status=$?
[[ $status -eq 0 ]] || { echo "drd_wireup: job exited with $status" >&2; exit 1; }
echo "drd_wireup: 3 ranks wired up through the DRD"
