#!/usr/bin/env bash
# Scenario: changes made behind the kernel's back show at once (issue 12).
# A cell changed through @insert shows its new size and mtime to the very
# next stat (rsync compares those); a table dropped and created again in one
# @cql write is reachable at once (ls, @insert, load); `cellfs sync` fsyncs
# a live mount and fails on anything else; an @insert line with no newline
# is bounded in memory; an exception in a handler fails that request only.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.t (p int, k int, v text, PRIMARY KEY (p, k))"
cql "CREATE TABLE ks.kv (k int PRIMARY KEY, v text)"

step "stat of a cell right after @insert changed it: new size and mtime"
mkdir -p "$MNT/ks/t/1/1"
echo short > "$MNT/ks/t/1/1/v"
before_size=$(stat -c %s "$MNT/ks/t/1/1/v")
before_mtime=$(stat -c %Y.%y "$MNT/ks/t/1/1/v")
expect_eq "size before" 6 "$before_size"
sleep 1.1   # an mtime one second on, whatever the clock's resolution
echo '{"p": 1, "k": 1, "v": "a much longer value"}' > "$MNT/ks/t/@insert"
expect_eq "size at once after @insert" 20 "$(stat -c %s "$MNT/ks/t/1/1/v")"
[[ $(stat -c %Y.%y "$MNT/ks/t/1/1/v") != "$before_mtime" ]] ||
  fail "mtime unchanged after @insert: $before_mtime"
expect_eq "content" "a much longer value" "$(cat "$MNT/ks/t/1/1/v")"

step "a cell deleted by a null in @insert is gone for the next stat"
mkdir -p "$MNT/ks/kv/7"
echo seven > "$MNT/ks/kv/7/v"
stat "$MNT/ks/kv/7/v" >/dev/null
printf 'k,v\n7,\n' > "$MNT/ks/kv/@insert"
expect_missing "deleted cell" "$MNT/ks/kv/7/v"

step "rsync sees a cell @insert changed (size and mtime)"
if command -v rsync >/dev/null; then
  mkdir -p "$WORK/copy"
  rsync -a "$MNT/ks/t/1/" "$WORK/copy/"
  sleep 1.1
  echo '{"p": 1, "k": 1, "v": "x"}' > "$MNT/ks/t/@insert"
  rsync -a "$MNT/ks/t/1/" "$WORK/copy/"
  expect_eq "rsync copy" x "$(cat "$WORK/copy/1/v")"
fi

step "DROP TABLE; CREATE TABLE in one @cql write: the new table at once"
mkdir -p "$MNT/ks/t/2/2"
echo old > "$MNT/ks/t/2/2/v"
ls "$MNT/ks/t" >/dev/null
cat "$MNT/ks/t/@schema" >/dev/null
printf 'DROP TABLE ks.t; CREATE TABLE ks.t (p int, k int, v text, PRIMARY KEY (p, k));' \
  > "$MNT/@cql"
expect_eq "ls of the new, empty table" "" "$(ls "$MNT/ks/t")"
expect_contains "@schema of the new table" "CREATE TABLE ks.t" "$(cat "$MNT/ks/t/@schema")"
expect_ok "@insert into the new table" \
  bash -c "echo '{\"p\": 3, \"k\": 3, \"v\": \"new\"}' > '$MNT/ks/t/@insert'"
expect_eq "row written into the new table" new "$(cat "$MNT/ks/t/3/3/v")"
printf '{"p": 4, "k": 4, "v": "loaded"}\n' > "$WORK/rows.jsonl"
expect_ok "cellfs load into the new table" "$CELLFS" load "$MNT" ks.t "$WORK/rows.jsonl"
expect_eq "loaded row" loaded "$(cat "$MNT/ks/t/4/4/v")"

step "ALTER: @schema and the new column at once"
cat "$MNT/ks/t/@schema" >/dev/null
printf 'ALTER TABLE ks.t ADD w int;' > "$MNT/@cql"
expect_contains "@schema after ALTER" "w int" "$(cat "$MNT/ks/t/@schema")"
echo 5 > "$MNT/ks/t/3/3/w"
expect_eq "new column" 5 "$(cat "$MNT/ks/t/3/3/w")"

step "DROP KEYSPACE; CREATE KEYSPACE; CREATE TABLE in one write"
ls "$MNT/ks/kv" >/dev/null
printf "DROP KEYSPACE ks; CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}; CREATE TABLE ks.kv (k int PRIMARY KEY, v text);" \
  > "$MNT/@cql"
expect_eq "keyspace listing" kv "$(ls "$MNT/ks")"
expect_eq "new table empty" "" "$(ls "$MNT/ks/kv")"

step "cellfs sync: 0 on a live mount, 1 elsewhere"
mkdir -p "$MNT/ks/kv/9"
expect_ok "cellfs sync on the mount" "$CELLFS" sync "$MNT"
expect_ok "python fsync of a directory" python3 -c \
  "import os; fd = os.open('$MNT/ks/kv/9', os.O_RDONLY); os.fsync(fd); os.close(fd)"
expect_fail_errno "cellfs sync of a plain directory" "not a cellfs mount" "$CELLFS" sync "$WORK"
expect_fail_errno "cellfs sync of a missing path" "not a cellfs mount" "$CELLFS" sync "$WORK/none"

step "an @insert line without a newline: refused, memory bounded"
hwm_kb() { awk '/^VmHWM/ { print $2 }' "/proc/$DAEMON_PID/status"; }
before_kb=$(hwm_kb)
out=$(python3 - "$MNT/ks/kv/@insert" <<'PY' 2>&1 || true
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
chunks = [b'{"k": 1, "v": "' + b'x' * (1 << 20)] + [b'x' * (1 << 20)] * 99
chunks.append(b'"}\n{"k": 2, "v": "after"}\n')
for chunk in chunks:
    try:
        os.write(fd, chunk)  # EINVAL: a record of it was refused, the rest taken
    except OSError as e:
        print("write:", e.strerror)
try:
    os.close(fd)
except OSError as e:
    print("close:", e.strerror)
PY
)
after_kb=$(hwm_kb)
expect_contains "the writer learns of the refusal" "Invalid argument" "$out"
expect_eq "the line after the long one is stored" after "$(cat "$MNT/ks/kv/2/v")"
expect_missing "the long line stored nothing" "$MNT/ks/kv/1"
grow_mb=$(( (after_kb - before_kb) / 1024 ))
echo "daemon VmHWM: ${before_kb} kB before, ${after_kb} kB after 100 MiB without a newline"
(( grow_mb < 200 )) || fail "the daemon grew by $grow_mb MB on a 100 MiB line"

unmount_fs

step "an exception in a handler fails that request, not the mount"
export CELLFS_TEST_THROW_IN=getxattr
mount_fs
unset CELLFS_TEST_THROW_IN
expect_fail_errno "getfattr under the fault" "Input/output error" \
  getfattr -n user.cellfs.ttl "$MNT/ks/kv/2/v"
expect_eq "the mount still serves" after "$(cat "$MNT/ks/kv/2/v")"
alive "$DAEMON_PID" || fail "the daemon died"
expect_contains "the daemon logged it" "exception in getxattr" "$(cat "$LOG")"
unmount_fs

step "cellfs sync of a dead mount fails"
mount_fs
mountpoint -q "$MNT" || fail "not mounted"
kill -KILL "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
expect_fail_errno "cellfs sync of a dead mount" "cellfs sync" "$CELLFS" sync "$MNT"
fusermount3 -u -z "$MNT"
