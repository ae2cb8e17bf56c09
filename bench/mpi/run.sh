#!/usr/bin/env bash
# bench/mpi/run.sh — the plain-MPI benchmarks of this folder, built three
# times (libftmpi, Debian's Open MPI, Debian's MPICH) and run side by side in
# one run, in these configurations:
#
#   ours         libftmpi (ftmpirun if built, else the test launcher), default
#                comm drivers (shared memory between ranks of one host)
#   ours-tcp     libftmpi with FTMPI_TRANSPORTS=tcp
#   ompi-shm     mpirun.openmpi --oversubscribe (vader shared memory)
#   ompi-tcp     ... --mca btl tcp,self --mca btl_tcp_if_include lo
#   mpich-shm    mpiexec.mpich (UCX shared memory)
#   mpich-tcp    UCX_TLS=tcp,self UCX_NET_DEVICES=lo mpiexec.mpich
#
# Prints one table per benchmark: medians (µs, or MB/s for bandwidth and
# ops/s for rates) with the 10th–90th percentile spread, and ours / best TCP
# peer, ours / best peer. Latency ratios below 1 and bandwidth or rate
# ratios above 1 mean we are faster.
#
# usage: bench/mpi/run.sh [--build DIR] [--np "2 4 8"] [--configs "ours ompi-tcp …"]
#                         [--benches "pingpong coll pack rma io_write_all"] [--quick] [--out FILE]
# Environment passed to every program: BENCH_SIZES, BENCH_SAMPLES,
# BENCH_SAMPLE_MS, BENCH_POINT_SECONDS, BENCH_WINDOW (see stats.h, coll.c).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
nps="2 4 8"
configs="ours ours-tcp ompi-shm ompi-tcp mpich-shm mpich-tcp"
benches=$(cd "$here" && ls *.c | sed 's/\.c$//' | tr '\n' ' ')  # every program here
out=""
while (($#)); do
  case $1 in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --configs) configs=$2; shift 2 ;;
    --benches) benches=$2; shift 2 ;;
    --quick) export BENCH_SAMPLES=${BENCH_SAMPLES:-7} BENCH_POINT_SECONDS=${BENCH_POINT_SECONDS:-0.5}; shift ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

# The peers are benchmark dependencies only (not in scripts/setup.sh).
need=()
command -v mpicc.openmpi >/dev/null || need+=(openmpi-bin libopenmpi-dev)
command -v mpicc.mpich >/dev/null || need+=(mpich libmpich-dev)
if ((${#need[@]})); then
  echo "installing ${need[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >/dev/null || { echo "run.sh: apt-get failed" >&2; exit 1; }
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# Build: ours through CMake, the peers with their own wrappers.
work=$(mktemp -d /tmp/bench-mpi.XXXXXX)
trap 'rm -rf "$work"' EXIT
targets=()
for b in $benches; do targets+=(bench_mpi_$b); done
if [[ " $configs " == *" ours "* ]]; then
  [[ -f $build/build.ninja || -f $build/Makefile ]] || cmake -S "$root" -B "$build" -G Ninja >/dev/null
  cmake --build "$build" --target "${targets[@]}" ftmpi_test_launcher -j2 >"$work/build.log" 2>&1 ||
    { tail -20 "$work/build.log"; echo "run.sh: building ours failed" >&2; exit 1; }
fi
for impl in openmpi mpich; do
  mkdir -p "$work/$impl"
  for b in $benches; do
    "mpicc.$impl" -O2 -o "$work/$impl/$b" "$here/$b.c" || { echo "run.sh: mpicc.$impl $b.c failed" >&2; exit 1; }
  done
done

ftmpirun=$(ls "$build"/tools/ftmpirun/ftmpirun 2>/dev/null | head -1)
launcher=$build/tests/mpi/launcher/ftmpi_test_launcher
launch() { # config np program args…
  local config=$1 np=$2; shift 2
  case $config in
    ours|ours-tcp)
      local env=()
      [[ $config == ours-tcp ]] && env=(-x FTMPI_TRANSPORTS=tcp)
      if [[ -n $ftmpirun ]]; then "$ftmpirun" --oversubscribe -np "$np" "${env[@]}" "$build/bench/mpi/bench_mpi_$1" "${@:2}"
      else FTMPI_TRANSPORTS=${env:+tcp} "$launcher" -np "$np" --timeout 600 "$build/bench/mpi/bench_mpi_$1" "${@:2}"; fi ;;
    ompi-shm) mpirun.openmpi --oversubscribe -np "$np" --mca btl vader,self "$work/openmpi/$1" "${@:2}" ;;
    ompi-tcp) mpirun.openmpi --oversubscribe -np "$np" --mca btl tcp,self --mca btl_tcp_if_include lo \
                "$work/openmpi/$1" "${@:2}" ;;
    mpich-shm) mpiexec.mpich -n "$np" "$work/mpich/$1" "${@:2}" ;;
    mpich-tcp) UCX_TLS=tcp,self UCX_NET_DEVICES=lo mpiexec.mpich -n "$np" "$work/mpich/$1" "${@:2}" ;;
  esac
}

