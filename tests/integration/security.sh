#!/usr/bin/env bash
# Scenario: the security model (docs/SECURITY.md). allow_other only when
# asked, and then (or with allow_root) default_permissions; a private mount
# leaves the modes to the daemon (access(2) included); the data directory 0700, no path from the tree
# reaching the host, and a mount by an unprivileged user through fusermount3.
# The cross-user cases need root (to act as nobody); without it they are skipped.

# Where /dev/fuse is closed to other users (mode 0600, as in many containers),
# an unprivileged mount cannot work. As root, rerun this script in a private
# mount namespace where /dev/fuse is a 0666 node, as distributions ship it, so
# that the case is still tested. CELLFS_SECURITY_NO_NAMESPACE=1 turns this off.
_nobody_opens_fuse() {
  setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups -- \
    bash -c 'exec 3<>/dev/fuse' 2>/dev/null
}
if [[ $EUID -eq 0 && -z ${CELLFS_SECURITY_IN_NAMESPACE:-} && -z ${CELLFS_SECURITY_NO_NAMESPACE:-} &&
      -c /dev/fuse ]] && command -v unshare setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
   ! _nobody_opens_fuse && unshare -m --propagation private true 2>/dev/null; then
  _node_dir=$(mktemp -d "${TMPDIR:-/tmp}/cellfs-it-security-dev.XXXXXX")
  read -r _major _minor < <(stat -c '%t %T' /dev/fuse)
  if mknod -m 0666 "$_node_dir/fuse" c $((16#$_major)) $((16#$_minor)); then
    echo "--- [security] /dev/fuse is mode $(stat -c %a /dev/fuse) here: running in a private mount" \
      "namespace where it is 0666"
    export CELLFS_SECURITY_IN_NAMESPACE=$_node_dir/fuse
    # The bind mount keeps the node alive after its name is removed.
    # The new namespace starts with a copy of every mount, other tests'
    # cellfs mounts included; a copy would keep such a mount's connection
    # alive after its test unmounts it (its daemon would never see the
    # unmount), so the copies are detached here first (private: the
    # originals stay).
    exec unshare -m --propagation private -- bash -c '
      findmnt -rn -t fuse.cellfs -o TARGET | while read -r copy; do umount -l "$copy" || true; done
      node=$CELLFS_SECURITY_IN_NAMESPACE
      mount --bind "$node" /dev/fuse || echo "--- [security] (could not bind $node over /dev/fuse)"
      rm -f "$node"; rmdir "${node%/*}"
      exec bash "$0" "$@"' "$0" "$@"
  fi
  rm -rf "$_node_dir"
fi

source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C
cd /   # commands run as nobody need a working directory it may enter
chmod 0711 "$WORK"   # nobody may reach the mounts, not list the scratch files

CROSS_USER=""   # why the cases acting as another user cannot run; empty: they can
if [[ $EUID -ne 0 ]]; then
  CROSS_USER="not running as root"
elif ! command -v setpriv >/dev/null; then
  CROSS_USER="setpriv (util-linux) is not installed"
elif ! id nobody >/dev/null 2>&1; then
  CROSS_USER="there is no user nobody"
fi
NOBODY_UID=$(id -u nobody 2>/dev/null || echo 65534)
NOBODY_GID=$(id -g nobody 2>/dev/null || echo 65534)
as_nobody() { setpriv --reuid="$NOBODY_UID" --regid="$NOBODY_GID" --clear-groups -- "$@"; }

# The per-mount and the superblock options of MOUNTPOINT in /proc/self/mountinfo.
mount_options() {
  awk -v m="$1" '$5 == m { for (i = 7; $i != "-"; i++) {}; print $6 "," $(i + 3) }' \
    /proc/self/mountinfo
}
has_option() { [[ ,$1, == *,$2,* ]]; }

# unmount_daemonised MOUNTPOINT DATADIR: unmount_fs for a `cellfs mount`
# without -f, waiting for the daemon that holds DATADIR.
unmount_daemonised() { unmount_fs "$1" "$(daemon_pid_of "$2")"; }

# expect_mount_options WHAT MOUNTPOINT SHARED(yes|no) [default_permissions]:
# nosuid and nodev always; allow_other and default_permissions exactly when
# shared (allow_other or allow_root asked for), default_permissions also
# when asked for.
expect_mount_options() {
  local what=$1 opts
  opts=$(mount_options "$2")
  [[ -n $opts ]] || { fail "$what: $2 is not in /proc/self/mountinfo"; return 0; }
  local opt
  for opt in nosuid nodev; do
    has_option "$opts" "$opt" || fail "$what: no $opt in $(_show "$opts")"
  done
  if [[ $3 == yes ]]; then
    has_option "$opts" allow_other || fail "$what: allow_other asked for, missing from $(_show "$opts")"
  else
    ! has_option "$opts" allow_other || fail "$what: allow_other not asked for, yet in $(_show "$opts")"
  fi
  if [[ $3 == yes || ${4:-} == default_permissions ]]; then
    has_option "$opts" default_permissions ||
      fail "$what: no default_permissions in $(_show "$opts")"
  else
    ! has_option "$opts" default_permissions ||
      fail "$what: default_permissions on a private mount: $(_show "$opts")"
  fi
}

# expect_refused WHAT PATH CMD...: CMD fails with an errno that means "not
# here" (EPERM, EOPNOTSUPP, EACCES, EXDEV; never ENOSYS, which reads as a
# missing feature) and PATH does not exist.
expect_refused() {
  local what=$1 path=$2 rc=0 err
  shift 2
  err=$("$@" 2>&1 >/dev/null) || rc=$?
  if [[ $rc -eq 0 ]]; then
    fail "$what: \`$*\` succeeded"
  elif [[ ! $err =~ (Operation not permitted|Operation not supported|Permission denied|Invalid cross-device link) ]]; then
    fail "$what: \`$*\` failed, but not as refused: $(_show "$err")"
  fi
  [[ ! -e $path && ! -L $path ]] || fail "$what: $path exists"
}

# Every entry of a data directory is a plain file LevelDB names.
expect_only_store_files() {
  local name bad=""
  while IFS= read -r name; do
    [[ $name =~ ^(CURRENT|LOCK|LOG|LOG\.old|MANIFEST-[0-9]+|[0-9]+\.(log|ldb|sst|dbtmp))$ &&
       -f $1/$name && ! -L $1/$name ]] || bad+=" $name"
  done < <(ls -A "$1")
  [[ -z $bad ]] || fail "$2: unexpected entries in $1:$bad"
}

# A listing of everything under $WORK but inside the data directories and
# mount points: what a path escaping the store would change.
host_snapshot() {
  find "$WORK" -mindepth 1 \( -path "$DATA" -o -path "$MNT" -o -path "$WORK/*/data" \
    -o -path "$WORK/*/mnt*" \) -prune -o -printf '%P %y %m\n' | sort
}

T=$MNT/ks/kv   # the table most cases use

step "the data directory is created 0700 under umask 000; the tree's modes ignore the umask"
saved_umask=$(umask)
umask 000
mount_daemonised
umask "$saved_umask"
expect_eq "data directory mode under umask 000" "700" "$(stat -c %a "$DATA")"
expect_eq "data directory owner" "$(id -u):$(id -g)" "$(stat -c %u:%g "$DATA")"
expect_eq "no store file is writable by group or others" "" "$(find "$DATA" -perm /022)"
expect_mount_options "a mount without options" "$MNT" no
expect_contains "the mount records its owner" "user_id=$(id -u)" "$(mount_options "$MNT")"
mkdir "$MNT/ks"
cql "CREATE TABLE ks.kv (k text PRIMARY KEY, v text)"
cql "CREATE TABLE ks.cl (p text, c int, v text, PRIMARY KEY (p, c))"
mkdir -p "$MNT/ks/cl/p/1"
(umask 000 && python3 -c 'import os, sys; os.mkdir(sys.argv[1], 0o777)' "$T/one" &&
  echo secret > "$T/one/v") || die "cannot make a row and a cell under umask 000"
expect_eq "a row made with mode 0777 under umask 000" "755" "$(stat -c %a "$T/one")"
expect_eq "a cell created under umask 000" "644" "$(stat -c %a "$T/one/v")"
expect_eq "the tree belongs to the mounting user" "$(id -u):$(id -g)" "$(stat -c %u:%g "$T/one/v")"
expect_fail_errno "chmod of a cell" "Operation not permitted" chmod 0666 "$T/one/v"
expect_fail_errno "chown of a cell" "Operation not permitted" chown "$NOBODY_UID" "$T/one/v"
expect_fail_errno "chmod of a directory" "Operation not permitted" chmod 0777 "$T/one"
expect_eq "modes are unchanged" "644 755" "$(stat -c %a "$T/one/v") $(stat -c %a "$T/one")"
# No default_permissions here: access(2) reaches the daemon, which answers
# from the modes as open(2) would, for root too (it refuses root's writes
# to read-only files), where the kernel would let root through.
access_of() {
  python3 -c 'import os, sys
m = {"r": os.R_OK, "w": os.W_OK, "x": os.X_OK}
print(" ".join(("" if os.access(p, m[k]) else "!") + k for p in sys.argv[1:] for k in "rwx"))' "$@"
}
expect_eq "access(2): a cell, a row, @schema, a table's @json" \
  "r w !x r w x r !w !x r !w !x" "$(access_of "$T/one/v" "$T/one" "$MNT/ks/@schema" "$T/@json")"
expect_fail_errno "and open(2) agrees for @schema" "Permission denied" bash -c ": > '$MNT/ks/@schema'"

step "without allow_other, another user cannot enter the mount, whatever the modes say"
if [[ -n $CROSS_USER ]]; then
  echo "SKIP cross-user cases: $CROSS_USER"
else
  as_nobody stat "$WORK" >/dev/null || die "nobody cannot reach $WORK: the checks below would prove nothing"
  expect_fail_errno "nobody stats the mount" "Permission denied" as_nobody stat "$MNT"
  expect_fail_errno "nobody lists the mount" "Permission denied" as_nobody ls "$MNT"
  expect_fail_errno "nobody reads a 0644 cell" "Permission denied" as_nobody cat "$T/one/v"
  expect_fail_errno "nobody reads @cql" "Permission denied" as_nobody cat "$MNT/@cql"
  expect_fail_errno "nobody writes a cell" "Permission denied" \
    as_nobody bash -c "echo stolen > '$T/one/v'"
  expect_eq "the cell is unchanged" "secret" "$(cat "$T/one/v")"
fi

step "symlinks, hard links, device nodes, fifos, sockets and renames are refused"
expect_refused "a symlink to a host file" "$T/one/link" ln -s /etc/passwd "$T/one/link"
expect_refused "a symlink to a host directory" "$T/etc" ln -s /etc "$T/etc"
expect_refused "a hard link inside the mount" "$T/one/v2" ln "$T/one/v" "$T/one/v2"
echo host > "$WORK/host-file"
expect_refused "a hard link to a host file" "$T/one/hl" ln "$WORK/host-file" "$T/one/hl"
expect_refused "a character device" "$T/one/null" mknod "$T/one/null" c 1 3
expect_refused "a block device" "$T/loop" mknod "$T/loop" b 7 0
expect_refused "a fifo as a key" "$T/fifo" mkfifo "$T/fifo"
expect_refused "a fifo as a cell" "$T/one/v3" mkfifo "$T/one/v3"
expect_refused "a unix socket" "$T/one/sock" python3 -c \
  'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/one/sock"
expect_refused "renaming a row" "$T/two" mv "$T/one" "$T/two"
expect_refused "renaming a cell" "$T/one/w" mv "$T/one/v" "$T/one/w"
expect_eq "the cell survived every attempt" "secret" "$(cat "$T/one/v")"

step "keys spelling host paths stay keys inside the store"
marker=cellfs-security-$$
before=$(host_snapshot)
declare -A key_dirs=(  # directory name -> the key it must be
  ["%2E."]=".."
  ["%2E.%2F..%2F$marker"]="../../$marker"
  ["%2F..%2F..%2Fetc"]="/../../etc"
  ["%2F..%2F..%2Fetc%2F$marker"]="/../../etc/$marker"
  ["..%2F..%2F..%2F..%2Ftmp%2F$marker"]="../../../../tmp/$marker"
)
for dir in "${!key_dirs[@]}"; do
  mkdir "$T/$dir" || fail "mkdir of the key ${key_dirs[$dir]}"
  echo "written through $dir" > "$T/$dir/v" || fail "writing a cell under the key ${key_dirs[$dir]}"
done
json=$(cat "$T/@json")
for dir in "${!key_dirs[@]}"; do
  key=${key_dirs[$dir]}
  expect_contains "the store holds the key $key" "{\"k\": \"$key\", \"v\": \"written through " "$json"
  expect_eq "the key $key reads back through $dir" "written through $dir" "$(cat "$T/$dir/v")"
done
for where in / /etc /tmp "$WORK" "$DATA" "$DATA/.." "$MNT/.."; do
  found=$(find "$where" -maxdepth 1 -name "*$marker*" 2>/dev/null)
  expect_eq "no host entry named after a key in $where" "" "$found"
done
expect_eq "nothing changed around the store" "$before" "$(host_snapshot)"
expect_only_store_files "$DATA" "after keys spelling paths"
expect_eq "a key .. is not the parent: its listing is its cell" "v" "$(ls "$T/%2E.")"
expect_eq "the spelling %2E%2E finds the key .." "written through %2E." "$(cat "$T/%2E%2E/v")"

step "the kernel, not the daemon, resolves .. in paths"
expect_eq "MNT/.. is the host directory holding the mount" "$(stat -c %d:%i "$WORK")" \
  "$(stat -c %d:%i "$MNT/..")"
expect_eq "TABLE/.. is the keyspace" "$(stat -c %i "$MNT/ks")" "$(stat -c %i "$T/..")"
expect_eq "ROW/../../.. is the root" "$(ls "$MNT")" "$(ls "$T/one/../../..")"
expect_fail_errno "mkdir .. is the kernel's EEXIST" "File exists" mkdir "$T/.."

step "@cql and @insert never open host files"
for stmt in "COPY ks.kv FROM '/etc/passwd'" "COPY ks.kv (k, v) FROM '/etc/passwd' WITH HEADER = false" \
            "COPY ks.kv TO '$WORK/copied'" "SOURCE '/etc/passwd'" "CAPTURE '$WORK/captured'" \
            "CREATE KEYSPACE \"../../$marker\" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}" \
            "CREATE TABLE ks.\"../$marker\" (k int PRIMARY KEY)"; do
  rc=0
  out=$("$CELLFS" cql "$MNT" -e "$stmt" 2>&1) || rc=$?
  [[ $rc -ne 0 ]] || fail "cellfs cql accepted $(_show "$stmt"): $out"
  expect_contains "the refusal of $(_show "$stmt")" "ERROR" "$out"
done
# A SELECT reads the table, never a host file its text names.
expect_not_contains "SELECT shows the table's rows only" "root:" \
  "$("$CELLFS" cql "$MNT" -e "SELECT * FROM ks.kv WHERE k = '/etc/passwd'" 2>&1)"
# A data statement's values are text, never paths: INSERT JSON stores them.
cql "INSERT INTO ks.kv JSON '{\"k\": \"/etc/passwd\", \"v\": \"@/etc/shadow\"}'"
expect_eq "INSERT JSON of a path stores that text" "@/etc/shadow" "$(cat "$T/%2Fetc%2Fpasswd/v")"
expect_fail_errno "COPY FROM written to @cql" "Invalid argument" \
  bash -c "printf '%s' \"COPY ks.kv FROM '/etc/passwd';\" > '$MNT/@cql'"
[[ ! -e $WORK/copied && ! -e $WORK/captured ]] || fail "COPY TO or CAPTURE created a host file"
expect_not_contains "no row came from /etc/passwd" "root:" "$(cat "$T/@json")"
expect_eq "the keyspaces are unchanged" "ks" "$(ls "$MNT")"
report=$(python3 - "$T/@insert" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
lines = (b'{"k": "/etc/passwd", "v": "file:///etc/passwd"}\n'
         b'{"k": "inc", "@file": "/etc/passwd"}\n'
         b'{"k": "at", "v": "@/etc/passwd"}\n')
try:
    os.write(fd, lines)
except OSError:
    pass  # the refused line fails the write; the report says which
try:
    os.fsync(fd)  # applies the last batch, so that the report counts it
    sys.exit("fsync succeeded after a refused line")
except OSError as error:
    if error.errno != 22:
        raise  # a refused line makes fsync and close fail with EINVAL
os.lseek(fd, 0, os.SEEK_SET)
sys.stdout.write(os.read(fd, 65536).decode())
try:
    os.close(fd)
    sys.exit("close succeeded after a refused line")
except OSError as error:
    if error.errno != 22:
        raise
PY
) || fail "the @insert session failed"
expect_contains "@insert refuses an unknown @ member" "line 2" "$report"
expect_contains "@insert stores the other lines" "2 rows stored" "$report"
expect_eq "a value naming a file is that text" "file:///etc/passwd" "$(cat "$T/%2Fetc%2Fpasswd/v")"
expect_eq "a value @PATH is that text" "@/etc/passwd" "$(cat "$T/at/v")"
expect_missing "a refused line stores nothing" "$T/inc"
expect_eq "nothing changed around the store (cql, insert)" "$before" "$(host_snapshot)"

step "extended attributes outside user.cellfs.* are refused"
for name in user.other user.cellfs.other trusted.cellfs security.cellfs system.posix_acl_access; do
  rc=0
  setfattr -n "$name" -v 1 "$T/one/v" 2>/dev/null || rc=$?
  [[ $rc -ne 0 ]] || fail "setfattr -n $name succeeded"
done
names=$(getfattr --absolute-names -d -m - "$T/one/v" | sed -n 's/=.*//p' | sort -u)
expect_eq "the only attribute of a cell without TTL" "user.cellfs.writetime" "$names"

step "default_permissions only on shared mounts or when asked; allow_other only when asked"
MNT2=$WORK/mnt2
mkdir "$MNT2"
_remember_mount "$MNT2"
for opt in nodefault_permissions no_default_permissions default_permissions=0 \
           default_permissions=false default_permissions allow_other=0 \
           fsname=x subtype=x user_id=$NOBODY_UID group_id=$NOBODY_GID rootmode=40777 fd=3 \
           dev suid max_read=4096 'ro\,allow_other' 's\uid' 'd\145v' 'fsname=x\' \
           'allow\_other'; do
  rc=0
  err=$(timeout 30 "$CELLFS" mount -o "$opt" "$WORK/data2" "$MNT2" 2>&1) || rc=$?
  case $rc in
    2) expect_contains "the refusal of -o $opt names it" "${opt%%[=,]*}" "$err"
       ! mountpoint -q "$MNT2" || fail "-o $opt was refused yet $MNT2 is mounted" ;;
    0) expect_mount_options "-o $opt (accepted)" "$MNT2" no "$opt"
       unmount_daemonised "$MNT2" "$WORK/data2" ;;
    *) fail "cellfs mount -o $opt: exit $rc: $err" ;;
  esac
