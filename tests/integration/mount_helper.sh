#!/usr/bin/env bash
# Scenario: mount.cellfs, the mount(8) helper: called as mount(8) calls it
# (DATADIR MOUNTPOINT -o OPTIONS, mount(8)'s own options mixed in), and
# through `mount -t cellfs` itself when the helper can be placed in /sbin.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C
HELPER=$(dirname "$CELLFS")/mount.cellfs
[[ -x $HELPER ]] || die "$HELPER is not built"

step "mount.cellfs DATADIR MNT -o rw,noauto,_netdev,entry_timeout=5 mounts"
_remember_mount "$MNT"
"$HELPER" "$DATA" "$MNT" -o rw,noauto,_netdev,entry_timeout=5 || die "mount.cellfs exited $?"
mountpoint -q "$MNT" || die "mount.cellfs returned but $MNT is not a mount point"
DAEMON_PID=$(daemon_pid_of "$DATA")
_PIDS+=("$DAEMON_PID")
expect_eq "the mount's type" "fuse.cellfs" "$(findmnt -n -o FSTYPE "$MNT")"
mkdir "$MNT/ks"
expect_eq "the mount works" "ks" "$(ls "$MNT")"
unmount_fs

step "-f (fake) mounts nothing; a bad cellfs option is named"
"$HELPER" "$DATA" "$MNT" -f -o ro 2>/dev/null || die "mount.cellfs -f exited $?"
! mountpoint -q "$MNT" || fail "mount.cellfs -f mounted"
expect_fail_errno "unknown option" "bogus" "$HELPER" "$DATA" "$MNT" -o bogus
! mountpoint -q "$MNT" || fail "a refused option still mounted"

step "mount -t cellfs DATADIR MNT, when /sbin has room for the helper"
if [[ ! -e /sbin/mount.cellfs && -w /sbin ]]; then
  ln -s "$HELPER" /sbin/mount.cellfs
  trap_cleanup_helper() { rm -f /sbin/mount.cellfs; }
  mount -t cellfs -o ro "$DATA" "$MNT" || { trap_cleanup_helper; die "mount -t cellfs exited $?"; }
  trap_cleanup_helper
  DAEMON_PID=$(daemon_pid_of "$DATA")
  _PIDS+=("$DAEMON_PID")
  expect_eq "mount -t cellfs serves the data" "ks" "$(ls "$MNT")"
  expect_fail_errno "mounted read-only" "Read-only file system" mkdir "$MNT/other"
  unmount_fs
else
  echo "--- [$SCENARIO] (skipped: /sbin/mount.cellfs exists or /sbin is not writable)"
fi
echo "mount_helper: ok"
