#!/usr/bin/env bash
# Scenario: CQL data statements (INSERT, INSERT JSON, UPDATE, DELETE, BATCH)
# run by `cellfs cql MOUNT -f FILE`, and what the files then show: values,
# collections, counters, static cells, deleted rows, ranges and partitions,
# a refused batch that stored nothing, and cached entries invalidated.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs

step "DDL and data statements in one script"
cat > "$WORK/script.cql" <<'CQL'
CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE app;
CREATE TABLE users (id int PRIMARY KEY, name text, tags set<text>, scores list<int>, prefs map<text, int>);
CREATE TABLE events (day text, at int, msg text, tz text static, PRIMARY KEY (day, at));
CREATE TABLE hits (page text PRIMARY KEY, n counter);
INSERT INTO users (id, name, tags, scores) VALUES (1, 'Ann', {'a', 'b'}, [1, 2, 3]);
INSERT INTO users JSON '{"id": 2, "name": "Bob", "prefs": {"x": 1}}';
UPDATE users SET tags = tags + {'c'}, scores = [0] + scores, prefs['y'] = 2 WHERE id = 1;
UPDATE users SET scores[1] = 10 WHERE id = 1;
DELETE tags FROM users WHERE id = 2;
BEGIN BATCH
  INSERT INTO events (day, at, msg, tz) VALUES ('d1', 1, 'one', 'UTC');
  INSERT INTO events (day, at, msg) VALUES ('d1', 2, 'two');
  INSERT INTO events (day, at, msg) VALUES ('d1', 3, 'three');
  INSERT INTO events (day, at, msg) VALUES ('d1', 4, 'four');
  INSERT INTO events (day, at, msg) VALUES ('d2', 1, 'other');
APPLY BATCH;
DELETE FROM events WHERE day = 'd1' AND at >= 3;
DELETE FROM events WHERE day = 'd2';
BEGIN COUNTER BATCH
  UPDATE hits SET n = n + 3 WHERE page = 'home';
  UPDATE hits SET n = n - 1 WHERE page = 'home';
APPLY BATCH;
CQL
rc=0
"$CELLFS" cql "$MNT" -f "$WORK/script.cql" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code of -f" 0 "$rc"
expect_eq "no errors" "" "$(cat "$WORK/err")"
expect_eq "transcript" "OK CREATE KEYSPACE app
OK USE app
OK CREATE TABLE app.users
OK CREATE TABLE app.events
OK CREATE TABLE app.hits
OK INSERT app.users
OK INSERT app.users
OK UPDATE app.users
OK UPDATE app.users
OK DELETE app.users
OK BATCH (5 statements)
OK DELETE app.events
OK DELETE app.events
OK BATCH (2 statements)" "$(cat "$WORK/out")"

step "the files show the statements' results"
expect_eq "name" "Ann" "$(cat "$MNT/app/users/1/name")"
expect_eq "set after add" "{'a', 'b', 'c'}" "$(cat "$MNT/app/users/1/tags")"
expect_eq "list after prepend and l[1] = 10" "[0, 10, 2, 3]" "$(cat "$MNT/app/users/1/scores")"
expect_eq "map entry set" "{'y': 2}" "$(cat "$MNT/app/users/1/prefs")"
expect_eq "INSERT JSON" "Bob" "$(cat "$MNT/app/users/2/name")"
expect_eq "INSERT JSON map" "{'x': 1}" "$(cat "$MNT/app/users/2/prefs")"
expect_missing "deleted cell" "$MNT/app/users/2/tags"
expect_eq "static cell and rows left after the range delete" $'tz\n1\n2' "$(ls -U "$MNT/app/events/d1")"
expect_eq "static cell" "UTC" "$(cat "$MNT/app/events/d1/tz")"
expect_eq "partitions left" "d1" "$(ls -U "$MNT/app/events")"
expect_eq "counter" "2" "$(cat "$MNT/app/hits/home/n")"

step "a refused batch stores nothing, and says where"
rc=0
"$CELLFS" cql "$MNT" -e "BEGIN BATCH INSERT INTO app.users (id, name) VALUES (3, 'Cy'); UPDATE app.hits SET n = n + 1 WHERE page = 'x'; APPLY BATCH" \
  >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code" 1 "$rc"
expect_eq "error" "ERROR line 1:64: Cannot include a counter statement in a logged batch" "$(cat "$WORK/err")"
expect_missing "no row 3" "$MNT/app/users/3"
rc=0
"$CELLFS" cql "$MNT" -e "INSERT INTO app.users (id, name) VALUES ('x', 'Cy')" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code of a bad value" 1 "$rc"
expect_eq "Cassandra's wording" "ERROR line 1:42: Invalid STRING constant (x) for \"id\" of type int" "$(cat "$WORK/err")"

step "a cached cell shows the new value and size after an UPDATE through @cql"
expect_eq "before" "Ann" "$(cat "$MNT/app/users/1/name")"
size_before=$(stat -c %s "$MNT/app/users/1/name")
cql "UPDATE app.users SET name = 'Annabelle' WHERE id = 1"
expect_eq "after" "Annabelle" "$(cat "$MNT/app/users/1/name")"
expect_eq "size after" 10 "$(stat -c %s "$MNT/app/users/1/name")"
[[ $size_before == 4 ]] || fail "size before was $size_before"
cql "DELETE name FROM app.users WHERE id = 1"
expect_missing "deleted through @cql" "$MNT/app/users/1/name"
cql "DELETE FROM app.users WHERE id = 1"
expect_missing "row deleted through @cql" "$MNT/app/users/1"

step "statements written straight into @cql"
bash -c "printf \"INSERT INTO app.users (id, name) VALUES (5, 'Eve');\" > '$MNT/@cql'" ||
  fail "writing INSERT to @cql failed"
expect_eq "row from @cql" "Eve" "$(cat "$MNT/app/users/5/name")"

step "conditional statements print cqlsh's [applied] table"
"$CELLFS" cql "$MNT" -e "INSERT INTO app.users (id, name) VALUES (7, 'Gus') IF NOT EXISTS" >"$WORK/out" ||
  fail "IF NOT EXISTS failed"
expect_eq "applied" $'\n [applied]\n-----------\n      True' "$(cat "$WORK/out")"
rc=0
"$CELLFS" cql "$MNT" -e "UPDATE app.users SET name = 'Hal' WHERE id = 7 IF name = 'Ivy'" >"$WORK/out" ||
  rc=$?
expect_eq "a condition that does not hold is no error" 0 "$rc"
expect_eq "not applied, with the current value" \
  $'\n [applied] | name\n-----------+------\n     False |  Gus' "$(cat "$WORK/out")"
expect_eq "the cell kept its value" "Gus" "$(cat "$MNT/app/users/7/name")"
cql "UPDATE app.users SET name = 'Hal' WHERE id = 7 IF name = 'Gus'"
expect_eq "applied: the file shows it" "Hal" "$(cat "$MNT/app/users/7/name")"

echo "PASS $SCENARIO"
