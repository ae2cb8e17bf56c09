#!/usr/bin/env bash
# bench/mpi/ft/policy_recovery.sh — recovery time of each recovery protocol
# (docs/policies.md), on a VM of hcored daemons on loopback (one daemon = one
# host; heartbeat 100 ms, failure timeout 600 ms). The job is
# tests/netns/stencil_rebuild.c under --comm-mode rebuild --msg-mode nop;
# once rank V has written a checkpoint the case's fault is made, and the
# survivors' "recovered in T ms" lines (error seen -> MPI_Comm_dup returned
# with the replacements in) give the run's recovery time: the slowest
# survivor's. Cases:
#
#   baseline   kill -9 rank V, no --ft-policy (replacement on the same host)
#   restart    kill -9 rank V, policy: process -> RESTART
#   migrate    kill -9 rank V, policy: process with "protocol": "MIGRATE"
#              (every fault moves, to the least loaded other host)
#   promote    kill -9 rank V, --standby 1 and no --ft-policy (every fault
#              is promoted; the standby runs on a host of its own)
#   slide-1d   kill -9 the daemon of rank 0's host, (0,0); --grid 2x2
#   slide-0d   --spares 2D(2,1) (a 3x3 host grid, 5 spares), policy:
#              physical -> MIGRATE, process -> RESTART, placement sliding
#              with method 1d (rank 0 and rank 1 slide along their row)
#              / 0d (rank 0 alone goes to the nearest spare)
#   overhead   failure-free, with and without --ft-policy, alternating; ratio
#              of the median compute times (goal: < 1 %)
#
# Prints per case the median [min-max] over RUNS runs, where the replaced
# rank ran, and whether every run's answer was correct; exit status 1 when a
# run gave no correct answer or no recovery time. A case whose ftmpirun
# options are missing stops the script (status 2) with one line naming them.
# Environment: RUN_LOGS=DIR keeps each job's output as DIR/<case>-<n>.out/.err;
# JOB_TIMEOUT (seconds per job, default 180), KEEP_WORK=1 keeps
# the work directory (the last job's out/err, the VM's roots) for a look.
#
# usage: bench/mpi/ft/policy_recovery.sh [--build DIR] [--cases "baseline restart …"]
#          [--runs 5] [--np 4] [--victim 1] [--iters 400] [--sleep-ms 20] [--out FILE]
# A benchmark: run it on a quiet machine (one run of one case is a smoke test).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$root/build
cases="baseline restart migrate promote slide-1d slide-0d overhead"
runs=5
np=4
victim=1
iters=400
sleep_ms=20
out=""
while (($#)); do
  case $1 in
    --build) build=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --victim) victim=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --sleep-ms) sleep_ms=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "policy_recovery.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
((victim > 0 && victim < np)) || { echo "policy_recovery.sh: --victim must be a rank from 1 to np-1 (rank 0 checks the answer)" >&2; exit 2; }

cmake --build "$build" --target ftmpirun hcored netns_stencil_rebuild plugin_vm_drd plugin_vm_naming plugin_vm_events \
  plugin_vm_spawn_notify plugin_comm_shm -j2 >/tmp/policy_recovery.build.log 2>&1 ||
  { tail -20 /tmp/policy_recovery.build.log; echo "policy_recovery.sh: build failed" >&2; exit 1; }
ftmpirun=$build/tools/ftmpirun/ftmpirun
hcored=$build/hcore/hcored
stencil=$build/tests/netns/netns_stencil_rebuild

# Every case's ftmpirun options must exist before anything runs.
help=$("$ftmpirun" --help 2>&1)
missing=()
for c in $cases; do
  case $c in
    baseline) need=() ;;
    restart|migrate|overhead) need=(--ft-policy) ;;
    promote) need=(--standby) ;;
    slide-1d|slide-0d) need=(--grid --spares --ft-policy) ;;
    *) echo "policy_recovery.sh: unknown case $c (see --help)" >&2; exit 2 ;;
  esac
  for o in "${need[@]}"; do grep -q -- "$o\b" <<<"$help" || missing+=("$c needs ftmpirun $o")  ; done
