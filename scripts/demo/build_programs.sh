#!/usr/bin/env bash
# Compiles the demo's MPI programs with our mpicc, as a user would:
#
#   build_programs.sh MPICC OUTDIR    ->  OUTDIR/jacobi, OUTDIR/ft_sum
#
# scripts/demo.sh runs them; the test wrappers.demo_programs checks that they
# still compile (jacobi.c shares the test programs' support/check.h).
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: build_programs.sh MPICC OUTDIR" >&2
  exit 2
fi
mpicc=$1
out=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
mkdir -p "$out"
"$mpicc" -O2 -I "$repo/tests/mpi" -o "$out/jacobi" "$repo/tests/mpi/apps/jacobi.c" -lm
"$mpicc" -O2 -o "$out/ft_sum" "$here/ft_sum.c"
