# Shared helpers for the integration tests: each scenario sources this file,
# mounts cellfs for real in a temporary directory and drives it with shell
# tools. Every mount and daemon is taken down in an EXIT trap, also on failure.
#
# A scenario starts with  source "$(dirname "$0")/lib.sh" "$1"  and then uses
# mount_fs / unmount_fs / expect_eq ... Run one by hand with
#   bash tests/integration/logs.sh build/tools/cellfs/cellfs
# or all with  ctest --test-dir build -L integration. The first failed
# expectation ends a test; CELLFS_IT_KEEP_GOING=1 reports every failure.
# Needs /dev/fuse (else exit 77: skipped), fusermount3, attr and python3.

set -euo pipefail

SCENARIO=$(basename "$0" .sh)
CELLFS=${1:?"usage: $0 PATH/TO/cellfs"}
CELLFS=$(realpath "$CELLFS")
[[ -x $CELLFS ]] || { echo "FAIL [$SCENARIO]: $CELLFS is not executable" >&2; exit 1; }
for tool in fusermount3 mountpoint findmnt getfattr setfattr python3; do   # tools/install-deps.sh
  command -v "$tool" >/dev/null || { echo "FAIL [$SCENARIO]: $tool is not installed" >&2; exit 1; }
done
# Without FUSE there is nothing to test: exit 77, which CTest reports as skipped.
[[ -r /dev/fuse && -w /dev/fuse ]] || { echo "SKIP [$SCENARIO]: /dev/fuse is not usable" >&2; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cellfs-it-$SCENARIO.XXXXXX")
readonly WORK        # the test's own directory: mounts, data, scratch files
DATA=$WORK/data      # the default data directory
MNT=$WORK/mnt        # the default mount point
LOG=$WORK/daemon.log # stderr of every foreground daemon
mkdir "$MNT"
: >"$LOG"

declare -a _MOUNTS=()   # mount points this test may have mounted
declare -a _PIDS=()     # daemon pids this test started or found
DAEMON_PID=""           # the pid of the last daemon started by mount_fs

# --- reporting --------------------------------------------------------------

step() { echo "--- [$SCENARIO] (${SECONDS}s) $*"; }

# Fails the test: exits 1, or with CELLFS_IT_KEEP_GOING=1 (for diagnosis)
# records the failure and goes on; the test still exits 1 at the end.
_FAILURES=0
fail() {
  echo "FAIL [$SCENARIO]: $*" >&2
  _FAILURES=$((_FAILURES + 1))
  [[ -n ${CELLFS_IT_KEEP_GOING:-} ]] || exit 1
}

# Fails the test for good, whatever CELLFS_IT_KEEP_GOING says.
die() {
  echo "FAIL [$SCENARIO]: $*" >&2
  exit 1
}

# Prints STRING with control characters visible, for messages.
_show() { printf '%q' "$1"; }

# --- cleanup ----------------------------------------------------------------

# Whether anything is still mounted at or under $WORK (read from mountinfo, so a
# dead FUSE mount cannot hang us).
_mounted_under_work() {
  awk -v t="$WORK" '$5 == t || index($5, t "/") == 1 { found = 1 } END { exit !found }' \
    /proc/self/mountinfo
}

# Lazily detaches every mount the test made and stops every daemon it
# started (TERM, then KILL after 5 s). The exit trap calls it; a scenario
# with a cluster of its own calls it before stopping the cluster, which
# would stall a clean unmount.
detach_mounts_and_daemons() {
  local m p i
  for m in "${_MOUNTS[@]}"; do
    if grep -qF " $m " /proc/self/mountinfo; then fusermount3 -u -z "$m" 2>/dev/null; fi
  done
  for p in "${_PIDS[@]}"; do
    alive "$p" || continue
    kill -CONT "$p" 2>/dev/null   # a stopped daemon cannot handle TERM
    kill -TERM "$p" 2>/dev/null
    for i in $(seq 50); do alive "$p" || break; sleep 0.1; done
    alive "$p" && kill -KILL "$p" 2>/dev/null
  done
}

_cleanup() {
  local rc=$?
  set +e
  if [[ $rc -eq 0 && $_FAILURES -gt 0 ]]; then rc=1; fi
  detach_mounts_and_daemons
  wait 2>/dev/null
  if [[ $rc -ne 0 && -s $LOG ]]; then
    echo "--- [$SCENARIO] daemon log (last 30 lines):" >&2
    tail -n 30 "$LOG" >&2
  fi
  # Never rm -r through a live mount: that would delete data through it.
  if _mounted_under_work; then
    echo "FAIL [$SCENARIO]: a mount under $WORK is still present; leaving $WORK in place" >&2
    rc=1
  else
    rm -rf "$WORK"
  fi
  if [[ $rc -eq 0 ]]; then echo "PASS [$SCENARIO]"; fi
  exit "$rc"
}
trap _cleanup EXIT
trap 'exit 143' TERM HUP   # so that a timeout's signal still unmounts
trap 'exit 130' INT

# --- mounting ---------------------------------------------------------------

_remember_mount() {
  local m
  for m in "${_MOUNTS[@]}"; do [[ $m == "$1" ]] && return 0; done
  _MOUNTS+=("$1")
}

# Whether PID runs (a zombie does not count: it has exited).
alive() {
  local state
  state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $state && $state != Z ]]
}