done
if ((${#missing[@]})); then
  for m in "${missing[@]}"; do echo "policy_recovery.sh: case $m, which $ftmpirun does not have" >&2; done
  exit 2
fi

work=$(mktemp -d /tmp/policy-recovery.XXXXXX)
daemons=()
stop_vm() {
  local pid
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${daemons[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  done
  daemons=()
}
trap 'stop_vm; if [[ -n ${KEEP_WORK:-} ]]; then echo "policy_recovery.sh: kept $work" >&2; else rm -rf "$work"; fi' EXIT
results=$work/results
: >"$results"
echo "# $(date -u '+%F %T UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$results"

# A VM of N daemons under $work/vm; ports[i] is daemon i's HOST:PORT.
ports=()
start_vm() { # N
  local n first=""
  stop_vm
  rm -rf "$work/vm"
  mkdir -p "$work/vm"
  ports=()
  for ((n = 0; n < $1; ++n)); do
    mkdir -p "$work/vm/host$n"
    [[ $n == 0 ]] || cp "$work/vm/host0/vm.key" "$work/vm/host$n/vm.key"
    "$hcored" --root "$work/vm/host$n" --vm polrec$$ --listen 127.0.0.1:0 --heartbeat-ms 100 \
      --heartbeat-timeout-ms 600 --services vm/drd,vm/naming,vm/events,vm/spawn_notify \
      ${first:+--join "$first"} >"$work/vm/host$n.ready" 2>&1 ||
      { echo "policy_recovery.sh: hcored $n did not start:" >&2; cat "$work/vm/host$n.ready" >&2; return 1; }
    ports+=("$(sed -n 's/.*tcp=\([^ ]*\).*/\1/p' "$work/vm/host$n.ready")")
    # The recovery-policy components, where ftmpirun (--root host0) looks
    # first: the daemon's default plugin path has the VM services only.
    [[ $n != 0 ]] || for package in detector protocol placement; do
      mkdir -p "$work/vm/host0/lib/$package"
      cp "$build/plugins-root/lib/$package/"* "$work/vm/host0/lib/$package/"
    done
    daemons+=("$(cat "$work/vm/host$n/var/hcored.lock")")
    first=${ports[0]}
  done
}

# One job in the background; $job is its pid, its output in $work/out, $work/err.
run_job() { # ftmpirun-options… (the program and its arguments are added)
  rm -rf "$work/ckpt"
  mkdir -p "$work/ckpt"
  env -u HARNESS_HCORE "$ftmpirun" --root "$work/vm/host0" --timeout "${JOB_TIMEOUT:-180}" --comm-mode rebuild --msg-mode nop "$@" \
    "$stencil" "$work/ckpt" --iters "$iters" --every 10 --sleep-ms "$sleep_ms" </dev/null >"$work/out" 2>"$work/err" &
  job=$!
}

# Waits (30 s at most) until rank $1 has written its first checkpoint.
wait_checkpoint() {
  local t0=$SECONDS
  until [[ -s $work/ckpt/ckpt.rank$1.1 && -s $work/ckpt/rank$1.pid ]]; do
    kill -0 "$job" 2>/dev/null || return 1
    ((SECONDS - t0 < 30)) || return 1
    sleep 0.02
  done
}

# After the job: one result line "<case> ms=<slowest survivor> host_before=… host_after=… answer=…".
record() { # case replaced-rank
  wait "$job"
  local rc=$? ms before after answer victim=$2
  ms=$(sed -n 's/^rank [0-9]* recovered in \([0-9.]*\) ms.*/\1/p' "$work/out" | sort -g | tail -1)
  before=$(sed -n "s/^rank $victim incarnation 0 host \(.*\)/\1/p" "$work/out" | head -1)
  after=$(sed -n "s/^rank $victim incarnation [1-9][0-9]* host \(.*\)/\1/p" "$work/out" | tail -1)
  answer=$(grep -o 'correct$\|WRONG$' "$work/out" | tail -1)
  echo "$1 ms=${ms:-none} host_before=${before:-?} host_after=${after:-?} answer=${answer:-none} rc=$rc" | tee -a "$results"
  if [[ -n ${RUN_LOGS:-} ]]; then
    mkdir -p "$RUN_LOGS"
    local n=1
    while [[ -e $RUN_LOGS/$1-$n.out ]]; do n=$((n + 1)); done
    cp "$work/out" "$RUN_LOGS/$1-$n.out"
    cp "$work/err" "$RUN_LOGS/$1-$n.err"
  fi
  [[ -n $ms && $answer == correct ]] || { echo "  (stderr:)" >&2; grep -v 'comm driver shm' "$work/err" | tail -5 >&2; }
}

hostfile_plain() { # N: the first N daemons, one slot each
  local n
  for ((n = 0; n < $1; ++n)); do echo "${ports[n]} slots=1"; done >"$work/hosts"
}

policy() { # JSON
  echo "$1" >"$work/policy.json"
}

rank_kill_case() { # case ftmpirun-options…
  local c=$1
  shift
  start_vm $((np + 2)) || return
  hostfile_plain $((np + 2))
  run_job -np "$np" --hostfile "$work/hosts" "$@"
  if wait_checkpoint "$victim"; then
    kill -9 "$(cat "$work/ckpt/rank$victim.pid")"
  else
    echo "policy_recovery.sh: $c: rank $victim wrote no checkpoint" >&2
  fi
  record "$c" "$victim"
}

slide_case() { # case method
  local c=$1 method=$2 x y
  start_vm 9 || return
  # The 3x3 host grid of --grid 2x2 --spares 2D(2,1), dimension 0 fastest.
  # Daemon 0, ftmpirun's own, takes the spare corner (2,2), which neither
  # method uses for a loss at (0,0): the daemon killed is never ftmpirun's.
  # Daemon 1 is at (0,0), rank 0's host.
  for ((y = 0; y < 3; ++y)); do
    for ((x = 0; x < 3; ++x)); do echo "${ports[(x + 3 * y + 1) % 9]} slots=1 coord=$x,$y"; done
  done >"$work/hosts"
  policy '{"detectors":[{"component":"physical"},{"component":"process"}],"placement":{"component":"sliding","method":"'"$method"'"}}'
  run_job -np 4 --grid 2x2 --spares '2D(2,1)' --hostfile "$work/hosts" --ft-policy "$work/policy.json"
  if wait_checkpoint 0; then
    kill -9 "$(cat "$work/vm/host1/var/hcored.lock")" # the host at (0,0): rank 0's
  else
    echo "policy_recovery.sh: $c: rank 0 wrote no checkpoint" >&2
  fi
  record "$c" 0
}

overhead_case() {
  local r mode
  start_vm "$np" || return
  hostfile_plain "$np"
  policy '{"detectors":[{"component":"repeated","threshold":2},{"component":"physical"},{"component":"process"}],"protocols":{"RESTART":{"fallback":"migrate"}}}'
  for ((r = 1; r <= runs; ++r)); do
    for mode in $( ((r % 2)) && echo "plain policy" || echo "policy plain"); do
      rm -rf "$work/ckpt"
      mkdir -p "$work/ckpt"
      local extra=()
      [[ $mode == policy ]] && extra=(--ft-policy "$work/policy.json")
      local t0 t1
      t0=$(date +%s.%N)
      env -u HARNESS_HCORE "$ftmpirun" --root "$work/vm/host0" --timeout 180 --comm-mode rebuild --msg-mode nop \
        -np "$np" --hostfile "$work/hosts" "${extra[@]}" "$stencil" "$work/ckpt" --size 256x256 --iters "$iters" \
        --every 50 </dev/null >"$work/out" 2>"$work/err"
      t1=$(date +%s.%N)
      local s
      s=$(sed -n 's/.* iterations in \([0-9.]*\) s,.*/\1/p' "$work/out")
      echo "overhead-$mode s=${s:-none} wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') answer=$(grep -o 'correct$\|WRONG$' "$work/out")" |
        tee -a "$results"
    done
  done
}

for c in $cases; do
  for ((r = 1; r <= runs; ++r)); do
    echo "== $c, run $r of $runs" >&2
    case $c in
      baseline) rank_kill_case baseline ;;
      restart)
        policy '{"detectors":[{"component":"process"}]}'
        rank_kill_case restart --ft-policy "$work/policy.json" ;;
      migrate)
        # repeated cannot say "every fault" (its threshold is at least 1);
        # process with its protocol overridden can.
        policy '{"detectors":[{"component":"process","protocol":"MIGRATE"}]}'
        rank_kill_case migrate --ft-policy "$work/policy.json" ;;
      promote) rank_kill_case promote --standby 1 ;;
      slide-1d) slide_case slide-1d 1d ;;
      slide-0d) slide_case slide-0d 0d ;;
      overhead) overhead_case; break ;;
    esac
  done
