#!/usr/bin/env bash
# Scenario: two mounts of one RADOS pool (the test cluster of CTest's `ceph`
# fixture, CEPH_CONF) on this host, each its own daemon. A keyspace and table
# made on one appear on the other; a cell written through one reads back
# through the other at once on a fresh open; writers of one cell on both
# resolve by last-write-wins; a delete and a DROP on one are seen on the
# other; a mount whose daemon is killed with -9 leaves the other working,
# and every acknowledged write is found afterwards.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C
[[ -n ${CEPH_CONF:-} && -r $CEPH_CONF ]] || die "CEPH_CONF must name the test cluster's ceph.conf"

STORE="rados:cellfs?conf=$CEPH_CONF&ns=it-$$-$RANDOM"
A=$WORK/a
B=$WORK/b
mkdir "$A" "$B"

step "two mounts of one pool, each its own daemon"
mount_fs "$STORE" "$A"
PID_A=$DAEMON_PID
mount_fs "$STORE" "$B"
PID_B=$DAEMON_PID
expect_eq "the mount's source is the spelling" "$STORE" "$(findmnt -n -o SOURCE "$A")"

step "DDL on one mount appears on the other"
"$CELLFS" cql "$A" -e "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"
"$CELLFS" cql "$A" -e "CREATE TABLE ks.kv (k text PRIMARY KEY, v text, n int)"
eventually 5 "table ks.kv seen through the other mount" "[[ -d '$B/ks/kv' ]]"
expect_contains "its schema" "v text" "$(cat "$B/ks/kv/@schema")"

step "a write through one mount reads back through the other on a fresh open"
mkdir "$A/ks/kv/one"
echo first > "$A/ks/kv/one/v"
expect_eq "read through B" "first" "$(cat "$B/ks/kv/one/v")"
echo 7 > "$B/ks/kv/one/n"
expect_eq "read through A" "7" "$(cat "$A/ks/kv/one/n")"
printf 'k,v\ntwo,2\nthree,3\n' > "$A/ks/kv/@insert"
expect_eq "a bulk insert listed through B" "one three two" "$(ls "$B/ks/kv" | grep -v '^@' | sort | tr '\n' ' ' | sed 's/ $//')"

step "writers of one cell on both mounts resolve by last-write-wins"
for i in $(seq 20); do
  echo "a$i" > "$A/ks/kv/one/v"
  echo "b$i" > "$B/ks/kv/one/v"
done
expect_eq "the last write, read through A" "b20" "$(cat "$A/ks/kv/one/v")"
expect_eq "the last write, read through B" "b20" "$(cat "$B/ks/kv/one/v")"
# Concurrent: both finish; every read agrees on one of the two last values.
( for i in $(seq 50); do echo "x$i" > "$A/ks/kv/one/v"; done ) &
writer_a=$!
( for i in $(seq 50); do echo "y$i" > "$B/ks/kv/one/v"; done ) &
writer_b=$!
wait "$writer_a" "$writer_b"
va=$(cat "$A/ks/kv/one/v")
vb=$(cat "$B/ks/kv/one/v")
expect_eq "both mounts agree" "$va" "$vb"
expect_match "the winner is one of the last writes" "^(x50|y50)$" "$va"

step "a delete on one mount is seen on the other"
rm "$B/ks/kv/two/v"
rmdir "$B/ks/kv/two" 2>/dev/null || true
"$CELLFS" cql "$B" -e "DELETE FROM ks.kv WHERE k = 'three'"
eventually 3 "row three gone through A" "[[ ! -e '$A/ks/kv/three' ]]"
expect_eq "row two's cell gone through A" "" "$(cat "$A/ks/kv/two/v" 2>/dev/null || true)"

step "a mount killed with -9 leaves the other working; acknowledged writes stay"
for i in $(seq 30); do mkdir -p "$A/ks/kv/k$i"; echo "v$i" > "$A/ks/kv/k$i/v"; done
kill -9 "$PID_A"
wait "$PID_A" 2>/dev/null || true
fusermount3 -u -z "$A"
for i in $(seq 30); do
  [[ $(cat "$B/ks/kv/k$i/v") == "v$i" ]] || fail "k$i written through the killed mount: $(cat "$B/ks/kv/k$i/v" 2>&1)"
done
echo after > "$B/ks/kv/one/v"
expect_eq "B still writes" "after" "$(cat "$B/ks/kv/one/v")"

step "a new mount joins, and DROP on it is seen on the other"
mount_fs "$STORE" "$A"
expect_eq "the new mount reads B's write" "after" "$(cat "$A/ks/kv/one/v")"
"$CELLFS" cql "$A" -e "DROP TABLE ks.kv"
eventually 5 "table ks.kv gone through B" "[[ ! -e '$B/ks/kv' ]]"
unmount_fs "$A"
unmount_fs "$B" "$PID_B"
