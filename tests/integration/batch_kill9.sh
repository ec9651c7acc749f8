#!/usr/bin/env bash
# Scenario: logged batches through @cql are all-or-nothing under kill -9 of
# the daemon. Each round a writer sends BEGIN BATCH ... APPLY BATCH
# statements (7 rows over 3 partitions of one table and a row of another;
# in the last round conditional batches, IF NOT EXISTS on one partition)
# one after another, logging the ones acknowledged; the daemon is killed
# with SIGKILL at a random moment and the data directory remounted. Then
# every batch ever sent must be stored whole or not at all, and every
# acknowledged one whole: a kill -9 of the process loses nothing
# acknowledged in any commit mode (docs/RELIABILITY.md: LevelDB hands each
# write to the OS before it returns), as kill9.sh asserts. Prints figures.
# CELLFS_BATCH_KILL9_ROUNDS=N changes the number of rounds (default 6, the
# last one conditional).
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

HELPER=$(dirname "$(realpath "$0")")/batch_kill9_writer.py
ROUNDS=${CELLFS_BATCH_KILL9_ROUNDS:-6}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "CELLFS_BATCH_KILL9_ROUNDS must be a positive number, not $ROUNDS"
COMMIT_MODES=(periodic group batch)

seed_of() { echo $((2003 + 7919 * $1)); }
commit_of() { echo "${COMMIT_MODES[$(($1 % 3))]}"; }
kind_of() { if (($1 == ROUNDS - 1 && ROUNDS > 1)); then echo cas; else echo plain; fi; }

# Waits up to 20 s until the writer logged its first acknowledged batch.
wait_started() {
  local log=$1 pid=$2 i
  for i in $(seq 200); do
    grep -q '^A ' "$log" 2>/dev/null && return 0
    alive "$pid" || die "the writer (pid $pid) ended before its first batch: $(tail -n 3 "$log")"
    sleep 0.1
  done
  die "the writer (pid $pid) had no batch acknowledged in 20 s"
}

# Waits up to 30 s for the writer PID (whose daemon died) to end.
wait_writer() {
  local pid=$1 i
  for i in $(seq 300); do
    alive "$pid" || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  die "the writer (pid $pid) still runs 30 s after its daemon was killed: a hang"
}

# Kills the daemon with SIGKILL and reaps it quietly; KILLED_AT is when, in ns.
kill_daemon() {
  local victim=$DAEMON_PID
  KILLED_AT=$(date +%s%N)
  {
    kill -KILL "$victim"
    wait_pid_gone "$victim" 10
    wait "$victim" || true
  } 2>/dev/null
}

# remount MODE: drops the dead mount and mounts the data directory again.
remount() {
  fusermount3 -u -z "$MNT" || die "fusermount3 -u -z $MNT failed after kill -9"
  mount_fs "$DATA" "$MNT" "commit=$1"
}

field() { sed -n "s/.*\\b$2=\\([^ ]*\\).*/\\1/p" <<<"$1"; }

step "setup: keyspace bk, tables a and b"
mount_fs "$DATA" "$MNT" "commit=$(commit_of 0)"
cql "CREATE KEYSPACE bk WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE bk.a (id int, k int, v text, PRIMARY KEY (id, k));
CREATE TABLE bk.b (id int PRIMARY KEY, total int, note text)"

START=$SECONDS
LOGS=()
declare -A IN_FLIGHT=()
for ((r = 0; r < ROUNDS; r++)); do
  RANDOM=$(seed_of "$r")
  delay=$((50 + RANDOM % 751))
  kind=$(kind_of "$r")
  step "round $((r + 1))/$ROUNDS: $kind batches, commit=$(commit_of "$r"), kill -9 after $delay ms"
  log=$WORK/writer.$r.log
  LOGS+=("$log")
  python3 "$HELPER" write "$MNT" "$log" $(((r + 1) * 1000000)) "$kind" &
  writer=$!
  wait_started "$log" "$writer"
  sleep "$(printf '0.%03d' "$delay")"
  kill_daemon
  wait_writer "$writer"
  ! grep -q '^X ' "$log" || fail "round $r: a batch was not acknowledged as expected: $(grep -m1 '^X ' "$log")"
  # The writer must have been stopped by the kill, not by an error of its own.
  read -r _ name when < <(grep '^E ' "$log") ||
    die "round $r: the writer ended without an error: $(tail -n 2 "$log")"
  ((when >= KILLED_AT)) ||
    fail "round $r: the writer failed with $name $(((KILLED_AT - when) / 1000)) us before the kill"
  remount "$(commit_of $((r + 1)))"
  rc=0
  counts=$(python3 "$HELPER" check "$MNT" "${LOGS[@]}") || rc=$?
  echo "    $counts (writer stopped by $name)"
  [[ $rc -eq 0 ]] || fail "round $((r + 1)): a batch is torn, lost or wrong after the remount (above)"
  flight=$(field "$counts" in_flight)
  IN_FLIGHT[$flight]=$((${IN_FLIGHT[$flight]:-0} + 1))
done

step "the store takes new batches after the last remount"
python3 - "$MNT" <<'PY' || fail "a batch after the last remount"
import os, sys
fd = os.open(os.path.join(sys.argv[1], "@cql"), os.O_RDWR)
os.write(fd, b"BEGIN BATCH INSERT INTO bk.b (id, total, note) VALUES (0, 0, 'after'); APPLY BATCH;")
out = os.pread(fd, 4096, 0).decode()
os.close(fd)
sys.exit(out != "OK BATCH (1 statement)\n")
PY
expect_eq "the batch after the last remount" "after" "$(cat "$MNT/bk/b/0/note")"
unmount_fs

ELAPSED=$((SECONDS - START))
step "figures"
echo "batch kill -9: $ROUNDS rounds in ${ELAPSED} s: $(field "$counts" sent) batches sent," \
  "$(field "$counts" acked) acknowledged, $(field "$counts" complete) found complete," \
  "$(field "$counts" absent) absent, $(field "$counts" partial) partial," \
  "$(field "$counts" lost) acknowledged lost"
echo "batch kill -9: the batch in flight at the kill: ${IN_FLIGHT[applied]:-0} stored whole," \
  "${IN_FLIGHT[absent]:-0} absent, ${IN_FLIGHT[partial]:-0} partial, ${IN_FLIGHT[none]:-0} none"

if grep -q -e "Sanitizer" -e "runtime error:" "$LOG"; then
  fail "a daemon reported a sanitizer error: $(grep -m 3 -e "Sanitizer" -e "runtime error:" "$LOG")"
fi
echo "PASS $SCENARIO"