done
# allow_root is libfuse's: the kernel's allow_other, and the daemon answers
# only root and the mount's owner (EACCES to anyone else), so another user
# is still kept out; default_permissions is on, as with allow_other.
timeout 30 "$CELLFS" mount -o allow_root "$WORK/data2" "$MNT2" || fail "-o allow_root exited $?"
expect_mount_options "-o allow_root" "$MNT2" yes
ls "$MNT2" >/dev/null || fail "root (the owner) cannot list a mount with allow_root"
mkdir "$MNT2/ks_root" && stat "$MNT2/ks_root" >/dev/null ||
  fail "root (the owner) cannot make a keyspace in a mount with allow_root"
if [[ -z $CROSS_USER ]]; then
  # Just looked up and stat'ed by root: nothing cached may answer nobody.
  ! as_nobody test -e "$MNT2/ks_root" || fail "nobody learns that a path exists under allow_root"
  expect_fail_errno "nobody stats a cached path under allow_root" "Permission denied" \
    as_nobody stat -c %s "$MNT2/ks_root"
  expect_fail_errno "nobody stats a mount with allow_root" "Permission denied" as_nobody stat "$MNT2"
  expect_fail_errno "nobody lists a mount with allow_root" "Permission denied" as_nobody ls "$MNT2"
  expect_fail_errno "nobody writes to a mount with allow_root" "Permission denied" \
    as_nobody mkdir "$MNT2/ks_nobody"
  expect_missing "nobody's mkdir made nothing" "$MNT2/ks_nobody"
