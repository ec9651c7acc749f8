#!/usr/bin/env bash
# Scenario: extended attributes (user.cellfs.writetime, .ttl, .token),
# rewriting a cell's TTL with setfattr, explicit write timestamps, and stat
# telling the truth (size = bytes read, mtime = write time).
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C.UTF-8

gattr() { getfattr --absolute-names --only-values -n "$1" "$2"; }

mount_fs
mkdir "$MNT/inv"
cql "CREATE TABLE inv.stock (warehouse text, sku text, qty int, label text, PRIMARY KEY (warehouse, sku))"
W=$MNT/inv/stock/north
mkdir -p "$W/sku-1"
before=$(date +%s%6N)
echo 17 > "$W/sku-1/qty"
echo "Blue mug ☕" > "$W/sku-1/label"
after=$(date +%s%6N)

step "getfattr -d shows the write time on a cell, the token on a partition"
dump=$(getfattr --absolute-names -d "$W/sku-1/qty")
expect_match "getfattr -d on a cell" 'user\.cellfs\.writetime="[0-9]+"' "$dump"
expect_not_contains "no ttl attribute without a TTL" "user.cellfs.ttl" "$dump"
wt=$(gattr user.cellfs.writetime "$W/sku-1/qty")
(( wt >= before - 1000000 && wt <= after + 1000000 )) ||
  fail "writetime $wt not within the write ($before..$after us)"
dump=$(getfattr --absolute-names -d "$W")
expect_match "getfattr -d on a partition" 'user\.cellfs\.token="-?[0-9]+"' "$dump"
token=$(gattr user.cellfs.token "$W")
python3 -c "import sys; t = int(sys.argv[1]); sys.exit(0 if -2**63 < t < 2**63 else 1)" "$token" ||
  fail "token $token is not a signed 64-bit value (INT64_MIN excluded)"
mkdir -p "$MNT/inv/stock/south/sku-1"
echo 1 > "$MNT/inv/stock/south/sku-1/qty"
[[ $(gattr user.cellfs.token "$MNT/inv/stock/south") != "$token" ]] ||
  fail "two partitions with the same token"
expect_fail_errno "no token on a row" "No such attribute" \
  getfattr --absolute-names -n user.cellfs.token "$W/sku-1"
expect_fail_errno "an unknown attribute" "No such attribute" \
  getfattr --absolute-names -n user.cellfs.nosuch "$W/sku-1/qty"

step "stat: size is what cat reads, mtime is the write time"
for cell in "$W/sku-1/qty" "$W/sku-1/label"; do
  expect_eq "size of $(basename "$cell")" "$(cat "$cell" | wc -c)" "$(stat -c %s "$cell")"
  wt=$(gattr user.cellfs.writetime "$cell")
  expect_eq "mtime of $(basename "$cell") (seconds)" "$((wt / 1000000))" "$(stat -c %Y "$cell")"
done
expect_eq "a multi-byte label counts bytes (12 + newline)" 13 "$(stat -c %s "$W/sku-1/label")"
expect_eq "cells are 0644 files" "-rw-r--r--" "$(stat -c %A "$W/sku-1/qty")"
echo 1234567 > "$W/sku-1/qty"
expect_eq "size after a rewrite" 8 "$(stat -c %s "$W/sku-1/qty")"
expect_eq "cat after a rewrite" "1234567" "$(cat "$W/sku-1/qty")"

step "setfattr user.cellfs.ttl rewrites the cell with a TTL"
wt_before=$(gattr user.cellfs.writetime "$W/sku-1/qty")
sleep 0.01
setfattr -n user.cellfs.ttl -v 60 "$W/sku-1/qty"
ttl=$(gattr user.cellfs.ttl "$W/sku-1/qty")
(( ttl >= 58 && ttl <= 60 )) || fail "user.cellfs.ttl after setfattr -v 60: expected 58..60, got $ttl"
expect_match "getfattr -d shows the ttl" 'user\.cellfs\.ttl="(58|59|60)"' \
  "$(getfattr --absolute-names -d "$W/sku-1/qty")"
