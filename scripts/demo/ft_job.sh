#!/usr/bin/env bash
# The demo's point: an FT-MPI job through the VM survives what is killed under
# it. Run twice with scripts/demo/ft_sum.c (a long sum, block by block, that
# checks its answer):
#   1. comm mode SHRINK: rank 2 is killed with kill -9 mid-run (from here, not
#      from the program); the survivors recover at MPI_Comm_dup and finish.
#   2. comm mode ULFM: the hcored daemon hosting rank 3 is killed with kill -9;
#      the VM declares it failed, ftmpirun publishes rank_lost, the survivors
#      revoke + shrink and finish; rank 3 ends by itself without its daemon.
# Each run must end with status 0 and "correct"; anything else fails the demo.
#
#   bash scripts/demo/ft_job.sh BUILD DEMO_DIR ROOT HOSTS DAEMON_PIDFILE
# BUILD: the build directory; ROOT: the HARNESS root of a daemon of the VM;
# HOSTS: ftmpirun --host list placing ranks 0-1, 2 and 3 on three daemons;
# DAEMON_PIDFILE: the pid file of the daemon that runs rank 3.
set -euo pipefail
bin=$1 demo=$2 root=$3 hosts=$4 victim_pidfile=$5
ftmpirun=$bin/tools/ftmpirun/ftmpirun
mpicc=$bin/ftmpi/wrappers/bin/mpicc
here=$(cd "$(dirname "$0")" && pwd)

"$mpicc" -O2 -o "$demo/ft_sum" "$here/ft_sum.c"

# Waits (with a deadline) until file contains text.
wait_for() {
  local file=$1 text=$2
  for _ in $(seq 600); do grep -q "$text" "$file" 2>/dev/null && return 0; sleep 0.05; done
  echo "demo: '$text' did not appear in $file within 30 s" >&2
  cat "$file" >&2 || true
  return 1
}

# run NAME MODE-OPTIONS… -- then the kill as a shell command string.
run() {
  local name=$1 kill_cmd=$2
  shift 2
  local dir=$demo/$name
  mkdir -p "$dir"
  echo "\$ ftmpirun --host … $* -np 4 ft_sum"
  "$ftmpirun" --root "$root" --host "$hosts" --tag-output --timeout 120 -x FTMPI_DAEMON_LOST_MS=2000 "$@" \
    -np 4 "$demo/ft_sum" "$dir" 40 100 > >(tee "$dir/out") 2> >(tee "$dir/err" >&2) &
  local job=$!
  wait_for "$dir/out" "block 10 of 40"
  echo "# --- $kill_cmd"
  eval "$kill_cmd"
  local status=0
  wait "$job" || status=$?
  sleep 0.2 # let tee finish writing
  echo "# ftmpirun exited with status $status"
  if [ "$status" != 0 ] || ! grep -q "correct" "$dir/out"; then
    echo "demo: the fault-tolerant job '$name' did not finish correctly" >&2
    exit 1
  fi
}

echo "# 1. SHRINK: kill -9 rank 2 mid-run"
run shrink 'kill -9 $(cat "$dir/rank2.pid")' --comm-mode shrink --strict-collectives

echo
echo "# 2. ULFM: kill -9 the daemon (hcored) that runs rank 3"
run ulfm 'kill -9 $(cat "$victim_pidfile")' --comm-mode ulfm