fi
unmount_daemonised "$MNT2" "$WORK/data2"
HELPER=$(dirname "$CELLFS")/mount.cellfs
if [[ -x $HELPER ]]; then
  "$HELPER" -s "$WORK/data2" "$MNT2" -o nodefault_permissions,allow_root,suid,dev,exec ||
    fail "mount.cellfs -s with options it drops exited $?"
  expect_mount_options "mount.cellfs -s -o nodefault_permissions,suid,dev" "$MNT2" no
  unmount_daemonised "$MNT2" "$WORK/data2"
fi
for name in 'd,allow_other' 'e\,allow_other,x' 'f,nodefault_permissions'; do
  mount_fs "$WORK/$name" "$MNT2"
  expect_mount_options "a data directory named $name" "$MNT2" no
  unmount_fs "$MNT2"
done

step "with allow_other, another user reads what the modes allow and writes nothing"
unmount_daemonised "$MNT" "$DATA"
mount_fs "$DATA" "$MNT" allow_other
expect_mount_options "-o allow_other" "$MNT" yes
if [[ -n $CROSS_USER ]]; then
  echo "SKIP cross-user cases: $CROSS_USER"
else
  snapshot=$(cat "$T/@json")
  schema=$(cat "$MNT/ks/@schema")
  owner="$(id -u):$(id -g)"
  for path in "$MNT" "$MNT/ks" "$T" "$T/one" "$T/one/v" "$MNT/@cql" "$T/@json" "$T/@insert"; do
    expect_eq "nobody sees $path owned by the mounting user" "$owner" "$(as_nobody stat -c %u:%g "$path")"
  done
  modes=$(for p in "$MNT" "$T" "$T/one" "$T/one/v" "$MNT/@cql" "$T/@json" "$MNT/ks/cl/p/1/@json" "$T/@insert"; do
            as_nobody stat -c %a "$p"; done | tr '\n' ' ')
  expect_eq "modes (root, table, row, cell, @cql, table @json, row @json, @insert)" \
    "755 755 755 644 644 444 644 600 " "$modes"
  expect_eq "nobody lists the root" "ks" "$(as_nobody ls "$MNT")"
  expect_contains "nobody lists a table" "one" "$(as_nobody ls "$T")"
  expect_eq "nobody reads a cell" "secret" "$(as_nobody cat "$T/one/v")"
  expect_eq "nobody reads a table's @json" "$snapshot" "$(as_nobody cat "$T/@json")"
  expect_match "nobody reads the write time" '^[0-9]+$' \
    "$(as_nobody getfattr --absolute-names --only-values -n user.cellfs.writetime "$T/one/v")"
  expect_fail_errno "nobody reads @insert (0600)" "Permission denied" as_nobody cat "$T/@insert"
  denied=(
    "overwrite a cell|echo stolen > '$T/one/v'"
    "append to a cell|echo more >> '$T/one/v'"
    "write a cell with a TTL|echo stolen > '$T/one/v@ttl=5'"
    "truncate a cell|truncate -s 0 '$T/one/v'"
    "touch a cell|touch '$T/one/v'"
    "create a cell|echo new > '$T/%2E./vnew'"
    "mkdir a row|mkdir '$T/intruder'"
    "mkdir a keyspace|mkdir '$MNT/intruder'"
    "rm a cell|rm -f '$T/one/v'"
    "rmdir a row|rmdir '$T/%2F..%2F..%2Fetc'"
    "rm -r a row|rm -rf '$T/at'"
    "rename a row|mv '$T/one' '$T/moved'"
    "write @cql|printf 'DROP KEYSPACE ks;' > '$MNT/@cql'"
    "write @insert|printf '{\"k\": \"intruder\"}\n' > '$T/@insert'"
    "write a row's @json|printf '{\"v\": \"stolen\"}' > '$MNT/ks/cl/p/1/@json'"
    "write a partition-row's @json|printf '{\"v\": \"stolen\"}' > '$T/one/@json'"
    "setfattr user.cellfs.ttl|setfattr -n user.cellfs.ttl -v 5 '$T/one/v'"
    "setfattr -x user.cellfs.ttl|setfattr -x user.cellfs.ttl '$T/one/v'"
    "setfattr user.other|setfattr -n user.other -v 1 '$T/one/v'"
  )
  for entry in "${denied[@]}"; do
    expect_fail_errno "nobody: ${entry%%|*}" "Permission denied" as_nobody bash -c "${entry#*|}"
  done
  expect_fail_errno "nobody: chmod a cell" "Operation not permitted" as_nobody chmod 0666 "$T/one/v"
  expect_fail_errno "nobody: chown a cell" "Operation not permitted" \
    as_nobody chown "$NOBODY_UID" "$T/one/v"
  rc=0
  as_nobody "$CELLFS" cql "$MNT" -e "DROP KEYSPACE ks" >/dev/null 2>&1 || rc=$?
  [[ $rc -ne 0 ]] || fail "nobody ran DROP KEYSPACE through cellfs cql"
  expect_eq "no write of nobody's reached the store" "$snapshot" "$(cat "$T/@json")"
  expect_eq "the schema is unchanged" "$schema" "$(cat "$MNT/ks/@schema")"
  expect_eq "no keyspace was made" "ks" "$(ls "$MNT")"
  echo "root wrote" > "$T/one/v" || fail "the mounting user cannot write with allow_other on"
  expect_eq "nobody sees the owner's write" "root wrote" "$(as_nobody cat "$T/one/v")"
