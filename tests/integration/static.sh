#!/usr/bin/env bash
# Scenario: static columns as files in the partition directory, a counter
# table (each write adds), and set/list/map columns appended with >>.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/shop"
cql "CREATE TABLE shop.carts (cart uuid, item text, owner text static, opened date static,
     qty int, PRIMARY KEY (cart, item))"
cql "CREATE TABLE shop.page_views (page text, day date, hits counter, PRIMARY KEY (page, day))"
cql "CREATE TABLE shop.pets (name text PRIMARY KEY, tags set<text>, visits list<date>,
     traits map<text, int>, legs int)"
cart=9f1c0e2a-4b7d-4c3e-8a21-6d5e4f3a2b1c
C=$MNT/shop/carts/$cart

step "static cells are files in the partition directory"
mkdir "$C"
echo ann > "$C/owner"
echo 2024-03-01 > "$C/opened"
mkdir "$C/apple" "$C/pear"
echo 3 > "$C/apple/qty"
echo 1 > "$C/pear/qty"
expect_eq "ls -U: static cells first, then rows" $'opened\nowner\napple\npear' "$(ls -U "$C")"
expect_eq "find -type f lists static and regular cells" 4 "$(find "$C" -type f | wc -l)"
expect_eq "cat a static cell" "ann" "$(cat "$C/owner")"
expect_eq "cat a static date" "2024-03-01" "$(cat "$C/opened")"
expect_eq "rows list only rows" $'apple\npear' "$(find "$C" -mindepth 1 -type d -printf '%f\n')"
expect_eq "partition @json carries the static columns on every row" \
  "{\"cart\": \"$cart\", \"item\": \"apple\", \"opened\": \"2024-03-01\", \"owner\": \"ann\", \"qty\": 3}" \
  "$(head -1 "$C/@json")"
expect_eq "a slice lists rows only" "pear" "$(ls -U "$C/@gt=apple")"
echo bob > "$C/owner"
expect_eq "a static cell overwritten" "bob" "$(cat "$C/owner")"
expect_contains "the new static value shows on each row" '"owner": "bob", "qty": 1' \
  "$(cat "$C/@json")"
# In a clustered partition every name but a static column's is a row key
# (here the text key 'qty'): a file cannot be made there.
expect_fail_errno "a regular column's name in the partition directory is a row key" \
  "Is a directory" bash -c "echo 5 > '$C/qty'"
expect_fail_errno "a static column in a row directory" "Invalid argument" \
  bash -c "echo carl > '$C/apple/owner'"

step "a partition with only static cells"
other=$MNT/shop/carts/00000000-0000-4000-8000-000000000001
mkdir "$other"
echo dan > "$other/owner"
expect_eq "its listing" "owner" "$(ls -U "$other")"
expect_eq "its @json: one row, clustering null" \
  '{"cart": "00000000-0000-4000-8000-000000000001", "item": null, "opened": null, "owner": "dan", "qty": null}' \
  "$(cat "$other/@json")"
rm "$other/owner"
rmdir "$other" 2>/dev/null || true
expect_missing "the partition is gone with its last static cell" "$other"

step "rm -r of rows keeps the static cells"
rm -r "$C/apple" "$C/pear"
expect_eq "only static cells remain" $'opened\nowner' "$(ls -U "$C")"

step "counters: every write adds"
V=$MNT/shop/page_views/home/2024-03-01
mkdir -p "$V"
echo 1 > "$V/hits"
expect_eq "after one +1" "1" "$(cat "$V/hits")"
echo 1 > "$V/hits"
expect_eq "after two +1" "2" "$(cat "$V/hits")"
echo -5 > "$V/hits"
expect_eq "after -5" "-3" "$(cat "$V/hits")"
echo 10 >> "$V/hits"
expect_eq "after >> 10" "7" "$(cat "$V/hits")"
expect_fail_errno "a counter with a TTL" "Invalid argument" bash -c "echo 1 > '$V/hits@ttl=60'"
expect_fail_errno "a counter with a non-integer" "Invalid argument" bash -c "echo 1.5 > '$V/hits'"
expect_eq "counter unchanged by failed writes" "7" "$(cat "$V/hits")"
expect_eq "counter in @csv" "page,day,hits
home,2024-03-01,7" "$(cat "$MNT/shop/page_views/home/@csv")"

step "collections: >> appends to sets, lists and maps"
R=$MNT/shop/pets/rex
mkdir "$R"
echo "{'fluffy'}" > "$R/tags"
echo "{'wet cat'}" >> "$R/tags"
expect_eq "set after >>" "{'fluffy', 'wet cat'}" "$(cat "$R/tags")"
echo "{'fluffy'}" >> "$R/tags"
expect_eq "set >> of a present element" "{'fluffy', 'wet cat'}" "$(cat "$R/tags")"
echo "{'a dog'}" >> "$R/tags"
expect_eq "set stays sorted" "{'a dog', 'fluffy', 'wet cat'}" "$(cat "$R/tags")"
echo "['2024-01-01']" > "$R/visits"
echo "['2024-02-01', '2024-01-01']" >> "$R/visits"
expect_eq "list after >>" "['2024-01-01', '2024-02-01', '2024-01-01']" "$(cat "$R/visits")"
echo "{'weight': 4}" > "$R/traits"
echo "{'age': 3, 'weight': 5}" >> "$R/traits"
expect_eq "map after >> (equal keys replaced)" "{'age': 3, 'weight': 5}" "$(cat "$R/traits")"
echo "{'fluffy'}" > "$R/tags"
expect_eq "> replaces a set" "{'fluffy'}" "$(cat "$R/tags")"
echo 4 > "$R/legs"
expect_fail_errno ">> on an int" "Invalid argument" bash -c "echo 1 >> '$R/legs'"
expect_fail_errno "a set element of the wrong type" "Invalid argument" bash -c "echo '{1}' >> '$R/tags'"
expect_eq "int unchanged" "4" "$(cat "$R/legs")"
expect_eq "set unchanged" "{'fluffy'}" "$(cat "$R/tags")"
expect_eq "collections in @json" \
  '{"name": "rex", "legs": 4, "tags": ["fluffy"], "traits": {"age": 3, "weight": 5}, "visits": ["2024-01-01", "2024-02-01", "2024-01-01"]}' \
  "$(cat "$MNT/shop/pets/@json")"
