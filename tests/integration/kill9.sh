#!/usr/bin/env bash
# Scenario: kill -9 of the daemon at random points during scripted writes
# (cells, rm, @ttl=, row @json) and bulk loads (@insert, `cellfs load`), many
# rounds on one data directory: each remount opens the store, every
# acknowledged write is there, the write in flight is whole or absent.
# Prints the figures docs/RELIABILITY.md quotes. CELLFS_KILL9_ROUNDS=N
# changes the number of rounds (default 25: 15 scripted, 10 bulk).
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

HELPER=$(dirname "$(realpath "$0")")/kill9_writer.py
ROUNDS=${CELLFS_KILL9_ROUNDS:-25}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "CELLFS_KILL9_ROUNDS must be a positive number, not $ROUNDS"
STATE=$WORK/model.json    # the acknowledged writes so far (kill9_writer.py)
COMMIT_MODES=(periodic group batch)
T_BULK=$MNT/k9/bulk

# Round r's seed, kind and commit mode: fixed, so a failing run is rerun as is.
seed_of() { echo $((1009 + 7919 * $1)); }
is_bulk() { (($1 % 5 == 1 || $1 % 5 == 3)); }   # 2 rounds in 5
commit_of() { echo "${COMMIT_MODES[$(($1 % 3))]}"; }

# wait_started FILE PATTERN PID: waits up to 20 s until a line of FILE
# matches PATTERN (the writer is under way), so that the kill lands among
# the writes rather than during the writer's start on a busy machine.
wait_started() {
  local i
  for i in $(seq 200); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    alive "$3" || die "the writer (pid $3) ended before its first write: $(tail -n 3 "$1")"
    sleep 0.1
  done
  die "the writer (pid $3) made no progress in 20 s"
}

# Waits up to 30 s for background job PID (a writer whose daemon died) to end.
wait_writer() {
  local pid=$1 i
  for i in $(seq 300); do
    alive "$pid" || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  die "the writer (pid $pid) still runs 30 s after its daemon was killed: a hang"
}

# Kills the daemon with SIGKILL and reaps it (quietly: bash would report
# "Killed"); KILLED_AT is when, in ns.
kill_daemon() {
  local victim=$DAEMON_PID
  KILLED_AT=$(date +%s%N)
  {
    kill -KILL "$victim"
    wait_pid_gone "$victim" 10
    wait "$victim" || true
  } 2>/dev/null
}

# remount MODE: drops the dead mount and mounts the data directory again with
# commit mode MODE: the store must open (mount_fs fails the test otherwise).
remount() {
  fusermount3 -u -z "$MNT" || die "fusermount3 -u -z $MNT failed after kill -9"
  mount_fs "$DATA" "$MNT" "commit=$1"
}

# counts_field LINE NAME: the value of NAME=... in a check's count line.
counts_field() { sed -n "s/.*\\b$2=\\([^ ]*\\).*/\\1/p" <<<"$1"; }

SCRIPTED_ROUNDS=0 BULK_ROUNDS=0 ACKED_OPS=0 ACKED_CHUNKS=0 ACKED_ROWS=0 LOST=0 TORN=0
INFLIGHT_APPLIED=0 INFLIGHT_ABSENT=0 INFLIGHT_PARTIAL=0 INFLIGHT_NONE=0

# count_errno NAME: how the writers learnt of the kill, for the figures.
declare -A ERRNOS=()
count_errno() { ERRNOS[$1]=$((${ERRNOS[$1]:-0} + 1)); }

# tally KIND COUNTS: adds a check's counts to the totals.
tally() {
  local in_flight
  LOST=$((LOST + $(counts_field "$2" lost)))
  TORN=$((TORN + $(counts_field "$2" torn)))
  in_flight=$(counts_field "$2" in_flight)
  case $in_flight in
    applied*) INFLIGHT_APPLIED=$((INFLIGHT_APPLIED + 1)) ;;
    absent*) INFLIGHT_ABSENT=$((INFLIGHT_ABSENT + 1)) ;;
    partial*) INFLIGHT_PARTIAL=$((INFLIGHT_PARTIAL + 1)) ;;
    *) INFLIGHT_NONE=$((INFLIGHT_NONE + 1)) ;;
  esac
  if [[ $1 == scripted ]]; then
    ACKED_OPS=$((ACKED_OPS + $(counts_field "$2" acked)))
  else
    ACKED_CHUNKS=$((ACKED_CHUNKS + $(counts_field "$2" acked_chunks)))
    ACKED_ROWS=$((ACKED_ROWS + $(counts_field "$2" acked_rows)))
  fi
}

