#!/usr/bin/env bash
# Scenario: failures under mounts of one RADOS pool, on a throw-away cluster
# of this test's own (tools/ceph-test-cluster.sh in $WORK: 1 monitor, 3
# memstore OSDs, pool `cellfs` of 3 replicas, 2 needed to write), since it
# kills and stops daemons.
# 1. An OSD killed with -9 while a mount writes 300 cells: the writes go on
#    (after a stall while the monitor marks it down), and every acknowledged
#    write reads back through that mount and through a fresh one.
# 2. A mount's daemon killed with -9 during a bulk @insert: the other mount
#    goes on reading and writing, the dead mount detaches with
#    `fusermount3 -u -z`, a new mount of the pool works, and every write the
#    other mount acknowledged is there.
# 3. Every OSD stopped (SIGSTOP: memstore keeps its data): through a mount
#    whose client times out after 5 s, a read, a write refused at its
#    lookup and a write refused at its commit (the close) fail with EIO
#    within the timeout plus slack, never hang, and are named in @errors;
#    the daemon lives on. Once the OSDs continue, the same read and new
#    writes (also of the cell whose commit failed) succeed.
# A write counts as acknowledged when its write and its close both
# succeeded (dd checks the close, where cellfs stores the value; a shell
# redirection does not).
source "$(dirname "$0")/lib.sh" "$1"
source "$(dirname "$0")/rados_lib.sh"
export LC_ALL=C

for tool in ceph ceph-mon ceph-osd rados; do   # tools/install-deps.sh
  command -v "$tool" >/dev/null || die "$tool is not installed"
done
CLUSTER_SH=$(realpath "$(dirname "$0")/../../tools/ceph-test-cluster.sh")
CLUSTER=$WORK/ceph

declare -a HELPERS=()   # background writers and inserts of this test

# Runs before lib.sh's _cleanup, which then finds nothing left to do but its
# report and removing $WORK: stopped OSDs continue (so that daemons can
# close their stores and the cluster can stop), the mounts go (lazily: a
# stalled daemon could hang a clean unmount), then their daemons, then the
# cluster.
_failures_cleanup() {
  local rc=$?
  set +e
  local f p
  for p in "${HELPERS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  for f in "$CLUSTER"/run/osd.*.pid; do
    [[ -f $f ]] && kill -CONT "$(cat "$f")" 2>/dev/null
  done
  detach_mounts_and_daemons
  if [[ $rc -ne 0 && -f $CLUSTER/log/cluster.log ]]; then
    echo "--- [$SCENARIO] cluster log (last 15 lines):" >&2
    tail -n 15 "$CLUSTER/log/cluster.log" >&2
  fi
  if [[ -d $CLUSTER ]] && ! timeout 120 bash "$CLUSTER_SH" stop "$CLUSTER" >&2; then
    echo "FAIL [$SCENARIO]: stopping the cluster in $CLUSTER failed" >&2
    rc=1
  fi
  (exit "$rc")
  _cleanup
}
trap _failures_cleanup EXIT

step "a cluster of our own"
CONF=$(bash "$CLUSTER_SH" start "$CLUSTER" | tail -n 1) || die "the test cluster did not start"
[[ -r $CONF ]] || die "the test cluster printed no ceph.conf: $(_show "$CONF")"
# The same cluster, with clients that give up after 5 s rather than 30.
SHORT_CONF=$WORK/short.conf
sed -e 's/^rados osd op timeout = .*/rados osd op timeout = 5/' \
  -e 's/^rados mon op timeout = .*/rados mon op timeout = 5/' "$CONF" >"$SHORT_CONF"
expect_eq "the short conf's timeouts" "rados mon op timeout = 5
rados osd op timeout = 5" "$(grep '^rados .* op timeout' "$SHORT_CONF" | sort)"

NS=fail-$$-$RANDOM
STORE="rados:cellfs?conf=$CONF&ns=$NS"
SHORT_STORE="rados:cellfs?conf=$SHORT_CONF&ns=$NS"
A=$WORK/a
B=$WORK/b
C=$WORK/c
mkdir "$A" "$B" "$C"

# --- helpers ----------------------------------------------------------------

# Microseconds since the epoch; us_to_s US prints them as seconds.
now_us() { echo "${EPOCHREALTIME/./}"; }
us_to_s() { printf '%d.%03d' $(($1 / 1000000)) $((($1 / 1000) % 1000)); }

