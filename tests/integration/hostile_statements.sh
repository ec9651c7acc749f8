#!/usr/bin/env bash
# Scenario: hostile CQL statements and @insert input (JSON Lines and CSV): each
# refused with its reason and the errno the docs give, the daemon up, the data
# stored before unchanged. hostile_values.sh does names, values and extended
# attributes; docs/HOSTILE_INPUT.md tabulates the cases of all three scripts.
source "$(dirname "$0")/hostile_setup.sh"

# ==============================================================================
step "CQL: malformed statements"
cql_refused "a missing parenthesis" "expected" "CREATE TABLE sc.x (a int PRIMARY KEY"
cql_refused "an unterminated string" "unterminated string literal" \
  "CREATE TABLE sc.x (a int PRIMARY KEY) WITH comment = 'open"
cql_refused "an unterminated comment" "unterminated /\\* comment" \
  "CREATE TABLE sc.x (a int PRIMARY KEY) /* open"
cql_refused "an unterminated \$\$ string" "unterminated \\$\\$ string" \
  "CREATE TABLE sc.x (a int PRIMARY KEY) WITH comment = \$\$ open"
cql_refused "a word that is no statement" "unsupported statement" "garbage"
cql_refused "an unknown type" "unknown type" "CREATE TABLE sc.x (a int PRIMARY KEY, b nosuch)"
cql_refused "a keyspace name with a dash" "must be 1 to 48 letters" \
  "CREATE KEYSPACE \"bad-name\" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"
cql_refused "a 49-character table name" "must be 1 to 48 letters" \
  "CREATE TABLE sc.$(long t 49) (a int PRIMARY KEY)"
cql_refused "an existing table" "already exists" "CREATE TABLE hv.types (k int PRIMARY KEY)"
cql_refused "a column added twice" "" "ALTER TABLE hv.types ADD i int"
cql_refused "default_time_to_live above 630720000" "" \
  "ALTER TABLE hv.types WITH default_time_to_live = 630720001"
cql_refused "negative gc_grace_seconds" "" "ALTER TABLE hv.types WITH gc_grace_seconds = -1"
cql_refused "an unknown table option" "" "ALTER TABLE hv.types WITH nosuchoption = 1"
cql_refused "a counter beside other columns" "counter" "CREATE TABLE sc.x (a int PRIMARY KEY, b counter, c int)"
cql_refused "COMPACT STORAGE" "COMPACT STORAGE" "CREATE TABLE sc.x (a int PRIMARY KEY) WITH COMPACT STORAGE"
cql_refused "an empty quoted identifier" "" "CREATE TABLE sc.x (\"\" int PRIMARY KEY)"

step "CQL: unsupported and data statements"
cql_refused "CREATE INDEX on the only partition key column" \
  "Cannot create secondary index on the only partition key column k" "CREATE INDEX ON hv.types (k)"
cql_refused "CREATE TRIGGER" "CREATE TRIGGER is not supported by cellfs" \
  "CREATE TRIGGER tr ON hv.types USING 'org.example.Trigger'"
cql_refused "CREATE MATERIALIZED VIEW on a missing base" "Base table 'nosuch' doesn't exist" \
  "CREATE MATERIALIZED VIEW hv.mv AS SELECT * FROM hv.nosuch WHERE k IS NOT NULL PRIMARY KEY (k)"
cql_refused "SELECT needing ALLOW FILTERING" "use ALLOW FILTERING" "SELECT * FROM hv.types WHERE i = 1"
cql_refused "SELECT of an unknown column" "Undefined column name nosuch" "SELECT nosuch FROM hv.types"
cql_refused "SELECT with a negative LIMIT" "LIMIT must be strictly positive" \
  "SELECT * FROM hv.types LIMIT -1"
cql_refused "a conditional update of a counter" \
  "Conditional updates are not supported on counter tables" \
  "UPDATE hv.counts SET hits = hits + 1 WHERE k = 'a' IF EXISTS"
cql_refused "INSERT into a counter table" \
  "INSERT statements are not allowed on counter tables, use UPDATE instead" \
  "INSERT INTO hv.counts (k, hits) VALUES ('a', 1)"

