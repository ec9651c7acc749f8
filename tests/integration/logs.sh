#!/usr/bin/env bash
# Scenario: a time-bucketed log table ((host, day), ts DESC). Rows written with
# mkdir -p + echo, read back through listings, slices, @json and @csv, then
# removed with rm -r.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/ops"
cql "CREATE TABLE ops.logs (host text, day int, ts timestamp, level text, msg text,
     PRIMARY KEY ((host, day), ts)) WITH CLUSTERING ORDER BY (ts DESC)"
L=$MNT/ops/logs
P=$L/MPLS2,20180723

step "write 20 rows in shuffled order with mkdir -p + echo"
ts_of() { printf '2018-07-23T%02d:%02d:00.000Z' "$1" $(( ($1 * 7) % 60 )); }
# The same moment as SELECT JSON and COPY TO print it.
json_ts_of() { ts_of "$1" | sed 's/T/ /'; }
csv_ts_of() { ts_of "$1" | sed 's/T/ /; s/Z$/+0000/'; }
for k in $(seq 0 19); do
  i=$(( (k * 7) % 20 ))            # a fixed permutation of 0..19
  ts=$(ts_of "$i")
  mkdir -p "$P/$ts"
  if (( i % 5 == 0 )); then echo WARN > "$P/$ts/level"; else echo INFO > "$P/$ts/level"; fi
  echo "event $i" > "$P/$ts/msg"
done
echo "disk full, retrying" > "$P/$(ts_of 13)/msg"
asc=$(for i in $(seq 0 19); do ts_of "$i"; echo; done)
desc=$(for i in $(seq 19 -1 0); do ts_of "$i"; echo; done)

step "listings: ls -U in clustering order (newest first), plain ls by name"
expect_eq "ls -U of the partition (ts DESC)" "$desc" "$(ls -U "$P")"
expect_eq "plain ls of the partition (sorted by name)" "$asc" "$(ls "$P")"
expect_eq "ls -U of a row (cells in schema order)" $'level\nmsg' "$(ls -U "$P/$(ts_of 4)")"
expect_eq "cat a cell" "event 4" "$(cat "$P/$(ts_of 4)/msg")"
expect_eq "cat a cell with a comma" "disk full, retrying" "$(cat "$P/$(ts_of 13)/msg")"
expect_eq "ls of the table" "MPLS2,20180723" "$(ls -U "$L")"