fi
unmount_fs

step "an unprivileged user mounts through fusermount3, owns its tree, and unmounts"
FUSERMOUNT=$(command -v fusermount3)
reason=""
if [[ -n $CROSS_USER ]]; then
  reason=$CROSS_USER
elif [[ ! -u $FUSERMOUNT ]]; then
  reason="$FUSERMOUNT is not setuid"
elif has_option "$(findmnt -n -o OPTIONS -T "$FUSERMOUNT")" nosuid; then
  reason="$FUSERMOUNT is on a nosuid filesystem"
elif ! as_nobody bash -c 'exec 3<>/dev/fuse' 2>/dev/null; then
  reason="nobody cannot open /dev/fuse (mode $(stat -c %a /dev/fuse))"
fi
if [[ -n $reason ]]; then
  echo "SKIP unprivileged mount: $reason"
else
  U=$WORK/user
  mkdir "$U"
  chown "$NOBODY_UID:$NOBODY_GID" "$U"
  as_nobody mkdir "$U/mnt" "$U/mnt2"
  _remember_mount "$U/mnt"
  _remember_mount "$U/mnt2"
  out=$(as_nobody "$CELLFS" mount "$U/data" "$U/mnt" 2>&1) || die "nobody's cellfs mount failed: $out"
  pid=$(daemon_pid_of "$U/data")
  [[ -n $pid ]] && _PIDS+=("$pid")
  expect_mount_options "nobody's mount" "$U/mnt" no
  expect_contains "the mount records nobody as its owner" "user_id=$NOBODY_UID" "$(mount_options "$U/mnt")"
  expect_eq "nobody's data directory" "700 $NOBODY_UID" "$(stat -c '%a %u' "$U/data")"
  as_nobody mkdir "$U/mnt/ks" || fail "nobody cannot mkdir a keyspace in its own mount"
  out=$(as_nobody "$CELLFS" cql "$U/mnt" -e "CREATE TABLE ks.t (k int PRIMARY KEY, v text)" 2>&1) ||
    fail "nobody's CREATE TABLE: $out"
  as_nobody mkdir "$U/mnt/ks/t/1" || fail "nobody cannot mkdir a row"
  as_nobody bash -c "echo mine > '$U/mnt/ks/t/1/v'" || fail "nobody cannot write a cell"
  expect_eq "nobody reads its cell" "mine" "$(as_nobody cat "$U/mnt/ks/t/1/v")"
  # Checked at the end: the owner writes a row's @json in a table without
  # clustering columns, which FILESYSTEM.md says is writable.
  owner_json_rc=0
  owner_json_err=$(as_nobody bash -c "printf '{\"v\": \"by json\"}' > '$U/mnt/ks/t/1/@json'" 2>&1) ||
    owner_json_rc=$?
  [[ $owner_json_rc -ne 0 ]] || expect_eq "the owner's @json write" "by json" "$(as_nobody cat "$U/mnt/ks/t/1/v")"
  expect_eq "the tree belongs to nobody" "$NOBODY_UID:$NOBODY_GID 644" \
    "$(as_nobody stat -c '%u:%g %a' "$U/mnt/ks/t/1/v")"
  expect_fail_errno "root, not the mounter, cannot enter without allow_other" "Permission denied" \
    cat "$U/mnt/ks/t/1/v"

  rc=0
  err=$(as_nobody timeout 30 "$CELLFS" mount -o allow_other "$U/data2" "$U/mnt2" 2>&1) || rc=$?
  if grep -qE '^[[:space:]]*user_allow_other[[:space:]]*$' /etc/fuse.conf 2>/dev/null; then
    expect_eq "nobody's -o allow_other with user_allow_other in /etc/fuse.conf" 0 "$rc"
    expect_mount_options "nobody's -o allow_other" "$U/mnt2" yes
    as_nobody "$CELLFS" umount "$U/mnt2" || fail "nobody's cellfs umount $U/mnt2"
  else
    [[ $rc -ne 0 ]] || fail "nobody mounted with allow_other without user_allow_other in /etc/fuse.conf"
    expect_contains "the refusal of allow_other names the setting" "user_allow_other" "$err"
    ! mountpoint -q "$U/mnt2" || fail "$U/mnt2 is mounted after the refusal"
  fi
  for name in 'd,allow_other' 'e\,allow_other,x'; do
    out=$(as_nobody "$CELLFS" mount "$U/$name" "$U/mnt2" 2>&1) || fail "nobody mounts $name: $out"
    expect_mount_options "nobody's data directory named $name" "$U/mnt2" no
    as_nobody "$CELLFS" umount "$U/mnt2" || fail "nobody's cellfs umount of $name"
  done

  as_nobody "$CELLFS" umount "$U/mnt" || fail "nobody's cellfs umount exited $?"
  ! mountpoint -q "$U/mnt" || fail "$U/mnt still mounted after nobody's cellfs umount"
  [[ -z $pid ]] || wait_pid_gone "$pid" 10