# Waits up to 10 s until MOUNTPOINT is a mount point; fails early when PID
# (if given) dies first.
wait_mounted() {
  local mnt=$1 pid=${2:-} i
  for i in $(seq 100); do
    mountpoint -q "$mnt" && return 0
    if [[ -n $pid ]] && ! alive "$pid"; then
      die "the daemon (pid $pid) exited before $mnt was mounted"
    fi
    sleep 0.1
  done
  die "$mnt was not mounted within 10 s"
}

# mount_fs [DATADIR [MOUNTPOINT [OPTIONS]]]: `cellfs mount -f` in the
# background (stderr appended to $LOG); sets DAEMON_PID. SIGINT is reset to
# its default (bash starts background jobs with it ignored), so the daemon
# handles Ctrl-C as it would in a terminal.
mount_fs() {
  local data=${1:-$DATA} mnt=${2:-$MNT} opts=${3:-}
  local -a args=(mount -f)
  [[ -n $opts ]] && args+=(-o "$opts")
  _remember_mount "$mnt"
  env --default-signal=INT "$CELLFS" "${args[@]}" "$data" "$mnt" 2>>"$LOG" &
  DAEMON_PID=$!
  _PIDS+=("$DAEMON_PID")
  wait_mounted "$mnt" "$DAEMON_PID"
}

# The pid holding LevelDB's lock on DATADIR/LOCK (a daemonised mount's pid).
daemon_pid_of() {
  local ino
  ino=$(stat -c %i "$1/LOCK") || return 1
  awk -v ino="$ino" '{ split($6, f, ":"); if (f[3] == ino) { print $5; exit } }' /proc/locks
}

# mount_daemonised [DATADIR [MOUNTPOINT]]: plain `cellfs mount` (it forks and
# returns once the mount is live); sets DAEMON_PID from the data dir's lock.
mount_daemonised() {
  local data=${1:-$DATA} mnt=${2:-$MNT}
  _remember_mount "$mnt"
  "$CELLFS" mount "$data" "$mnt" || die "cellfs mount $data $mnt exited $?"
  mountpoint -q "$mnt" || die "cellfs mount returned but $mnt is not a mount point"
  DAEMON_PID=$(daemon_pid_of "$data")
  [[ -n $DAEMON_PID ]] || die "no process holds $data/LOCK after cellfs mount"
  _PIDS+=("$DAEMON_PID")
}

# Waits up to SECONDS (default 20) for PID to exit.
# The bound guards against a daemon that hangs at unmount, not a slow one: a
# sanitizer build closing its store (LevelDB's last compaction, syncs, the
# leak check at exit) beside other tests on 2 cores once took over 20 s, so
# such builds get 60 s. A daemon still running then has its threads' stacks
# printed (gdb), so a real hang says where it is.
SANITIZED=$(ldd "$CELLFS" 2>/dev/null | grep -cE 'lib(asan|tsan)\.so' || true)
wait_pid_gone() {
  local pid=$1 limit=${2:-20} i
  ((SANITIZED == 0)) || ((limit >= 60)) || limit=60
  for i in $(seq $((limit * 10))); do
    alive "$pid" || return 0
    sleep 0.1
  done
  if command -v gdb >/dev/null; then
    timeout 60 gdb -p "$pid" -batch -ex "thread apply all bt" 2>&1 | grep -E '^(Thread|#)' >&2 || true
  fi
  die "daemon pid $pid still running ${limit} s after unmount"
}

