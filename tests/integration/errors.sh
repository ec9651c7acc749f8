#!/usr/bin/env bash
# Scenario: every refused request leaves its reason where a user looks:
# MOUNT/@errors (newest last, bounded), `cellfs errors MOUNT [PATH]`, and the
# daemon's log (stderr with -f). Probing answers (ls of a missing name,
# mkdir -p of existing parents) are not refusals and are not shown.
source "$(dirname "$0")/lib.sh" "$1"

# The lines of @errors without their time stamps.
untimed() { sed 's/^[^ ]* //' "$MNT/@errors"; }

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.t (k text, c int, id uuid, n int, PRIMARY KEY (k, c))"
mkdir -p "$MNT/ks/t/p/1"
expect_eq "a fresh mount has no refusals" "" "$(cat "$MNT/@errors")"

step "probes are answers, not refusals"
ls "$MNT/ks/t/nosuch" 2>/dev/null && fail "ls of a missing partition succeeded"
mkdir -p "$MNT/ks/t/p/1"
getfattr -n user.cellfs.ttl "$MNT/ks/t/p/1" 2>/dev/null && fail "a row has no TTL attribute"
expect_eq "still no refusals" "" "$(cat "$MNT/@errors")"

step "refused writes, each with its reason, once (not again at close)"
expect_fail_errno "a value that does not parse" "Invalid argument" \
  bash -c "echo notauuid > '$MNT/ks/t/p/1/id'"
expect_fail_errno "a column that does not exist" "Invalid argument" \
  bash -c "echo 1 > '$MNT/ks/t/p/1/nosuchcol'"
expect_fail_errno "a key that does not parse" "Invalid argument" mkdir "$MNT/ks/t/p/x"
expect_fail_errno "a read-only file" "Permission denied" bash -c "echo x > '$MNT/ks/@schema'"
expect_eq "@errors, oldest first" \
"write ks/t/p/1/id: EINVAL (Invalid argument): column id: invalid uuid value 'notauuid': invalid uuid 'notauuid': expected 8-4-4-4-12 hex digits
create ks/t/p/1/nosuchcol: EINVAL (Invalid argument): Undefined column name nosuchcol in table ks.t
lookup ks/t/p/x: EINVAL (Invalid argument): key component 1 of 1 (int): 'x' is not a valid int: expected an optional sign and decimal digits
open ks/@schema: EACCES (Permission denied): a read-only file" "$(untimed)"
expect_match "each line starts with its UTC time" '^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-9:.]{12}Z write ' \
  "$(head -1 "$MNT/@errors")"
expect_eq "stat tells the size read returns" "$(cat "$MNT/@errors" | wc -c)" "$(stat -c %s "$MNT/@errors")"
expect_eq "@errors is never listed" "ks" "$(ls -A "$MNT")"

step "cellfs errors"
expect_eq "cellfs errors MOUNT prints @errors" "$(cat "$MNT/@errors")" "$("$CELLFS" errors "$MNT")"
expect_eq "cellfs errors MOUNT PATH: that path and below" \
  "write ks/t/p/1/id
create ks/t/p/1/nosuchcol" "$("$CELLFS" errors "$MNT" ks/t/p/1 | cut -d' ' -f2,3 | tr -d :)"
expect_eq "an absolute PATH works the same" "$("$CELLFS" errors "$MNT" ks/t/p/1)" \
  "$("$CELLFS" errors "$MNT" "$MNT/ks/t/p/1/")"
expect_eq "a path is not a prefix of a longer name" "" "$("$CELLFS" errors "$MNT" ks/t/p/1/i)"
rc=0
"$CELLFS" errors "$WORK" 2>"$WORK/err.txt" || rc=$?
expect_eq "not a mount: exit 1" 1 "$rc"
expect_contains "not a mount: says so" "not a cellfs mount point" "$(cat "$WORK/err.txt")"

step "the daemon's log has the same lines"
expect_eq "stderr of cellfs mount -f" "$(sed 's/^/cellfs: refused: /' "$MNT/@errors")" \
  "$(grep '^cellfs: refused: ' "$LOG")"

step "bounded: the latest 256"
for i in $(seq 300); do bash -c "echo 1 > '$MNT/ks/t/key$i'" 2>/dev/null && fail "a file in a table"; done
expect_eq "256 lines kept" 256 "$(wc -l <"$MNT/@errors")"
expect_match "the newest last" "create ks/t/key300: EISDIR \(Is a directory\): " "$(tail -1 "$MNT/@errors")"
expect_eq "the oldest gone" 0 "$(grep -c 'ks/t/p/1/id' "$MNT/@errors" || true)"
expect_eq "nothing was stored by the refused requests" "" "$(ls "$MNT/ks/t/p/1")"

unmount_fs
