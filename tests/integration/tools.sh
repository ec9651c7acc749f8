#!/usr/bin/env bash
# Scenario: ordinary tools that write files work on cells (issue 17):
# truncation to any length (truncate(1), os.truncate, rsync --inplace), and a
# refused truncation says why in MOUNT/@errors.
source "$(dirname "$0")/lib.sh" "$1"
command -v rsync >/dev/null || die "rsync is not installed (tools/install-deps.sh)"

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.t (k text, c int, v text, b blob, n int, PRIMARY KEY (k, c))"
R=$MNT/ks/t/p/1
mkdir -p "$R"
echo "hello world" >"$R/v"
echo 12345 >"$R/n"
printf 'abcdef' >"$R/b"

step "truncate(1) and os.truncate cut or extend a cell, as any file"
expect_ok "truncate -s 5 of text" truncate -s 5 "$R/v"
expect_eq "the text cut" "hello" "$(cat "$R/v")"
expect_eq "stat after the cut" 6 "$(stat -c %s "$R/v")"
expect_ok "os.truncate by path of an int" python3 -c "import os, sys; os.truncate(sys.argv[1], 3)" "$R/n"
expect_eq "the int cut to a shorter int" 123 "$(cat "$R/n")"
expect_ok "truncate -s 8 of a blob" truncate -s 8 "$R/b"
expect_eq "the blob zero-extended" "6162636465660000" "$(od -An -tx1 "$R/b" | tr -d ' \n')"
expect_ok "truncate to the current length of an int" truncate -s 4 "$R/n"
expect_eq "unchanged" 123 "$(cat "$R/n")"
expect_fail_errno "a truncation that leaves no int" "Invalid argument" truncate -s 9 "$R/n"
expect_eq "the int kept" 123 "$(cat "$R/n")"
expect_match "the reason in @errors" "ks/t/p/1/n: EINVAL \(Invalid argument\): .*is not a valid int" \
  "$(tail -1 "$MNT/@errors")"

step "rsync --inplace writes over a cell and truncates it to the new length"
mkdir "$WORK/src"
printf 'a longer value than before\n' >"$WORK/src/v"
expect_ok "rsync --inplace, longer" rsync --inplace -I "$WORK/src/v" "$R/v"
expect_eq "the longer value" "a longer value than before" "$(cat "$R/v")"
printf 'short\n' >"$WORK/src/v"
expect_ok "rsync --inplace, shorter" rsync --inplace -I "$WORK/src/v" "$R/v"
expect_eq "the shorter value" "short" "$(cat "$R/v")"
expect_ok "rsync --inplace, the same again" rsync --inplace -I "$WORK/src/v" "$R/v"
expect_eq "still the same value" "short" "$(cat "$R/v")"

unmount_fs

step "the command line's conventions: help, -V on every subcommand, unknown options named"
expect_contains "cellfs help lists the subcommands" "Usage: cellfs [OPTIONS] [SUBCOMMAND]" \
  "$("$CELLFS" help)"
expect_contains "cellfs help load explains load" "Usage: cellfs load" "$("$CELLFS" help load)"
expect_match "cellfs -V" "^cellfs [0-9]+\.[0-9]+\.[0-9]+$" "$("$CELLFS" -V)"
expect_match "cellfs mount -V" "^cellfs [0-9]+\.[0-9]+\.[0-9]+$" "$("$CELLFS" mount -V)"
expect_fail_errno "cellfs --bogus" "not expected: --bogus" "$CELLFS" --bogus
expect_fail_errno "an unknown option before a missing argument is named" "not expected: --bogus" \
  "$CELLFS" mount --bogus
expect_fail_errno "a missing argument alone is named" "DATADIR is required" "$CELLFS" verify
expect_fail_errno "cellfs alone" "a subcommand is required" "$CELLFS"
expect_fail_errno "cellfs help nosuch" "no subcommand nosuch" "$CELLFS" help nosuch

step "FUSE file systems' usual mount options go to libfuse; one it does not know creates nothing"
mount_fs "$WORK/data2" "$MNT" "noatime,lazytime,nosuid,default_permissions,allow_root,fsname=other,subtype=x"
expect_contains "libfuse's flag reached the mount" "nosuid" "$(findmnt -n -o OPTIONS "$MNT")"
expect_eq "cellfs's type stays" "fuse.cellfs" "$(findmnt -n -o FSTYPE "$MNT")"
expect_eq "cellfs's source stays: the data directory" "$WORK/data2" "$(findmnt -n -o SOURCE "$MNT")"
mkdir "$MNT/ks2"
unmount_fs
expect_fail_errno "an option neither cellfs nor libfuse knows" "does not take the mount options" \
  "$CELLFS" mount -o nosuchoption "$WORK/data3" "$MNT"
expect_missing "no data directory was made for it" "$WORK/data3"

