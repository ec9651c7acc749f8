#!/usr/bin/env bash
# Scenario: bulk data in and out. `cellfs load` streams JSON Lines and CSV
# into TABLE/@insert (bad lines reported by number, good ones stored),
# `cellfs dump` reads a whole table back as JSON Lines or CSV, `cellfs stats`
# prints, emits and draws the table's statistics; then the same offline, on
# the unmounted data directory.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

# run ARGS...: runs cellfs; sets RC, OUT (stdout) and ERR (stderr).
run() {
  RC=0
  "$CELLFS" "$@" >"$WORK/out" 2>"$WORK/err" || RC=$?
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
}

# expect_line WHAT PREFIX TEXT: some line of TEXT starts with PREFIX.
expect_line() {
  [[ $'\n'$3 == *$'\n'"$2"* ]] || fail "$1: no line starting with $(_show "$2") in $(_show "$3")"
}

# py SCRIPT ARGS...: a python3 check; its stdout is the result.
py() { python3 -c "$@"; }

mount_fs
mkdir "$MNT/bulk"
cql "CREATE TABLE bulk.t (p int, c int, v text, n int, tags set<text>, PRIMARY KEY (p, c))"
T=$MNT/bulk/t

step "load a JSON Lines file of 3000 rows"
py '
import json
for i in range(3000):
    print(json.dumps({"p": i % 30, "c": i, "v": "value %d" % i, "n": i * 7}))
' >"$WORK/rows.jsonl"
run load "$MNT" bulk.t "$WORK/rows.jsonl"
expect_eq "exit code of a clean load" 0 "$RC"
expect_match "summary line" "^loaded $WORK/rows.jsonl: 3000 rows stored, 0 refused, [0-9.]+[kMG]? lines/s\$" "$OUT"
expect_eq "nothing on stderr off a terminal" "" "$ERR"
expect_eq "a loaded cell" "value 1234" "$(cat "$T/4/1234/v")"
expect_eq "another loaded cell" "$((2999 * 7))" "$(cat "$T/29/2999/n")"
expect_eq "partitions listed" 30 "$(ls -U "$T" | wc -l)"

step "load a CSV file with a header, quoting and a multi-line value, and stdin"
{
  echo 'p,c,v,tags'
  for i in $(seq 0 499); do echo "$((100 + i % 5)),$i,\"csv, $i\",\"{'a', 'b$i'}\""; done
  printf '%s\n' '105,0,"two' 'lines",'
} >"$WORK/rows.csv"
run load "$MNT" bulk.t "$WORK/rows.csv"
expect_eq "exit code of the CSV load" 0 "$RC"
expect_contains "CSV summary" "501 rows stored, 0 refused" "$OUT"
expect_eq "a quoted field with a comma" "csv, 7" "$(cat "$T/102/7/v")"
expect_eq "a set from CSV" "{'a', 'b7'}" "$(cat "$T/102/7/tags")"
expect_eq "a multi-line field" $'two\nlines' "$(cat "$T/105/0/v")"
printf '{"p": 106, "c": 1, "v": "from stdin"}\n{"p": 106, "c": 2, "v": "also"}\n' >"$WORK/stdin.jsonl"
RC=0
OUT=$("$CELLFS" load "$MNT" bulk.t - <"$WORK/stdin.jsonl" 2>"$WORK/err") || RC=$?
expect_eq "exit code of a load from stdin" 0 "$RC"
expect_match "stdin summary" "^loaded stdin: 2 rows stored, 0 refused, " "$OUT"
expect_eq "a row from stdin" "from stdin" "$(cat "$T/106/1/v")"
ROWS=$((3000 + 501 + 2))
PARTITIONS=$((30 + 6 + 1))

