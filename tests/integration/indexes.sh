#!/usr/bin/env bash
# Scenario: the seed's users-by-country secondary index on a real mount.
# CREATE INDEX over a populated table, then table/@by/country/<value>/
# driven with ls, cat, wc and grep, SELECT through `cellfs cql` without
# ALLOW FILTERING, writes of every kind (a cell file, a row's @json,
# @insert, rm, TTL expiry) showing in the index at once, a remount, DROP
# INDEX. Every answer is checked against a grep of the table's export (the
# scan), which the index must always equal.
source "$(dirname "$0")/lib.sh" "$1"

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.users (id int PRIMARY KEY, name text, country text, age int)"

step "load 300 users, then index country over the populated table"
{
  echo "id,name,country,age"
  for i in $(seq 1 300); do
    case $((i % 4)) in 0) c=FR ;; 1) c=DE ;; *) c=US ;; esac
    echo "$i,user$i,$c,$((20 + i % 50))"
  done
} >"$WORK/users.csv"
cat "$WORK/users.csv" >"$MNT/ks/users/@insert"
cql "CREATE INDEX ON ks.users (country)"
expect_contains "DESCRIBE shows the index" "CREATE INDEX users_country_idx ON ks.users (country);" \
  "$(cat "$MNT/ks/users/@schema")"

# scan_count VALUE: the rows whose country is VALUE, by grep of the export.
scan_count() { grep -c "\"country\": \"$1\"" "$MNT/ks/users/@json" || true; }
check_index() {
  local c
  for c in US FR DE XX; do
    expect_eq "$1: @by/country/$c lists what a scan finds" "$(scan_count $c)" \
      "$(ls -U "$MNT/ks/users/@by/country/$c" | wc -l)"
    expect_eq "$1: @by/country/$c/@count" "$(scan_count $c)" \
      "$(cat "$MNT/ks/users/@by/country/$c/@count")"
  done
}

step "@by/country/<value>: the index's rows, each reading like the row"
check_index "after the build"
expect_contains "@stats gives the index's cardinality and widest value" \
  "users_country_idx (country): 3 values / 300 matches, widest US with 150" \
  "$(cat "$MNT/ks/users/@stats")"
expect_eq "75 FR users" 75 "$(ls "$MNT/ks/users/@by/country/FR" | wc -l)"
expect_eq "an entry reads like the row" "user8" "$(cat "$MNT/ks/users/@by/country/FR/8/name")"
expect_eq "@json exports the matches" 75 "$(wc -l <"$MNT/ks/users/@by/country/FR/@json")"
expect_eq "@by is never listed" "" "$(ls -a "$MNT/ks/users" | grep '^@' || true)"

step "SELECT ... WHERE country = 'FR' uses the index: no ALLOW FILTERING needed"
out=$("$CELLFS" cql "$MNT" -e "SELECT count(*) FROM ks.users WHERE country = 'FR'")
expect_contains "the count" "75" "$out"
rc=0
out=$("$CELLFS" cql "$MNT" -e "SELECT * FROM ks.users WHERE age = 30" 2>&1) || rc=$?
expect_eq "an unindexed column still needs ALLOW FILTERING" 1 "$rc"
expect_contains "Cassandra's words" "ALLOW FILTERING" "$out"

step "slices: @by/age/@ge=30/@lt=40/ and SELECT ... WHERE age >= 30 AND age < 40 through SAI"
cql "CREATE CUSTOM INDEX age_sai ON ks.users (age) USING 'StorageAttachedIndex'"
# scan_ids LOW HIGH: the ids with LOW <= age < HIGH, in the export's (token) order.
scan_ids() {
  python3 -c '
import json, sys
low, high = int(sys.argv[1]), int(sys.argv[2])
for line in open(sys.argv[3]):
    row = json.loads(line)
    if row["age"] is not None and low <= row["age"] < high:
        print(row["id"])' "$1" "$2" "$MNT/ks/users/@json"
}
expect_eq "@by/age/@ge=30/@lt=40 lists what the scan finds, in token order" "$(scan_ids 30 40)" \
  "$(ls -U "$MNT/ks/users/@by/age/@ge=30/@lt=40")"
expect_eq "60 users are 30 to 39" 60 "$(scan_ids 30 40 | wc -l)"
expect_eq "@count of the slice" "$(scan_ids 30 40 | wc -l)" \
  "$(cat "$MNT/ks/users/@by/age/@ge=30/@lt=40/@count")"
