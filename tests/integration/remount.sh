#!/usr/bin/env bash
# Scenario: the daemon's life cycle. A daemonised mount, data surviving
# remounts, a data directory used by one mount at a time, a data directory
# inside its own mount refused, 0700 data directories, `cellfs umount`,
# Ctrl-C of a foreground mount, and `cellfs umount --force` recovering a
# mount whose daemon is stopped.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

step "cellfs mount daemonises once the mount is live; DATADIR is created 0700"
[[ ! -e $DATA ]] || die "$DATA exists before the first mount"
mount_daemonised
expect_eq "data directory mode" "700" "$(stat -c %a "$DATA")"
expect_eq "mount type" "fuse.cellfs" "$(findmnt -n -o FSTYPE "$MNT")"
expect_eq "mount source is the data directory" "$DATA" "$(findmnt -n -o SOURCE "$MNT")"
# A private mount: the kernel admits only its owner, and leaves the modes
# to the daemon (default_permissions only with allow_other or allow_root).
expect_not_contains "default_permissions is off" "default_permissions" "$(findmnt -n -o OPTIONS "$MNT")"
expect_not_contains "allow_other is off" "allow_other" "$(findmnt -n -o OPTIONS "$MNT")"
mkdir "$MNT/ks"
cql "CREATE TABLE ks.kv (k text PRIMARY KEY, v text)"
mkdir "$MNT/ks/kv/one"
echo first > "$MNT/ks/kv/one/v"

step "a second mount of the same DATADIR fails, naming the data directory"
MNT2=$WORK/mnt2
mkdir "$MNT2"
_remember_mount "$MNT2"
rc=0
err=$(timeout 30 "$CELLFS" mount "$DATA" "$MNT2" 2>&1) || rc=$?
[[ $rc -ne 0 ]] || fail "a second mount of $DATA succeeded"
[[ $rc -ne 124 ]] || fail "a second mount of $DATA hung"
expect_contains "the error names the data directory" "$DATA" "$err"
expect_contains "the error says it is in use" "in use" "$err"
! mountpoint -q "$MNT2" || fail "$MNT2 is mounted after the refused mount"
rc=0
err=$(timeout 30 "$CELLFS" mount -f "$DATA" "$MNT2" 2>&1) || rc=$?
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "a second foreground mount of $DATA: exit $rc"
expect_contains "foreground: the error says it is in use" "in use" "$err"
! mountpoint -q "$MNT2" || fail "$MNT2 is mounted after the refused foreground mount"
expect_eq "the first mount still works" "first" "$(cat "$MNT/ks/kv/one/v")"

step "a data directory inside its own mount point is refused"
MNT3=$WORK/mnt3
mkdir "$MNT3"
_remember_mount "$MNT3"
rc=0
err=$(timeout 30 "$CELLFS" mount "$MNT3/data" "$MNT3" 2>&1) || rc=$?
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "a data directory inside the mount point: exit $rc"
expect_contains "the refusal explains itself" "inside the mount point" "$err"
! mountpoint -q "$MNT3" || fail "$MNT3 is mounted with its data directory inside it"
[[ ! -e $MNT3/data ]] || fail "the refused mount created $MNT3/data"
rc=0
err=$(timeout 30 "$CELLFS" mount "$MNT3" "$MNT3" 2>&1) || rc=$?
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "the data directory as the mount point: exit $rc"
! mountpoint -q "$MNT3" || fail "$MNT3 is mounted on itself"
rc=0
err=$(timeout 30 "$CELLFS" mount "$MNT/ks/x/data" "$MNT3" 2>&1) || rc=$?
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "a data directory inside a cellfs mount: exit $rc"
! mountpoint -q "$MNT3" || fail "$MNT3 is mounted with its data directory inside another cellfs mount"
rc=0
err=$(timeout 30 "$CELLFS" mount -o nosuchoption "$WORK/data3" "$MNT3" 2>&1) || rc=$?
expect_eq "an unknown mount option exits 2" 2 "$rc"
expect_contains "the unknown option is named" "nosuchoption" "$err"

step "cellfs umount unmounts and waits for the daemon"
pid=$DAEMON_PID
"$CELLFS" umount "$MNT" || fail "cellfs umount $MNT exited $?"
! mountpoint -q "$MNT" || fail "$MNT still mounted after cellfs umount"
[[ -z $(daemon_pid_of "$DATA") ]] || fail "the data directory is still locked after cellfs umount returned"
wait_pid_gone "$pid" 10
rc=0
err=$("$CELLFS" umount "$MNT" 2>&1) || rc=$?
[[ $rc -ne 0 ]] || fail "cellfs umount of a directory that is not mounted succeeded"

step "a remount sees the data"
mount_daemonised
expect_eq "data after a remount" "first" "$(cat "$MNT/ks/kv/one/v")"
expect_eq "schema after a remount" "kv" "$(ls "$MNT/ks")"
echo second > "$MNT/ks/kv/one/v"
"$CELLFS" umount "$MNT" || fail "cellfs umount $MNT exited $?"

step "a foreground mount: Ctrl-C (SIGINT) and SIGTERM unmount"
for sig in INT TERM; do
  mount_fs
  expect_eq "data in a foreground mount" "second" "$(cat "$MNT/ks/kv/one/v")"
  kill -"$sig" "$DAEMON_PID"
  wait_pid_gone "$DAEMON_PID" 20
  ! mountpoint -q "$MNT" || fail "$MNT still mounted after SIG$sig to the foreground daemon"
done

step "cellfs umount --force recovers a mount whose daemon is stopped"
mount_daemonised
stopped=$DAEMON_PID
mkdir "$MNT/ks/kv/two"
echo synced > "$MNT/ks/kv/two/v"
python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.fsync(fd); os.close(fd)' \
  "$MNT/ks/kv/two/v"
kill -STOP "$stopped"
rc=0
timeout 60 "$CELLFS" umount --force "$MNT" >"$WORK/force.out" 2>&1 || rc=$?
[[ $rc -ne 124 ]] || fail "cellfs umount --force hung"
expect_eq "cellfs umount --force exit code ($(cat "$WORK/force.out"))" 0 "$rc"
! grep -qF " $MNT " /proc/self/mountinfo || fail "$MNT still in the mount table after umount --force"
expect_eq "the mount point is a plain empty directory again" "" "$(timeout 10 ls -A "$MNT")"
mount_fs "$WORK/data2" "$MNT"
mkdir "$MNT/fresh"
expect_eq "the mount point takes a new mount" "fresh" "$(ls "$MNT")"
unmount_fs "$MNT"
kill -KILL "$stopped"
wait_pid_gone "$stopped" 10

step "after the stopped daemon is killed, its data directory mounts again with its data"
mount_daemonised
expect_eq "fsynced value after kill -9" "synced" "$(cat "$MNT/ks/kv/two/v")"
expect_eq "older value after kill -9" "second" "$(cat "$MNT/ks/kv/one/v")"
"$CELLFS" umount "$MNT" || fail "final cellfs umount exited $?"