# scripted_round R DELAY_MS: the writer runs until the daemon is killed.
scripted_round() {
  local r=$1 delay=$2 log=$WORK/writer.$1.log counts rc=0 writer
  python3 "$HELPER" write "$MNT" "$STATE" "$log" "$(seed_of "$r")" &
  writer=$!
  wait_started "$log" '^A' "$writer"
  sleep "$(printf '0.%03d' "$delay")"
  kill_daemon
  wait_writer "$writer"
  remount "$(commit_of $((r + 1)))"
  counts=$(python3 "$HELPER" check "$MNT" "$STATE" "$log") || rc=$?
  echo "    $counts"
  tally scripted "$counts"
  [[ $rc -eq 0 ]] || fail "round $r: the remount lost or tore acknowledged writes (above)"
  # The writer must have been stopped by the kill, not by an error of its own.
  local name when
  read -r _ name when < <(grep '^E ' "$log") ||
    die "round $r: the writer ended without an error: $(tail -n 2 "$log" | cut -c1-300)"
  ((when >= KILLED_AT)) ||
    fail "round $r: the writer failed $(((KILLED_AT - when) / 1000)) us before the kill:" \
      "$(grep -B1 '^E ' "$log" | cut -c1-300)"
  count_errno "$name"
  SCRIPTED_ROUNDS=$((SCRIPTED_ROUNDS + 1))
}

# bulk_round R DELAY_MS: chunks go in one after another, through
# `cat > @insert` and `cellfs load`, until the daemon is killed; a chunk is
# acknowledged when its command exited 0.
bulk_round() {
  local r=$1 delay=$2 dir=$WORK/chunks.$1 acks=$WORK/acks.$1 errors=$WORK/load.$1.err
  local counts rc=0 loader
  mkdir "$dir"
  python3 "$HELPER" chunks "$dir" "$r" "$(seed_of "$r")" "$delay" >"$dir/list"
  : >"$acks"
  (
    set +e
    while read -r path chunk _; do
      echo "S $chunk" >>"$acks"
      if ((chunk % 3 == 2)); then
        "$CELLFS" load "$MNT" k9.bulk "$path" >/dev/null 2>>"$errors"
      else
        cat "$path" 2>>"$errors" >"$T_BULK/@insert"
      fi || { echo "F $(date +%s%N)" >>"$acks"; exit 0; }
      echo "A $chunk" >>"$acks"
    done <"$dir/list"
  ) &
  loader=$!
  wait_started "$acks" '^S' "$loader"
  sleep "$(printf '0.%03d' "$delay")"
  kill_daemon
  wait_writer "$loader"
  remount "$(commit_of $((r + 1)))"
  counts=$(python3 "$HELPER" bulk-check "$MNT" "$STATE" "$dir" "$r" "$acks") || rc=$?
  echo "    $counts"
  tally bulk "$counts"
  [[ $rc -eq 0 ]] || fail "round $r: the remount lost or tore acknowledged rows (above)"
  # The loader must have been stopped by the kill, not by an error of its own.
  local when
  when=$(sed -n 's/^F //p' "$acks")
  if [[ -z $when ]]; then
    echo "the loader ran out of chunks before the kill" >>"$WORK/ran_out"
  elif ((when < KILLED_AT)); then
    fail "round $r: a load failed $(((KILLED_AT - when) / 1000)) us before the kill:" \
      "$(cat "$errors")"
  else
    case $(sed -n '1s/.*: //p' "$errors") in
      "Software caused connection abort") count_errno ECONNABORTED ;;
      "Transport endpoint is not connected") count_errno ENOTCONN ;;
      "Input/output error") count_errno EIO ;;
      *) count_errno other ;;
    esac
  fi
  rm -rf "$dir"
  BULK_ROUNDS=$((BULK_ROUNDS + 1))
}

