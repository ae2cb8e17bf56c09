#!/usr/bin/env bash
# Runs a job and checks how it ended:
#   expect_job.sh STATUSES MUST_MATCH MUST_NOT_MATCH -- command…
# STATUSES is a |-separated list of accepted exit statuses; MUST_MATCH and
# MUST_NOT_MATCH are extended regular expressions over the job's combined
# output (empty: no check). Prints the output, then one verdict line.
set -u
statuses=$1 must=$2 mustnot=$3
shift 3
[ "${1:-}" = "--" ] && shift
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
ok=1
case "|$statuses|" in
  *"|$status|"*) ;;
  *) echo "expect_job: exit status $status, expected one of $statuses"; ok=0 ;;
esac
if [ -n "$must" ] && ! grep -Eq -- "$must" <<<"$out"; then
  echo "expect_job: the output lacks /$must/"; ok=0
fi
if [ -n "$mustnot" ] && grep -Eq -- "$mustnot" <<<"$out"; then
  echo "expect_job: the output has /$mustnot/"; ok=0
fi
[ $ok = 1 ] && echo "expect_job: OK (status $status)"
[ $ok = 1 ]