# writer DIR PREFIX COUNT OUT: writes cell DIR/PREFIXi/v = vi for i in
# 1..COUNT, one after another, appending "i ok|fail MICROSECONDS" to OUT.
writer() {
  local dir=$1 prefix=$2 count=$3 out=$4 i t0 r
  for i in $(seq "$count"); do
    t0=$(now_us)
    if timeout -k 5 60 mkdir -p "$dir/$prefix$i" 2>/dev/null && wr "$dir/$prefix$i/v" "v$i" 2>/dev/null; then
      r=ok
    else
      r=fail
    fi
    echo "$i $r $(($(now_us) - t0))" >>"$out"
  done
}

# check_acked WHAT DIR PREFIX OUT: every write OUT records as acknowledged
# reads back through DIR.
check_acked() {
  local what=$1 dir=$2 prefix=$3 out=$4 i r us got bad=0
  while read -r i r us; do
    [[ $r == ok ]] || continue
    got=$(rd "$dir/$prefix$i/v" 2>&1) || true
    if [[ $got != "v$i" ]]; then
      fail "$what: acknowledged $prefix$i/v = v$i reads $(_show "$got")"
      bad=$((bad + 1))
    fi
  done <"$out"
  ((bad == 0))
}

# The OSD pids alive in the cluster's run directory.
live_osd_pids() {
  local f
  for f in "$CLUSTER"/run/osd.*.pid; do
    [[ -f $f ]] && alive "$(cat "$f")" && cat "$f"
  done
  return 0
}

# --- the schema ---------------------------------------------------------------

step "a mount, a keyspace and a table"
mount_fs "$STORE" "$A"
PID_A=$DAEMON_PID
"$CELLFS" cql "$A" -e "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}; CREATE TABLE ks.kv (k text PRIMARY KEY, v text)" >/dev/null ||
  die "creating ks.kv failed"
expect_eq "3 OSDs up" 3 "$(osds_up)"

# --- 1. an OSD killed mid-write ------------------------------------------------

step "1. an OSD killed with -9 while 300 cells are written"
W1=$WORK/writes1
: >"$W1"
writer "$A/ks/kv" k 300 "$W1" &
WRITER=$!
HELPERS+=("$WRITER")
wait_lines "$W1" 50 60
alive "$WRITER" || die "the writer finished before the OSD was killed"
OSD_PID=$(cat "$CLUSTER/run/osd.1.pid")
killed_at=$(now_us)
kill -KILL "$OSD_PID"
# Its pid file goes, so that nothing (the cluster's stop, this test's
# cleanup) signals a pid the system may hand out again.
rm -f "$CLUSTER/run/osd.1.pid"
written_at_kill=$(wc -l <"$W1")
down_us=""
for _ in $(seq 120); do
  if [[ $(osds_up) == 2 ]]; then down_us=$(($(now_us) - killed_at)); break; fi
  sleep 0.5
