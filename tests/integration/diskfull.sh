#!/usr/bin/env bash
# Scenario: a full disk and a read-only data directory. The data directory
# sits on a small tmpfs: cells and then @insert loads fill it; the failing
# write gets ENOSPC, every later write is refused at once (nothing is
# acknowledged after the first failure), reads still work, and a remount once
# space is back shows every acknowledged write. A data directory on a
# read-only file system is refused with a clear message. Needs root.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

[[ $EUID -eq 0 ]] || { echo "SKIP [$SCENARIO]: needs root (mounts a tmpfs)" >&2; exit 77; }
FS=$WORK/fs   # the small tmpfs
mkdir "$FS"

# lib.sh's EXIT trap unmounts FUSE, stops the daemons and refuses to remove
# $WORK while anything is mounted under it: the tmpfs goes first (lazily,
# after the FUSE mounts, so a daemon still closing its files is no obstacle).
_diskfull_exit() {
  local rc=$? m
  set +e   # so that `(exit "$rc")` below does not end the trap early
  for m in "${_MOUNTS[@]}"; do
    if grep -qF " $m " /proc/self/mountinfo; then fusermount3 -u -z "$m" 2>/dev/null; fi
  done
  if grep -qF " $FS " /proc/self/mountinfo; then umount -l "$FS"; fi
  (exit "$rc")
  _cleanup
}
trap _diskfull_exit EXIT
mount -t tmpfs -o size=4m,mode=0755 tmpfs "$FS" 2>"$WORK/tmpfs.err" ||
  { echo "SKIP [$SCENARIO]: cannot mount a tmpfs: $(cat "$WORK/tmpfs.err")" >&2; exit 77; }

DATA=$FS/data
T=$MNT/df/t
NOSPACE="No space left on device"

# The writes, checked the way a careful program would: python's os calls, so
# that a failure at write() and one at close() are told apart.
cat >"$WORK/df.py" <<'EOF'
import errno, json, os, sys

