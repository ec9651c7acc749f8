#!/usr/bin/env bash
# Scenario: what close() acknowledged for a truncation alone is stored when
# close returns. Rounds in batch commit mode: cells get values, then
# `: > cell` and `touch newcell` (no write follows), and the daemon is
# killed with SIGKILL right after the last close returned; after a remount
# every such truncation is there (an empty cell, an empty new cell). Then,
# on one mount, `: > c` read back at once must be empty and `touch n; cat n`
# must find n. Prints its figures. CELLFS_TRUNCATE_ROUNDS=N changes the
# number of kill -9 rounds (default 30).
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

ROUNDS=${CELLFS_TRUNCATE_ROUNDS:-30}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "CELLFS_TRUNCATE_ROUNDS must be a positive number, not $ROUNDS"
PER_ROUND=4     # cells truncated, and cells touched, per round
ITERATIONS=500  # of each read-back loop
T=$MNT/tk/kv

# Kills the daemon with SIGKILL and reaps it quietly (bash would report "Killed").
kill_daemon() {
  local victim=$DAEMON_PID
  {
    kill -KILL "$victim"
    wait_pid_gone "$victim" 10
    wait "$victim" || true
  } 2>/dev/null
}

remount() {
  fusermount3 -u -z "$MNT" || die "fusermount3 -u -z $MNT failed after kill -9"
  mount_fs "$DATA" "$MNT" "commit=batch"
}

step "setup: a table of text and blob cells, commit=batch"
mount_fs "$DATA" "$MNT" "commit=batch"
mkdir "$MNT/tk"
cql "CREATE TABLE tk.kv (k text PRIMARY KEY, v text, b blob)"

START=$SECONDS
CHECKED=0 CHECKED_TRUNC=0 CHECKED_TOUCH=0 LOST=0 LOST_TRUNC=0 LOST_TOUCH=0
for ((r = 0; r < ROUNDS; r++)); do
  # Values first, each acknowledged by its close; then the truncations,
  # logged once their close returned, and the kill right after the last.
  for ((i = 0; i < PER_ROUND; i++)); do
    mkdir "$T/r$r-$i"
    echo "value $r $i" >"$T/r$r-$i/v"
  done
  # Odd rounds end with a touch, even ones with `: >`: the kill follows
  # the last close at once.
  acked=()
  for ((i = 0; i < PER_ROUND; i++)); do
    if ((r % 2)); then : >"$T/r$r-$i/v" && acked+=("trunc r$r-$i/v"); fi
    touch "$T/r$r-$i/b" && acked+=("touch r$r-$i/b")
    if ((r % 2 == 0)); then : >"$T/r$r-$i/v" && acked+=("trunc r$r-$i/v"); fi
  done
  kill_daemon
  remount
  for entry in "${acked[@]}"; do
    read -r kind cell <<<"$entry"
    CHECKED=$((CHECKED + 1))
    if [[ $kind == trunc ]]; then
      CHECKED_TRUNC=$((CHECKED_TRUNC + 1))
      # The empty text reads as one newline.
      got=$(od -An -c <"$T/$cell" 2>&1 | tr -s ' ' || true)
      if [[ $got != " \\n" ]]; then
        LOST=$((LOST + 1)) LOST_TRUNC=$((LOST_TRUNC + 1))
        echo "    round $r: \`: > $cell\` acknowledged, then read back as $(_show "$got")"
      fi
    else
      CHECKED_TOUCH=$((CHECKED_TOUCH + 1))
      size=$(stat -c %s "$T/$cell" 2>&1 || true)
      if [[ $size != 0 ]]; then
        LOST=$((LOST + 1)) LOST_TOUCH=$((LOST_TOUCH + 1))
        echo "    round $r: \`touch $cell\` acknowledged, then: $(_show "$size")"
      fi
    fi
  done
done
KILL_SECONDS=$((SECONDS - START))
[[ $LOST -eq 0 ]] || fail "$LOST of $CHECKED acknowledged truncations were lost by a kill -9 (above)"

step "$ITERATIONS x \`echo old > c; : > c\` read back at once; $ITERATIONS x \`touch n; cat n\`"
mkdir "$T/loop"
OLD_SEEN=0 MISSING=0
for ((i = 0; i < ITERATIONS; i++)); do
  echo old >"$T/loop/v"
  : >"$T/loop/v"
  [[ -z $(cat "$T/loop/v") ]] || OLD_SEEN=$((OLD_SEEN + 1))
done
for ((i = 0; i < ITERATIONS; i++)); do
  mkdir "$T/n$i"
  touch "$T/n$i/v"
  cat "$T/n$i/v" >/dev/null 2>>"$WORK/cat.err" || MISSING=$((MISSING + 1))
done
expect_eq "\`: > c\` then cat: reads that saw the old value" 0 "$OLD_SEEN"
expect_eq "\`touch n\` then cat n: reads that failed ($(head -c 300 "$WORK/cat.err"))" 0 "$MISSING"

step "a clean unmount"
unmount_fs

if grep -q -e "Sanitizer" -e "runtime error:" "$LOG"; then
  fail "a daemon reported a sanitizer error: $(grep -m 3 -e "Sanitizer" -e "runtime error:" "$LOG")"
fi

step "figures"
echo "truncate kill -9: $ROUNDS rounds (commit=batch) in ${KILL_SECONDS} s," \
  "$CHECKED acknowledged truncations checked ($CHECKED_TRUNC \`: > cell\`," \
  "$CHECKED_TOUCH \`touch newcell\`), $LOST lost ($LOST_TRUNC, $LOST_TOUCH)"
echo "truncate read-back: $ITERATIONS \`: > c\` then cat, $OLD_SEEN saw the old value;" \
  "$ITERATIONS \`touch n\` then cat, $MISSING failed"