step "setup: a scripted table and a bulk table"
mount_fs "$DATA" "$MNT" "commit=$(commit_of 0)"
mkdir "$MNT/k9"
cql "CREATE TABLE k9.cells (p int, c int, v text, n bigint, PRIMARY KEY (p, c))"
cql "CREATE TABLE k9.bulk (p int, c int, a text, b bigint, d text, PRIMARY KEY (p, c))"

START=$SECONDS
for ((r = 0; r < ROUNDS; r++)); do
  RANDOM=$(seed_of "$r")
  delay=$((50 + RANDOM % 751))
  if is_bulk "$r"; then kind=bulk; else kind=scripted; fi
  step "round $((r + 1))/$ROUNDS: $kind, seed $(seed_of "$r"), commit=$(commit_of "$r")," \
    "kill -9 after $delay ms"
  t0=$(date +%s%N)
  "${kind}_round" "$r" "$delay"
  echo "    round time: $((($(date +%s%N) - t0) / 1000000)) ms"
done

step "a last kill -9 with nothing in flight; the store opens offline (read-only)"
kill_daemon
fusermount3 -u -z "$MNT" || die "fusermount3 -u -z $MNT failed"
for table in cells bulk; do
  rc=0
  "$CELLFS" dump --offline "$DATA" "k9.$table" >"$WORK/dump.jsonl" 2>"$WORK/dump.err" || rc=$?
  [[ $rc -eq 0 ]] || die "cellfs dump --offline of k9.$table exited $rc: $(cat "$WORK/dump.err")"
  counts=$(python3 "$HELPER" final "$STATE" "$table" <"$WORK/dump.jsonl") || rc=$?
  echo "    offline dump of k9.$table: $counts"
  [[ $rc -eq 0 ]] || fail "the offline dump of k9.$table differs from the acknowledged writes"
done
rm -f "$WORK/dump.jsonl"
rc=0
stats=$("$CELLFS" stats --offline "$DATA" k9.bulk 2>&1) || rc=$?
expect_eq "cellfs stats --offline exit code ($stats)" 0 "$rc"
expect_match "offline stats count the stored rows" "Rows: [1-9]" "$stats"
echo "    $(grep -m1 '^Partitions:' <<<"$stats")"

step "a last mount and a clean cellfs umount"
mount_fs "$DATA" "$MNT"
expect_ok "the scripted table lists after everything" ls "$MNT/k9/cells"
"$CELLFS" umount "$MNT" || fail "cellfs umount $MNT exited $?"
wait_pid_gone "$DAEMON_PID" 10
if [[ -e $WORK/ran_out ]]; then
  echo "    note: $(wc -l <"$WORK/ran_out") bulk rounds ran out of chunks before their kill"
fi

# Under ASan/UBSan a daemon's report lands in $LOG (SIGKILL leaves none).
if grep -q -e "Sanitizer" -e "runtime error:" "$LOG"; then
  fail "a daemon reported a sanitizer error: $(grep -m 3 -e "Sanitizer" -e "runtime error:" "$LOG")"
fi

ELAPSED=$((SECONDS - START))
step "figures"
echo "kill -9: $ROUNDS rounds ($SCRIPTED_ROUNDS scripted, $BULK_ROUNDS bulk) in ${ELAPSED} s," \
  "$((ACKED_OPS + ACKED_ROWS)) acknowledged writes checked, $LOST lost, $TORN torn"
echo "kill -9: scripted: $ACKED_OPS acknowledged operations (cells, rm, @ttl=, row @json, mkdir);" \
  "bulk: $ACKED_CHUNKS acknowledged chunks, $ACKED_ROWS rows"
echo "kill -9: the write in flight at the kill: $INFLIGHT_APPLIED stored whole," \
  "$INFLIGHT_ABSENT absent, $INFLIGHT_PARTIAL partly (whole batches of a multi-batch load)," \
  "$INFLIGHT_NONE none"
errors=""
for name in "${!ERRNOS[@]}"; do errors+="${errors:+, }$name ${ERRNOS[$name]}"; done
echo "kill -9: what the writers saw at the kill: $errors"