step "CQL: NUL bytes, invalid UTF-8, many statements in one write"
cql_write() { printf "$1" >"$WORK/stmt.cql"; feed "$MNT/@cql" rw "$WORK/stmt.cql"; }
out=$(cql_write 'CREATE TABLE sc.n1 (k int PRIMARY KEY)\x00;')
expect_eq "a NUL byte outside a string" "write=EINVAL fsync=OK close=OK
ERROR line 1:39: unexpected character byte 0x00" "$out"
expect_match "invalid UTF-8 in a string literal" "ERROR line 1:[0-9]+: invalid UTF-8 in string literal" \
  "$(cql_write "CREATE TABLE sc.n2 (k int PRIMARY KEY) WITH comment = 'a\\xffb';")"
expect_match "invalid UTF-8 in a quoted identifier" "ERROR line 1:[0-9]+: invalid UTF-8 in quoted identifier" \
  "$(cql_write 'CREATE TABLE sc.n3 ("\xff" int PRIMARY KEY);')"
expect_match "a raw 0xff byte" "^write=EINVAL.*unexpected character byte 0xff" \
  "$(cql_write 'CREATE TABLE sc.\xff (k int PRIMARY KEY);' | tr '\n' ' ')"
out=$(cql_write 'CREATE TABLE sc.m1 (k int PRIMARY KEY);\nCREATE TABLE sc.m2 (k nosuch PRIMARY KEY);\nCREATE TABLE sc.m3 (k int PRIMARY KEY);')
expect_match "one bad statement among three: the write fails, the others run" \
  "^write=EINVAL fsync=OK close=OK
OK CREATE TABLE sc.m1
ERROR line 2:[0-9]+: unknown type sc.nosuch
OK CREATE TABLE sc.m3$" "$out"
expect_eq "an unterminated string at close: fsync reports it" "write=OK fsync=EINVAL close=OK" \
  "$(cql_write "CREATE TABLE sc.u1 (k int PRIMARY KEY) WITH comment = 'open" | head -1)"
expect_eq "only comments: nothing to run" "write=OK fsync=OK close=OK" \
  "$(cql_write '/* c */ -- x\n// y\n')"
expect_eq "no table from a refused statement" "m1 m3" \
  "$(ls "$S" | grep -E '^(n[0-9]|m[0-9]|u[0-9]|x)$' | tr '\n' ' ' | sed 's/ $//')"

step "CQL: deep nesting, huge statements"
nest() { python3 -c "import sys; d = int(sys.argv[1]); print(sys.argv[2] + sys.argv[3] * d + sys.argv[4] + sys.argv[5] * d + sys.argv[6])" "$@"; }
nest 1000 "CREATE TABLE sc.d1 (k int PRIMARY KEY, v " "frozen<list<" int ">>" ");" >"$WORK/d.cql"
cql_file_refused "frozen<list<... 1000 deep (cellfs cql)" "nested more than 32 levels" "$WORK/d.cql"
# Deeper still, each in one write() (a recursive parser would run out of stack).
for deep in "tuple 50000 deep|CREATE TABLE sc.d2 (k int PRIMARY KEY, v |frozen<tuple<|int|>>|);|nested more than 32" \
  "map key 50000 deep|CREATE TABLE sc.d3 (k int PRIMARY KEY, v map<|frozen<map<int, |int|>>|, int>);|nested more than 32" \
  "UDT field 50000 deep|CREATE TYPE sc.d4 (a |frozen<set<|int|>>|);|nested more than 32" \
  "PRIMARY KEY in 50000 parentheses|CREATE TABLE sc.d5 (k int, v int, PRIMARY KEY |(|k|)|);|expected" \
  "option map 50000 deep|CREATE TABLE sc.d6 (k int PRIMARY KEY) WITH compaction = |{'a': |1|}|;|expected" \
  "collection literal 50000 deep|CREATE TABLE sc.d7 (k int PRIMARY KEY) WITH caching = |[|1|]|;|expected"; do
  IFS='|' read -r what head open mid close tail pattern <<<"$deep"
  nest 50000 "$head" "$open" "$mid" "$close" "$tail" >"$WORK/d.cql"
  expect_match "a $what" "^write=EINVAL fsync=OK close=OK
ERROR line 1:[0-9]+: .*$pattern" "$(feed "$MNT/@cql" rw "$WORK/d.cql")"
done
nest 2000 "CREATE FUNCTION sc.f (a int) RETURNS NULL ON NULL INPUT RETURNS " "frozen<list<" int ">>" \
  " LANGUAGE java AS 'return a;';" >"$WORK/d.cql"
