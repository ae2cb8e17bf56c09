#!/usr/bin/env bash
# The main job, end to end on one machine: set up, start a three-daemon
# virtual machine on loopback, load the sample plugin package into every
# daemon, invoke it in parallel by several methods, kill a daemon with
# kill -9 and show the VM noticing, then halt the VM.
#
#   bash scripts/demo.sh            (as root on a fresh Debian 12 machine)
#
# DEMO_DIR (default /tmp/harness-demo) holds the daemons' roots and logs.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

bash scripts/setup.sh

demo=${DEMO_DIR:-/tmp/harness-demo}
bin=$repo/build
hcored=$bin/hcore/hcored
hconsole=$bin/tools/hconsole/hconsole

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

cleanup() {
  for n in 1 2 3; do
    pid=$(cat "$demo/host$n/var/hcored.lock" 2>/dev/null || true)
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

rm -rf "$demo"
for n in 1 2 3; do
  mkdir -p "$demo/host$n/lib"
  cp -r "$bin/plugins-root/lib/examples" "$demo/host$n/lib/"
done

step "Start three hcored daemons forming VM 'demo' on loopback"
# The first daemon creates the VM key (mode 0600); the others get a copy:
# every connection and datagram proves membership with it.
"$hcored" --root "$demo/host1" --vm demo --listen 127.0.0.1:0 --heartbeat-ms 100 --heartbeat-timeout-ms 600 \
  | tee "$demo/host1.ready"
first=$(sed -n 's/.*tcp=\([^ ]*\).*/\1/p' "$demo/host1.ready")
for n in 2 3; do
  cp "$demo/host1/vm.key" "$demo/host$n/vm.key"
  "$hcored" --root "$demo/host$n" --vm demo --listen 127.0.0.1:0 --join "$first" \
    --heartbeat-ms 100 --heartbeat-timeout-ms 600 | tee "$demo/host$n.ready"
done

console() { echo "\$ hconsole $*"; "$hconsole" --root "$demo/host1" "$@"; }

step "Members of the VM, as the first daemon sees them"
# Gossip spreads the list in one heartbeat; wait for it rather than guess.
for _ in $(seq 100); do
  [ "$("$hconsole" --root "$demo/host1" members --json | grep -o '"alive"' | wc -l)" -eq 3 ] && break
  sleep 0.05
done
console members

step "Load the sample package examples/math into every daemon"
console load examples/math --all
console loaded

step "Invoke it in parallel on every daemon"
console call examples/math add 20 22 --all
console call examples/math echo str:"hello from the VM" --all
console call examples/math sum 1 2 3 4 --all --udp
echo "# the same function run in a forked process per call, and in a long-lived service process:"
console call examples/math pid --all --mode fork
console call examples/math pid --all --mode service

step "kill -9 the third daemon"
victim=$(cat "$demo/host3/var/hcored.lock")
kill -9 "$victim"
start=$(date +%s%N)
until "$hconsole" --root "$demo/host1" members --json | grep -q '"failed"'; do
  if [ $(( $(date +%s%N) - start )) -gt 5000000000 ]; then echo "not detected within 5 s" >&2; exit 1; fi
  sleep 0.01
done
echo "declared failed after $(( ($(date +%s%N) - start) / 1000000 )) ms (heartbeat timeout 600 ms)"
console members
echo "# a parallel call still answers for the live daemons and reports the dead one:"
console call examples/math add 1 1 --all || true

step "Halt the VM"
console halt
for n in 1 2; do
  pid=$(cat "$demo/host$n/var/hcored.lock")
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
done
echo "all daemons stopped; logs are in $demo/host*/var/hcored.log"
