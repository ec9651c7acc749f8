#!/usr/bin/env bash
# Scenario: `cellfs load` interrupted by a kill -9 of the daemon says which
# rows are stored and how to resume; after a remount those rows are there,
# and `--skip-rows` resumes the load to the whole file (issue 12).
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

ROWS=${CELLFS_LOAD_RESUME_ROWS:-600000}
mount_fs "$DATA" "$MNT" "commit=periodic"
mkdir "$MNT/ks"
cql "CREATE TABLE ks.t (k int PRIMARY KEY, v text)"
python3 - "$WORK/rows.jsonl" "$ROWS" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for k in range(1, int(sys.argv[2]) + 1):
        f.write('{"k": %d, "v": "value %d"}\n' % (k, k))
PY

# present_up_to N: every key 1..N is in the table (read through `cellfs dump`).
present_up_to() {
  "$CELLFS" dump "$MNT" ks.t -o "$WORK/dump.jsonl" || return 1
  python3 - "$WORK/dump.jsonl" "$1" <<'PY'
import json, sys
keys = {json.loads(line)["k"] for line in open(sys.argv[1])}
missing = [k for k in range(1, int(sys.argv[2]) + 1) if k not in keys]
print(len(keys))
sys.exit(1 if missing else 0)
PY
}

step "kill -9 of the daemon in the middle of a load of $ROWS rows"
# The load reads from a pipe that holds back the second half until the
# daemon is dead, so the kill lands mid-load however fast the load runs.
held=$(( ROWS * 2 / 3 ))  # lines sent before the kill
# A row 1/6 of the input before that point: past the first checkpoint (8 MiB,
# about 246000 lines of this file), and far enough back (3.5 MiB) that its
# 1 MiB batch was applied without waiting for the held-back input.
mark=$(( ROWS / 2 ))
{
  head -n "$held" "$WORK/rows.jsonl"
  for _ in $(seq 1200); do [[ -e $WORK/go ]] && break; sleep 0.1; done  # at most 2 min
  tail -n "+$((held + 1))" "$WORK/rows.jsonl"
} | "$CELLFS" load "$MNT" ks.t - >"$WORK/load.out" 2>"$WORK/load.err" &
LOAD_PID=$!
for _ in $(seq 600); do
  [[ -e $MNT/ks/t/$mark/v ]] && break
  alive "$LOAD_PID" || break
  sleep 0.1
done
alive "$LOAD_PID" || die "the load ended before the kill: $(cat "$WORK/load.err")"
kill -KILL "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null || true
touch "$WORK/go"  # the rest of the input: the load's next write meets the dead mount
rc=0
wait "$LOAD_PID" || rc=$?
message=$(cat "$WORK/load.err")
echo "load said: $message"
[[ $rc -ne 0 ]] || fail "the interrupted load exited 0"
[[ $message =~ rows\ up\ to\ line\ ([0-9]+)\ \(([0-9]+)\ rows\)\ are\ stored\;\ resume\ with\ --skip-rows\ ([0-9]+) ]] ||
  die "no resume hint in: $message"
line=${BASH_REMATCH[1]} stored=${BASH_REMATCH[2]} skip=${BASH_REMATCH[3]}
expect_eq "JSON Lines: skip = lines" "$line" "$skip"
expect_eq "rows stored = lines (every line a row)" "$line" "$stored"
(( line > 0 )) || fail "no rows reported stored"

step "remount: at least the reported rows are there"
fusermount3 -u -z "$MNT"
mount_fs "$DATA" "$MNT" "commit=periodic"
count=$(present_up_to "$line") || fail "rows 1..$line are not all present"
echo "after the kill: $count rows present, $line reported stored"

step "resume with --skip-rows $skip: every row"
expect_ok "resumed load" "$CELLFS" load --skip-rows "$skip" "$MNT" ks.t "$WORK/rows.jsonl"
count=$(present_up_to "$ROWS") || fail "rows 1..$ROWS are not all present after the resume"
expect_eq "row count" "$ROWS" "$count"

step "--skip-rows keeps a CSV header and the file's line numbers in reports"
printf 'k,v\n1,a\n2,b\nx,c\n4,d\n' > "$WORK/rows.csv"
rc=0
err=$("$CELLFS" load --skip-rows 1 "$MNT" ks.t "$WORK/rows.csv" 2>&1 >/dev/null) || rc=$?
expect_eq "exit code with a refused line" 1 "$rc"
expect_contains "refusal numbered as in the file" "rows.csv: line 4:" "$err"
expect_eq "a skipped row is not rewritten" "value 1" "$(cat "$MNT/ks/t/1/v")"
expect_eq "a row after the skip is" b "$(cat "$MNT/ks/t/2/v")"
unmount_fs