# unmount_fs [MOUNTPOINT [PID]]: a clean fusermount3 -u, then waits for the
# daemon to exit (so its data directory is free for the next mount).
unmount_fs() {
  local mnt=${1:-$MNT} pid=${2:-$DAEMON_PID}
  fusermount3 -u "$mnt" || die "fusermount3 -u $mnt failed"
  if [[ -n $pid ]]; then
    wait_pid_gone "$pid"
    wait "$pid" 2>/dev/null || true
  fi
  ! mountpoint -q "$mnt" || die "$mnt still mounted after fusermount3 -u"
}

# eventually SECONDS WHAT CMD: polls until CMD (a string for bash -c)
# succeeds, every 50 ms; fails the test naming WHAT after SECONDS.
eventually() {
  local seconds=$1 what=$2 cmd=$3 i
  for i in $(seq $((seconds * 20))); do
    bash -c "$cmd" >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  fail "$what: not within $seconds s"
}

# Runs `cellfs cql MNT -e STMT` and fails the test when it fails.
cql() {
  local out
  out=$("$CELLFS" cql "$MNT" -e "$1" 2>&1) || fail "cellfs cql -e $(_show "$1") failed: $out"
}

# --- expectations -----------------------------------------------------------

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
  if [[ $2 != "$3" ]]; then
    local msg
    msg="$1"$'\n'"  expected: $(_show "$2")"$'\n'"  got:      $(_show "$3")"
    if [[ $2 == *$'\n'* || $3 == *$'\n'* ]]; then
      msg+=$'\n'$(diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/  /' || true)
    fi
    fail "$msg"
  fi
}

# expect_contains WHAT NEEDLE HAYSTACK
expect_contains() {
  [[ $3 == *"$2"* ]] || fail "$1: expected to contain $(_show "$2"), got $(_show "$3")"
}

# expect_not_contains WHAT NEEDLE HAYSTACK
expect_not_contains() {
  [[ $3 != *"$2"* ]] || fail "$1: expected not to contain $(_show "$2"), got $(_show "$3")"
}

# expect_match WHAT REGEX ACTUAL
expect_match() {
  [[ $3 =~ $2 ]] || fail "$1: expected to match /$2/, got $(_show "$3")"
}

# expect_ok WHAT CMD...: CMD must succeed.
expect_ok() {
  local what=$1 out
  shift
  out=$("$@" 2>&1) || fail "$what: \`$*\` failed (exit $?): $out"
}

# expect_fail_errno WHAT ERRTEXT CMD...: CMD must fail and its stderr must
# contain ERRTEXT (the strerror text a shell tool prints, e.g. "Invalid
# argument"). A shell redirection is tested by passing `bash -c '...'`.
expect_fail_errno() {
  local what=$1 errtext=$2 rc=0 err
  shift 2
  err=$("$@" 2>&1 >/dev/null) || rc=$?
  [[ $rc -ne 0 ]] || { fail "$what: \`$*\` succeeded, expected failure with \"$errtext\""; return 0; }
  [[ $err == *"$errtext"* ]] ||
    fail "$what: \`$*\` failed (exit $rc) but not with \"$errtext\"; stderr: $(_show "$err")"
}

# expect_exists WHAT PATH / expect_missing WHAT PATH
expect_exists() { [[ -e $2 ]] || fail "$1: $2 does not exist"; }
expect_missing() {
  local err
  if err=$(stat -- "$2" 2>&1); then fail "$1: $2 exists, expected it gone"; fi
  [[ $err == *"No such file or directory"* ]] ||
    fail "$1: stat $2 failed, but not with ENOENT: $err"
}

# The names a directory lists, in readdir order, one per line.
ls_u() { ls -U -- "$1"; }
