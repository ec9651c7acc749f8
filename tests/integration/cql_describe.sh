#!/usr/bin/env bash
# Scenario: DESCRIBE through `cellfs cql` prints what cqlsh prints; through
# MOUNT/@cql it is an OUTPUT block of the transcript; TRUNCATE empties a
# table for ls and cat at once, and the table takes writes again.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs

step "schema"
"$CELLFS" cql "$MNT" -e "CREATE KEYSPACE d WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE d.logs (h text, at int, msg text, PRIMARY KEY (h, at));
CREATE TABLE d.kv (k text PRIMARY KEY, v text);" >/dev/null || fail "schema"

step "DESCRIBE in cellfs cql: the text alone"
out=$("$CELLFS" cql "$MNT" -e "DESCRIBE KEYSPACES") || fail "DESCRIBE KEYSPACES exited $?"
expect_eq "DESCRIBE KEYSPACES" $'\nd' "$out"
out=$("$CELLFS" cql "$MNT" -e "DESCRIBE TABLES") || fail "DESCRIBE TABLES exited $?"
expect_eq "DESCRIBE TABLES" $'\nKeyspace d\n----------\nkv  logs' "$out"
out=$("$CELLFS" cql "$MNT" -e "USE d; DESC TABLES") || fail "USE; DESC TABLES exited $?"
expect_eq "DESC TABLES in a keyspace" $'OK USE d\n\nkv  logs' "$out"
out=$("$CELLFS" cql "$MNT" -e "DESCRIBE TABLE d.kv") || fail "DESCRIBE TABLE exited $?"
expect_eq "DESCRIBE TABLE is @schema after an empty line" "$(printf '\n%s' "$(cat "$MNT/d/kv/@schema")")" "$out"
rc=0
"$CELLFS" cql "$MNT" -e "DESCRIBE TABLE d.nope" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code of a missing table" 1 "$rc"
expect_eq "Cassandra's message" "ERROR line 1:1: Table 'nope' not found in keyspace 'd'" "$(cat "$WORK/err")"

step "DESCRIBE through @cql: an OUTPUT block read back on the same open file"
out=$(python3 - "$MNT/@cql" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
os.write(fd, b"DESCRIBE KEYSPACES;\n")
print(os.pread(fd, 65536, 0).decode(), end="")
os.close(fd)
PY
) || fail "@cql DESCRIBE"
expect_eq "@cql transcript" $'OUTPUT 3\n\nd' "$out"

step "TRUNCATE: ls and cat show the table empty at once"
mkdir -p "$MNT/d/logs/web1/1" "$MNT/d/logs/web2/5"
bash -c 'echo hello > "$1/d/logs/web1/1/msg"' _ "$MNT" || fail "write msg"
mkdir -p "$MNT/d/kv/a"
bash -c 'echo v > "$1/d/kv/a/v"' _ "$MNT" || fail "write kv"
expect_eq "rows before" $'web1\nweb2' "$(ls "$MNT/d/logs")"
expect_eq "a cell before" "hello" "$(cat "$MNT/d/logs/web1/1/msg")"
out=$("$CELLFS" cql "$MNT" -e "TRUNCATE d.logs") || fail "TRUNCATE exited $?"
expect_eq "TRUNCATE's line" "OK TRUNCATE d.logs" "$out"
expect_eq "no partitions after" "" "$(ls "$MNT/d/logs")"
expect_missing "the old cell" "$MNT/d/logs/web1/1/msg"
expect_eq "an export after" "" "$(cat "$MNT/d/logs/@json")"
expect_eq "another table keeps its data" "a" "$(ls "$MNT/d/kv")"
mkdir -p "$MNT/d/logs/web1/1"
bash -c 'echo again > "$1/d/logs/web1/1/msg@timestamp=1"' _ "$MNT" || fail "write after TRUNCATE"
expect_eq "a write with an old timestamp shows" "again" "$(cat "$MNT/d/logs/web1/1/msg")"
expect_eq "one partition again" "web1" "$(ls "$MNT/d/logs")"

step "DROP FUNCTION"
"$CELLFS" cql "$MNT" -e "CREATE FUNCTION d.f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return a;'" >/dev/null ||
  fail "CREATE FUNCTION"
out=$("$CELLFS" cql "$MNT" -e "DROP FUNCTION d.f") || fail "DROP FUNCTION exited $?"
expect_eq "DROP FUNCTION's line" "OK DROP FUNCTION d.f" "$out"
rc=0
"$CELLFS" cql "$MNT" -e "DROP FUNCTION d.f" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code of a missing function" 1 "$rc"
expect_eq "Cassandra's message" "ERROR line 1:1: Function 'd.f' doesn't exist" "$(cat "$WORK/err")"
