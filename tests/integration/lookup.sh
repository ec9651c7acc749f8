#!/usr/bin/env bash
# Scenario: single-row lookup tables (no clustering columns), denormalised
# by two keys: cells sit directly in the partition directory; a row's @json
# changes only the columns it names, and null deletes.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/app"
cql "CREATE TABLE app.users (email text PRIMARY KEY, name text, age int)"
cql "CREATE TABLE app.users_by_id (id uuid PRIMARY KEY, email text, name text)"
U=$MNT/app/users
B=$MNT/app/users_by_id
ann_id=5132b130-ae79-11e4-ab27-0800200c9a66
bob_id=0f6e3a2c-1d4b-4c8e-9a1f-3b2c4d5e6f70

step "write users under both keys"
mkdir "$U/ann@example.com" "$B/$ann_id"
echo Ann > "$U/ann@example.com/name"
echo 30 > "$U/ann@example.com/age"
echo ann@example.com > "$B/$ann_id/email"
echo Ann > "$B/$ann_id/name"
mkdir -p "$U/bob@example.com" "$B/$bob_id"
printf 'Bob\n' > "$U/bob@example.com/name"
printf '44' > "$U/bob@example.com/age"
echo bob@example.com > "$B/$bob_id/email"

step "cells live directly in the partition directory"
expect_eq "ls -U of a partition (schema order: regular columns by name)" $'age\nname' "$(ls -U "$U/ann@example.com")"
expect_eq "cat name" "Ann" "$(cat "$U/ann@example.com/name")"
expect_eq "cat age" "30" "$(cat "$U/ann@example.com/age")"
expect_eq "text reads back with one trailing newline" "$(printf 'Ann\n' | od -c)" \
  "$(od -c < "$U/ann@example.com/name")"
expect_eq "an int written without a newline" "44" "$(cat "$U/bob@example.com/age")"
expect_eq "ls of the table" $'ann@example.com\nbob@example.com' "$(ls "$U")"
expect_eq "find lists the cells" 4 "$(find "$U" -type f | wc -l)"

step "lookup by the second key, then by the first"
email=$(cat "$B/$ann_id/email")
expect_eq "by id -> email" "ann@example.com" "$email"
expect_eq "by id -> email -> name" "Ann" "$(cat "$U/$email/name")"
expect_eq "by id, upper-case uuid" "bob@example.com" "$(cat "$B/${bob_id^^}/email")"
expect_eq "uuid listed canonical" "$(printf '%s\n' "$ann_id" "$bob_id" | sort)" "$(ls "$B")"

step "row @json: read, partial update, null deletes"
expect_eq "partition @json" '{"email": "ann@example.com", "age": 30, "name": "Ann"}' \
  "$(cat "$U/ann@example.com/@json")"
echo '{"age": 31}' > "$U/ann@example.com/@json"
expect_eq "age changed by @json" "31" "$(cat "$U/ann@example.com/age")"
expect_eq "name untouched by @json" "Ann" "$(cat "$U/ann@example.com/name")"
echo '{"name": null}' > "$U/ann@example.com/@json"
expect_missing "name deleted by null" "$U/ann@example.com/name"
expect_fail_errno "cat a deleted cell" "No such file or directory" cat "$U/ann@example.com/name"
expect_eq "ls after the null" "age" "$(ls -U "$U/ann@example.com")"
expect_eq "@json after the null" '{"email": "ann@example.com", "age": 31, "name": null}' \
  "$(cat "$U/ann@example.com/@json")"
echo '{"name": "Ann B.", "age": 32}' > "$U/ann@example.com/@json"
expect_eq "two columns by @json" $'Ann B.\n32' \
  "$(cat "$U/ann@example.com/name" "$U/ann@example.com/age")"
expect_fail_errno "@json with a bad value" "Invalid argument" \
  bash -c "echo '{\"age\": \"old\"}' > '$U/ann@example.com/@json'"
expect_fail_errno "@json with an unknown column" "Invalid argument" \
  bash -c "echo '{\"shoe\": 9}' > '$U/ann@example.com/@json'"
expect_fail_errno "@json that is not an object" "Invalid argument" \
  bash -c "echo '[1, 2]' > '$U/ann@example.com/@json'"
expect_eq "age unchanged by failed @json writes" "32" "$(cat "$U/ann@example.com/age")"

step "table export"
expect_eq "table @json lines" 2 "$(cat "$U/@json" | wc -l)"
expect_contains "table @json has bob" '{"email": "bob@example.com", "age": 44, "name": "Bob"}' \
  "$(cat "$U/@json")"
expect_contains "table @csv header" "email,age,name" "$(head -1 "$U/@csv")"

step "a partition made by mkdir alone is a row (row marker)"
mkdir "$U/carl@example.com"
expect_contains "marker-only row in table @json" \
  '{"email": "carl@example.com", "age": null, "name": null}' "$(cat "$U/@json")"

step "errors"
expect_fail_errno "cat a missing key" "No such file or directory" cat "$U/nobody@example.com/name"
expect_fail_errno "write a key column" "Invalid argument" \
  bash -c "echo x@example.com > '$U/bob@example.com/email'"
expect_fail_errno "write an unknown column" "Invalid argument" \
  bash -c "echo x > '$U/bob@example.com/shoe'"
expect_fail_errno "mkdir below a partition of an unclustered table" "" \
  mkdir "$U/bob@example.com/sub"

step "rm of a cell, rm -r of a partition"
rm "$U/bob@example.com/age"
expect_eq "bob without age" "name" "$(ls -U "$U/bob@example.com")"
rm -r "$U/bob@example.com"
expect_missing "bob removed" "$U/bob@example.com"
expect_eq "table after rm -r" $'ann@example.com\ncarl@example.com' "$(ls "$U")"
expect_not_contains "table @json after rm -r" "bob@" "$(cat "$U/@json")"