step "partitions list in token order"
mkdir -p "$L/MPLS2,20180724/2018-07-24T01:00:00.000Z" "$L/STP1,20180723/2018-07-23T01:00:00.000Z"
echo x > "$L/MPLS2,20180724/2018-07-24T01:00:00.000Z/msg"
echo y > "$L/STP1,20180723/2018-07-23T01:00:00.000Z/msg"
by_token=$(for p in "$L"/*; do
  printf '%s %s\n' "$(getfattr --absolute-names --only-values -n user.cellfs.token "$p")" "$(basename "$p")"
done | sort -n -k1,1 | cut -d' ' -f2)
expect_eq "ls -U of the table is token order" "$by_token" "$(ls -U "$L")"
expect_eq "three partitions" 3 "$(ls -U "$L" | wc -l)"

step "slices"
expect_eq "@ge=06:00/@lt=10:00" \
  "$(printf '%s\n' "$desc" | awk '$0 >= "2018-07-23T06" && $0 < "2018-07-23T10"')" \
  "$(ls -U "$P/@ge=2018-07-23T06:00:00.000Z/@lt=2018-07-23T10:00:00.000Z")"
expect_eq "@ge/@lt lists 4 rows" 4 \
  "$(ls -U "$P/@ge=2018-07-23T06:00:00.000Z/@lt=2018-07-23T10:00:00.000Z" | wc -l)"
expect_eq "@gt/@le" "$(printf '%s\n' "$desc" | sed -n '10,15p')" \
  "$(ls -U "$P/@gt=$(ts_of 4)/@le=$(ts_of 10)")"
expect_eq "@limit=3 (the 3 newest)" "$(printf '%s\n' "$desc" | head -3)" "$(ls -U "$P/@limit=3")"
expect_eq "@reverse (oldest first)" "$asc" "$(ls -U "$P/@reverse")"
expect_eq "@reverse/@limit=3 (the 3 oldest)" "$(printf '%s\n' "$asc" | head -3)" \
  "$(ls -U "$P/@reverse/@limit=3")"
expect_eq "@ge/@lt/@reverse" \
  "$(ts_of 6; echo; ts_of 7; echo; ts_of 8; echo; ts_of 9)" \
  "$(ls -U "$P/@ge=2018-07-23T06:00:00.000Z/@lt=2018-07-23T10:00:00.000Z/@reverse")"
expect_eq "@lt=10:00/@limit=2 (nested: 2 newest before 10:00)" "$(ts_of 9; echo; ts_of 8)" \
  "$(ls -U "$P/@lt=2018-07-23T10:00:00.000Z/@limit=2")"
expect_eq "bound in another CQL spelling" "$(ts_of 19; echo; ts_of 18)" \
  "$(ls -U "$P/@ge=2018-07-23 18:00:00+0000")"
expect_eq "a slice's row is the row" "event 7" \
  "$(cat "$P/@ge=2018-07-23T06:00:00.000Z/$(ts_of 7)/msg")"
expect_eq "an empty slice" "" "$(ls -U "$P/@gt=2018-07-23T23:00:00.000Z")"
slice_json=$(cat "$P/@ge=2018-07-23T06:00:00.000Z/@lt=2018-07-23T10:00:00.000Z/@json")
expect_eq "slice @json has 4 lines" 4 "$(printf '%s\n' "$slice_json" | wc -l)"
expect_contains "slice @json first row" "\"ts\": \"$(json_ts_of 9)\"" "$(printf '%s\n' "$slice_json" | head -1)"
expect_eq "slice @csv" "host,day,ts,level,msg
MPLS2,20180723,$(csv_ts_of 7),INFO,event 7
MPLS2,20180723,$(csv_ts_of 6),INFO,event 6" \
  "$(cat "$P/@ge=2018-07-23T06:00:00.000Z/@lt=2018-07-23T08:00:00.000Z/@csv")"
expect_fail_errno "@limit=0" "Invalid argument" ls "$P/@limit=0"
expect_fail_errno "@ge with a bad timestamp" "Invalid argument" ls "$P/@ge=yesterday"
expect_fail_errno "unknown @ name" "No such file or directory" ls "$P/@between=1"

step "@json: JSON Lines in clustering order"
json=$(cat "$P/@json")
expect_eq "partition @json line count" 20 "$(printf '%s\n' "$json" | wc -l)"
expect_eq "partition @json first line" \
  "{\"host\": \"MPLS2\", \"day\": 20180723, \"ts\": \"$(json_ts_of 19)\", \"level\": \"INFO\", \"msg\": \"event 19\"}" \
  "$(printf '%s\n' "$json" | head -1)"
expect_eq "partition @json ts order" "$desc" \
  "$(printf '%s\n' "$json" | python3 -c 'import sys, json
for line in sys.stdin: print(json.loads(line)["ts"])' | sed 's/ /T/')"
expect_eq "row @json" \
  "{\"host\": \"MPLS2\", \"day\": 20180723, \"ts\": \"$(json_ts_of 13)\", \"level\": \"INFO\", \"msg\": \"disk full, retrying\"}" \
  "$(cat "$P/$(ts_of 13)/@json")"

step "@csv with a header"
csv=$(cat "$P/@csv")
expect_eq "@csv header" "host,day,ts,level,msg" "$(printf '%s\n' "$csv" | head -1)"
expect_eq "@csv line count" 21 "$(printf '%s\n' "$csv" | wc -l)"
expect_eq "@csv first row" "MPLS2,20180723,$(csv_ts_of 19),INFO,event 19" "$(printf '%s\n' "$csv" | sed -n 2p)"
expect_eq "@csv quotes a comma" "MPLS2,20180723,$(csv_ts_of 13),INFO,\"disk full, retrying\"" \
  "$(printf '%s\n' "$csv" | grep "$(csv_ts_of 13)")"
expect_eq "@csv parses back" "$desc" \
  "$(printf '%s\n' "$csv" | python3 -c 'import sys, csv
for r in csv.DictReader(sys.stdin): print(r["ts"])' | sed 's/ /T/; s/+0000$/Z/')"

step "rm -r of a row, then of the partition"
rm -r "${P:?}/$(ts_of 5)"
expect_missing "removed row" "$P/$(ts_of 5)"
expect_eq "listing without the row" "$(printf '%s\n' "$desc" | grep -v "$(ts_of 5)")" "$(ls -U "$P")"
expect_eq "@json without the row" 19 "$(cat "$P/@json" | wc -l)"
rm -r "$P"
expect_missing "removed partition" "$P"
expect_eq "table listing without the partition" \
  "$(printf '%s\n' "$by_token" | grep -v '^MPLS2,20180723$')" "$(ls -U "$L")"
expect_eq "table @json without the partition" 2 "$(cat "$L/@json" | wc -l)"
