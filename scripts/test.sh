#!/usr/bin/env bash
# test.sh — everything CI checks, in order:
#   1. scripts/setup.sh: dependencies, configure and build in build/
#      (unity builds here and in 3., as setup.sh does by default)
#   2. ctest in build/ (unit, integration and fetch tests)
#   3. build-asan/: AddressSanitizer + UndefinedBehaviorSanitizer, -Werror; ctest
#      (without the TCP-only and mixed comm-driver variants of the MPI tests,
#      and of each MPI program only its runs at its fewest ranks, at 3 and at
#      its most up to 4; without the wrapper tests; without the benchmarks,
#      whose smoke tests run in 2.)
#   4. build-fuzz/: each libFuzzer target (clang) for HARNESS_FUZZ_SECONDS (20),
#      as many at a time as there are cores
# Every stage runs even if an earlier one failed; the summary at the end lists
# the failures and the exit status is non-zero if there was any.
# HARNESS_BUILD_PREFIX=x uses x/, x-asan/ and x-fuzz/ instead of build*/.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
fuzz_seconds=${HARNESS_FUZZ_SECONDS:-20}
jobs=${HARNESS_JOBS:-$(nproc)}
b=${HARNESS_BUILD_PREFIX:-build}
asan=$b-asan
fuzz=$b-fuzz

failures=()
# Each stage's wall time, printed in the summary (CI's budget is per run).
stage_times=()
stage=""
stage_start=$SECONDS
end_stage() { [[ -z $stage ]] || stage_times+=("$(printf '%5d s  %s' $((SECONDS - stage_start)) "$stage")"); }
section() {
  end_stage
  stage=$*
  stage_start=$SECONDS
  printf '\n======== %s ========\n' "$*"
}
stage_failed() { failures+=("$1"); printf '\n>>> FAILED: %s\n' "$1"; }

section "1/4 setup: dependencies, configure and build ($b/)"
if ! HARNESS_BUILD_DIR=$b bash scripts/setup.sh; then
  stage_failed "setup and build ($b/)"
fi

# Two tests at a time. Three were 30 s faster here (600 tests: 3m40s
# against 4m10s), but the extra load made two timing races of tests show in
# one run (since fixed); a failed CI run costs more than 30 s.
section "2/4 tests ($b/)"
if [[ -f $b/CTestTestfile.cmake ]]; then
  ctest --test-dir "$b" --output-on-failure -j2 --timeout 120 || stage_failed "tests ($b/)"
else
  stage_failed "tests ($b/): not configured"
fi

section "3/4 sanitizers: address,undefined with -Werror ($asan/)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if cmake -S . -B $asan -G Ninja -DCMAKE_BUILD_TYPE=Sanitize -DHARNESS_SANITIZE=address,undefined -DHARNESS_WERROR=ON -DHARNESS_BENCH=OFF \
     -DCMAKE_UNITY_BUILD="${HARNESS_UNITY_BUILD:-ON}" -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
     >"$asan.configure.log" 2>&1 || { cat "$asan.configure.log"; false; }; then
  if cmake --build $asan --parallel "$jobs"; then
    # The comm-driver variants (TCP only, mixed) and an MPI program's runs at
    # other process counts than its fewest, 3 and its most up to 4 run in the
    # normal build; the sanitizers check the code paths once, with the
    # default drivers. The wrapper tests (mpicc, install, CMake packages)
    # check scripts and files, which no sanitizer looks at.
    ctest --test-dir $asan --output-on-failure -j2 --timeout 120 \
      -LE 'transport-(tcp|mixed)|more-ranks|middle-ranks|wrappers' ||
      stage_failed "tests ($asan/)"
  else
    stage_failed "build ($asan/)"
  fi
else
  stage_failed "configure ($asan/)"
fi
rm -f "$asan.configure.log"

section "4/4 fuzzing: ${fuzz_seconds} s per target ($fuzz/)"
if CC=clang CXX=clang++ cmake -S . -B $fuzz -G Ninja -DHARNESS_FUZZ=ON -DHARNESS_TESTS=OFF \
     >"$fuzz.configure.log" 2>&1 || { cat "$fuzz.configure.log"; false; }; then
  if cmake --build $fuzz --target harness_fuzzers --parallel "$jobs"; then
    mkdir -p $fuzz/artifacts
    # Each fuzzer is one process on one core: run them $jobs at a time, each
    # for the full time, and report them in order once all have ended.
    fuzzers=()
    for fuzzer in $fuzz/tests/fuzz/fuzz_*; do
      [[ -x $fuzzer ]] && fuzzers+=("$fuzzer")
    done
    run_fuzzer() {
      local name seeds corpus
      name=$(basename "$1")
      seeds=tests/fuzz/corpus/${name#fuzz_}
      corpus=$fuzz/corpus/${name#fuzz_} # grows across runs; the seeds stay untouched
      mkdir -p "$corpus"
      "$1" -max_total_time="$fuzz_seconds" -print_final_stats=1 \
        -artifact_prefix="$root/$fuzz/artifacts/$name-" "$corpus" "$seeds" >"$fuzz/$name.log" 2>&1
      echo $? >"$fuzz/$name.status"
    }
    running=0
    for fuzzer in "${fuzzers[@]}"; do
      run_fuzzer "$fuzzer" &
      if ((++running >= jobs)); then
        wait -n
        ((running--))
      fi
    done
    wait
    for fuzzer in "${fuzzers[@]}"; do
      name=$(basename "$fuzzer")
      log=$fuzz/$name.log
      printf -- '--- %s\n' "$name"
      if [[ $(cat "$fuzz/$name.status") == 0 ]]; then
        grep -E '^stat::number_of_executed_units|DONE' "$log" | tail -2
      else
        tail -n 40 "$log"
        stage_failed "fuzzer $name (see $log and $fuzz/artifacts/)"
      fi
    done
  else
    stage_failed "build ($fuzz/)"
  fi
else
  stage_failed "configure ($fuzz/)"
fi
rm -f "$fuzz.configure.log"

section "summary"
printf '%s\n' "${stage_times[@]}"
printf '%5d s  in all\n' "$SECONDS"
if ((${#failures[@]})); then
  printf 'FAILED: %s\n' "${failures[@]}"
  exit 1
fi
echo "all stages passed"
