#!/usr/bin/env bash
# Scenario: value spellings on a real mount (docs/CQL.md, "Values"):
# Cassandra's timestamp patterns in names, a timeuuid-clustered partition
# sliced with minTimeuuid/maxTimeuuid, decimal keys in plain text, UDTs
# with every field, and @json/@csv in SELECT JSON / COPY TO shapes.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.events (src text, at timeuuid, note text, PRIMARY KEY (src, at))"
cql "CREATE TABLE ks.readings (src text, at timestamp, boss text static, v double,
     PRIMARY KEY (src, at))"
cql "CREATE TABLE ks.prices (d decimal PRIMARY KEY, label text)"
cql "CREATE TYPE ks.address (street text, city text, zip int)"
cql "CREATE TABLE ks.people (name text PRIMARY KEY, home frozen<address>)"

step "timestamp names in each of Cassandra's forms resolve to one canonical key"
R=$MNT/ks/readings/s1
mkdir -p "$R"
mkdir "$R/2018-07-23 9:04:59.377"
expect_eq "one-digit hour, listed canonical" "2018-07-23T09:04:59.377Z" "$(ls "$R")"
mkdir "$R/2018-07-23 6:00"
expect_eq "no seconds" $'2018-07-23T06:00:00.000Z\n2018-07-23T09:04:59.377Z' "$(ls "$R")"
mkdir "$R/2018-07-23 07:00 UTC"
for spelling in "2018-07-23 08:00+0100" "2018-07-23T08:00+01:00" "2018-07-23 08:00 GMT+1:00" \
  "2018-07-23T07:00Z" "2018-07-23 02:00 -0500" "2018-07-23 7:0:0.0" "1532329200000"; do
  expect_exists "lookup of '$spelling'" "$R/$spelling"
done
expect_eq "all the 07:00 spellings are one key" 3 "$(ls "$R" | wc -l)"
expect_fail_errno "a form Cassandra refuses" "Invalid argument" mkdir "$R/2018-07-23 07:00 PST"
expect_fail_errno "a lower-case t" "Invalid argument" mkdir "$R/2018-07-23t07:00"

step "@json and @csv: SELECT JSON and COPY TO shapes, static columns first"
echo boss1 > "$R/boss"
echo NaN > "$R/2018-07-23T06:00:00.000Z/v"
echo 1.5 > "$R/2018-07-23T09:04:59.377Z/v"
expect_eq "@json" '{"src": "s1", "at": "2018-07-23 06:00:00.000Z", "boss": "boss1", "v": null}
{"src": "s1", "at": "2018-07-23 07:00:00.000Z", "boss": "boss1", "v": null}
{"src": "s1", "at": "2018-07-23 09:04:59.377Z", "boss": "boss1", "v": 1.5}' "$(cat "$R/@json")"
expect_eq "@csv" 'src,at,boss,v
s1,2018-07-23 06:00:00.000+0000,boss1,NaN
s1,2018-07-23 07:00:00.000+0000,boss1,
s1,2018-07-23 09:04:59.377+0000,boss1,1.5' "$(cat "$R/@csv")"

step "a timeuuid-clustered partition sliced by time"
E=$MNT/ks/events/s1
mkdir -p "$E"
mkdir "$E/a22fc8f0-8e3d-11e8-9a1c-0800200c9a66" "$E/a22ff000-8e3d-11e8-9a1c-0800200c9a66" \
  "$E/d3122400-8e41-11e8-9a1c-0800200c9a66" "$E/81ff4000-8ed4-11e8-9a1c-0800200c9a66"
expect_eq "from 06:00 (bare argument)" \
  $'a22ff000-8e3d-11e8-9a1c-0800200c9a66\nd3122400-8e41-11e8-9a1c-0800200c9a66\n81ff4000-8ed4-11e8-9a1c-0800200c9a66' \
  "$(ls -U "$E/@ge=minTimeuuid(2018-07-23 06:00)")"
expect_eq "06:00 up to the 24th (quoted arguments)" \
  $'a22ff000-8e3d-11e8-9a1c-0800200c9a66\nd3122400-8e41-11e8-9a1c-0800200c9a66' \
  "$(ls -U "$E/@ge=minTimeuuid('2018-07-23 06:00')/@lt=minTimeuuid('2018-07-24')")"
expect_eq "up to the end of 06:00:00.000" \
  $'a22fc8f0-8e3d-11e8-9a1c-0800200c9a66\na22ff000-8e3d-11e8-9a1c-0800200c9a66' \
  "$(ls -U "$E/@le=maxTimeuuid(2018-07-23 06:00)")"
expect_fail_errno "a function of the wrong type" "Invalid argument" \
  ls "$E/@ge=currentTimestamp()"

step "decimal keys list as plain text; the exponent spelling still resolves"
mkdir "$MNT/ks/prices/10" "$MNT/ks/prices/1E-7" "$MNT/ks/prices/123.4500"
expect_eq "plain names" $'0.0000001\n10\n123.45' "$(ls "$MNT/ks/prices")"
expect_exists "1E+1 is the key 10" "$MNT/ks/prices/1E+1"
echo ten > "$MNT/ks/prices/1E+1/label"
expect_eq "@csv" 'd,label
0.0000001,
10,ten
123.45,' "$(cat "$MNT/ks/prices/@csv")"

step "a UDT shows every field, nulls included"
mkdir "$MNT/ks/people/ann"
echo "{city: 'Oslo'}" > "$MNT/ks/people/ann/home"
expect_eq "cell text" "{street: null, city: 'Oslo', zip: null}" "$(cat "$MNT/ks/people/ann/home")"
expect_eq "@json" '{"name": "ann", "home": {"street": null, "city": "Oslo", "zip": null}}' \
  "$(cat "$MNT/ks/people/@json")"

