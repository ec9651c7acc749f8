#!/usr/bin/env bash
# Scenario: SELECT through `cellfs cql`: rows written by CQL and by the file
# face, printed as cqlsh prints them (aligned table, "(N rows)"), the
# restrictions Cassandra refuses with its words, SELECT JSON as JSON Lines,
# count(*), DISTINCT, IN, ORDER BY, LIMIT, and a result of many pages
# streamed with the header printed once.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs

# Prints what `cellfs cql -e STMT` prints, stderr included (a failure shows
# in the comparison that follows).
out_of() { "$CELLFS" cql "$MNT" -e "$1" 2>&1 || true; }

step "schema and rows, from CQL and from files"
cql "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE ks;
CREATE TABLE t (k int, c int, v text, s int static, m map<text, int>, PRIMARY KEY (k, c));
INSERT INTO t (k, c, v, m) VALUES (1, 1, 'one', {'a': 1});
INSERT INTO t (k, c, v) VALUES (1, 2, 'two') USING TTL 100000;
INSERT INTO t (k, s) VALUES (2, 7);
UPDATE t SET s = 5 WHERE k = 1;" >/dev/null
mkdir "$MNT/ks/t/1/3"
echo three > "$MNT/ks/t/1/3/v"

step "a partition, its rows in clustering order"
expect_eq "SELECT * WHERE k = 1" "
 k | c | s | m        | v
---+---+---+----------+-------
 1 | 1 | 5 | {'a': 1} |   one
 1 | 2 | 5 |     null |   two
 1 | 3 | 5 |     null | three

(3 rows)" "$(out_of "SELECT * FROM ks.t WHERE k = 1;")"
expect_eq "ORDER BY the other way, a slice, LIMIT" "
 c | v
---+-------
 3 | three
 2 |   two

(2 rows)" "$(out_of "SELECT c, v FROM ks.t WHERE k = 1 AND c >= 2 ORDER BY c DESC LIMIT 5;")"
expect_eq "clustering IN comes back in clustering order, duplicates once" "
 c
---
 1
 3

(2 rows)" "$(out_of "SELECT c FROM ks.t WHERE k = 1 AND c IN (3, 1, 3);")"
expect_eq "a partition with only static cells shows one row" "
 k | c    | s
---+------+---
 2 | null | 7

(1 rows)" "$(out_of "SELECT k, c, s FROM ks.t WHERE k = 2;")"
expect_eq "ttl() counts down from the TTL; none is null" "
 c | ttl(v)
---+--------
 1 |   null
 3 |   null" "$(out_of "SELECT c, ttl(v) FROM ks.t WHERE k = 1 AND c IN (1, 3);" | head -5)"
ttl=$(out_of "SELECT ttl(v) FROM ks.t WHERE k = 1 AND c = 2;" | sed -n 4p | tr -d ' ')
[[ $ttl -gt 99000 && $ttl -le 100000 ]] || fail "ttl(v) of a 100000 s TTL: $ttl"

step "the whole table, aggregates, DISTINCT, JSON"
expect_eq "count(*)" "
 count
-------
     4

(1 rows)" "$(out_of "SELECT count(*) FROM ks.t;")"
expect_eq "DISTINCT partition keys and statics, token order" \
  "$(out_of "SELECT k, s FROM ks.t;" | awk 'NR>3 && NF' | sort -u | grep -v rows)" \
  "$(out_of "SELECT DISTINCT k, s FROM ks.t;" | awk 'NR>3 && NF' | grep -v rows | sort)"
expect_eq "SELECT JSON: one object per line" '{"k": 1, "v": "two"}
{"k": 1, "v": "three"}' "$(out_of "SELECT JSON k, v FROM ks.t WHERE k = 1 AND c > 1;")"
expect_eq "ALLOW FILTERING filters a scan" "
 k | c | v
---+---+-----
 1 | 2 | two

(1 rows)" "$(out_of "SELECT k, c, v FROM ks.t WHERE v = 'two' ALLOW FILTERING;")"

step "refused as Cassandra refuses"
rc=0
out=$("$CELLFS" cql "$MNT" -e "SELECT * FROM ks.t WHERE v = 'two';" 2>&1) || rc=$?
expect_eq "exit status" 1 "$rc"
expect_eq "a filter needs ALLOW FILTERING" "ERROR line 1:1: Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING" "$out"
out=$("$CELLFS" cql "$MNT" -e "SELECT nosuch FROM ks.t;" 2>&1) || true
expect_contains "an unknown column" "Undefined column name nosuch" "$out"
out=$("$CELLFS" cql "$MNT" -e "SELECT * FROM ks.t WHERE c = 1;" 2>&1) || true
expect_contains "clustering without the partition key" "ALLOW FILTERING" "$out"

step "a result of many pages: one header, every row, in order"
{
  echo "k,c,v"
  for i in $(seq 1 450); do echo "9,$i,row$i"; done
} > "$WORK/rows.csv"
cp "$WORK/rows.csv" "$MNT/ks/t/@insert"
out=$(out_of "SELECT c, v FROM ks.t WHERE k = 9;")
expect_eq "header once" 1 "$(grep -cE '^ c +\| v' <<<"$out")"
expect_eq "every row" 450 "$(grep -cE '^ +[0-9]+ \| +row[0-9]+$' <<<"$out")"
expect_eq "in clustering order" "$(seq 1 450)" "$(grep -E '^ +[0-9]+ \|' <<<"$out" | awk '{print $1}')"
expect_eq "the count line" "(450 rows)" "$(tail -1 <<<"$out")"
expect_eq "PER PARTITION LIMIT" "
 k | c
---+---
 1 | 1
 1 | 2
 9 | 1
 9 | 2

(4 rows)" "$(out_of "SELECT k, c FROM ks.t WHERE k IN (9, 1) PER PARTITION LIMIT 2;")"

step "a SELECT sees the data as of its statement, not writes after it"
expect_eq "a later DELETE in the same script does not change the result" "
 v
-----
 one

(1 rows)
OK DELETE ks.t" "$(out_of "SELECT v FROM ks.t WHERE k = 1 AND c = 1; DELETE FROM ks.t WHERE k = 1 AND c = 1;")"
expect_missing "the row is gone" "$MNT/ks/t/1/1"

echo "PASS $SCENARIO"
