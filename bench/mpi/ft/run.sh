#!/usr/bin/env bash
# bench/mpi/ft/run.sh — fault-tolerance benchmarks of libftmpi, through
# ftmpirun on a private daemon with vm/drd, vm/events, vm/spawn_notify:
#
#   overhead   ../pingpong.c (latency, bandwidth) and kernel.c (Jacobi) with
#              --comm-mode abort (FT off) and --comm-mode ulfm (FT on),
#              alternating run by run, ROUNDS times; the ratio on/off of the
#              medians (latency ratio > 1 = FT costs time)
#   recovery   recovery_latency.c: MPIX_Comm_agree, _shrink, _revoke (and
#              MPI_Barrier as the reference) on 2, 4,
#              8, 16 ranks
#   detect     detect.c: kill -> MPIX_ERR_PROC_FAILED at the survivors, and
#              MPIX_Comm_shrink after it; one kill per job, RUNS jobs
#   host       a VM of three daemons on loopback (heartbeat 100 ms, failure
#              timeout 600 ms), one rank on each; kill -9 of the third daemon
#              -> MPIX_ERR_PROC_FAILED at the survivors (detect.c host); RUNS jobs
#
# usage: bench/mpi/ft/run.sh [--build DIR] [--parts "overhead recovery detect host"]
#                            [--rounds 5] [--runs 9] [--np "2 4 8 16"] [--out FILE]
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$root/build
parts="overhead recovery detect host"
rounds=5
runs=9
nps="2 4 8 16"
out=""
while (($#)); do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --parts) parts=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

[[ -f $build/build.ninja || -f $build/Makefile ]] || cmake -S "$root" -B "$build" -G Ninja >/dev/null
work=$(mktemp -d /tmp/bench-mpi-ft.XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --build "$build" --target ftmpirun bench_mpi_pingpong bench_mpi_ft_detect bench_mpi_ft_recovery_latency \
  bench_mpi_ft_kernel plugin_vm_drd plugin_vm_events plugin_vm_spawn_notify -j2 >"$work/build.log" 2>&1 ||
  { tail -20 "$work/build.log"; echo "run.sh: build failed" >&2; exit 1; }

ftmpirun=$build/tools/ftmpirun/ftmpirun
# A private daemon per job (no HARNESS_HCORE, a root without a daemon).
job() { # comm-mode np program args…
  local mode=$1 np=$2; shift 2
  env -u HARNESS_HCORE HARNESS_SERVICES=vm/drd,vm/events,vm/spawn_notify \
    "$ftmpirun" --root "$work/no-vm" --oversubscribe --timeout 600 --comm-mode "$mode" -np "$np" "$@" </dev/null
}
results=$work/results
: >"$results"
echo "# $(date -u '+%F %T UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$results"

# Appends the RESULT lines of one job to the results, tagged "<tag> ".
record() { # tag command…
  local tag=$1; shift
  "$@" 2>"$work/err" | sed -un "s/^RESULT /$tag /p" >>"$results"
  grep -v '^$' "$work/err" | grep -v 'job id' | head -3 >&2
}

# One host-loss sample: three daemons, ranks 0, 1, 2 on daemons 1, 2, 3;
# kill -9 daemon 3 once every rank waits; prints "ulfm bench=detect_host …"
# and the survivors' shrink_after line.
host_run() {
  local vm=$work/vm hcored=$build/hcore/hcored flags ports=() first pid t_kill line
  rm -rf "$vm"; mkdir -p "$vm"
  flags=(--vm ftbench$$ --listen 127.0.0.1:0 --heartbeat-ms 100 --heartbeat-timeout-ms 600
         --services vm/drd,vm/naming,vm/events,vm/spawn_notify)
  for n in 1 2 3; do
    mkdir -p "$vm/host$n"
    [[ $n == 1 ]] || cp "$vm/host1/vm.key" "$vm/host$n/vm.key"
    "$hcored" --root "$vm/host$n" "${flags[@]}" ${first:+--join "$first"} >"$vm/host$n.ready" 2>&1 ||
      { echo "run.sh: hcored $n did not start" >&2; cat "$vm/host$n.ready" >&2; return; }
    ports+=("$(sed -n 's/.*tcp=\([^ ]*\).*/\1/p' "$vm/host$n.ready")")
    first=${ports[0]}
  done
  env -u HARNESS_HCORE "$ftmpirun" --root "$vm/host1" --timeout 120 --comm-mode ulfm -np 3 \
    --host "${ports[0]}:1,${ports[1]}:1,${ports[2]}:1" "$build/bench/mpi/ft/bench_mpi_ft_detect" host \
    </dev/null >"$vm/out" 2>"$vm/err" &
  local job=$!
  for _ in $(seq 600); do grep -q DETECT_READY "$vm/out" && break; sleep 0.05; done
  t_kill=$(date +%s.%N)
  kill -9 "$(cat "$vm/host3/var/hcored.lock")"
  wait "$job"
  line=$(grep DETECT_SEEN "$vm/out")
  if [[ -n $line ]]; then
    awk -v k="$t_kill" '{ v = ($3 - k) * 1e6; printf "ulfm bench=detect_host np=3 bytes=0 unit=us median=%.0f p10=%.0f p90=%.0f samples=1\n", v, v, v }' <<<"$line"
    sed -n 's/^RESULT /ulfm /p' "$vm/out"
  else
    echo "run.sh: host run gave no DETECT_SEEN line; stderr:" >&2; tail -5 "$vm/err" >&2
  fi
  for n in 1 2; do pid=$(cat "$vm/host$n/var/hcored.lock" 2>/dev/null) && kill "$pid" 2>/dev/null; done
  for n in 1 2; do
    pid=$(cat "$vm/host$n/var/hcored.lock" 2>/dev/null) || continue
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  done
}

for part in $parts; do
  case $part in
    overhead)
      for ((r = 1; r <= rounds; ++r)); do
        modes="abort ulfm"; ((r % 2)) || modes="ulfm abort"  # alternate who goes first
        for mode in $modes; do
          echo "overhead round $r/$rounds, $mode" >&2
          BENCH_SIZES=0,8,1024,65536,1048576 BENCH_SAMPLES=${BENCH_SAMPLES:-9} \
            record "$mode" job "$mode" 2 "$build/bench/mpi/bench_mpi_pingpong"
          BENCH_SAMPLES=${BENCH_SAMPLES:-9} record "$mode" job "$mode" 4 "$build/bench/mpi/ft/bench_mpi_ft_kernel"
        done
      done ;;
    recovery)
      for np in $nps; do
        echo "recovery np=$np" >&2
        record ulfm job ulfm "$np" "$build/bench/mpi/ft/bench_mpi_ft_recovery_latency"
      done ;;
    detect)
      for ((r = 1; r <= runs; ++r)); do
        echo "detect run $r/$runs" >&2
        record ulfm job ulfm 4 "$build/bench/mpi/ft/bench_mpi_ft_detect"
      done ;;
    host)
      for ((r = 1; r <= runs; ++r)); do
        echo "host run $r/$runs" >&2
        host_run >>"$results"
      done ;;
    *) echo "run.sh: unknown part $part" >&2 ;;
  esac