step "dump as JSON Lines: every row once, token order, the values loaded"
run dump "$MNT" bulk.t
expect_eq "exit code of dump" 0 "$RC"
printf '%s\n' "$OUT" >"$WORK/dump.jsonl"
expect_eq "dump line count" "$ROWS" "$(wc -l <"$WORK/dump.jsonl")"
expect_eq "dump is the table's @json" "$(cat "$T/@json")" "$OUT"
check=$(py '
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
keys = {(r["p"], r["c"]) for r in rows}
by_key = {(r["p"], r["c"]): r for r in rows}
print(len(keys), by_key[(4, 1234)]["v"], by_key[(4, 1234)]["n"], by_key[(105, 0)]["v"] == "two\nlines",
      by_key[(102, 7)]["tags"])
' "$WORK/dump.jsonl")
expect_eq "dump content" "$ROWS value 1234 8638 True ['a', 'b7']" "$check"
order=$(py '
import json, sys
seen = []
for line in open(sys.argv[1]):
    p = json.loads(line)["p"]
    if not seen or seen[-1] != p: seen.append(p)
print(len(seen))
' "$WORK/dump.jsonl")
expect_eq "each partition's rows are together" "$PARTITIONS" "$order"
expect_eq "partitions in listing (token) order" "$(ls -U "$T" | tr '\n' ' ')" \
  "$(py '
import json, sys
seen = []
for line in open(sys.argv[1]):
    p = str(json.loads(line)["p"])
    if not seen or seen[-1] != p: seen.append(p)
print(" ".join(seen) + " ", end="")
' "$WORK/dump.jsonl")"

step "dump --csv and -o FILE"
run dump "$MNT" bulk.t --csv -o "$WORK/dump.csv"
expect_eq "exit code of dump --csv -o" 0 "$RC"
expect_eq "nothing on stdout with -o" "" "$OUT"
expect_eq "dump -o holds the table's @csv" "$(cat "$T/@csv")" "$(cat "$WORK/dump.csv")"
check=$(py '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
header, body = rows[0], rows[1:]
r = {(x[header.index("p")], x[header.index("c")]): x for x in body}
print(sorted(header), len(body), r[("105", "0")][header.index("v")] == "two\nlines",
      r[("4", "1234")][header.index("v")])
' "$WORK/dump.csv")
expect_eq "CSV dump content" "['c', 'n', 'p', 'tags', 'v'] $ROWS True value 1234" "$check"

step "a dump loads back into an equal table, from JSON Lines and from CSV"
cql "CREATE TABLE bulk.copy_json (p int, c int, v text, n int, tags set<text>, PRIMARY KEY (p, c))"
cql "CREATE TABLE bulk.copy_csv (p int, c int, v text, n int, tags set<text>, PRIMARY KEY (p, c))"
run load "$MNT" bulk.copy_json "$WORK/dump.jsonl"
expect_eq "reload of the JSON dump" 0 "$RC"
run load "$MNT" bulk.copy_csv "$WORK/dump.csv"
expect_eq "reload of the CSV dump" 0 "$RC"
expect_eq "JSON round trip" "$(cat "$WORK/dump.jsonl")" "$("$CELLFS" dump "$MNT" bulk.copy_json)"
expect_eq "CSV round trip" "$(cat "$WORK/dump.jsonl")" "$("$CELLFS" dump "$MNT" bulk.copy_csv)"

step "bad lines: reported by number, exit 1, the good rows stored"
{
  echo '{"p": 200, "c": 1, "v": "ok 1"}'
  echo '{"p": 200, "c": 2, "v": "ok 2"}'
  echo '{"p": 200, "c": "three", "v": "bad key"}'
  echo '{"p": 200, "c": 4, "v": "ok 4"}'
  echo
  echo '{"p": 200, "c": 6, "v": "ok 6"}'
  echo '{"p": 200, "c": 7, "n": "not a number"}'
  echo '{"p": 200, "c": 8, "v": "ok 8"}'
} >"$WORK/bad.jsonl"
run load "$MNT" bulk.t "$WORK/bad.jsonl"
expect_eq "exit code with refused lines" 1 "$RC"
expect_contains "summary of a partly refused file" "5 rows stored, 2 refused" "$OUT"
expect_line "line 3 reported" "$WORK/bad.jsonl: line 3: " "$ERR"
expect_line "line 7 reported" "$WORK/bad.jsonl: line 7: " "$ERR"
expect_eq "exactly the two refusals on stderr" 2 "$(grep -c ': line ' <<<"$ERR")"
expect_eq "good rows around bad ones are stored" "1 2 4 6 8 " "$(ls -U "$T/200" | tr '\n' ' ')"
expect_eq "a good row after the last bad one" "ok 8" "$(cat "$T/200/8/v")"
printf 'p,c,v\n201,1,a\n201,x,b\n201,3,"last, unterminated line"' >"$WORK/bad.csv"
run load "$MNT" bulk.t "$WORK/bad.csv" "$WORK/rows.jsonl"
expect_eq "exit code when one of two files has a bad line" 1 "$RC"
expect_line "the CSV's bad line" "$WORK/bad.csv: line 3: " "$ERR"
expect_contains "the CSV's last line, without a newline, stored" "2 rows stored, 1 refused" "$OUT"
expect_contains "the second file still loaded" "loaded $WORK/rows.jsonl: 3000 rows stored, 0 refused" "$OUT"
expect_eq "the unterminated last CSV line" "last, unterminated line" "$(cat "$T/201/3/v")"
ROWS=$((ROWS + 5 + 2))
PARTITIONS=$((PARTITIONS + 2))

step "--ttl and --timestamp apply to every line"
echo '{"p": 300, "c": 1, "v": "expiring"}' >"$WORK/ttl.jsonl"
run load "$MNT" bulk.t "$WORK/ttl.jsonl" --ttl 1000 --timestamp 1700000000000000
expect_eq "exit code of a load with --ttl --timestamp" 0 "$RC"
ttl=$(getfattr --absolute-names --only-values -n user.cellfs.ttl "$T/300/1/v")
[[ $ttl -gt 900 && $ttl -le 1000 ]] || fail "TTL of a --ttl 1000 load: $ttl"
expect_eq "write time of a --timestamp load" 1700000000000000 \
  "$(getfattr --absolute-names --only-values -n user.cellfs.writetime "$T/300/1/v")"
run load "$MNT" bulk.t "$WORK/ttl.jsonl" --ttl=-5
expect_eq "exit code of a bad --ttl" 2 "$RC"
expect_contains "a bad --ttl is named" "--ttl" "$ERR"
ROWS=$((ROWS + 1))
PARTITIONS=$((PARTITIONS + 1))

step "many refused records: 100 reasons shown, every row in --errfile, which loads again"
cql "CREATE TABLE bulk.e (p int, c int, v text, PRIMARY KEY (p, c))"
py 'import sys
with open(sys.argv[1], "w") as f:
    f.write("p,c,v\n")
    for i in range(500):
        f.write("1,%s,row %d\n" % (i if i % 2 else "x%d" % i, i))' "$WORK/many.csv"
run load "$MNT" bulk.e "$WORK/many.csv" --errfile "$WORK/many.err"
expect_eq "exit code with refused records" 1 "$RC"
expect_contains "the summary" "250 rows stored, 250 refused" "$OUT"
expect_eq "100 reasons on stderr" 100 "$(grep -c "^$WORK/many.csv: line [0-9]*: " <<<"$ERR")"
expect_line "the rest counted" "$WORK/many.csv: ... and 150 more refused records (their rows are in $WORK/many.err)" "$ERR"
expect_eq "the errfile: the header and the 250 rows" 251 "$(wc -l <"$WORK/many.err")"
expect_eq "its first row" "1,x0,row 0" "$(sed -n 2p "$WORK/many.err")"
sed -i 's/^1,x\([0-9]*\),/1,\1,/' "$WORK/many.err"
run load "$MNT" bulk.e "$WORK/many.err"
expect_eq "the fixed errfile loads" 0 "$RC"
expect_eq "every row now" 500 "$(cat "$MNT/bulk/e/1/@count")"

step "--max-errors stops the load: later files unread, a long file at its next checkpoint"
printf '{"p": 2, "c": "bad"}\n%.0s' $(seq 20) >"$WORK/bad20.jsonl"
printf '{"p": 3, "c": 1, "v": "never"}\n' >"$WORK/later.jsonl"
run load "$MNT" bulk.e "$WORK/bad20.jsonl" "$WORK/later.jsonl" --max-errors 10
expect_eq "exit code of a stopped load" 1 "$RC"
expect_contains "why it stopped" "stopped: more than 10 records refused (--max-errors)" "$ERR"
expect_missing "the later file was not loaded" "$MNT/bulk/e/3"
py 'import sys
with open(sys.argv[1], "w") as f:
    for i in range(20): f.write("{\"p\": 4, \"c\": \"bad\"}\n")
    for i in range(300000): f.write("{\"p\": 4, \"c\": %d, \"v\": \"padding padding\"}\n" % i)' \
  "$WORK/long.jsonl"
run load "$MNT" bulk.e "$WORK/long.jsonl" --max-errors 5
expect_eq "exit code of a load stopped inside a file" 1 "$RC"
expect_contains "stopped inside the file" "the rest of this file and any later file are not" "$ERR"
stored=$(cat "$MNT/bulk/e/4/@count")
[[ $stored -gt 0 && $stored -lt 300000 ]] || fail "rows stored before the stop: $stored of 300000"
run load "$MNT" bulk.e "$WORK/bad20.jsonl" --max-errors 20
expect_eq "exactly the limit refused: no stop" 1 "$RC"
expect_not_contains "no stop at the limit" "stopped" "$ERR"
run load --offline "$WORK/nosuchdir" bulk.e "$WORK/bad20.jsonl" --max-errors -2
expect_eq "a --max-errors below -1 is a usage error" 2 "$RC"

step "what cannot be loaded or dumped"
run load "$MNT" bulk.nosuch "$WORK/ttl.jsonl"
expect_eq "exit code for a missing table" 1 "$RC"
expect_contains "a missing table" "No such file or directory" "$ERR"
run load "$MNT" bulk.t "$WORK/missing.jsonl"
expect_eq "exit code for a missing file" 1 "$RC"
expect_contains "a missing file" "$WORK/missing.jsonl: No such file or directory" "$ERR"
run dump "$MNT" bulk.nosuch
expect_eq "exit code of dump of a missing table" 1 "$RC"
run dump "$MNT" nodot
expect_eq "exit code of a table name without a keyspace" 2 "$RC"

step "stats: text, JSON, SVG"
run stats "$MNT" bulk.t
expect_eq "exit code of stats" 0 "$RC"
expect_match "stats text names the partition count" "[Pp]artitions[^0-9]*$PARTITIONS([^0-9]|\$)" "$OUT"
run stats "$MNT" bulk.t --json
expect_eq "exit code of stats --json" 0 "$RC"
check=$(py '
import json, sys
s = json.loads(sys.stdin.read())
print(s["partitions"], s["rows"], [r["nodes"] for r in s["rings"]],
      [sum(r["partitions"]) for r in s["rings"]])
' <<<"$OUT")
expect_eq "stats JSON" "$PARTITIONS $ROWS [3, 6, 12] [$PARTITIONS, $PARTITIONS, $PARTITIONS]" "$check"
run stats "$MNT" bulk.t --plot "$WORK/stats.svg"
expect_eq "exit code of stats --plot" 0 "$RC"
expect_match "--plot still prints the text" "[Pp]artitions[^0-9]*$PARTITIONS([^0-9]|\$)" "$OUT"
expect_ok "the plot is well-formed XML" \
  python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])" "$WORK/stats.svg"
check=$(py '
import xml.dom.minidom, sys
d = xml.dom.minidom.parse(sys.argv[1])
print(d.documentElement.tagName, len(d.getElementsByTagName("rect")) - 1)
' "$WORK/stats.svg")
expect_eq "an svg with a bar per percentile (12) and two per node (42)" "svg 54" "$check"

step "offline commands refuse a mounted data directory"
run load --offline "$DATA" bulk.t "$WORK/ttl.jsonl"
expect_eq "exit code of load --offline while mounted" 1 "$RC"
expect_contains "load --offline while mounted" "in use" "$ERR"
run dump --offline "$DATA" bulk.t
expect_eq "exit code of dump --offline while mounted" 1 "$RC"
FINAL_DUMP=$("$CELLFS" dump "$MNT" bulk.t)
unmount_fs

step "dump --offline is the mount's dump"
run dump --offline "$DATA" bulk.t
expect_eq "exit code of dump --offline" 0 "$RC"
expect_eq "offline dump equals the mounted one" "$FINAL_DUMP" "$OUT"
run dump --offline "$DATA" bulk.t --csv -o "$WORK/offline.csv"
expect_eq "exit code of dump --offline --csv -o" 0 "$RC"
expect_eq "offline CSV rows" "$((ROWS + 1))" "$(py '
import csv, sys
print(len(list(csv.reader(open(sys.argv[1], newline="")))))
' "$WORK/offline.csv")"
run dump --offline "$WORK/nosuch" bulk.t
expect_eq "exit code of dump --offline of a missing directory" 1 "$RC"
expect_missing "no directory made by a failed --offline" "$WORK/nosuch"

step "load --offline: the same reports, stored durably"
{
  echo '{"p": 400, "c": 1, "v": "offline 1"}'
  echo '{"p": 400, "c": "bad"}'
  echo '{"p": 400, "c": 3, "v": "offline 3"}'
} >"$WORK/offline.jsonl"
run load --offline "$DATA" bulk.t "$WORK/offline.jsonl" "$WORK/stdin.jsonl"
expect_eq "exit code of load --offline with a bad line" 1 "$RC"
expect_line "offline bad line reported" "$WORK/offline.jsonl: line 2: " "$ERR"
expect_contains "offline summary" "loaded $WORK/offline.jsonl: 2 rows stored, 1 refused" "$OUT"
expect_contains "offline second file" "loaded $WORK/stdin.jsonl: 2 rows stored, 0 refused" "$OUT"
run load --offline "$DATA" bulk.t "$WORK/stdin.jsonl"
expect_eq "exit code of a clean load --offline" 0 "$RC"
run load --offline "$DATA" bulk.e "$WORK/bad20.jsonl" "$WORK/later.jsonl" --max-errors 10
expect_eq "exit code of a stopped offline load" 1 "$RC"
expect_contains "why the offline load stopped" "more than 10 records refused" "$ERR"
run stats --offline "$DATA" bulk.t --json
expect_eq "offline stats count the new partition" "$((PARTITIONS + 1))" \
  "$(py 'import json,sys; print(json.loads(sys.stdin.read())["partitions"])' <<<"$OUT")"

step "a remount serves what was loaded offline"
mount_fs
expect_eq "an offline-loaded cell" "offline 3" "$(cat "$T/400/3/v")"
expect_missing "the file after the offline stop was not loaded" "$MNT/bulk/e/3"
expect_eq "dump line count after the offline load" "$((ROWS + 2))" \
  "$("$CELLFS" dump "$MNT" bulk.t | wc -l)"
unmount_fs
echo "bulk: ok"