fi

step "an existing data directory keeps its mode; the store's files are the owner's alone"
mkdir -m 0755 "$WORK/open"
mount_fs "$WORK/open" "$MNT2"
mkdir "$MNT2/ks"
unmount_fs "$MNT2"
expect_eq "mode of an existing 0755 data directory after a mount" 755 "$(stat -c %a "$WORK/open")"
readable=$(find "$WORK/open" -type f -perm /044 | wc -l)
expect_eq "store files readable by group or others (umask 077 in the daemon)" 0 "$readable"

step "a partition's @json in a table without clustering columns is writable by the owner"
# In a table without clustering columns the partition is the row and its
# @json takes writes (FILESYSTEM.md): with default_permissions the mode must
# say so, or its owner gets EACCES (only root would pass).
mount_fs "$DATA" "$MNT"
expect_eq "mode of a partition-row's @json (a table without clustering columns)" "644" \
  "$(stat -c %a "$T/one/@json")"
unmount_fs
if [[ -n ${owner_json_rc:-} ]]; then
  expect_eq "an unprivileged owner writes a partition-row's @json ($owner_json_err)" 0 "$owner_json_rc"
fi

step "a data directory other users can write must not let them aim the daemon at host files"
# Another user plants symlinks named like the next LevelDB files; a daemon
# that opened the directory (root here) would follow them and overwrite the
# file they point to. The mount must refuse such a directory, naming why.
if [[ -n $CROSS_USER ]]; then
  echo "SKIP planted symlinks: $CROSS_USER"
