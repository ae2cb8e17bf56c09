#!/usr/bin/env bash
# policy_figures.sh — the sliding-substitution figures of docs/policies.md,
# redrawn from slidesim on grids small enough for a few minutes on one core:
#
#   bench/slidesim/policy_figures.sh [OUT [DATA]]
#
# OUT (default docs/img) gets the PNGs; the printed tables, CSVs and
# slidesim's own gnuplot scripts go to DATA (default /tmp/policy-figures). Needs gnuplot (gnuplot-nox).
# SLIDESIM names the binary (default build/tools/slidesim/slidesim).
#
#   sliding-8x8-exhaustive.png  0D, 1D, 2D, hybrid(all) on an 8x8 mesh with
#                               2D(2,1): every ordered sequence of up to 4
#                               failures of working hosts (the paper's Fig. 8)
#   sliding-64x64.png           the same methods on 64x64, 2D(2,1), up to
#                               every spare used (127 failures), 5000 random
#                               sequences per method (Figs. 10 and 8)
#   sliding-64x64-selection.png which degree hybrid(all) used at each failure
#                               and accumulated, on 64x64 (Figs. 14 and 15)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/docs/img}"
slidesim="${SLIDESIM:-$root/build/tools/slidesim/slidesim}"
[[ -x $slidesim ]] || { echo "policy_figures.sh: no slidesim at $slidesim (cmake --build build --target slidesim)" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "policy_figures.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
data="${2:-/tmp/policy-figures}"
mkdir -p "$data"
methods=(--method 0d --method 1d --method 2d --method 'hybrid(all)')

run() { # NAME slidesim-arguments…
  local name=$1
  shift
  echo "== $name: slidesim $*"
  mkdir -p "$data/$name"
  local start=$SECONDS
  "$slidesim" "$@" --out "$data/$name" >"$data/$name/table.txt"
  echo "   $((SECONDS - start)) s"
}

run 8x8 --grid 8x8 --spares '2D(2,1)' "${methods[@]}" --failures 4 --exhaustive-limit 10000000 --fail-working-only
run 64x64 --grid 64x64 --spares '2D(2,1)' "${methods[@]}" --failures 127 --samples 5000 --seed 1

gnuplot -e "csv='$data/8x8/collisions.csv'; out='$out/sliding-8x8-exhaustive.png'; xstep=1; \
ttl='8x8 mesh, 2D(2,1), 5-point stencil: every sequence of up to 4 failed working hosts'" "$here/policy_methods.gp"
gnuplot -e "csv='$data/64x64/collisions.csv'; out='$out/sliding-64x64.png'; \
ttl='64x64 mesh, 2D(2,1), 5-point stencil: 5000 random failure sequences per method'" "$here/policy_methods.gp"
gnuplot -e "csv='$data/64x64/selection.csv'; method='hybrid(2D+1D+0D)'; out='$out/sliding-64x64-selection.png'; \
ttl='hybrid(all) on 64x64, 2D(2,1): the degree that handled each failure'" "$here/policy_selection.gp"
echo "figures in $out, data in $data"
