#!/usr/bin/env bash
# Scenario: per-cell TTL through name suffixes, row markers with a TTL, the
# table's default TTL, and expiry that holds across a remount of the same
# data directory (while values without TTL survive it).
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/auth"
cql "CREATE TABLE auth.sessions (user text, sid text, secret text, note text,
     PRIMARY KEY (user, sid))"
cql "CREATE TABLE auth.otp (user text PRIMARY KEY, code int) WITH default_time_to_live = 2"
S=$MNT/auth/sessions/ann

step "col@ttl=2: visible now, listed under its plain name"
mkdir -p "$S/s1"
echo keep > "$S/s1/note"
echo v > "$S/s1/secret@ttl=2"
expect_eq "cat the TTL'd cell" "v" "$(cat "$S/s1/secret")"
expect_eq "ls lists the plain name" $'note\nsecret' "$(ls -U "$S/s1")"
ttl=$(getfattr --absolute-names --only-values -n user.cellfs.ttl "$S/s1/secret")
expect_match "user.cellfs.ttl is 1 or 2" '^[12]$' "$ttl"
expect_fail_errno "no user.cellfs.ttl without a TTL" "No such attribute" \
  getfattr --absolute-names -n user.cellfs.ttl "$S/s1/note"
stat "$S/s1/secret" >/dev/null   # let the kernel cache its entry and attributes

step "mkdir row@ttl=2: a row marker with a TTL"
mkdir "$S/s2@ttl=2"
expect_eq "the row lists under its plain name" $'s1\ns2' "$(ls -U "$S")"
expect_eq "the row is in @json" 2 "$(cat "$S/@json" | wc -l)"

step "table default TTL, and @ttl=0 overriding it"
mkdir "$MNT/auth/otp/ann" "$MNT/auth/otp/bob"
echo 123456 > "$MNT/auth/otp/ann/code"
echo 654321 > "$MNT/auth/otp/bob/code@ttl=0"
expect_match "default TTL shows as user.cellfs.ttl" '^[12]$' \
  "$(getfattr --absolute-names --only-values -n user.cellfs.ttl "$MNT/auth/otp/ann/code")"
expect_eq "the default TTL'd value reads" "123456" "$(cat "$MNT/auth/otp/ann/code")"

step "after 3.5 s everything with TTL 2 is gone, the rest stays"
sleep 3.5
expect_eq "ls no longer lists the expired cell" "note" "$(ls -U "$S/s1")"
expect_fail_errno "cat an expired cell" "No such file or directory" cat "$S/s1/secret"
expect_missing "stat an expired cell" "$S/s1/secret"
expect_eq "the row with an expired marker is gone" "s1" "$(ls -U "$S")"
expect_missing "stat the expired row" "$S/s2"
expect_eq "@json without expired data" \
  '{"user": "ann", "sid": "s1", "note": "keep", "secret": null}' "$(cat "$S/@json")"
expect_missing "default TTL expired (its row marker too)" "$MNT/auth/otp/ann"
expect_eq "@ttl=0 overrode the default TTL" "654321" "$(cat "$MNT/auth/otp/bob/code")"
expect_eq "otp table lists only bob" "bob" "$(ls -U "$MNT/auth/otp")"

step "a TTL'd value is gone after a remount; values without TTL survive"
echo short > "$S/s1/secret@ttl=2"
mkdir "$S/s3"
echo long > "$S/s3/secret@ttl=600"
echo durable > "$S/s3/note"
expect_eq "short-lived value before the remount" "short" "$(cat "$S/s1/secret")"
unmount_fs
sleep 3
mount_fs
expect_eq "non-TTL value survives the remount" "keep" "$(cat "$S/s1/note")"
expect_eq "non-TTL value in a new row survives" "durable" "$(cat "$S/s3/note")"
expect_fail_errno "TTL'd value gone after the remount" "No such file or directory" \
  cat "$S/s1/secret"
expect_eq "long TTL value survives the remount" "long" "$(cat "$S/s3/secret")"
ttl=$(getfattr --absolute-names --only-values -n user.cellfs.ttl "$S/s3/secret")
expect_match "long TTL still counting down" '^5[0-9][0-9]$' "$ttl"
(( ttl <= 600 && ttl >= 590 )) || fail "remaining TTL after a remount: expected 590..600, got $ttl"
expect_eq "@json after the remount" \
  '{"user": "ann", "sid": "s1", "note": "keep", "secret": null}' "$(head -1 "$S/@json")"

step "bad TTL suffixes"
expect_fail_errno "@ttl=x" "Invalid argument" bash -c "echo v > '$S/s1/secret@ttl=x'"
expect_fail_errno "@ttl=-1" "Invalid argument" bash -c "echo v > '$S/s1/secret@ttl=-1'"
expect_fail_errno "@ttl over 630720000" "Invalid argument" bash -c "echo v > '$S/s1/secret@ttl=630720001'"
expect_fail_errno "@ttl twice" "Invalid argument" bash -c "echo v > '$S/s1/secret@ttl=1@ttl=2'"
expect_fail_errno "mkdir row@ttl=x" "Invalid argument" mkdir "$S/s9@ttl=x"
expect_eq "nothing stored by bad suffixes" "note" "$(ls -U "$S/s1")"
expect_missing "no row from a bad mkdir suffix" "$S/s9"