else
  SHARED=$WORK/shared
  mount_fs "$SHARED" "$MNT2"
  mkdir "$MNT2/ks"
  unmount_fs "$MNT2"
  chmod 0777 "$SHARED"   # an administrator's mistake, or a data directory in a shared place
  echo precious > "$WORK/canary"
  chmod 0644 "$WORK/canary"
  for n in $(seq 3 12); do
    f=$(printf '%06d' "$n")
    for name in "$f.log" "$f.ldb" "MANIFEST-$f"; do
      [[ -e $SHARED/$name ]] || as_nobody ln -s "$WORK/canary" "$SHARED/$name"
    done
  done
  rc=0
  _remember_mount "$MNT2"
  timeout 30 "$CELLFS" mount "$SHARED" "$MNT2" 2>"$WORK/shared.err" || rc=$?
  if [[ $rc -eq 0 ]]; then
    unmount_daemonised "$MNT2" "$SHARED"
  fi
  expect_eq "a host file another user pointed the store at (mount exit $rc)" "precious" \
    "$(head -c 64 "$WORK/canary" | tr -c '[:print:]\n' '?')"
  [[ $rc -ne 0 ]] || fail "a data directory writable by others was mounted"
  grep -q "is writable by others (mode 0777)" "$WORK/shared.err" ||
    fail "the refusal does not say why: $(cat "$WORK/shared.err")"
  chmod 0700 "$SHARED"
  chown 65534 "$SHARED"
  rc=0
  timeout 30 "$CELLFS" mount "$SHARED" "$MNT2" 2>"$WORK/foreign.err" || rc=$?
  [[ $rc -ne 0 ]] || { unmount_daemonised "$MNT2" "$SHARED"; fail "a data directory owned by another user was mounted"; }
  grep -q "is owned by uid 65534, not by the user opening it" "$WORK/foreign.err" ||
    fail "the refusal does not say why: $(cat "$WORK/foreign.err")"
  rc=0
  "$CELLFS" stats --offline "$SHARED" ks.t >/dev/null 2>"$WORK/offline.err" || rc=$?
  [[ $rc -ne 0 ]] || fail "cellfs stats --offline opened a data directory owned by another user"
  grep -q "is owned by uid 65534" "$WORK/offline.err" ||
    fail "cellfs stats --offline does not say why: $(cat "$WORK/offline.err")"