done
stop_vm
[[ -n $out ]] && cp "$results" "$out"

# Per case: median [min-max] of the recovery times, the replaced rank's
# hosts, the answers; for overhead the ratio of the medians.
awk '
  function field(name,   i, kv) { for (i = 2; i <= NF; ++i) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return "" }
  function stats(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    if (n == 0) return "no value"
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    med_ = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    return sprintf("%.4g [%.4g-%.4g] n=%d", med_, a[1], a[n], n)
  }
  /^#/ { print; next }
  {
    c = $1
    if (!(c in seen)) { seen[c] = 1; order[++nc] = c }
    v = c ~ /^overhead/ ? field("s") : field("ms")
    if (v != "none" && v != "") vals[c] = vals[c] " " v
    if (field("answer") != "correct") { wrong[c]++; bad++ }
    if (c !~ /^overhead/) moved[c] = moved[c] " " field("host_before") "->" field("host_after")
  }
  END {
    for (k = 1; k <= nc; ++k) {
      c = order[k]
      unit = c ~ /^overhead/ ? "s (compute)" : "ms (error seen -> recovered)"
      printf "%-18s %-30s %s%s\n", c, unit, stats(vals[c]), wrong[c] ? sprintf(", %d runs without a correct answer", wrong[c]) : ""
      if (c in moved) printf "%-18s replaced rank: %s\n", "", moved[c]
      if (c == "overhead-plain") plain = med_
      if (c == "overhead-policy") pol = med_
    }
    if (plain > 0 && pol > 0) printf "overhead: with --ft-policy / without = %.4f (goal < 1.01)\n", pol / plain
    exit bad > 0
  }' "$results"
