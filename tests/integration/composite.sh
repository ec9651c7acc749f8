#!/usr/bin/env bash
# Scenario: a composite partition key (uuid, date) and a three-column
# clustering key with mixed ASC/DESC. Names are the canonical values joined
# by ','; other CQL spellings of a key resolve to the same directory.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/audit"
cql "CREATE TABLE audit.events (account uuid, day date, ts timestamp, user text, seq int,
     action text, PRIMARY KEY ((account, day), ts, user, seq))
     WITH CLUSTERING ORDER BY (ts DESC, user ASC, seq DESC)"
E=$MNT/audit/events
acct=5132b130-ae79-11e4-ab27-0800200c9a66
P=$E/$acct,2018-07-23
t1=2018-07-23T09:15:00.000Z
t2=2018-07-23T11:04:22.432Z
t3=2018-07-23T14:30:05.001Z

step "write rows whose names join several values"
for row in "$t2,carl,1" "$t1,zed,1" "$t2,aaronp,1" "$t3,bob,1" "$t2,o%2Cbrien,1" \
           "$t2,bob,1" "$t1,aaronp,1" "$t2,aaronp,3"; do
  mkdir -p "$P/$row"
  echo "did ${row##*,} at ${row%%,*}" > "$P/$row/action"
done
order="$t3,bob,1
$t2,aaronp,3
$t2,aaronp,1
$t2,bob,1
$t2,carl,1
$t2,o%2Cbrien,1
$t1,aaronp,1
$t1,zed,1"
expect_eq "table lists the composite partition" "$acct,2018-07-23" "$(ls -U "$E")"
expect_eq "ls -U: ts DESC, user ASC, seq DESC" "$order" "$(ls -U "$P")"
expect_eq "a text component with a comma is escaped" "did 1 at $t2" \
  "$(cat "$P/$t2,o%2Cbrien,1/action")"
expect_eq "@json shows the unescaped text" "o,brien" \
  "$(cat "$P/@json" | python3 -c 'import sys, json
print([json.loads(l) for l in sys.stdin][5]["user"])')"
expect_eq "@json key columns of the first row" \
  "{\"account\": \"$acct\", \"day\": \"2018-07-23\", \"ts\": \"${t3/T/ }\", \"user\": \"bob\", \"seq\": 1, \"action\": \"did 1 at $t3\"}" \
  "$(head -1 "$P/@json")"
expect_eq "@csv quotes the comma" "$acct,2018-07-23,2018-07-23 11:04:22.432+0000,\"o,brien\",1,did 1 at $t2" \
  "$(sed -n 7p "$P/@csv")"

step "other CQL spellings of the same key"
expect_eq "timestamp with a space and +0000" "did 1 at $t2" \
  "$(cat "$P/2018-07-23 11:04:22.432+0000,bob,1/action")"
expect_eq "timestamp as epoch milliseconds" "did 1 at $t2" \
  "$(cat "$P/1532343862432,bob,1/action")"
expect_eq "upper-case uuid in the partition name" "$order" \
  "$(ls -U "$E/${acct^^},2018-07-23")"
expect_eq "over-escaped text (%61 = a)" "did 3 at $t2" "$(cat "$P/$t2,%61aronp,3/action")"
(cd "$E/${acct^^},2018-07-23/2018-07-23 11:04:22.432+0000,carl,1" &&
  expect_eq "cd through other spellings" "did 1 at $t2" "$(cat action)")
mkdir -p "$E/${acct^^},2018-07-24/2018-07-24 08:00:00+0000,dan,01"
echo "late" > "$E/${acct^^},2018-07-24/2018-07-24 08:00:00+0000,dan,01/action"
expect_eq "mkdir with other spellings lists canonical partitions" \
  "$(printf '%s\n' "$acct,2018-07-23" "$acct,2018-07-24")" "$(ls "$E")"
expect_eq "mkdir with other spellings lists the canonical row" "2018-07-24T08:00:00.000Z,dan,1" \
  "$(ls -U "$E/$acct,2018-07-24")"
expect_eq "find shows canonical paths" "$E/$acct,2018-07-24/2018-07-24T08:00:00.000Z,dan,1/action" \
  "$(find "$E/$acct,2018-07-24" -type f)"

step "slices by clustering prefixes, CQL tuple semantics"
expect_eq "@ge=t2 (ts >= t2)" "$(printf '%s\n' "$order" | head -6)" "$(ls -U "$P/@ge=$t2")"
expect_eq "@lt=t2" "$(printf '%s\n' "$order" | tail -2)" "$(ls -U "$P/@lt=$t2")"
expect_eq "@gt=t2,bob ((ts,user) > (t2,'bob'))" "$t3,bob,1
$t2,carl,1
$t2,o%2Cbrien,1" "$(ls -U "$P/@gt=$t2,bob")"
expect_eq "@ge=t2,aaronp,2" "$t3,bob,1
$t2,aaronp,3
$t2,bob,1
$t2,carl,1
$t2,o%2Cbrien,1" "$(ls -U "$P/@ge=$t2,aaronp,2")"
expect_eq "@ge=t2/@le=t2 (one ts), reversed" "$t2,o%2Cbrien,1
$t2,carl,1
$t2,bob,1
$t2,aaronp,1
$t2,aaronp,3" "$(ls -U "$P/@ge=$t2/@le=$t2/@reverse")"
expect_eq "@le=t2,bob in another spelling ((ts,user) <= (t2,'bob'))" "$t2,aaronp,3
$t2,aaronp,1
$t2,bob,1
$t1,aaronp,1
$t1,zed,1" "$(ls -U "$P/@le=1532343862432,bob")"

step "wrong number of components"
expect_fail_errno "partition with one component" "Invalid argument" ls "$E/$acct"
expect_fail_errno "partition with three components" "Invalid argument" ls "$E/$acct,2018-07-23,x"
expect_fail_errno "row with two components" "Invalid argument" ls "$P/$t2,bob"
expect_fail_errno "mkdir a row with four components" "Invalid argument" mkdir "$P/$t2,bob,1,2"
expect_fail_errno "an empty component" "Invalid argument" ls "$P/$t2,,1"
expect_eq "nothing was stored by the failures" "$order" "$(ls -U "$P")"