fi

step "a data directory under a parent other users can write is refused, naming the parent"
# Whoever can write a parent can rename the data directory away and put
# another in its place, full of links named like the next LevelDB files.
OPEN_PARENT=$WORK/open-parent
mkdir "$OPEN_PARENT"
chmod 0777 "$OPEN_PARENT"
rc=0
_remember_mount "$MNT2"
timeout 30 "$CELLFS" mount "$OPEN_PARENT/data" "$MNT2" 2>"$WORK/parent.err" || rc=$?
[[ $rc -ne 0 ]] || { unmount_daemonised "$MNT2" "$OPEN_PARENT/data"; fail "a data directory under a 0777 parent was mounted"; }
grep -qF "its ancestor $OPEN_PARENT is writable by others (mode 0777), who could replace the data directory (chmod o-w $OPEN_PARENT" \
  "$WORK/parent.err" || fail "the refusal does not name the parent: $(cat "$WORK/parent.err")"
[[ ! -e $OPEN_PARENT/data ]] || fail "the refused mount created $OPEN_PARENT/data"
chmod 0755 "$OPEN_PARENT"
mount_daemonised "$OPEN_PARENT/data" "$MNT2"
mkdir "$MNT2/ks"
unmount_daemonised "$MNT2" "$OPEN_PARENT/data"
chmod 0777 "$OPEN_PARENT"
rc=0
"$CELLFS" stats --offline "$OPEN_PARENT/data" ks.t >/dev/null 2>"$WORK/offline-parent.err" || rc=$?
[[ $rc -ne 0 ]] || fail "cellfs stats --offline opened a data directory under a 0777 parent"
grep -qF "its ancestor $OPEN_PARENT is writable by others" "$WORK/offline-parent.err" ||
  fail "cellfs stats --offline does not say why: $(cat "$WORK/offline-parent.err")"
chmod 0755 "$OPEN_PARENT"

step "the data directory swapped for planted links after the mount: the daemon writes where it mounted"
# The parent is safe at mount time and made writable afterwards (a check at
# mount alone cannot see that); the attacker (root here) renames the data
# directory away and puts one full of links to a host file in its place.
PARENT=$WORK/parent
SWAP=$PARENT/data
mkdir -m 0755 "$PARENT"
mount_daemonised "$SWAP" "$MNT2"
swap_pid=$DAEMON_PID
mkdir "$MNT2/ks"
"$CELLFS" cql "$MNT2" -e "CREATE TABLE ks.big (k int PRIMARY KEY, v text)" >/dev/null ||
  fail "CREATE TABLE ks.big"