done
[[ -n $out ]] && cp "$results" "$out"

# Tables. Several lines for one (bench, np, bytes, mode) — overhead rounds,
# detect runs — are summarized by the median of their medians and the range.
awk '
  function field(name,   i, kv) { for (i = 2; i <= NF; ++i) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return "" }
  function median(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    lo_ = a[1]; hi_ = a[n]; n_ = n
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  /^#/ { print; next }
  {
    key = field("bench") " np=" field("np") " " field("bytes") "B"
    if (!(key in seen)) { seen[key] = 1; keys[++nk] = key; unit[key] = field("unit") }
    vals[key, $1] = vals[key, $1] " " field("median")
  }
  END {
    printf "\n%-28s %-6s %26s %26s %8s\n", "benchmark", "unit", "FT off (abort) median [range]", "FT on (ulfm) median [range]", "on/off"
    for (k = 1; k <= nk; ++k) {
      key = keys[k]; off = on = ""; offs = ons = "-"
      if (vals[key, "abort"] != "") { off = median(vals[key, "abort"]); offs = sprintf("%.4g [%.4g-%.4g] n=%d", off, lo_, hi_, n_) }
      if (vals[key, "ulfm"] != "") { on = median(vals[key, "ulfm"]); ons = sprintf("%.4g [%.4g-%.4g] n=%d", on, lo_, hi_, n_) }
      ratio = (off != "" && on != "" && off + 0 > 0) ? sprintf("%.3f", on / off) : "-"
      printf "%-28s %-6s %26s %26s %8s\n", key, unit[key], offs, ons, ratio
    }
  }' "$results"
