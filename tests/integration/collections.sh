#!/usr/bin/env bash
# Scenario: non-frozen collections and UDTs on a real mount, stored as
# Cassandra stores them, a cell per element: TTLs per element, appends with
# older timestamps kept, `{}` as null, and every element operation's
# file-face spelling (docs/FILESYSTEM.md "Collections").
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/ks"
cql "CREATE TYPE ks.address (street text, city text, zip int)"
cql "CREATE TABLE ks.c (k text PRIMARY KEY, n int, tags set<text>, l list<int>, m map<text, int>, a address)"
P=$MNT/ks/c/p
mkdir -p "$P"
echo 1 > "$P/n"  # keeps the row live while its collections come and go

step "a TTL on an appended element expires that element only"
echo "{'bath', 'kitchen'}" > "$P/tags"
echo "{'garden'}" >> "$P/tags@ttl=2"  # TTLs count whole seconds: 1 may end at once
expect_eq "three elements" "{'bath', 'garden', 'kitchen'}" "$(cat "$P/tags")"
sleep 2.2
expect_eq "the appended element expired alone" "{'bath', 'kitchen'}" "$(cat "$P/tags")"

step "an append without TTL leaves earlier TTL'd elements expiring"
echo "{'x'}" > "$P/tags@ttl=1"
echo "{'y'}" >> "$P/tags"
sleep 2.2
expect_eq "x expired, y stays" "{'y'}" "$(cat "$P/tags")"

step "an append with an older timestamp keeps its element"
mkdir "$MNT/ks/c/q"
echo "{'new'}" >> "$MNT/ks/c/q/tags"
echo "{'old'}" >> "$MNT/ks/c/q/tags@timestamp=1000"
expect_eq "the old element is kept" "{'new', 'old'}" "$(cat "$MNT/ks/c/q/tags")"
echo "{'newer'}" > "$MNT/ks/c/q/tags"
echo "{'old2'}" >> "$MNT/ks/c/q/tags@timestamp=2000"
expect_eq "an overwrite's collection deletion shadows an older append" "{'newer'}" \
  "$(cat "$MNT/ks/c/q/tags")"

step "{} is null: no cell"
echo "{}" > "$P/tags"
expect_missing "an empty set is no cell" "$P/tags"
mkdir "$MNT/ks/c/e"
echo "{'z'}" > "$MNT/ks/c/e/tags"
echo "{}" > "$MNT/ks/c/e/tags"
expect_eq "the row (made by mkdir: a marker) stays, without the cell" "" "$(ls "$MNT/ks/c/e")"
echo "{'b'}" > "$MNT/ks/c/e/tags"
expect_eq "the cell can be written again at once" "{'b'}" "$(cat "$MNT/ks/c/e/tags")"

step "set and map element removal"
echo "{'a', 'b', 'c'}" > "$P/tags"
echo "{'b'}" > "$P/tags@remove"
expect_eq "b removed" "{'a', 'c'}" "$(cat "$P/tags")"
echo "{'k1': 1, 'k2': 2, 'k3': 3}" > "$P/m"
echo "{'k1'}" > "$P/m@remove"
rm "$P/m@key=k2"
expect_eq "k1 and k2 removed" "{'k3': 3}" "$(cat "$P/m")"
echo 9 > "$P/m@key=k4"
expect_eq "m['k4'] = 9" "{'k3': 3, 'k4': 9}" "$(cat "$P/m")"

step "list append, prepend, set and delete by index, remove by value"
echo "[1, 2]" > "$P/l"
echo "[3]" >> "$P/l"
echo "[0]" > "$P/l@prepend"
echo "[-2, -1]" > "$P/l@prepend"
expect_eq "prepends first, in order" "[-2, -1, 0, 1, 2, 3]" "$(cat "$P/l")"
echo 20 > "$P/l@index=4"
rm "$P/l@index=0"
expect_eq "l[4] = 20, DELETE l[0]" "[-1, 0, 1, 20, 3]" "$(cat "$P/l")"
echo "[0, 3]" > "$P/l@remove"
expect_eq "l = l - [0, 3]" "[-1, 1, 20]" "$(cat "$P/l")"
expect_fail_errno "an index past the end" "Invalid argument" bash -c "echo 1 > '$P/l@index=7'"
expect_eq "the list is unchanged" "[-1, 1, 20]" "$(cat "$P/l")"

step "one UDT field at a time"
echo "{street: 'Main St', city: 'Springfield', zip: 12345}" > "$P/a"
echo "Shelbyville" > "$P/a@field=city"
rm "$P/a@field=zip"
expect_eq "city set, zip null" "{street: 'Main St', city: 'Shelbyville', zip: null}" "$(cat "$P/a")"

step "element names are refused where they mean nothing"
expect_fail_errno "@prepend on a set" "Invalid argument" bash -c "echo \"{'q'}\" > '$P/tags@prepend'"
expect_fail_errno "@key= on a list" "Invalid argument" bash -c "echo 1 > '$P/l@key=x'"
expect_fail_errno "a bad map value" "Invalid argument" bash -c "echo x > '$P/m@key=k9'"
expect_eq "the map is unchanged" "{'k3': 3, 'k4': 9}" "$(cat "$P/m")"

step "concurrent appends never lose each other"
echo "{}" > "$P/tags"
writers=()
for w in 1 2 3 4; do
  (for i in $(seq 1 25); do echo "{'w$w-$i'}" >> "$P/tags"; done) &
  writers+=($!)
done
wait "${writers[@]}"  # not a bare wait: the daemon is a child too
expect_eq "100 elements" "100" "$(cat "$P/tags" | tr ',' '\n' | grep -c "w")"

unmount_fs