expect_eq "the value is unchanged" "1234567" "$(cat "$W/sku-1/qty")"
wt_after=$(gattr user.cellfs.writetime "$W/sku-1/qty")
(( wt_after > wt_before )) || fail "setfattr ttl did not give a new write time ($wt_before -> $wt_after)"
expect_eq "mtime follows the new write time" "$((wt_after / 1000000))" "$(stat -c %Y "$W/sku-1/qty")"
setfattr -x user.cellfs.ttl "$W/sku-1/qty"
expect_fail_errno "setfattr -x removes the TTL" "No such attribute" \
  getfattr --absolute-names -n user.cellfs.ttl "$W/sku-1/qty"
expect_eq "the value is still unchanged" "1234567" "$(cat "$W/sku-1/qty")"
expect_fail_errno "setfattr ttl not a number" "Invalid argument" \
  setfattr -n user.cellfs.ttl -v soon "$W/sku-1/qty"
expect_fail_errno "setfattr ttl negative" "Invalid argument" \
  setfattr -n user.cellfs.ttl -v -5 "$W/sku-1/qty"
expect_fail_errno "setfattr of the write time" "" \
  setfattr -n user.cellfs.writetime -v 1 "$W/sku-1/qty"
expect_fail_errno "no TTL after failed setfattr" "No such attribute" \
  getfattr --absolute-names -n user.cellfs.ttl "$W/sku-1/qty"

step "col@timestamp=U sets the write time; an older write loses"
echo "Red mug" > "$W/sku-1/label@timestamp=4102444800000000"   # 2100-01-01
expect_eq "writetime from @timestamp" "4102444800000000" "$(gattr user.cellfs.writetime "$W/sku-1/label")"
expect_eq "mtime from @timestamp" "4102444800" "$(stat -c %Y "$W/sku-1/label")"
# The close waits until the kernel dropped the plain name's cached mtime:
# no stat right after it may see the one before (a race that showed about
# once in 300 writes before the wait).
mkdir "$W/sku-race"
stale=0
for i in $(seq 1 100); do
  echo "x" > "$W/sku-race/label@timestamp=$((4102444800 + i))000000"
  [[ $(stat -c %Y "$W/sku-race/label") == $((4102444800 + i)) ]] || stale=$((stale + 1))
done
expect_eq "stat after each of 100 timestamped writes sees its write time" 0 "$stale"
rm -r "$W/sku-race@timestamp=4102445000000000"   # newer than every write above
expect_eq "value from @timestamp" "Red mug" "$(cat "$W/sku-1/label")"
echo "Green mug" > "$W/sku-1/label"   # now < 2100: loses to the newer cell
expect_eq "an older write loses" "Red mug" "$(cat "$W/sku-1/label")"
echo "Old mug" > "$W/sku-1/label@timestamp=1700000000000000"
expect_eq "an explicitly older write loses" "Red mug" "$(cat "$W/sku-1/label")"
echo 5 > "$W/sku-1/qty@timestamp=1700000000000000"
expect_eq "an older write loses to a newer one (qty)" "1234567" "$(cat "$W/sku-1/qty")"
echo "Mug v2" > "$W/sku-1/label@timestamp=4102444800000001"
expect_eq "a newer explicit timestamp wins" "Mug v2" "$(cat "$W/sku-1/label")"
expect_eq "the size follows" 7 "$(stat -c %s "$W/sku-1/label")"

step "row mtime is its newest write (docs/FILESYSTEM.md), in stat as in ls -l"
expect_eq "row directory mtime" "4102444800" "$(stat -c %Y "$W/sku-1")"

step "-o noxattr: no extended attributes, the kernel stops asking, the values stay in @cql"
unmount_fs
mount_fs "$DATA" "$MNT" noxattr,debug
expect_fail_errno "getfattr under noxattr" "Operation not supported" \
  getfattr --absolute-names -n user.cellfs.writetime "$W/sku-1/qty"
expect_fail_errno "setfattr under noxattr" "Operation not supported" \
  setfattr -n user.cellfs.ttl -v 60 "$W/sku-1/qty"
expect_match "ls -l lists the row" "sku-1" "$(ls -l "$W")"
ls -l "$W" "$W/sku-1" >/dev/null
# The first request was answered ENOSYS; the kernel sent no other (the
# debug log shows every request the daemon got).
expect_eq "one GETXATTR reached the daemon in all" 1 "$(grep -c 'opcode: GETXATTR' "$LOG")"
expect_match "WRITETIME through @cql instead" "[0-9]{16}" \
  "$("$CELLFS" cql "$MNT" -e "SELECT WRITETIME(qty) FROM inv.stock WHERE warehouse = 'north' AND sku = 'sku-1'")"
unmount_fs