expect_eq "an open-ended slice" "$(scan_ids 60 1000)" "$(ls -U "$MNT/ks/users/@by/age/@ge=60")"
out=$("$CELLFS" cql "$MNT" -e "SELECT count(*) FROM ks.users WHERE age >= 30 AND age < 40")
expect_contains "SELECT through SAI without ALLOW FILTERING" "$(scan_ids 30 40 | wc -l)" "$out"
expect_fail_errno "a bound that is not an int" "Invalid argument" \
  ls "$MNT/ks/users/@by/age/@ge=thirty"
cql "DROP INDEX ks.age_sai"

step "writes of every kind move rows in and out of the index at once"
echo FR >"$MNT/ks/users/1/country"                        # a cell file
printf '{"country": "FR"}' >"$MNT/ks/users/2/@json"        # a row's @json
printf 'id,name,country,age\n3,user3,FR,40\n' >"$MNT/ks/users/@insert"
rm -r "$MNT/ks/users/4"                                    # a deleted row (was FR)
rm "$MNT/ks/users/8/country"                               # a deleted cell (was FR)
mkdir "$MNT/ks/users/1000"
echo FR >"$MNT/ks/users/1000/country@ttl=1"                # expires
expect_eq "the new FR rows are there" "1 2 3" \
  "$(ls "$MNT/ks/users/@by/country/FR" | sort -n | head -3 | tr '\n' ' ' | sed 's/ $//')"
expect_missing "a deleted row is gone" "$MNT/ks/users/@by/country/FR/4"
expect_missing "a row whose cell was deleted is gone" "$MNT/ks/users/@by/country/FR/8"
expect_missing "a row that left DE is gone from DE" "$MNT/ks/users/@by/country/DE/1"
sleep 2
expect_missing "an expired cell is gone" "$MNT/ks/users/@by/country/FR/1000"
check_index "after the writes"

step "a value too long to index refuses the write, in Cassandra's words, and keeps the old value"
python3 -c 'print("x" * 70000)' >"$WORK/long.txt"
expect_fail_errno "a 70000-byte indexed value" "Invalid argument" \
  cp "$WORK/long.txt" "$MNT/ks/users/1/country"
expect_contains "the reason in @errors" \
  "Cannot index value of size 70000 for index users_country_idx on ks.users(country) (maximum allowed size=65535)" \
  "$(cat "$MNT/@errors")"
expect_eq "the old value stays" FR "$(cat "$MNT/ks/users/1/country")"

step "the index survives a remount"
unmount_fs
mount_fs
check_index "after a remount"

step "a column without an index is refused with the reason; DROP INDEX"
expect_fail_errno "@by on an unindexed column" "Invalid argument" ls "$MNT/ks/users/@by/age/30"
expect_contains "the reason in @errors" "has no index" "$(cat "$MNT/@errors")"
cql "DROP INDEX ks.users_country_idx"
expect_fail_errno "@by after DROP INDEX" "Invalid argument" ls "$MNT/ks/users/@by/country/FR"
expect_eq "@where scans instead" "$(scan_count FR)" \
  "$(ls "$MNT/ks/users/@where/country=FR" | wc -l)"

step "a table past CREATE INDEX's inline 50,000 rows: the rest builds in the background"
{
  echo "id,country"
  seq 1 60000 | awk '{ print $1 "," ($1 % 3 == 0 ? "US" : "FR") }'
} >"$WORK/big.csv"
cql "CREATE TABLE ks.big (id int PRIMARY KEY, country text)"
cat "$WORK/big.csv" >"$MNT/ks/big/@insert"
cql "CREATE INDEX ON ks.big (country)"
# Until the build ends, @status lists it with at least the rows the
# statement read before it returned; then the list is empty.
for _ in $(seq 1 600); do
  verdict=$(python3 - "$MNT/@status" <<'PY'
import json, sys
builds = json.load(open(sys.argv[1]))["builds"]
if not builds:
    print("done")
elif all(b["name"] == "big_country_idx" and b["rows"] >= 50000 and b["error"] is None
         for b in builds):
    print("running")
else:
    print("bad " + json.dumps(builds))
PY
  )
  [ "$verdict" = running ] || break
  sleep 0.2
done
expect_eq "the build ended, and while it ran @status showed its progress" done "$verdict"
expect_eq "@by after the background build: 20000 US rows" 20000 \
  "$(ls -U "$MNT/ks/big/@by/country/US" | wc -l)"
expect_contains "@stats: built" "big_country_idx (country): 2 values / 60000 matches" \
  "$(cat "$MNT/ks/big/@stats")"
expect_contains "cellfs status runs" "$MNT" "$("$CELLFS" status "$MNT")"

unmount_fs
echo "PASS $SCENARIO"
