#!/usr/bin/env bash
# Scenario: `cellfs cql MOUNT` on a terminal is an interactive shell, driven
# through a pseudo-terminal (cql_shell_driver.py): the prompt, a statement
# over two lines with the continuation prompt, DDL, INSERTs and a SELECT
# printed as a table, USE changing the prompt, Tab completion, an error,
# Ctrl-C dropping a half-typed statement, EXPAND ON records, PAGING, SOURCE
# and COPY run in the client, history kept in $HOME/.cellfs_history across
# sessions, and exit; without a terminal nothing changed.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C
DRIVER=$(dirname "$0")/cql_shell_driver.py

mount_fs
HOME_DIR=$WORK/home
OUT=$WORK/out
mkdir "$HOME_DIR" "$OUT"

# A SOURCE file and a CSV for COPY FROM, both read by the shell itself.
printf 'INSERT INTO t (k, c, v) VALUES (3, 1, %s);\n-- a comment; not a statement\nINSERT INTO t (k, c, v)\n  VALUES (3, 2, %s);\n' \
  "'from source'" "'two'" >"$WORK/more.cql"
printf 'k,c,v\n4,1,csv one\n4,2,csv two\n' >"$WORK/rows.csv"
printf '5,1,no header\nnotanint,1,bad\n' >"$WORK/bare.csv"
printf 'v,k,c\nlisted,6,1\n' >"$WORK/listed.csv"

step "a session"
P='cellfs> '
PK='cellfs:ks> '
C='   ... '
T=$'\t'
{
  echo "start${T}${T}$P"
  echo "keyspace${T}CREATE KEYSPACE ks WITH replication =\\r${T}$C"
  echo "keyspace2${T}{'class': 'SimpleStrategy', 'replication_factor': 1};\\r${T}$P"
  echo "table${T}CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c));\\r${T}$P"
  echo "insert${T}INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'one'); INSERT INTO ks.t (k, c, v) VALUES (1, 2, 'two');\\r${T}$P"
  echo "select${T}SELECT * FROM ks.t;\\r${T}$P"
  echo "use${T}USE ks;\\r${T}$PK"
  echo "complete${T}sel\\t* FROM t WHERE k = 1 AND c = 2;\\r${T}$PK"
  echo "error${T}SELECT * FROM nope;\\r${T}$PK"
  echo "half${T}SELECT *\\r${T}$C"
  echo "ctrlc${T}\\x03${T}$PK"
  echo "expand${T}EXPAND ON\\r${T}$PK"
  echo "records${T}SELECT * FROM t WHERE k = 1;\\r${T}$PK"
  echo "unexpand${T}expand off;\\r${T}$PK"
  echo "paging${T}PAGING 1\\r${T}$PK"
  echo "paged${T}SELECT c FROM t WHERE k = 1;\\r${T}---MORE---"
  echo "more${T}\\r${T}$PK"
  echo "source${T}SOURCE '$WORK/more.cql'\\r${T}$PK"
  echo "copyfrom${T}COPY t FROM '$WORK/rows.csv' WITH HEADER = true\\r${T}$PK"
  echo "copybare${T}COPY t FROM '$WORK/bare.csv';\\r${T}$PK"
  echo "copylisted${T}COPY t (v, k, c) FROM '$WORK/listed.csv' WITH HEADER = true;\\r${T}$PK"
  echo "copyto${T}COPY ks.t TO '$WORK/out.csv';\\r${T}$PK"
  echo "help${T}HELP\\r${T}$PK"
  echo "exit${T}exit\\r${T}"
} >"$WORK/script"
python3 "$DRIVER" "$CELLFS" "$MNT" "$HOME_DIR" "$OUT" "$WORK/script" || fail "the shell session"

step "the prompt, statements, the continuation prompt"
expect_eq "first prompt, nothing before it" "" "$(cat "$OUT/start")"
expect_eq "a statement over two lines: the continuation prompt, then nothing (cqlsh prints nothing for DDL)" \
  "" "$(cat "$OUT/keyspace")$(cat "$OUT/keyspace2")$(cat "$OUT/table")$(cat "$OUT/insert")"
expect_eq "SELECT prints cqlsh's table" "
 k | c | v
---+---+-----
 1 | 1 | one
 1 | 2 | two

(2 rows)" "$(cat "$OUT/select")"
expect_eq "USE: the prompt names the keyspace" "" "$(cat "$OUT/use")"
expect_eq "Tab completed 'sel' into select" "
 k | c | v
---+---+-----
 1 | 2 | two

