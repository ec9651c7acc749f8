#!/usr/bin/env bash
# Scenario: many processes on the same partitions at once. Writers create
# rows, overwrite cells, add to shared counters and overwrite shared cells
# with self-checking values of 10 B to 200 KiB; a bulk loader streams
# @insert batches and row @json writes; readers cat the shared cells and
# list the partitions. No acknowledged update may be lost, no read torn, no
# listing miss an acknowledged row or break clustering order, and nothing
# may hang (a hang dumps the daemon's threads). The workers are
# tests/integration/concurrency_worker.py.
#
# CELLFS_CONCURRENCY_SECONDS (default 25), _WRITERS (8), _READERS (4) size
# the run; a worker still busy _GRACE (90) s after it counts as hung.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

WORKER=$(dirname "$(realpath "$0")")/concurrency_worker.py
SECONDS_RUN=${CELLFS_CONCURRENCY_SECONDS:-25}
WRITERS=${CELLFS_CONCURRENCY_WRITERS:-8}
READERS=${CELLFS_CONCURRENCY_READERS:-4}
# Time for the last operations of slow (sanitizer) builds.
GRACE=${CELLFS_CONCURRENCY_GRACE:-90}
STATE=$WORK/state
mkdir "$STATE"

# The daemon's threads, into the test's output: where a hang is stuck.
dump_daemon_threads() {
  echo "--- [$SCENARIO] threads of the daemon (pid $DAEMON_PID):" >&2
  timeout 60 gdb -batch -nx -p "$DAEMON_PID" -ex 'thread apply all bt' 2>&1 |
    grep -v '^\[New LWP' >&2 || echo "(gdb failed)" >&2
}

# wait_workers DEADLINE PID...: waits for every PID; fails (after dumping
# the daemon's threads) when one is still running at DEADLINE (epoch s) or
# exited non-zero.
wait_workers() {
  local deadline=$1 pid rc
  shift
  for pid in "$@"; do
    while alive "$pid" && ((EPOCHSECONDS < deadline)); do sleep 0.5; done
    if alive "$pid"; then
      echo "--- [$SCENARIO] worker $pid still running $GRACE s after the run's end:" >&2
      ps -o pid,stat,wchan:30,args -p "$pid" >&2 || true
      dump_daemon_threads
      die "a worker hung (deadlock?)"
    fi
    rc=0
    wait "$pid" || rc=$?
    [[ $rc -eq 0 ]] || fail "worker $pid exited $rc"
  done
}

mount_fs
mkdir "$MNT/conc"
cql "CREATE TABLE conc.rows (p int, c int, v text, PRIMARY KEY (p, c))"
cql "CREATE TABLE conc.hits (p int PRIMARY KEY, n counter)"
cql "CREATE TABLE conc.torn (p int, c int, v text, b blob, PRIMARY KEY (p, c))"
python3 "$WORKER" setup "$MNT" || die "setting up the shared partitions failed"

step "$WRITERS writers, a bulk loader and $READERS readers for $SECONDS_RUN s"
declare -a workers=()
for i in $(seq 0 $((WRITERS - 1))); do
  python3 "$WORKER" writer "$i" "$MNT" "$STATE" "$SECONDS_RUN" &
  workers+=($!)
done
python3 "$WORKER" bulk "$WRITERS" "$MNT" "$STATE" "$SECONDS_RUN" &
workers+=($!)
for i in $(seq 0 $((READERS - 1))); do
  python3 "$WORKER" reader "$i" "$MNT" "$STATE" "$SECONDS_RUN" &
  workers+=($!)
done
_PIDS+=("${workers[@]}")   # the EXIT trap ends them if the test dies
started=$EPOCHSECONDS
wait_workers $((started + SECONDS_RUN + GRACE)) "${workers[@]}"
step "the workers finished in $((EPOCHSECONDS - started)) s"

step "every acknowledged update is there; listings hold exactly the rows made"
RC=0
timeout 300 python3 "$WORKER" verify "$MNT" "$STATE" "$SECONDS_RUN" || RC=$?
[[ $RC -eq 0 ]] || fail "lost updates, torn values, inconsistent listings or errors (exit $RC)"

step "the same after a clean unmount and a new mount"
unmount_fs
mount_fs
RC=0
timeout 300 python3 "$WORKER" verify "$MNT" "$STATE" "$SECONDS_RUN" "after remount" || RC=$?
[[ $RC -eq 0 ]] || fail "lost updates or inconsistent listings after remount (exit $RC)"
unmount_fs
