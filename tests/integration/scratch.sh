#!/usr/bin/env bash
# Scenario: tools that write a temporary file beside a cell and rename it
# over the cell (issue 17, DESIGN.md section 3): sed -i, Python's
# tempfile + os.replace, rsync's default mode, mv of a file from elsewhere.
# The value lands; a bad value fails the rename with its reason and keeps
# the old value; a typo without O_EXCL still fails; nothing is listed.
source "$(dirname "$0")/lib.sh" "$1"
command -v rsync >/dev/null || die "rsync is not installed (tools/install-deps.sh)"

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.t (k text, c int, v text, n int, PRIMARY KEY (k, c))"
cql "CREATE TABLE ks.kv (k text PRIMARY KEY, v text)"
R=$MNT/ks/t/p/1
mkdir -p "$R" "$MNT/ks/kv/a"
echo "hello world" >"$R/v"
echo 41 >"$R/n"

step "sed -i edits a cell in place"
expect_ok "sed -i on text" sed -i 's/world/there/' "$R/v"
expect_eq "the edited text" "hello there" "$(cat "$R/v")"
expect_ok "sed -i on an int" sed -i 's/41/42/' "$R/n"
expect_eq "the edited int" 42 "$(cat "$R/n")"
expect_eq "no scratch file is listed" "n v" "$(ls "$R" | tr '\n' ' ' | sed 's/ $//')"
expect_not_contains "the ACL sed copies is no refusal" "posix_acl" "$(cat "$MNT/@errors")"

step "a value the column refuses fails the rename, with its reason; the old value stays"
expect_fail_errno "sed -i leaving no int" "" sed -i 's/42/forty-two/' "$R/n"
expect_eq "the int kept" 42 "$(cat "$R/n")"
expect_match "the reason in @errors" "rename ks/t/p/1/sed[^:]*: EINVAL.*forty-two" "$(cat "$MNT/@errors")"

step "Python: tempfile in the directory, then os.replace"
expect_ok "tempfile + os.replace" python3 - "$R" <<'PY'
import os, sys, tempfile
row = sys.argv[1]
fd, tmp = tempfile.mkstemp(dir=row)
with os.fdopen(fd, "w") as f:
    f.write("written atomically\n")
os.replace(tmp, os.path.join(row, "v"))
PY
expect_eq "the replaced text" "written atomically" "$(cat "$R/v")"

step "rsync (a temporary file, then a rename) and mv from elsewhere"
printf 'from rsync\n' >"$WORK/v"
expect_ok "rsync of a file onto a cell" rsync "$WORK/v" "$MNT/ks/kv/a/v"
expect_eq "the synced text" "from rsync" "$(cat "$MNT/ks/kv/a/v")"
printf 'moved\n' >"$WORK/moved"
expect_ok "mv of a file onto a cell" mv "$WORK/moved" "$R/v"
expect_eq "the moved text" "moved" "$(cat "$R/v")"

step "a typo is still refused"
expect_fail_errno "echo > a column that does not exist" "Invalid argument" \
  bash -c "echo v > '$R/emial'"
expect_contains "its reason" "Undefined column name emial" "$(cat "$MNT/@errors")"

unmount_fs
echo "PASS $SCENARIO"
