#!/usr/bin/env bash
# paper_figures.sh — runs slidesim on the sizes of the sliding-substitution
# paper (seed 002) and writes each figure's tables, CSV and gnuplot scripts
# (PNGs when gnuplot is installed) under OUT/<figure>/.
#
#   bench/slidesim/paper_figures.sh [OUT] [SAMPLES]
#
# OUT defaults to bench/slidesim/results/<date>; SAMPLES (random failure
# sequences per method, default 20000; environment SLIDESIM_SAMPLES) sets the
# sampling runs; 24x24x24 gets a tenth of it. The paper used 3,340,000 cases
# for 100x100 and 3,686,400 for 12x12x12 and 24x24x24: at about 5 ms (100x100)
# to 40 ms (24x24x24) per sequence and method, a run of that size takes hours
# to days on one core, so raise SAMPLES on a machine of your own.
# SLIDESIM names the binary (default build/tools/slidesim/slidesim).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$here/results/$(date -u +%Y%m%d-%H%M%S)}"
samples="${2:-${SLIDESIM_SAMPLES:-20000}}"
slidesim="${SLIDESIM:-$root/build/tools/slidesim/slidesim}"
if [[ ! -x "$slidesim" ]]; then
  echo "paper_figures.sh: no slidesim at $slidesim (cmake --build build --target slidesim)" >&2
  exit 1
fi
mkdir -p "$out"

run() {  # run NAME slidesim-arguments…
  local name="$1"
  shift
  echo "== $name: slidesim $*"
  mkdir -p "$out/$name"
  "$slidesim" "$@" --out "$out/$name" | tee "$out/$name/table.txt"
}

# Figure 8: worst cases by exhaustive search (falls back to sampling past the limit).
run fig08_0d_2d11_mesh --grid 8x7 --spares '2D(1,1)' --method 0d --failures 4 --exhaustive-limit 10000000 --fail-working-only
run fig08_0d_2d11_torus --grid 8x7 --torus --spares '2D(1,1)' --method 0d --failures 4 --exhaustive-limit 10000000 --fail-working-only
run fig08_2d21 --grid 8x8 --spares '2D(2,1)' --method 0d --method 1d --method 2d --failures 4 --exhaustive-limit 10000000 --fail-working-only
# Figure 10: 100x100, 2D(2,1), hybrid(all) vs 0D up to every spare used (199).
run fig10_100x100 --grid 100x100 --spares '2D(2,1)' --method 'hybrid(all)' --method 0d --failures 199 --samples "$samples"
# Figure 11: 12x12x12, 3D(2,1) (276 spares).
run fig11_12x12x12 --grid 12x12x12 --spares '3D(2,1)' --method 'hybrid(all)' --method 0d --failures 276 --samples "$samples"
# Figures 12-15: 24x24x24, 3D(2,1) (1128 spares): hybrid(all), hybrid(-2D), 0D and the selection rates.
big=$(( samples / 10 > 10 ? samples / 10 : 10 ))
run fig12_24x24x24 --grid 24x24x24 --spares '3D(2,1)' --method 'hybrid(all)' --method 'hybrid(-2D)' --method 0d \
  --failures 1128 --samples "$big"
echo "results in $out"
