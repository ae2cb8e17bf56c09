#!/usr/bin/env bash
# setup.sh — install the build dependencies (Debian 12) and build into build/.
#
# Idempotent: packages already installed are left alone and apt is not
# touched at all then; the build is incremental. Installing needs root (or
# sudo). Environment: HARNESS_BUILD_DIR (default build), HARNESS_JOBS,
# HARNESS_UNITY_BUILD (default ON: CMake's unity build, a third of the
# compile time from scratch; OFF for a build tree where you edit and rebuild
# single files often).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PACKAGES=(
  build-essential gfortran cmake ninja-build lld clang clang-format libclang-rt-14-dev
  libboost-dev libssl-dev doctest-dev libcli11-dev nlohmann-json3-dev
  libcurl4-openssl-dev libgpgme-dev libsqlite3-dev nginx-light gnupg
  libraft-dev libuv1-dev iproute2 procps chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then
      sudo=(sudo)
    else
      echo "setup: missing packages (${missing[*]}) and not root; install them or rerun as root" >&2
      exit 1
    fi
  fi
  # Tests start their own nginx on loopback ports; keep the package's
  # post-install from starting a system-wide one on port 80.
  policy=/usr/sbin/policy-rc.d
  made_policy=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod 755 "$policy"
    made_policy=1
  fi
  trap 'if [[ $made_policy == 1 ]]; then "${sudo[@]}" rm -f "$policy"; fi' EXIT
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${HARNESS_BUILD_DIR:-build}
jobs=${HARNESS_JOBS:-$(nproc)}
log="$build/setup-configure.log"
mkdir -p "$build"
# Configure output goes to a log, shown only when configuring fails.
if ! cmake -S . -B "$build" -G Ninja -DCMAKE_UNITY_BUILD="${HARNESS_UNITY_BUILD:-ON}" \
  -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 >"$log" 2>&1; then
  cat "$log" >&2
  echo "setup: configuring $build failed" >&2
  exit 1
fi
cmake --build "$build" --parallel "$jobs"
