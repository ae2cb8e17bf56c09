#!/usr/bin/env bash
# check-format.sh — fails, naming the lines, when a C or C++ file of the
# repository is not laid out as .clang-format says. Fix with
#   git ls-files '*.c' '*.h' '*.cpp' '*.hpp' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v clang-format >/dev/null; then
  echo "SKIPPED: clang-format is not installed (scripts/setup.sh installs it)"
  exit 77
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIPPED: not a git checkout (the files to check are the tracked ones)"
  exit 77
fi
git ls-files -z '*.c' '*.h' '*.cpp' '*.hpp' | xargs -0 -n 100 clang-format --dry-run --Werror
echo "every C and C++ file follows .clang-format"
