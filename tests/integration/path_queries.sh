#!/usr/bin/env bash
# Scenario: queries past the primary key as paths (docs/FILESYSTEM.md
# "Queries past the key"): @count, a table's @limit=N, @where/col=value and
# @columns=a,b, driven with ls, cat, find and wc on a real mount, checked
# against what the scenario wrote. None of them is ever listed, and nothing
# beneath them can be written.
source "$(dirname "$0")/lib.sh" "$1"

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.users (org text, id int, name text, country text, PRIMARY KEY (org, id))"
cql "CREATE TABLE ks.flat (id int PRIMARY KEY, country text)"

step "load rows: 5 orgs x 40 users, every third in FR, the rest US"
{
  echo "org,id,name,country"
  for o in 1 2 3 4 5; do
    for i in $(seq 1 40); do
      if ((i % 3 == 0)); then c=FR; else c=US; fi
      echo "org$o,$i,user$o-$i,$c"
    done
  done
} >"$WORK/users.csv"
cat "$WORK/users.csv" >"$MNT/ks/users/@insert"
for i in $(seq 1 12); do mkdir "$MNT/ks/flat/$i"; echo US >"$MNT/ks/flat/$i/country"; done
echo FR >"$MNT/ks/flat/7/country"
rm -r "$MNT/ks/users/org5/40"   # a deleted row
mkdir "$MNT/ks/users/org1/1000@ttl=1"   # a row that expires
sleep 2

step "@count: table, partition, slice; rows = partitions without clustering columns"
expect_eq "table count" 199 "$(cat "$MNT/ks/users/@count")"
expect_eq "table count is find's count" "$(find "$MNT/ks/users" -mindepth 2 -maxdepth 2 | wc -l)" \
  "$(cat "$MNT/ks/users/@count")"
expect_eq "partition count" 40 "$(cat "$MNT/ks/users/org1/@count")"
expect_eq "slice count" 10 "$(cat "$MNT/ks/users/org2/@ge=11/@lt=21/@count")"
expect_eq "flat table count" 12 "$(cat "$MNT/ks/flat/@count")"

step "a table's @limit=N: the first N rows in token order, by full primary key"
first=$(ls -U "$MNT/ks/users" | head -1)
expect_eq "@limit=3 lists the first partition's first rows" \
  "$first,1
$first,2
$first,3" "$(ls -U "$MNT/ks/users/@limit=3")"
expect_eq "an entry reads like the row" "user${first#org}-2" \
  "$(cat "$MNT/ks/users/@limit=3/$first,2/name")"
expect_eq "@limit=N/@json has N lines" 7 "$(wc -l <"$MNT/ks/users/@limit=7/@json")"

step "@where/col=value: filter by scan, on a table, partition and slice"
expect_eq "FR rows, counted" 65 "$(cat "$MNT/ks/users/@where/country=FR/@count")"
expect_eq "FR rows, listed" 65 "$(ls -U "$MNT/ks/users/@where/country=FR" | wc -l)"
expect_eq "the listing matches a grep of the export" \
  "$(grep -c '"country": "FR"' "$MNT/ks/users/@json")" \
  "$(wc -l <"$MNT/ks/users/@where/country=FR/@json")"
expect_eq "a partition's filter lists clustering keys" "3 6 9" \
  "$(ls -U "$MNT/ks/users/org4/@where/country=FR" | head -3 | tr '\n' ' ' | sed 's/ $//')"
expect_eq "a slice's filter" 3 "$(ls "$MNT/ks/users/org4/@lt=10/@where/country=FR" | wc -l)"
expect_eq "nested filters are AND" "org3,7" \
  "$(ls "$MNT/ks/users/@where/country=US/@where/name=user3-7")"
expect_eq "a filter on a key column" 5 "$(ls "$MNT/ks/users/@where/id=2" | wc -l)"
expect_eq "the flat table" "7" "$(ls "$MNT/ks/flat/@where/country=FR")"
expect_eq "an entry reads like the row" "FR" "$(cat "$MNT/ks/users/@where/country=FR/org2,3/country")"
expect_missing "a row that does not match" "$MNT/ks/users/@where/country=FR/org2,4"
expect_eq "find walks a filter" 65 "$(find "$MNT/ks/users/@where/country=FR" -mindepth 1 -maxdepth 1 -type d | wc -l)"

step "@columns=a,b: a projection for exports"
expect_eq "csv, the named columns in order" \
  "name,org
user1-3,org1
user1-6,org1" "$(head -3 "$MNT/ks/users/org1/@where/country=FR/@columns=name,org/@csv")"
expect_eq "json" '{"id": 3}' "$(head -1 "$MNT/ks/users/org1/@where/country=FR/@columns=id/@json")"

step "never listed"
expect_eq "ls -A of a table shows partitions only" 5 "$(ls -A "$MNT/ks/users" | wc -l)"
expect_eq "no @ name anywhere under the table" 0 "$(find "$MNT/ks/users" -name '@*' | wc -l)"

step "refusals: a bad filter value is EINVAL with its reason; writes are EROFS"
expect_fail_errno "a value that does not parse" "Invalid argument" ls "$MNT/ks/users/@where/id=abc"
expect_contains "the reason in @errors" "@where/id=abc: EINVAL" "$(cat "$MNT/@errors")"
expect_fail_errno "writing a cell" "Read-only file system" \
  bash -c "echo DE > '$MNT/ks/users/@where/country=FR/org2,3/country'"
expect_fail_errno "removing a row" "Read-only file system" \
  rmdir "$MNT/ks/users/@where/country=FR/org2,3"
expect_fail_errno "making a row" "Read-only file system" mkdir "$MNT/ks/users/@where/country=FR/org9,9"
expect_eq "nothing changed" FR "$(cat "$MNT/ks/users/org2/3/country")"

unmount_fs
echo "PASS $SCENARIO"
