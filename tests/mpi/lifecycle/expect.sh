#!/usr/bin/env bash
# Runs a job and checks what it left: its status, lines in its output, and
# that nothing of it survives.
#
#   expect.sh [--status N] [--line REGEX]… [--no-line REGEX]… [--child]
#             [--shm-gone] -- ftmpirun args… program
#
# --child makes a uniquely named link to sleep, exports it as FT_CHILD (the
# command passes it on with ftmpirun's -x FT_CHILD) and, after the job, waits (10 s at most) until no
# process runs it. --shm-gone checks that every "shm-file PATH" the ranks
# printed is gone once the job ended. Output lines are matched with grep -E.
set -u
status_want=""
lines=()
no_lines=()
child=0
shm=0
while [ $# -gt 0 ]; do
    case "$1" in
    --status) status_want=$2; shift 2 ;;
    --line) lines+=("$2"); shift 2 ;;
    --no-line) no_lines+=("$2"); shift 2 ;;
    --child) child=1; shift ;;
    --shm-gone) shm=1; shift ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown option $1"; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "expect.sh: no command"; exit 2; }

work=$(mktemp -d /tmp/ftmpi-expect.XXXXXX)
marker=""
cmd=("$@")
if [ $child = 1 ]; then
    marker="$work/ftmpi-orphan-$$-$RANDOM"
    ln -s "$(command -v sleep)" "$marker"
    export FT_CHILD="$marker"
fi
out="$work/out"
"${cmd[@]}" >"$out" 2>&1
status=$?
cat "$out"
echo "expect.sh: job status $status"

fail=0
complain() { echo "FAILED: $*"; fail=1; }
if [ -n "$status_want" ] && [ "$status" != "$status_want" ]; then complain "status $status, expected $status_want"; fi
for re in "${lines[@]+"${lines[@]}"}"; do
    grep -Eq -- "$re" "$out" || complain "no line matches /$re/"
done
for re in "${no_lines[@]+"${no_lines[@]}"}"; do
    if grep -Eq -- "$re" "$out"; then complain "a line matches /$re/"; fi
done
if [ $child = 1 ]; then
    deadline=$((SECONDS + 10))
    while pgrep -f -- "$marker" >/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
    left=$(pgrep -f -- "$marker" | tr '\n' ' ')
    if [ -n "$left" ]; then
        complain "processes of the job survive it: $left"
        kill -9 $left 2>/dev/null
    fi
fi
if [ $shm = 1 ]; then
    n=0
    while read -r _ path; do
        n=$((n + 1))
        if [ -e "$path" ] || [ -p "$path" ]; then complain "$path is left"; rm -f "$path"; fi
    done < <(grep -E '^(\[[^]]*\]<stdout>: )?shm-file ' "$out" | sed -E 's/^(\[[^]]*\]<stdout>: )?//')
    [ $n -gt 0 ] || complain "the ranks printed no shm-file line"
fi
rm -rf "$work"
exit $fail