mkdir "$MNT2/ks/big/0" && echo before > "$MNT2/ks/big/0/v" || fail "writing the first row"
chmod 0777 "$PARENT"
echo precious > "$WORK/canary2"
chmod 0644 "$WORK/canary2"
canary_sum=$(sha256sum < "$WORK/canary2")
mv "$SWAP" "$SWAP.moved"
mkdir "$SWAP"
planted=0
for n in $(seq 1 300); do
  f=$(printf '%06d' "$n")
  for name in "$f.log" "$f.ldb" "MANIFEST-$f"; do ln -s "$WORK/canary2" "$SWAP/$name"; planted=$((planted + 1)); done
done
for name in LOG LOG.old CURRENT LOCK; do ln -s "$WORK/canary2" "$SWAP/$name"; planted=$((planted + 1)); done
# 48 MiB of rows, over the 32 MiB memtable: LevelDB switches to a new log,
# writes a table and a new MANIFEST, each created by name.
python3 - "$WORK/big.jsonl" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    value = "x" * 4000
    for k in range(1, 12289):
        out.write('{"k": %d, "v": "%s%d"}\n' % (k, value, k))
PY
load_out=$("$CELLFS" load "$MNT2" ks.big "$WORK/big.jsonl" 2>&1) || fail "loading 48 MiB after the swap: $load_out"
for i in $(seq 100); do   # the flush to a table runs in the background
  [[ -n $(find "$SWAP.moved" -name '*.ldb' -newer "$WORK/big.jsonl") ]] && break
  sleep 0.1
done
tables=$(find "$SWAP.moved" -name '*.ldb' -newer "$WORK/big.jsonl" | wc -l)
logs=$(find "$SWAP.moved" -name '*.log' -newer "$WORK/big.jsonl" | wc -l)
echo "--- [security] after the swap: $planted links planted; $tables new tables and $logs new logs written in the moved directory"
[[ $tables -gt 0 ]] || fail "no table was written after the swap: the scenario did not reach a new file"
expect_eq "the host file the planted links point to" "$canary_sum" "$(sha256sum < "$WORK/canary2")"
expect_eq "the planted directory holds only the links" "" "$(find "$SWAP" -mindepth 1 ! -type l)"
expect_eq "a row written after the swap reads back" "x" "$(head -c 1 "$MNT2/ks/big/12288/v")"
unmount_fs "$MNT2" "$swap_pid"
expect_eq "the host file after the unmount" "$canary_sum" "$(sha256sum < "$WORK/canary2")"
chmod 0755 "$PARENT"
mount_daemonised "$SWAP.moved" "$MNT2"
expect_eq "the first row, in the moved directory" "before" "$(cat "$MNT2/ks/big/0/v")"
expect_eq "rows written after the swap, in the moved directory" "12289" \
  "$(ls -U "$MNT2/ks/big" | grep -c '^[0-9]')"
unmount_daemonised "$MNT2" "$SWAP.moved"
expect_only_store_files "$SWAP.moved" "the moved data directory"

step "cellfs demo refuses a directory another user made or can write; a fresh one is 0700"
DEMO_OPEN=$WORK/demo-open
mkdir "$DEMO_OPEN"
chmod 0777 "$DEMO_OPEN"
rc=0
out=$("$CELLFS" demo "$DEMO_OPEN" 2>&1) || rc=$?
[[ $rc -ne 0 ]] || { "$CELLFS" umount "$DEMO_OPEN/mnt"; fail "cellfs demo used a 0777 directory"; }
expect_contains "the demo's refusal of a 0777 directory" "is writable by others (mode 0777)" "$out"
[[ ! -e $DEMO_OPEN/data && ! -e $DEMO_OPEN/mnt ]] || fail "the refused demo made $DEMO_OPEN/data or mnt"
if [[ $EUID -eq 0 ]]; then
  DEMO_FOREIGN=$WORK/demo-foreign
  mkdir -m 0755 "$DEMO_FOREIGN"
  chown "$NOBODY_UID" "$DEMO_FOREIGN"
  rc=0
  out=$("$CELLFS" demo "$DEMO_FOREIGN" 2>&1) || rc=$?
  [[ $rc -ne 0 ]] || { "$CELLFS" umount "$DEMO_FOREIGN/mnt"; fail "cellfs demo used a directory owned by uid $NOBODY_UID"; }
  expect_contains "the demo's refusal of another user's directory" "is owned by uid $NOBODY_UID" "$out"
  [[ ! -e $DEMO_FOREIGN/data ]] || fail "the refused demo made $DEMO_FOREIGN/data"
fi
DEMO_FRESH=$WORK/demo-fresh
_remember_mount "$DEMO_FRESH/mnt"
"$CELLFS" demo "$DEMO_FRESH" >/dev/null 2>"$WORK/demo.err" || fail "cellfs demo in a fresh directory: $(cat "$WORK/demo.err")"
expect_eq "a fresh demo directory" "700 $(id -u)" "$(stat -c '%a %u' "$DEMO_FRESH")"
demo_pid=$(daemon_pid_of "$DEMO_FRESH/data")
"$CELLFS" umount "$DEMO_FRESH/mnt" || fail "cellfs umount of the demo"
[[ -z $demo_pid ]] || wait_pid_gone "$demo_pid" 20
