#!/usr/bin/env bash
# Scenario: kill -9 of the daemon, then a remount on a wall clock stepped
# back an hour (an LD_PRELOAD shim, clockstep_shim.c, shifts the daemon's
# CLOCK_REALTIME by the seconds in a file). Writes after the remount must
# win over the writes before the kill: `echo new > v` reads back new, `rm v`
# stays deleted, and user.cellfs.writetime only increases (docs/RELIABILITY.md
# "Write times across crashes").
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

command -v cc >/dev/null || die "cc is needed to build the clock shim"
SHIM=$WORK/clockstep.so
OFFSET=$WORK/clock_offset
cc -shared -fPIC -O2 -o "$SHIM" "$(dirname "$(realpath "$0")")/clockstep_shim.c" -ldl ||
  die "building the clock shim failed"
# The daemon's preload list: a sanitizer's runtime must come first in it (an
# ASan or TSan build refuses to start otherwise), then the shim.
DAEMON_PRELOAD=$SHIM
sanitizer_runtime=$(ldd "$CELLFS" | awk '/lib(asan|tsan)\.so/ { print $3; exit }')
[[ -z $sanitizer_runtime ]] || DAEMON_PRELOAD=$sanitizer_runtime:$SHIM
set_offset() { echo "$1" >"$OFFSET"; }
set_offset 0

gattr() { getfattr --absolute-names --only-values -n "$1" "$2"; }

# mount_shifted [-d]: mounts $DATA on $MNT with the shim preloaded; with -d
# as a daemon (`cellfs mount` forks: the child inherits LD_PRELOAD),
# otherwise in the foreground. Checks the daemon has the shim mapped.
mount_shifted() {
  if [[ ${1:-} == -d ]]; then
    _remember_mount "$MNT"
    LD_PRELOAD=$DAEMON_PRELOAD CELLFS_CLOCK_OFFSET_FILE=$OFFSET "$CELLFS" mount "$DATA" "$MNT" 2>>"$LOG" ||
      die "cellfs mount exited $?"
    mountpoint -q "$MNT" || die "cellfs mount returned but $MNT is not a mount point"
    DAEMON_PID=$(daemon_pid_of "$DATA")
    [[ -n $DAEMON_PID ]] || die "no process holds $DATA/LOCK after cellfs mount"
    _PIDS+=("$DAEMON_PID")
  else
    _remember_mount "$MNT"
    env --default-signal=INT LD_PRELOAD="$DAEMON_PRELOAD" CELLFS_CLOCK_OFFSET_FILE="$OFFSET" \
      "$CELLFS" mount -f "$DATA" "$MNT" 2>>"$LOG" &
    DAEMON_PID=$!
    _PIDS+=("$DAEMON_PID")
    wait_mounted "$MNT" "$DAEMON_PID"
  fi
  grep -qF "$SHIM" "/proc/$DAEMON_PID/maps" || die "the daemon (pid $DAEMON_PID) lacks the clock shim"
}

# Kills the daemon with SIGKILL (no clean close: the engine stores nothing
# on the way out) and drops its dead mount.
kill_daemon() {
  local victim=$DAEMON_PID
  {
    kill -KILL "$victim"
    wait_pid_gone "$victim" 10
    wait "$victim" || true
  } 2>/dev/null
  fusermount3 -u -z "$MNT" || die "fusermount3 -u -z $MNT failed after kill -9"
}

step "the shim steps the clock of a running process"
now=$(date +%s)
set_offset -3600
shifted=$(LD_PRELOAD=$SHIM CELLFS_CLOCK_OFFSET_FILE=$OFFSET date +%s)
((shifted <= now - 3590 && shifted >= now - 3610)) || die "the shim did not step the clock: $now -> $shifted"
set_offset 0

step "setup: cell v = old, written at the real time"
mount_shifted
mkdir "$MNT/ck"
cql "CREATE TABLE ck.t (k text PRIMARY KEY, v text, w text)"
P=$MNT/ck/t/p
mkdir -p "$P"
echo old >"$P/v"
expect_eq "cat v" old "$(cat "$P/v")"
wt_old=$(gattr user.cellfs.writetime "$P/v")
# The daemon reads the shifted clock: a TTL counts from it, so a step back
# of an hour lengthens what is left of a TTL by an hour.
echo probe >"$P/w@ttl=100"
set_offset -3600
ttl=$(gattr user.cellfs.ttl "$P/w")
((ttl > 3600)) || die "the daemon does not see the shifted clock (ttl left: $ttl s)"
set_offset 0

step "kill -9, the clock steps back an hour, remount: echo new > v wins"
kill_daemon
set_offset -3600
mount_shifted
expect_eq "cat v after the remount" old "$(cat "$P/v")"
expect_ok "echo new > v" bash -c "echo new > '$P/v'"
expect_eq "cat v after echo new" new "$(cat "$P/v")"
wt_new=$(gattr user.cellfs.writetime "$P/v")
((wt_new > wt_old)) || fail "writetime went back: $wt_old -> $wt_new"
echo "    writetime: before the kill $wt_old, after the step back $wt_new (clock $(($(date +%s) - 3600))000000)"

step "kill -9 again (a daemonised mount), the clock steps back another hour: rm v stays deleted"
kill_daemon
set_offset -7200
mount_shifted -d
expect_eq "cat v after the second remount" new "$(cat "$P/v")"
expect_ok "rm v" rm "$P/v"
expect_missing "v after rm" "$P/v"
echo again >"$P/w"
wt_w=$(gattr user.cellfs.writetime "$P/w")
((wt_w > wt_new)) || fail "writetime went back: $wt_new -> $wt_w"
kill_daemon
mount_shifted
expect_missing "v after rm, kill -9 and a remount" "$P/v"
expect_eq "cat w after the remount" again "$(cat "$P/w")"
echo "    writetimes in order: $wt_old < $wt_new < $wt_w"

step "a clean unmount and a remount on the real clock"
unmount_fs
set_offset 0
mount_shifted
expect_missing "v on the real clock" "$P/v"
echo last >"$P/w"
wt_last=$(gattr user.cellfs.writetime "$P/w")
((wt_last > wt_w)) || fail "writetime went back: $wt_w -> $wt_last"
unmount_fs
