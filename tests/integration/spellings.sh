#!/usr/bin/env bash
# Scenario: value spellings on a real mount (docs/CQL.md, "Values"):
# Cassandra's timestamp patterns in names, a timeuuid-clustered partition
# sliced with minTimeuuid/maxTimeuuid, decimal keys in plain text, UDTs
# with every field, and @json/@csv in SELECT JSON / COPY TO shapes. Then
# store spellings: bad rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE] arguments refused by
# every command before anything is mounted or made, and a store spelled
# with ',', '?', '&' and '=' shown whole as its mount's source.
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

step "a bad rados spelling is refused by every command, before anything is mounted or made"
HELPER=$(dirname "$CELLFS")/mount.cellfs
RMNT=$WORK/rados-mnt
mkdir "$RMNT"
_remember_mount "$RMNT"
# Each spelling and what the refusal says.
declare -A FAULT=(["rados:"]="no pool named" ["rados:p?x=1"]="unknown parameter 'x'"
  ["rados:p?conf="]="empty conf")
for spelling in "${!FAULT[@]}"; do
  for command in "mount $spelling $RMNT" "mount -f $spelling $RMNT" "verify $spelling" \
    "snapshot list $spelling" "snapshot clear $spelling --all" \
    "dump --offline $spelling ks.people" "stats --offline $spelling ks.people" \
    "load --offline $spelling ks.people /dev/null" "helper $spelling $RMNT"; do
    read -r -a argv <<<"$command"
    rc=0
    if [[ ${argv[0]} == helper ]]; then
      err=$(cd "$WORK" && timeout 30 "$HELPER" "${argv[@]:1}" 2>&1) || rc=$?
    else
      err=$(cd "$WORK" && timeout 30 "$CELLFS" "${argv[@]}" 2>&1) || rc=$?
    fi
    expect_eq "cellfs $command: a usage error" 2 "$rc"
    expect_contains "cellfs $command: the parser's message" "'$spelling': ${FAULT[$spelling]}" "$err"
    expect_contains "cellfs $command: the expected form" "(expected rados:POOL[" "$err"
  done
  ! mountpoint -q "$RMNT" || fail "$RMNT is mounted after refusals of $spelling"
  [[ ! -e $WORK/$spelling && ! -e /$spelling ]] || fail "a refusal of $spelling made a directory"
done
expect_eq "nothing mounted from rados:" "" "$(findmnt -n -t fuse.cellfs -o SOURCE | grep '^rados:' || true)"

step "load, dump and stats without --offline: a rados spelling is a store, not a mount"
for command in "dump rados:cellfs ks.people" "stats rados:cellfs ks.people" \
  "load rados:cellfs ks.people /dev/null"; do
  read -r -a argv <<<"$command"
  rc=0
  err=$(cd "$WORK" && timeout 30 "$CELLFS" "${argv[@]}" 2>&1) || rc=$?
  expect_eq "cellfs $command: a usage error" 2 "$rc"
  expect_contains "cellfs $command: says why" "names a store, not a mount" "$err"
done

step "the help of every store-taking command shows the rados spelling"
for command in mount verify load dump stats "snapshot list" "snapshot restore" "snapshot clear"; do
  read -r -a argv <<<"$command"
  expect_contains "cellfs $command --help" "DATADIR may also be rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE]" \
    "$("$CELLFS" "${argv[@]}" --help)"
done

step "a store spelled with ',', '?', '&' and '=' is the mount's source, whole"
ODD=$WORK/'s,a?b&c=d'
unmount_fs
mount_fs "$ODD" "$MNT"
expect_eq "findmnt's source" "$ODD" "$(findmnt -n -o SOURCE "$MNT")"
expect_eq "@status's data_dir" "\"data_dir\": \"$ODD\"" \
  "$(grep -o '"data_dir": *"[^"]*"' "$MNT/@status" | sed 's/": *"/": "/')"
mkdir "$MNT/ks"
expect_eq "the mount works" "ks" "$(ls "$MNT")"
unmount_fs
