#!/usr/bin/env bash
# The main job, end to end on one machine: set up; publish the sample plugin
# package, signed, to a web repository served by a real nginx; start a
# three-daemon virtual machine on loopback with empty lib/ directories; load
# the package into every daemon (each fetches and verifies it over HTTP);
# invoke it in parallel by several methods; show a tampered plugin refused;
# see the VM services every daemon runs (hostinfo); compile an MPI program
# with mpicc and run it through the VM with ftmpirun; then the point of it
# all: a fault-tolerant FT-MPI job through the VM in which a rank is killed
# with kill -9 mid-run (SHRINK mode) and, in a second run, the daemon hosting
# a rank (ULFM mode) — both finish with the correct answer and say what
# happened (scripts/demo/ft_job.sh); show the VM noticing the dead daemon;
# halt the VM.
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
hpublish=$bin/tools/hpublish/hpublish
hostinfo=$bin/tools/hostinfo/hostinfo
ftmpirun=$bin/tools/ftmpirun/ftmpirun
mpicc=$bin/ftmpi/wrappers/bin/mpicc

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

nginx_pid=
cleanup() {
  for n in 1 2 3; do
    pid=$(cat "$demo/host$n/var/hcored.lock" 2>/dev/null || true)
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  GNUPGHOME=$demo/publisher gpgconf --kill all 2>/dev/null || true
}
trap cleanup EXIT

# A loopback port nothing listens on.
free_port() {
  local p
  while :; do
    p=$(( 20000 + RANDOM % 40000 ))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
}

rm -rf "$demo"
mkdir -p "$demo"
chmod 711 "$demo"

# The shared-memory comm driver (application level, loaded into each rank)
# is published with them when it was built.
published=("$bin/plugins-root/lib/examples/math.json" "$bin/plugins-root/lib/examples/dependent.json")
if [ -f "$bin/plugins-root/lib/comm/shm.so" ]; then
  published+=("$bin/plugins-root/lib/comm/shm.json")
fi
step "Publish examples/math, examples/dependent (and comm/shm when built), signed, to a web repository"
mkdir -m 700 "$demo/publisher"
fpr=$("$hpublish" keygen --gnupghome "$demo/publisher" --name "HARNESS demo publisher <demo@example.org>")
"$hpublish" export-key --gnupghome "$demo/publisher" --signer "$fpr" --out "$demo/publisher.asc"
echo "publisher key $fpr"
"$hpublish" --repo "$demo/www" --gnupghome "$demo/publisher" --signer "$fpr" --ttl 600 --expires 7 \
  "${published[@]}"
chmod -R a+rX "$demo/www"
ls -R "$demo/www"

web_port=$(free_port)
mkdir -m 700 "$demo/nginx"
sed -e "s|@PORT@|$web_port|" -e "s|@ROOT@|$demo/www|" -e "s|@STATE@|$demo/nginx|" \
  webrepo/nginx.conf.in > "$demo/nginx/nginx.conf"
/usr/sbin/nginx -p "$demo/nginx" -c "$demo/nginx/nginx.conf" -e "$demo/nginx/error.log" &
nginx_pid=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$web_port") 2>/dev/null && break; sleep 0.05; done
echo "nginx serves $demo/www on http://127.0.0.1:$web_port/"

step "Start three hcored daemons with empty lib/, forming VM 'demo' on loopback"
# The first daemon creates the VM key (mode 0600); the others get a copy:
# every connection and datagram proves membership with it. Each daemon trusts
# only the publisher's fingerprint.
daemon_flags=(--vm demo --listen 127.0.0.1:0 --heartbeat-ms 100 --heartbeat-timeout-ms 600
              --repo "http://127.0.0.1:$web_port/" --trust "$fpr" --import-key "$demo/publisher.asc")