(1 rows)" "$(cat "$OUT/complete")"
expect_contains "an error is printed" "ERROR line 1:" "$(cat "$OUT/error")"
expect_eq "Ctrl-C drops the half-typed statement: the first prompt again" "" "$(cat "$OUT/ctrlc")"

step "EXPAND, PAGING"
expect_eq "EXPAND ON" "Now Expanded output is enabled" "$(cat "$OUT/expand")"
expect_eq "records as cqlsh prints them" "
@ Row 1
---+-----
 k | 1
 c | 1
 v | one

@ Row 2
---+-----
 k | 1
 c | 2
 v | two

(2 rows)" "$(cat "$OUT/records")"
expect_eq "EXPAND OFF" "Disabled Expanded output." "$(cat "$OUT/unexpand")"
expect_eq "PAGING 1" "Page size: 1" "$(cat "$OUT/paging")"
expect_eq "a page of one row, then ---MORE---" "
 c
---
 1" "$(cat "$OUT/paged")"
expect_eq "Enter shows the next page" " 2

(2 rows)" "$(cat "$OUT/more")"

step "SOURCE and COPY run in the client"
expect_eq "SOURCE ran the file's statements" "" "$(cat "$OUT/source")"
expect_eq "rows from SOURCE" "from source" "$(cat "$MNT/ks/t/3/1/v")"
expect_eq "and the second one, over two lines" "two" "$(cat "$MNT/ks/t/3/2/v")"
expect_contains "COPY FROM loads the CSV" "2 rows stored, 0 refused" "$(cat "$OUT/copyfrom")"
expect_eq "rows from COPY FROM" "csv two" "$(cat "$MNT/ks/t/4/2/v")"
expect_contains "COPY FROM without HEADER: the table's columns in order" "1 rows stored, 1 refused" \
  "$(cat "$OUT/copybare")"
expect_contains "a refused line is named by its line in the file" "$WORK/bare.csv: line 2:" \
  "$(cat "$OUT/copybare")"
expect_eq "rows from a CSV without a header" "no header" "$(cat "$MNT/ks/t/5/1/v")"
expect_contains "COPY FROM with a column list skips the file's header" "1 rows stored, 0 refused" \
  "$(cat "$OUT/copylisted")"
expect_eq "rows from a listed CSV" "listed" "$(cat "$MNT/ks/t/6/1/v")"
expect_contains "COPY TO says where" "copied ks.t to $WORK/out.csv" "$(cat "$OUT/copyto")"
expect_eq "COPY TO wrote the table as CSV" "$(cat "$MNT/ks/t/@csv")" "$(cat "$WORK/out.csv")"
expect_contains "HELP lists the shell commands" "EXPAND [ON | OFF]" "$(cat "$OUT/help")"
expect_eq "exit: status 0" "0" "$(cat "$OUT/status")"

step "history, one entry per statement, kept for the next session"
HISTORY=$(cat "$HOME_DIR/.cellfs_history")
expect_contains "the two-line statement is one entry" \
  "CREATE KEYSPACE ks WITH replication =\\n{'class': 'SimpleStrategy', 'replication_factor': 1};" "$HISTORY"
expect_contains "each statement of a line is an entry" $'\n'"INSERT INTO ks.t (k, c, v) VALUES (1, 2, 'two');"$'\n' "$HISTORY"
expect_contains "USE" $'\n'"USE ks;"$'\n' "$HISTORY"
expect_contains "shell commands too" $'\n'"EXPAND ON"$'\n' "$HISTORY"
expect_not_contains "the dropped statement is not" $'\n'"SELECT *"$'\n' "$HISTORY"
{
  echo "start${T}${T}$P"
  echo "recall${T}\\x1b[A\\x1b[A\\r${T}$P"
  echo "eof${T}\\x04${T}"
} >"$WORK/script2"
python3 "$DRIVER" "$CELLFS" "$MNT" "$HOME_DIR" "$OUT" "$WORK/script2" || fail "the second session"
expect_contains "the arrow key twice recalls HELP (exit came last)" "EXPAND [ON | OFF]" "$(cat "$OUT/recall")"
expect_eq "Ctrl-D ends the shell with status 0" "0" "$(cat "$OUT/status")"

step "without a terminal, as before"
expect_eq "statements from a pipe" "OK USE ks" "$(echo 'USE ks;' | "$CELLFS" cql "$MNT")"
if echo 'SELECT * FROM nope;' | "$CELLFS" cql "$MNT" 2>/dev/null; then
  fail "a failed statement from a pipe exits 0"
fi

unmount_fs