step "a mount that fails takes away the store it made, and only that"
touch "$WORK/not-a-dir"
rc=0
err=$(timeout 30 "$CELLFS" mount "$WORK/data4" "$WORK/not-a-dir" 2>&1) || rc=$?
[[ $rc -ne 0 ]] || fail "mounting onto a regular file succeeded"
expect_contains "the failure names the mount point's problem" "Not a directory" "$err"
expect_missing "a mount point that cannot work makes no data directory" "$WORK/data4"
# -o blkdev passes libfuse's parser, so the store is made; the kernel then
# refuses the mount (fuseblk needs a block device).
rc=0
err=$(timeout 30 "$CELLFS" mount -o blkdev "$WORK/data4" "$MNT" 2>&1) || rc=$?
[[ $rc -eq 1 ]] || fail "mount -o blkdev: exit $rc, expected 1: $err"
expect_missing "the data directory the failed mount made is gone (daemonised)" "$WORK/data4"
timeout 30 "$CELLFS" mount -f -o blkdev "$WORK/data4" "$MNT" 2>/dev/null &&
  fail "mount -f -o blkdev succeeded"
expect_missing "the data directory the failed mount made is gone (foreground)" "$WORK/data4"
mkdir -m 0700 "$WORK/data5"
echo keep > "$WORK/data5/notes"
timeout 30 "$CELLFS" mount -o blkdev "$WORK/data5" "$MNT" 2>/dev/null &&
  fail "mount -o blkdev succeeded (a directory that was there)"
expect_eq "a directory that was there stays, with only what it held" "notes" "$(ls -A "$WORK/data5")"
timeout 30 "$CELLFS" mount -o blkdev "$WORK/data2" "$MNT" 2>/dev/null &&
  fail "mount -o blkdev succeeded (an existing store)"
mount_fs "$WORK/data2" "$MNT"
expect_exists "an existing store is untouched by a failed mount" "$MNT/ks2"
unmount_fs
! mountpoint -q "$MNT" || fail "$MNT is still mounted"

step "max_read= reaches the kernel and the mount serves"
mount_fs "$WORK/data2" "$MNT" "max_read=4096"
expect_contains "the kernel has max_read" "max_read=4096" "$(findmnt -n -o OPTIONS "$MNT")"
cql "CREATE TABLE ks2.big (k int PRIMARY KEY, v text)"
big=$(head -c 9000 /dev/zero | tr '\0' x)
mkdir "$MNT/ks2/big/1" && printf '%s' "$big" > "$MNT/ks2/big/1/v"
expect_eq "a 9000-byte value reads back whole in 4096-byte requests" "$big" "$(cat "$MNT/ks2/big/1/v")"
unmount_fs

step "cellfs verify: an unmounted store is sound; a mounted one is refused, exit 2"
out=$("$CELLFS" verify "$WORK/data2") || fail "cellfs verify exited $? on a sound store"
expect_eq "the verdict" "sound" "$(tail -n 1 <<<"$out")"
expect_contains "the counts" "data, " "$out"
mount_fs "$WORK/data2" "$MNT"
rc=0
err=$("$CELLFS" verify "$WORK/data2" 2>&1) || rc=$?
expect_eq "a mounted store: exit 2" 2 "$rc"
expect_contains "and why" "unmount it" "$err"
unmount_fs
rc=0
"$CELLFS" verify "$WORK/nosuchdir" 2>/dev/null || rc=$?
expect_eq "no store: exit 2" 2 "$rc"

step "cellfs status lists every mount with its data directory, pid, commit mode, size and health"
MNT3=$WORK/mnt3
mkdir -p "$MNT3"
mount_fs "$WORK/data2" "$MNT"
pid_a=$DAEMON_PID
mount_fs "$WORK/data6" "$MNT3" "commit=batch"
pid_b=$DAEMON_PID
# Every mount of the namespace is listed; the exit status is not checked
# here: other tests' mounts (ctest runs them side by side) may be read-only
# or refuse writes, which rightly makes it 1.
status_json=$("$CELLFS" status --json || true)
"$CELLFS" status --json "$MNT" "$MNT3" >/dev/null ||
  fail "cellfs status --json MNT MNT3 exited $? with both mounts healthy"
summary=$(python3 -c '
import json, sys
for line in sys.stdin:
    s = json.loads(line)
    if s["mount_point"] in sys.argv[1:]:
        print(s["mount_point"], s["data_dir"], s["pid"], s["commit"], s["commit_interval_ms"],
              s["writes"], s["refusals"], s["store_bytes"] > 0)
' "$MNT" "$MNT3" <<<"$status_json")
expect_eq "status --json of both mounts" \
  "$MNT $WORK/data2 $pid_a periodic 10000 ok 0 True
$MNT3 $WORK/data6 $pid_b batch 0 ok 0 True" "$summary"
table=$("$CELLFS" status "$MNT3") || fail "cellfs status MNT3 exited $?"
expect_contains "the table names the mount" "$MNT3" "$table"
expect_contains "the table shows the commit mode" "batch" "$table"
expect_contains "the table shows the pid" "$pid_b" "$table"
! printf 'x' > "$MNT3/nosuchkeyspace" 2>/dev/null || fail "a write at the root succeeded"
refused=$(python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["refusals"], "nosuchkeyspace" in s["latest_refusal"])' <"$MNT3/@status")
expect_eq "@status counts the refusal and shows the latest" "1 True" "$refused"
expect_contains "the table shows the latest refusal" "latest refusal:" "$("$CELLFS" status "$MNT3")"
expect_fail_errno "status of a directory that is no cellfs mount" "not a cellfs mount point" \
  "$CELLFS" status "$WORK"
expect_eq "@status is never listed" "" "$(ls -A "$MNT3")"
unmount_fs "$MNT3" "$pid_b"
unmount_fs "$MNT" "$pid_a"