results=$work/results
: >"$results"
echo "# $(date -u '+%F %T UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for b in $benches; do
  case $b in pingpong) counts=2 ;; pack) counts=1 ;; *) counts=$nps ;; esac
  for np in $counts; do
    for config in $configs; do
      echo "running $b np=$np $config" >&2
      # A run that spins on an oversubscribed host can take minutes per point;
      # past BENCH_RUN_SECONDS (900) it is cut off and its points stay empty.
      timeout "${BENCH_RUN_SECONDS:-900}" bash -c "$(declare -f launch); $(declare -p work build ftmpirun launcher); \
        launch $config $np $b" </dev/null 2>"$work/err" | sed -un "s/^RESULT /$config /p" >>"$results" || true
      grep -q . "$work/err" && grep -v '^$' "$work/err" | head -3 >&2
    done
  done
done
[[ -n $out ]] && cp "$results" "$out"

# Table: one row per (bench, np, bytes), one column per configuration.
awk -v configs="$configs" '
  function field(name,   i, kv) { for (i = 2; i <= NF; ++i) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return "" }
  BEGIN { nc = split(configs, cfg, " ") }
  {
    key = field("bench") " np=" field("np") " " field("bytes") "B"
    b = field("bench")
    if (!(b in nb)) { nb[b] = 0; benches[++nbench] = b }
    if (!(key in seen)) { seen[key] = 1; order[b, ++nb[b]] = key; unit[key] = field("unit"); bench[key] = b }
    med[key, $1] = field("median"); lo[key, $1] = field("p10"); hi[key, $1] = field("p90")
  }
  END {
    for (bi = 1; bi <= nbench; ++bi)
    for (k = 1; k <= nb[benches[bi]]; ++k) {
      key = order[benches[bi], k]
      if (k == 1) {
        printf "\n%-26s", bench[key] " (" unit[key] ", median [p10-p90])"
        for (c = 1; c <= nc; ++c) printf " %24s", cfg[c]
        printf " %12s %12s\n", "ours/tcp", "ours/best"
      }
      printf "%-26s", key
      best_tcp = ""; best = ""
      higher = unit[key] ~ /\/s$/   # MB/s, ops/s: higher is better
      for (c = 1; c <= nc; ++c) {
        m = med[key, cfg[c]]
        if (m == "") { printf " %24s", "-"; continue }
        printf " %24s", sprintf("%.3g [%.3g-%.3g]", m, lo[key, cfg[c]], hi[key, cfg[c]])
        if (cfg[c] ~ /^ours/) continue
        if (best == "" || (higher ? m + 0 > best + 0 : m + 0 < best + 0)) best = m
        if (cfg[c] ~ /tcp/ && (best_tcp == "" || (higher ? m + 0 > best_tcp + 0 : m + 0 < best_tcp + 0))) best_tcp = m
      }
      ours = med[key, "ours"]
      printf " %12s %12s\n", (ours != "" && best_tcp + 0 > 0) ? sprintf("%.2f", ours / best_tcp) : "-",
                             (ours != "" && best + 0 > 0) ? sprintf("%.2f", ours / best) : "-"
    }
  }' "$results"

# The fault-tolerance benchmarks (FT on/off overhead, detection, recovery) are
# ft/run.sh's: BENCH_FT=1 runs them after the tables above.
if [[ ${BENCH_FT:-0} == 1 ]]; then "$here/ft/run.sh" --build "$build"; fi