"$hcored" --root "$demo/host1" "${daemon_flags[@]}" | tee "$demo/host1.ready"
first=$(sed -n 's/.*tcp=\([^ ]*\).*/\1/p' "$demo/host1.ready")
for n in 2 3; do
  mkdir -p "$demo/host$n"
  cp "$demo/host1/vm.key" "$demo/host$n/vm.key"
  "$hcored" --root "$demo/host$n" "${daemon_flags[@]}" --join "$first" | tee "$demo/host$n.ready"
done

console() { echo "\$ hconsole $*"; "$hconsole" --root "$demo/host1" "$@"; }

step "Members of the VM, as the first daemon sees them"
# Gossip spreads the list in one heartbeat; wait for it rather than guess.
for _ in $(seq 100); do
  [ "$("$hconsole" --root "$demo/host1" members --json | grep -o '"alive"' | wc -l)" -eq 3 ] && break
  sleep 0.05
done
console members

step "Load examples/math into every daemon: each fetches it over HTTP and verifies it"
console load examples/math --all
grep -h "examples/math" "$demo"/host*/var/hcored.log | grep -E "fetched|loaded" || true
echo "nginx served math.so $(grep -c 'math-.*\.so' "$demo/nginx/access.log") times"
console loaded

step "Invoke it in parallel on every daemon"
console call examples/math add 20 22 --all
console call examples/math echo str:"hello from the VM" --all
console call examples/math sum 1 2 3 4 --all --udp
echo "# the same function run in a forked process per call, and in a long-lived service process:"
console call examples/math pid --all --mode fork
console call examples/math pid --all --mode service

step "The VM's services: replicated database, naming, events, spawn_notify on every daemon"
# The DRD's voters are added as daemons join; wait until all three vote.
for _ in $(seq 200); do
  [ "$("$hostinfo" --root "$demo/host1" --json | tr -d ' \n' | grep -o '"voters":\[[^]]*\]' | grep -o '"[^",]*"' | wc -l)" -ge 4 ] && break
  sleep 0.05
done
echo "\$ hostinfo"; "$hostinfo" --root "$demo/host1"

step "An MPI job through the VM: mpicc, then ftmpirun starts 4 ranks via spawn_notify"
echo "\$ mpicc -show"; "$mpicc" -show
bash scripts/demo/build_programs.sh "$mpicc" "$demo"
echo "\$ ftmpirun -np 4 --tag-output jacobi"
"$ftmpirun" --root "$demo/host1" -np 4 --tag-output --timeout 60 "$demo/jacobi"

step "Tamper with a published plugin: the daemons refuse it"
so=$(ls "$demo"/www/packages/examples/dependent-*.so)
printf 'X' | dd of="$so" bs=1 seek=4096 conv=notrunc status=none
console load examples/dependent --all || true
ls "$demo"/host1/cache/lib/examples/ | sed 's/^/cache holds: /'

step "A fault-tolerant FT-MPI job survives kill -9 of a rank, then of a whole daemon"
# Ranks 0-1 on the first daemon, rank 2 on the second, rank 3 on the third.
addr() { sed -n 's/.*tcp=\([^ ]*\).*/\1/p' "$demo/host$1.ready"; }
start=$(date +%s%N)
bash scripts/demo/ft_job.sh "$bin" "$demo" "$demo/host1" "$(addr 1):2,$(addr 2):1,$(addr 3):1" \
  "$demo/host3/var/hcored.lock"

step "The VM declared the killed third daemon failed"
until "$hconsole" --root "$demo/host1" members --json | grep -q '"failed"'; do
  if [ $(( $(date +%s%N) - start )) -gt 60000000000 ]; then echo "not declared failed" >&2; exit 1; fi
  sleep 0.01
done
echo "# a parallel call answers for the live daemons and reports the dead one as an error"
console call examples/math add 1 1 --all || true
console members

step "Halt the VM"
console halt
for n in 1 2; do
  pid=$(cat "$demo/host$n/var/hcored.lock")
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
done
echo "all daemons stopped; logs are in $demo/host*/var/hcored.log"