def value(i):
    return ("%d:" % i) * (1000 // (len(str(i)) + 1))

def put(path, data, flags=os.O_WRONLY | os.O_CREAT | os.O_TRUNC):
    """None when open, every write and close succeeded, else "ERRNO at STAGE"."""
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as e:
        return "%s at open" % errno.errorcode[e.errno]
    try:
        os.write(fd, data.encode())
    except OSError as e:
        try:
            os.close(fd)
        except OSError:
            pass
        return "%s at write" % errno.errorcode[e.errno]
    try:
        os.close(fd)
    except OSError as e:
        return "%s at close" % errno.errorcode[e.errno]
    return None

def fill(table, acks):
    """Rows p/c with a 1 kB cell v each until a write fails; prints the
    failure as "FAILED i ERRNO at STAGE"."""
    with open(acks, "w") as log:
        for i in range(1000000):
            row = os.path.join(table, str(i // 100), str(i % 100))
            try:
                os.makedirs(row, exist_ok=True)
            except OSError as e:
                print("FAILED %d %s at mkdir" % (i, errno.errorcode[e.errno]))
                return
            failure = put(os.path.join(row, "v"), value(i))
            if failure:
                print("FAILED %d %s" % (i, failure))
                return
            log.write("%d\n" % i)
            log.flush()

def stored_rows(table, p):
    """The rows of partition p from its @json: c -> v."""
    try:
        with open(os.path.join(table, str(p), "@json")) as f:
            return {row["c"]: row["v"] for row in map(json.loads, f)}
    except FileNotFoundError:
        return {}

def verify(table, acks, how):
    """Every acknowledged cell reads back with its value, each read as a file
    (how == "files") or from its partition's @json; prints the count."""
    bad = []
    count = 0
    partitions = {}
    for line in open(acks):
        i = int(line)
        if how == "files":
            path = os.path.join(table, str(i // 100), str(i % 100), "v")
            try:
                got = open(path).read()
            except OSError as e:
                got = errno.errorcode[e.errno]
            ok = got == value(i) + "\n"
        else:
            if i // 100 not in partitions:
                partitions[i // 100] = stored_rows(table, i // 100)
            got = partitions[i // 100].get(i % 100)
            ok = got == value(i)
        if not ok:
            bad.append("cell %d: %r" % (i, str(got)[:60]))
        count += 1
    print("%d/%d" % (count - len(bad), count))
    for b in bad[:10]:
        print("  " + b, file=sys.stderr)
    sys.exit(1 if bad else 0)

def cell(table, i):
    """What the cell of row i holds: "absent", "whole" or "other"."""
    try:
        got = open(os.path.join(table, str(i // 100), str(i % 100), "v")).read()
    except FileNotFoundError:
        return "absent"
    return "whole" if got == value(i) + "\n" else "other: %r" % got[:60]

def chunk(path, first, count):
    with open(path, "w") as f:
        for k in range(first, first + count):
            row = {"p": 100000 + k // 1000, "c": k % 1000, "v": value(k)[:100]}
            f.write(json.dumps(row) + "\n")

def chunk_rows(table, count, firsts):
    """How many rows of each chunk (within one partition) are stored with
    their value, read from the partition's @json; one number per chunk."""
    counts = []
    for first in firsts:
        rows = stored_rows(table, 100000 + first // 1000)
        present = 0
        for k in range(first, first + count):
            got = rows.get(k % 1000)
            if got is None:
                continue
            if got != value(k)[:100]:
                print("row %d: %r" % (k, got[:60]), file=sys.stderr)
                sys.exit(1)
            present += 1
        counts.append(str(present))
    print(" ".join(counts))

cmd = sys.argv[1]
if cmd == "value":
    print(value(int(sys.argv[2])))
elif cmd == "put":
    print(put(sys.argv[2], sys.argv[3]) or "ok")
elif cmd == "fill":
    fill(sys.argv[2], sys.argv[3])
elif cmd == "verify":
    verify(sys.argv[2], sys.argv[3], sys.argv[4])
elif cmd == "cell":
    print(cell(sys.argv[2], int(sys.argv[3])))
elif cmd == "chunk":
    chunk(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
elif cmd == "chunks":  # DIR N: the second fill's chunks, 1000 rows each
    for n in range(int(sys.argv[3])):
        chunk(os.path.join(sys.argv[2], "chunk.%d.jsonl" % n), 10000 + 1000 * n, 1000)
elif cmd == "chunk-rows":  # TABLE COUNT FIRST...
    chunk_rows(sys.argv[2], int(sys.argv[3]), [int(a) for a in sys.argv[4:]])
EOF
py() { python3 "$WORK/df.py" "$@"; }

# The value df.py's fill writes into cell I (1 kB: "I:" repeated).
value_of() {
  local unit="$1:" out=""
  while ((${#out} + ${#unit} <= 1000)); do out+=$unit; done
  printf '%s\n' "$out"
}

# expect_refused WHAT CMD...: CMD fails at once (within 10 s) with ENOSPC.
REFUSED=0
expect_refused() {
  local what=$1 rc=0 err
  shift
  err=$(timeout 10 "$@" 2>&1 >/dev/null) || rc=$?
  if [[ $rc -eq 0 ]]; then
    fail "after the disk filled, $what succeeded"
  elif [[ $rc -eq 124 ]]; then
    fail "after the disk filled, $what hung"
  elif [[ $err != *"$NOSPACE"* ]]; then
    fail "after the disk filled, $what failed (exit $rc) but not with ENOSPC: $(_show "$err")"
  else
    REFUSED=$((REFUSED + 1))
  fi
}

# expect_put_refused WHAT PATH VALUE: a cell write refused with ENOSPC at
# write() itself: a shell's `echo >` (which ignores close) sees it too.
expect_put_refused() {
  local got
  got=$(py put "$2" "$3")
  if [[ $got == "ENOSPC at write" ]]; then
    REFUSED=$((REFUSED + 1))
  else
    fail "after the disk filled, $1: expected ENOSPC at write, got $(_show "$got")"
  fi
}

# expect_mount_refused WHAT DIR NEEDLE CMD...: CMD (a mount, an offline
# open) fails within 30 s with a message naming DIR and saying NEEDLE;
# nothing is mounted. Sets REFUSAL (the message) and REFUSAL_MS.
expect_mount_refused() {
  local what=$1 dir=$2 needle=$3 rc=0 err t0
  shift 3
  t0=$(date +%s%N)
  err=$(timeout 30 "$@" 2>&1) || rc=$?
  REFUSAL_MS=$((($(date +%s%N) - t0) / 1000000))
  [[ $rc -ne 124 ]] || fail "$what hung"
  [[ $rc -ne 0 ]] || fail "$what succeeded"
  expect_contains "$what: the message names the data directory" "$dir" "$err"
  expect_contains "$what: the message says why" "$needle" "$err"
  ! mountpoint -q "$MNT" || fail "$what: $MNT is mounted"
  REFUSAL=$err
}

step "a 4 MiB tmpfs holds the data directory; a table and an @insert load"
mount_fs
mkdir "$MNT/df"
cql "CREATE TABLE df.t (p int, c int, v text, PRIMARY KEY (p, c))"
py chunk "$WORK/first.jsonl" 0 500
cat "$WORK/first.jsonl" >"$T/@insert" || fail "the first @insert load failed"
expect_eq "the first load's rows" 500 "$(py chunk-rows "$T" 500 0)"

step "cells fill the disk: the failing write gets ENOSPC"
failure=$(py fill "$T" "$WORK/acks")
ACKED=$(wc -l <"$WORK/acks")
read -r _ FAILED_AT how <<<"$failure"
[[ $failure == "FAILED "* ]] || die "the fill ended without a failure: $(_show "$failure")"
# A cell is stored at close; a row's mkdir stores its marker at once.
expect_match "the failing write's error ($failure)" "^ENOSPC at (write|close|mkdir)$" "$how"
((ACKED > 1000)) || fail "only $ACKED cells fitted in 4 MiB before ENOSPC"

step "after the first failure every write is refused at once with ENOSPC"
for i in 0 7 99 100 250 $((ACKED - 1)); do
  expect_put_refused "overwriting acknowledged cell $i" "$T/$((i / 100))/$((i % 100))/v" "new $i"
done
expect_put_refused "a cell with @ttl=" "$T/0/1/v@ttl=86400" "ttl"
if [[ $how != *mkdir ]]; then
  expect_put_refused "the failing cell again" "$T/$((FAILED_AT / 100))/$((FAILED_AT % 100))/v" "again"
fi
expect_refused "bash's echo into a cell" bash -c "echo shell > '$T/0/2/v'"
expect_refused "mkdir of a new row" mkdir "$T/0/100"
expect_refused "mkdir of a row in a new partition" mkdir -p "$T/99999/1"
expect_refused "rm of an acknowledged cell" rm "$T/0/3/v"
expect_refused "rm -r of an acknowledged row" rm -r "$T/0/4"
expect_refused "a row @json write" bash -c "printf '{\"v\": \"json\"}' > '$T/0/5/@json'"
expect_refused "setfattr of a TTL" setfattr -n user.cellfs.ttl -v 100 "$T/0/6/v"
py chunk "$WORK/late.jsonl" 500 200
expect_refused "cat > @insert" bash -c "cat '$WORK/late.jsonl' > '$T/@insert'"
expect_refused "cellfs load" "$CELLFS" load "$MNT" df.t "$WORK/late.jsonl"
expect_refused "CREATE TABLE through @cql" \
  "$CELLFS" cql "$MNT" -e "CREATE TABLE df.u (k int PRIMARY KEY)"
expect_eq "the refused @cql statement made no table" "t" "$(ls "$MNT/df")"

step "reads of everything acknowledged still work"
rc=0
read_back=$(py verify "$T" "$WORK/acks" files) || rc=$?
[[ $rc -eq 0 ]] || fail "acknowledged cells read wrong while the disk is full (above)"
expect_eq "the first load's rows while the disk is full" 500 "$(py chunk-rows "$T" 500 0)"
expect_eq "a listing while the disk is full" "$(seq 0 99)" "$(ls -U "$T/0")"

step "the daemon logs the failure that stopped writes, once"
if grep -qi "$NOSPACE" "$LOG"; then
  echo "    $(grep -i -m1 "$NOSPACE" "$LOG")"
  expect_eq "log lines saying writes are refused" 1 \
    "$(grep -v '^cellfs: refused: ' "$LOG" | grep -c "writes are refused after a storage failure")"
else
  fail "the daemon logged nothing about the failure (stderr of mount -f)"
fi

expect_match "MOUNT/@errors gives the reason of the latest refused write" \
  ': ENOSPC \(No space left on device\): writes are refused after a storage failure' \
  "$(tail -1 "$MNT/@errors")"

step "a remount while the disk is still full is refused clearly"
"$CELLFS" umount "$MNT" || fail "cellfs umount with writes refused exited $?"
wait_pid_gone "$DAEMON_PID" 10
expect_mount_refused "cellfs mount on a full disk" "$DATA" "$NOSPACE" "$CELLFS" mount "$DATA" "$MNT"
echo "    $REFUSAL"

step "space back (the tmpfs grows to 16 MiB), remount: every acknowledged write, writes work"
mount -o remount,size=16m "$FS"
mount_fs
rc=0
read_back=$(py verify "$T" "$WORK/acks" files) || rc=$?
[[ $rc -eq 0 ]] || fail "acknowledged cells lost or wrong after the remount (above)"
expect_eq "the first load's rows after the remount" 500 "$(py chunk-rows "$T" 500 0)"
FAILED_CELL=$(py cell "$T" "$FAILED_AT")
[[ $FAILED_CELL == whole || $FAILED_CELL == absent ]] ||
  fail "the write that failed is torn after the remount: $FAILED_CELL"
expect_missing "the refused mkdir stored no row" "$T/0/100"
expect_missing "the refused mkdir -p stored no partition" "$T/99999"
expect_eq "the refused rm left the cell" "$(value_of 3)" "$(cat "$T/0/3/v")"
expect_eq "the refused rm -r left the row" "$(value_of 4)" "$(cat "$T/0/4/v")"
expect_eq "the refused echo left the cell" "$(value_of 2)" "$(cat "$T/0/2/v")"
expect_eq "the refused @json left the cell" "$(value_of 5)" "$(cat "$T/0/5/v")"
expect_eq "the refused setfattr left no TTL" "" \
  "$(getfattr --only-values -n user.cellfs.ttl "$T/0/6/v" 2>/dev/null)"
expect_eq "the refused loads stored nothing" 0 "$(py chunk-rows "$T" 200 500)"
expect_eq "the refused CREATE TABLE stayed refused" "t" "$(ls "$MNT/df")"
SPARE=$T/-1/0   # a row the fill does not use
mkdir -p "$SPARE" || fail "mkdir after the remount failed"
printf 'after\n' >"$SPARE/v" || fail "a write after the remount failed"
expect_eq "a write after the remount" "after" "$(cat "$SPARE/v")"
echo "disk full: $ACKED cells acknowledged before ENOSPC (the failing write: $how)," \
  "$REFUSED writes refused after it, ${read_back} present after remount, the failing cell $FAILED_CELL"

step "@insert loads fill the disk again (a filler file leaves about 1.5 MiB)"
head -c $(($(stat -f -c '%a * %S' "$FS") - 1536 * 1024)) /dev/zero >"$FS/filler"
mkdir "$WORK/chunks"
py chunks "$WORK/chunks" 30   # about 130 kB each
CHUNKS=0
for n in $(seq 0 29); do
  rc=0
  timeout 60 bash -c "cat '$WORK/chunks/chunk.$n.jsonl' > '$T/@insert'" 2>"$WORK/load.err" || rc=$?
  [[ $rc -eq 0 ]] || break
  CHUNKS=$((CHUNKS + 1))
done
[[ $rc -ne 0 ]] || die "30 chunks of 1000 rows fitted in 1.5 MiB"
[[ $rc -ne 124 ]] || fail "the @insert load that filled the disk hung"
expect_contains "the failing @insert load's error" "$NOSPACE" "$(cat "$WORK/load.err")"
((CHUNKS > 0)) || fail "no chunk fitted before the disk was full"
REFUSED=0
expect_put_refused "a cell write after the failed load" "$T/0/0/v" "refused"
expect_refused "cellfs load after the failed load" "$CELLFS" load "$MNT" df.t "$WORK/late.jsonl"
expect_refused "mkdir of a row after the failed load" mkdir "$T/0/101"
ACKED_FIRSTS=$(seq 10000 1000 $((10000 + 1000 * (CHUNKS - 1))))
EVERY_ROW=$(for n in $ACKED_FIRSTS; do printf '1000 '; done)
# shellcheck disable=SC2086
expect_eq "the acknowledged chunks' rows while the disk is full" "${EVERY_ROW% }" \
  "$(py chunk-rows "$T" 1000 $ACKED_FIRSTS)"

step "the filler removed, remount: every acknowledged chunk, the failed one whole or absent"
rm "$FS/filler"
"$CELLFS" umount "$MNT" || fail "cellfs umount with writes refused exited $?"
wait_pid_gone "$DAEMON_PID" 10
mount_fs
# shellcheck disable=SC2086
expect_eq "the acknowledged chunks' rows after the remount" "${EVERY_ROW% }" \
  "$(py chunk-rows "$T" 1000 $ACKED_FIRSTS)"
FAILED_ROWS=$(py chunk-rows "$T" 1000 $((10000 + 1000 * CHUNKS)))
[[ $FAILED_ROWS == 0 || $FAILED_ROWS == 1000 ]] ||
  fail "the load that failed is half applied after the remount: $FAILED_ROWS of 1000 rows"
rc=0
py verify "$T" "$WORK/acks" json >/dev/null || rc=$?
[[ $rc -eq 0 ]] || fail "phase one's cells after the second remount (above)"
expect_eq "a write after the second remount" "after" "$(cat "$SPARE/v")"
expect_ok "cellfs load after the remount" "$CELLFS" load "$MNT" df.t "$WORK/late.jsonl"
expect_eq "the load after the remount" 200 "$(py chunk-rows "$T" 200 500)"
echo "disk full via @insert: $CHUNKS chunks ($((CHUNKS * 1000)) rows) acknowledged before ENOSPC," \
  "$REFUSED writes refused after it, all present after remount, the failing chunk:" \
  "$([[ $FAILED_ROWS == 0 ]] && echo absent || echo whole)"

step "the tmpfs made read-only under a running daemon"
if mount -o remount,ro "$FS" 2>"$WORK/ro.err"; then
  got=$(py put "$SPARE/v" "read-only")
  expect_match "a cell write on a read-only device" "^EROFS at (write|close)$" "$got"
  expect_eq "reads on a read-only device" "after" "$(cat "$SPARE/v")"
  mount -o remount,rw "$FS"
  echo "read-only device under a running daemon: the write got ${got}"
else
  # The kernel refuses a read-only remount while files are open for writing
  # (LevelDB's log and MANIFEST): that case cannot be staged here.
  echo "    NOTE: skipped: the kernel refuses to make the tmpfs read-only while the daemon" \
    "holds files open for writing: $(head -n 1 "$WORK/ro.err")"
fi
"$CELLFS" umount "$MNT" || fail "cellfs umount exited $?"
wait_pid_gone "$DAEMON_PID" 10

step "a data directory on a read-only file system: refused at once, with a clear message"
mount -o remount,ro "$FS"
for how in "mount" "mount -f" "mount -o ro"; do
  # shellcheck disable=SC2086
  expect_mount_refused "cellfs $how on a read-only file system" "$DATA" "Read-only file system" \
    "$CELLFS" $how "$DATA" "$MNT"
  # EROFS on the LOCK file is not a lock held by another process.
  expect_not_contains "cellfs $how on a read-only file system: no false 'in use'" \
    "in use by another process" "$REFUSAL"
done
echo "read-only data directory: cellfs mount refused in $REFUSAL_MS ms: $REFUSAL"
expect_mount_refused "cellfs dump --offline on a read-only file system" "$DATA" \
  "Read-only file system" "$CELLFS" dump --offline "$DATA" df.t
expect_not_contains "cellfs dump --offline on a read-only file system: no false 'in use'" \
  "in use by another process" "$REFUSAL"
expect_mount_refused "cellfs mount of a new data directory on a read-only file system" \
  "$FS/new" "Read-only file system" "$CELLFS" mount "$FS/new" "$MNT"

step "read-write again: the store mounts with everything"
mount -o remount,rw "$FS"
mount_fs
rc=0
py verify "$T" "$WORK/acks" json >/dev/null || rc=$?
[[ $rc -eq 0 ]] || fail "cells after the read-only episode (above)"
printf 'last\n' >"$SPARE/v" || fail "a write after the read-only episode failed"
expect_eq "a write after the read-only episode" "last" "$(cat "$SPARE/v")"
"$CELLFS" umount "$MNT" || fail "the last cellfs umount exited $?"
# Under ASan/UBSan a daemon's report lands in $LOG.
if grep -q -e "Sanitizer" -e "runtime error:" "$LOG"; then
  fail "a daemon reported a sanitizer error: $(grep -m 3 -e "Sanitizer" -e "runtime error:" "$LOG")"
fi