expect_eq "a function's 2000-deep return type: kept as written, never run" "OK CREATE FUNCTION sc.f" \
  "$("$CELLFS" cql "$MNT" -f "$WORK/d.cql" 2>&1)"
python3 -c "
print(\"CREATE TABLE sc.big (k int PRIMARY KEY, v nosuch) WITH comment = '\" + 'c' * (10 << 20) + \"';\")
" >"$WORK/big.cql"
start=$SECONDS
out=$(feed "$MNT/@cql" rw "$WORK/big.cql" $((512 << 10)))
expect_match "a 10 MiB statement in 512 KiB writes, refused" \
  "^write=EINVAL fsync=OK close=OK
ERROR line 1:[0-9]+: unknown type sc.nosuch$" "$out"
step "  10 MiB statement: $((SECONDS - start)) s"
rm -f "$WORK/big.cql"
python3 -c "
print(\"CREATE TABLE sc.r1 (k int PRIMARY KEY) WITH comment = '\" + 'c' * (4 << 20) + \"';\")
print('CREATE TABLE sc.r2 (k nosuch PRIMARY KEY);')
print('CREATE TABLE sc.r3 (k int PRIMARY KEY);')" >"$WORK/retry.cql"
out=$(feed "$MNT/@cql" rw "$WORK/retry.cql")
rm -f "$WORK/retry.cql"
# The write() is split into kernel requests; the piece holding the bad
# statement fails, the writer gets a short count and re-sends the rest, which
# @cql skips (it ran already). So that write() returns in full, and @cql keeps
# no sticky error: the refusal shows only in the transcript.
expect_match "a 4 MiB script in one write(): each statement runs once" \
  "^write=OK fsync=OK close=OK
OK CREATE TABLE sc.r1
ERROR line 2:[0-9]+: unknown type sc.nosuch
OK CREATE TABLE sc.r3$" "$out"
daemon_ok CQL
expect_eq "the schema of hv is untouched" "$(sed -n '/^== schema$/,$p' "$WORK/before" | tail -n +2)" \
  "$(cat "$H/@schema")"

# ==============================================================================
step "@insert: JSON Lines, good and bad lines mixed"
{
  echo '{"p": "m", "c": 1, "v": "good 1"}'
  echo '{"p": "m", "c": 2, "v": "truncated'
  echo '{"p": "m", "c": "x"}'
  echo '{"p": "m", "c": 4, "nosuch": 1}'
  echo '{"c": 5, "v": "no partition key"}'
  echo '{"p": "m", "v": "no clustering key"}'
  echo '{"p": "m", "c": 7, "c": 8}'
  echo '{"p": "m", "c": 8, "n": 2147483648}'
  echo '{"p": "m", "c": 9, "b": 9223372036854775808}'
  echo '{"p": "m", "c": 10, "d": 1e400}'
  echo "{\"p\": \"m\", \"c\": 11, \"l\": $(long '[' 100000)1$(long ']' 100000)}"
  echo '[1, 2, 3]'
  echo '{"p": "m", "c": 13, "v": "good 13"}'
  echo '{"p": null, "c": 14}'
  echo '{"p": "m", "c": 15, "@ttl": -1}'
  echo '{"p": "m", "c": 16, "@ttl": 630720001}'
  echo '{"p": "m", "c": 17, "@timestamp": "soon"}'
  echo '{"p": "m", "c": 18, "v": "ok"} trailing'
  echo '{"p": "m", "c": 19, "v": "\ud800"}'
  printf '{"p": "m", "c": 20, "v": "\xff"}\n'
  echo '{"p": "m", "c": 21, "n": 01}'
  echo
  echo '{"p": "m", "c": 23, "v": "good column", "n": "bad column"}'
  echo '{"p": "m", "c": 24, "v": "good 24"}'
} >"$WORK/mixed.jsonl"
out=$(feed "$S/ins/@insert" rw "$WORK/mixed.jsonl")
expect_eq "the write fails (and stays failed), each bad line is reported by number" \
  "write=EINVAL fsync=EINVAL close=EINVAL 2 3 4 5 6 7 8 9 10 11 12 14 15 16 17 18 19 20 21 23 " \
  "$(head -1 <<<"$out") $(transcript_lines "$out")"
expect_eq "the summary line" "3 rows stored, 20 lines refused" "$(tail -1 <<<"$out")"
expect_contains "an unknown column is named" "line 4: unknown column 'nosuch'" "$out"
expect_contains "a missing key column is named" "line 5: missing key column 'p'" "$out"
expect_contains "an overflow is named" "line 8: column 'n': value 2147483648 is out of range" "$out"
expect_eq "the good lines landed, nothing else" "1 13 24" "$(ls -U "$S/ins/m" | tr '\n' ' ' | sed 's/ $//')"
expect_missing "a line with one bad column stores none of it" "$S/ins/m/23"

step "@insert: bad lines aimed at stored rows change nothing"
{
  echo '{"p": "a", "c": 1, "v": "changed", "n": "NaN"}'
  echo '{"p": "a", "c": 1, "v": "changed", "zz": 1}'
  echo '{"p": "a", "c": 1, "v": "changed", "@ttl": "x"}'
  echo '{"p": "a", "c": 2, "v": "changed", "l": [2147483648]}'
} >"$WORK/aimed.jsonl"
expect_eq "every line refused" "write=EINVAL fsync=EINVAL close=EINVAL 1 2 3 4 0 rows stored, 4 lines refused" \
  "$(out=$(feed "$H/ins/@insert" rw "$WORK/aimed.jsonl"); echo "$(head -1 <<<"$out") $(transcript_lines "$out")$(tail -1 <<<"$out")")"
expect_eq "the row keeps its value" one "$(cat "$H/ins/a/1/v")"
# A counter table's @insert adds (cqlsh COPY FROM); what Cassandra refuses
# for a counter update is refused per record, and changes nothing.
expect_fail_errno "a counter @insert with a TTL" "Invalid argument" \
  put "$H/counts/@insert" '{"k": "a", "hits": 1, "@ttl": 5}'
expect_fail_errno "a counter @insert with @insert@timestamp=" "Invalid argument" \
  put "$H/counts/@insert@timestamp=5" '{"k": "a", "hits": 1}'
expect_fail_errno "a null counter in @insert" "Invalid argument" \
  put "$H/counts/@insert" '{"k": "a", "hits": null}'
expect_fail_errno "a counter @insert that is not an integer" "Invalid argument" \
  put "$H/counts/@insert" '{"k": "a", "hits": 1.5}'
expect_ok "a counter @insert adds" put "$S/counts/@insert" '{"k": "ins", "hits": 2}'
expect_ok "and adds again" put "$S/counts/@insert" '{"k": "ins", "hits": 3}'
expect_eq "a counter loaded through @insert" 5 "$(cat "$S/counts/ins/hits")"

step "@insert: CSV"
printf '%s\n' 'p,c,v,n' 'k,1,good 1,1' 'k,2,too,many,fields' 'k,3' 'k,4,"bad "quote",1' 'k,5,ok,x' \
  'k,,null clustering key,1' ',7,null partition key,1' '"",8,empty partition key,1' \
  'k,9,"good, 9",9' 'k,10,"never closed,1' >"$WORK/mixed.csv"
out=$(feed "$S/ins/@insert" rw "$WORK/mixed.csv")
expect_eq "the write and the end both fail, each bad record reported" \
  "write=EINVAL fsync=EINVAL close=EINVAL 3 4 5 6 7 8 9 11 " \
  "$(head -1 <<<"$out") $(transcript_lines "$out")"
expect_contains "a wrong field count is named" "line 3: 5 fields, the header has 4" "$out"
expect_contains "an unclosed quote is named" "line 11: a quoted field is not closed" "$out"
expect_eq "the CSV summary" "2 rows stored, 8 lines refused" "$(tail -1 <<<"$out")"
expect_eq "the good records landed" "1 9" "$(ls -U "$S/ins/k" | tr '\n' ' ' | sed 's/ $//')"
for header in 'p,c,nosuch' 'p,v' 'p,c,c' $'\x01\x02'; do
  printf '%s\na,1,x\na,2,y\n' "$header" >"$WORK/header.csv"
  expect_eq "a bad header $(_show "$header") refuses every record" \
    "write=EINVAL fsync=EINVAL close=EINVAL 1 2 3 0 rows stored, 3 lines refused" \
    "$(out=$(feed "$H/ins/@insert" rw "$WORK/header.csv"); echo "$(head -1 <<<"$out") $(transcript_lines "$out")$(tail -1 <<<"$out")")"
done
printf 'p,c,v\n\xff\xfe,1,x\nok,2,caf\xc3\n' >"$WORK/utf8.csv"
out=$(feed "$H/ins/@insert" rw "$WORK/utf8.csv")
expect_eq "invalid UTF-8 in a CSV key and value" \
  "write=EINVAL fsync=EINVAL close=EINVAL 2 3 0 rows stored, 2 lines refused" \
  "$(head -1 <<<"$out") $(transcript_lines "$out")$(tail -1 <<<"$out")"
expect_contains "the bad key is named" "line 2: column 'p': invalid UTF-8" "$out"
printf '{"p": "d", "c": 1, "v": "first"}\n{"p": "d", "c": 1, "v": "second"}\n' >"$WORK/twice.jsonl"
expect_eq "one row twice in one write" "write=OK fsync=OK close=OK
2 rows stored, 0 lines refused" "$(feed "$S/ins/@insert" rw "$WORK/twice.jsonl")"
expect_eq "the later line wins" second "$(cat "$S/ins/d/1/v")"
: >"$WORK/empty"
expect_eq "empty input" "write=OK fsync=OK close=OK
0 rows stored, 0 lines refused" "$(feed "$H/ins/@insert" rw "$WORK/empty")"
printf '\n\n\n' >"$WORK/blank"
expect_eq "blank lines only" "write=OK fsync=OK close=OK
0 rows stored, 0 lines refused" "$(feed "$H/ins/@insert" rw "$WORK/blank")"
python3 - "$S/ins/@insert" >"$WORK/out" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
os.write(fd, b'p,c,v\nq,1,"never closed\n')
for data in (None, None, b"q,3,after\n", None):
    try:
        if data is None:
            os.fsync(fd)
        else:
            os.write(fd, data)
        print("ok")
    except OSError as e:
        print(e.strerror)
sys.stdout.write(os.pread(fd, 1 << 16, 0).decode())
try:
    os.close(fd)
except OSError as e:
    print("close:", e.strerror)
PY
# The first fsync ends the open quoted field and refuses that record; the
# error stays (every later fsync and the close fail), the record is reported
# once, and the good line written next is stored.
expect_eq "an unclosed quote, fsync twice, then a good line" "Invalid argument
Invalid argument
ok
Invalid argument
line 2: a quoted field is not closed at the end of the input
1 rows stored, 1 lines refused
close: Invalid argument" "$(cat "$WORK/out")"
expect_eq "the good line after it was stored" after "$(cat "$S/ins/q/3/v")"
python3 -c '
import json
for i in range(30000):
    print(json.dumps({"p": "big", "c": i, "v": "x" * 40} if i != 29990 else {"p": "big", "c": "bad"}))
' >"$WORK/big.jsonl"
out=$(feed "$S/ins/@insert" rw "$WORK/big.jsonl")
expect_eq "a $(($(wc -c <"$WORK/big.jsonl") >> 20)) MiB write(): re-sent bytes are not parsed twice" \
  "29991 29999 rows stored, 1 lines refused" "$(transcript_lines "$out")$(tail -1 <<<"$out")"
# The bad line falls in a later piece of a write() larger than the kernel's
# largest request: that piece fails, the writer gets a short count and the
# re-sent rest is skipped (parsed already), so the write() itself may return
# in full; the error is sticky, so fsync and close fail.
expect_match "that write() is reported by fsync and close" "^write=(OK|EINVAL) fsync=EINVAL close=EINVAL$" \
  "$(head -1 <<<"$out")"
expect_eq "each good line stored once" 29999 "$(ls -U "$S/ins/big" | wc -l)"
python3 - "$S/ins/@insert" >"$WORK/out" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
for data in (b'{"p": "a"}\n', b'{"p": "w", "c": 1, "v": "after"}\n'):
    try:
        print(os.write(fd, data), end=" ")
    except OSError as e:
        print(e.strerror, end=" ")
    print("at", os.lseek(fd, 0, os.SEEK_CUR))
try:
    os.fsync(fd)
except OSError as e:
    print("fsync:", e.strerror)
sys.stdout.write(os.pread(fd, 1 << 16, 0).decode())
try:
    os.close(fd)
except OSError as e:
    print("close:", e.strerror)
PY
expect_eq "a write refused as a whole, then a good line at the same offset" "Invalid argument at 0
33 at 33
fsync: Invalid argument
line 1: missing key column 'c'
1 rows stored, 1 lines refused
close: Invalid argument" "$(cat "$WORK/out")"
expect_eq "the good line is stored (new input, not a re-send)" after "$(cat "$S/ins/w/1/v")"
daemon_ok "@insert"

hostile_finish