done
[[ -n $down_us ]] || fail "the monitor did not mark the killed OSD down within 60 s"
wait "$WRITER" || true
acked1=$(grep -c ' ok ' "$W1" || true)
longest1=$(sort -k3 -n "$W1" | tail -n 1)
echo "    osd.1 killed after $written_at_kill writes; marked down after $(us_to_s "${down_us:-0}") s;" \
  "$acked1 of 300 writes acknowledged; the longest: k${longest1%% *}, $(us_to_s "${longest1##* }") s"
expect_eq "every write acknowledged (2 OSDs left, 2 needed)" 300 "$acked1"
check_acked "read back through the same mount" "$A/ks/kv" k "$W1"
mount_fs "$STORE" "$B"
PID_B=$DAEMON_PID
check_acked "read back through a fresh mount" "$B/ks/kv" k "$W1"

# --- 2. a mount's daemon killed mid-insert -------------------------------------

step "2. a mount's daemon killed with -9 during a bulk @insert"
python3 -c '
print("k,v")
for i in range(20000):
    print("i%d,x%d" % (i, i))' >"$WORK/rows.csv"
W2=$WORK/writes2
: >"$W2"
writer "$B/ks/kv" b 200 "$W2" &
WRITER=$!
HELPERS+=("$WRITER")
wait_lines "$W2" 20 60
timeout -k 5 120 cat "$WORK/rows.csv" >"$A/ks/kv/@insert" 2>"$WORK/insert.err" &
INSERT=$!
HELPERS+=("$INSERT")
sleep 0.5
alive "$INSERT" || die "the @insert ended before its daemon was killed (too fast: make it bigger)"
kill -KILL "$PID_A"
echo "    the other mount's writer had written $(wc -l <"$W2") of 200 cells at the kill"
wait "$PID_A" 2>/dev/null || true
insert_rc=0
wait "$INSERT" || insert_rc=$?
echo "    the insert's cat exited $insert_rc: $(tr '\n' ' ' <"$WORK/insert.err")"
expect_ok "the dead mount detaches lazily" fusermount3 -u -z "$A"
! mountpoint -q "$A" || fail "$A still mounted after fusermount3 -u -z"
wait "$WRITER" || true
acked2=$(grep -c ' ok ' "$W2" || true)
expect_eq "the other mount acknowledged every write" 200 "$acked2"
check_acked "the other mount's writes, read through it" "$B/ks/kv" b "$W2"
check_acked "the first case's writes, read through the other mount" "$B/ks/kv" k "$W1"
expect_ok "the other mount writes after the kill" wr "$B/ks/kv/k1/v" after
expect_eq "and reads it" "after" "$(rd "$B/ks/kv/k1/v")"
echo "    rows of the killed insert seen through the other mount: $(find "$B/ks/kv" -maxdepth 1 -name 'i*' | wc -l) of 20000"
mount_fs "$STORE" "$A"
PID_A=$DAEMON_PID
expect_eq "a new mount of the pool reads the other mount's write" "after" "$(rd "$A/ks/kv/k1/v")"
check_acked "the other mount's writes, read through the new mount" "$A/ks/kv" b "$W2"
expect_ok "the new mount writes" bash -c "mkdir '$A/ks/kv/new' && printf 'fresh\n' | dd of='$A/ks/kv/new/v' status=none"
expect_eq "the other mount reads it" "fresh" "$(rd "$B/ks/kv/new/v")"

# --- 3. the cluster down --------------------------------------------------------

step "3. every OSD stopped, under a mount whose client times out after 5 s"
mount_fs "$SHORT_STORE" "$C"
PID_C=$DAEMON_PID
# Cells this mount never looked up, written through another, so that
# reading them must ask the cluster.
for i in 1 2 3; do
  expect_ok "writing d$i through B" bash -c "mkdir '$B/ks/kv/d$i' && printf 'd$i\n' | dd of='$B/ks/kv/d$i/v' status=none"
done
expect_eq "C reads a cell" "v2" "$(rd "$C/ks/kv/k2/v")"
# A file opened for writing now and written once the cluster is down: its
# close commits the value.
cat >"$WORK/held_write.py" <<'PY'
import os, sys, time
path, go, out = sys.argv[1:4]
fd = os.open(path, os.O_WRONLY)
with open(out, "w") as f:
    f.write("open\n")
while not os.path.exists(go):
    time.sleep(0.02)
start = time.monotonic()
try:
    os.write(fd, b"late\n")
    os.close(fd)
    result = "ok"
except OSError as e:
    result = "error " + e.strerror
with open(out, "a") as f:
    f.write("%s\n%d\n" % (result, (time.monotonic() - start) * 1e6))
PY
python3 "$WORK/held_write.py" "$C/ks/kv/k3/v" "$WORK/go" "$WORK/held.out" &
HELD=$!
HELPERS+=("$HELD")
wait_lines "$WORK/held.out" 1 20

read -r -a OSDS <<<"$(live_osd_pids | tr '\n' ' ')"
expect_eq "2 OSDs left to stop" 2 "${#OSDS[@]}"
kill -STOP "${OSDS[@]}"
stopped_at=$(now_us)

# timed WHAT CMD...: runs CMD, which must fail with "Input/output error"
# within 20 s (a 5 s client timeout, and the kernel may ask twice).
timed_eio() {
  local what=$1 t0 us rc=0 err
  shift
  t0=$(now_us)
  err=$("$@" 2>&1 >/dev/null) || rc=$?
  us=$(($(now_us) - t0))
  echo "    $what: exit $rc after $(us_to_s "$us") s: $err"
  [[ $rc -ne 0 ]] || fail "$what: succeeded with the cluster down"
  [[ $err == *"Input/output error"* ]] || fail "$what: not EIO: $(_show "$err")"
  ((us < 20000000)) || fail "$what: took $(us_to_s "$us") s, over 20 s"
}
timed_eio "a read of a cell never read here" rd "$C/ks/kv/d1/v"
timed_eio "a write of a cell never looked up here" wr "$C/ks/kv/d2/v" lost
touch "$WORK/go"
wait "$HELD" || true
held=$(sed -n 2p "$WORK/held.out")
held_us=$(sed -n 3p "$WORK/held.out")
echo "    a write opened before the outage, committed at its close: $held after $(us_to_s "${held_us:-0}") s"
expect_eq "the commit at close fails" "error Input/output error" "$held"
((${held_us:-0} < 20000000)) || fail "the commit at close took $(us_to_s "$held_us") s, over 20 s"
# The kernel's entry for it has expired by now (1 s), so this asks the
# cluster too: success (from a cache) or EIO, but never a hang.
t0=$(now_us)
cached=$(rd "$C/ks/kv/k2/v" 2>&1) || true
us=$(($(now_us) - t0))
echo "    a read of the cell read just before the outage, after $(us_to_s "$us") s: $(_show "$cached")"
((us < 20000000)) || fail "a read of a cell read before the outage took $(us_to_s "$us") s, over 20 s"
[[ $cached == v2 || $cached == *"Input/output error"* ]] ||
  fail "a read of a cell read before the outage: neither its value nor EIO: $(_show "$cached")"
alive "$PID_C" || fail "the daemon died with the cluster down"
mountpoint -q "$C" || fail "$C is no longer mounted with the cluster down"
ERRORS=$(rd "$C/@errors")
echo "    @errors:"
sed 's/^/      /' <<<"$ERRORS"
expect_match "@errors names the failed read" "lookup ks/kv/d1: EIO \(Input/output error\): " "$ERRORS"
expect_match "@errors names the failed write's lookup" "lookup ks/kv/d2: EIO \(Input/output error\): " "$ERRORS"
expect_match "@errors names the failed commit" "close ks/kv/k3/v: EIO \(Input/output error\): " "$ERRORS"

step "3. the OSDs continue: the mount recovers"
kill -CONT "${OSDS[@]}"
resumed_at=$(now_us)
echo "    the OSDs were stopped for $(us_to_s $((resumed_at - stopped_at))) s"
recovered_us=""
for _ in $(seq 150); do
  if [[ $(rd "$C/ks/kv/d1/v" 2>/dev/null) == d1 ]]; then
    recovered_us=$(($(now_us) - resumed_at))
    break
  fi
  sleep 0.2
done
[[ -n $recovered_us ]] || die "the read still fails 30 s after the OSDs continued"
echo "    the same read succeeds $(us_to_s "$recovered_us") s after the OSDs continued"
written_us=""
for _ in $(seq 150); do
  if wr "$C/ks/kv/k3/v" again 2>/dev/null; then
    written_us=$(($(now_us) - resumed_at))
    break
  fi
  sleep 0.2
done
[[ -n $written_us ]] || die "a write of the cell whose commit failed still fails 30 s after the OSDs continued: $(tail -n 1 "$C/@errors")"
echo "    a write of the cell whose commit failed succeeds $(us_to_s "$written_us") s after the OSDs continued"
expect_ok "a new write" bash -c "mkdir '$C/ks/kv/d9' && printf 'd9\n' | dd of='$C/ks/kv/d9/v' status=none"
expect_eq "the other mount reads the new write" "d9" "$(rd "$B/ks/kv/d9/v")"
expect_eq "and the rewritten cell" "again" "$(rd "$B/ks/kv/k3/v")"
expect_eq "the write refused at its lookup left d2 as it was" "d2" "$(rd "$B/ks/kv/d2/v")"
expect_ok "the other mount writes" bash -c "mkdir '$B/ks/kv/d8' && printf 'd8\n' | dd of='$B/ks/kv/d8/v' status=none"
expect_eq "C reads it" "d8" "$(rd "$C/ks/kv/d8/v")"

step "every mount unmounts cleanly"
unmount_fs "$C" "$PID_C"
unmount_fs "$A" "$PID_A"
unmount_fs "$B" "$PID_B"
