# Shared by hostile_values.sh and hostile_statements.sh (sourced, not run): the
# helpers, keyspace hv with known rows and its fingerprint, scratch keyspace sc,
# and hostile_finish, which checks that hv is unchanged and unmounts. The cases
# are split in two scripts so that each stays well inside its ctest timeout
# under the sanitizer builds.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C.UTF-8

# --- helpers ------------------------------------------------------------------

# put FILE VALUE: `echo VALUE > FILE` in a child shell (for expect_fail_errno).
put() { bash -c 'printf "%s\n" "$2" > "$1"' put "$1" "$2"; }

# refuse WHAT ERRTEXT FILE VALUE...: each `echo VALUE > FILE` fails with ERRTEXT.
refuse() {
  local what=$1 err=$2 file=$3 value
  shift 3
  for value in "$@"; do expect_fail_errno "$what: $(_show "$value")" "$err" put "$file" "$value"; done
}

# daemon_ok GROUP: the daemon runs and its mount answers.
daemon_ok() {
  alive "$DAEMON_PID" || die "after $1: the daemon (pid $DAEMON_PID) is gone"
  mountpoint -q "$MNT" || die "after $1: $MNT is not mounted any more"
  timeout 10 stat "$MNT/hv/types" >/dev/null || die "after $1: the mount does not answer"
}

mib() { awk -v k="$1:" '$1 == k { print int($2 / 1024) }' "/proc/$DAEMON_PID/status"; }

# feed PATH MODE DATAFILE [CHUNK]: writes DATAFILE to PATH (MODE rw: O_RDWR, then
# fsync and read the transcript back; trunc: O_WRONLY|O_TRUNC) in CHUNK-byte
# write() calls (default one), going on past a refused one as `cellfs load`
# does. Prints "write=E fsync=E close=E" (E: OK or the first errno's name),
# then what the open file reads back.
cat >"$WORK/feed.py" <<'PY'
import errno, os, sys
path, mode, datafile = sys.argv[1:4]
chunk = int(sys.argv[4]) if len(sys.argv) > 4 else 0
name = lambda e: errno.errorcode.get(e.errno, str(e.errno))
data = open(datafile, "rb").read()
fd = os.open(path, {"rw": os.O_RDWR, "trunc": os.O_WRONLY | os.O_TRUNC}[mode])
result = {"write": "OK", "fsync": "OK", "close": "OK"}
step = chunk or max(len(data), 1)
for at in range(0, len(data), step):
    piece = data[at:at + step]
    while piece:
        try:
            piece = piece[os.write(fd, piece):]
        except OSError as e:
            if result["write"] == "OK":
                result["write"] = name(e)
            break
transcript = b""
if mode == "rw":
    try:
        os.fsync(fd)
    except OSError as e:
        result["fsync"] = name(e)
    transcript = os.pread(fd, 1 << 20, 0)
try:
    os.close(fd)
except OSError as e:
    result["close"] = name(e)
print("write=%(write)s fsync=%(fsync)s close=%(close)s" % result)
sys.stdout.write(transcript.decode("utf-8", "replace"))
PY
feed() { python3 "$WORK/feed.py" "$@"; }

# transcript_lines TEXT: the numbers of the "line N:" reports, space-separated.
transcript_lines() { sed -n 's/^line \([0-9]*\): .*/\1/p' <<<"$1" | tr '\n' ' '; }

# cql_refused WHAT PATTERN STATEMENT: `cellfs cql -e` exits 1 with one ERROR
# line matching PATTERN and prints no OK line.
cql_refused() {
  local rc=0 out
  out=$("$CELLFS" cql "$MNT" -e "$3" 2>"$WORK/cql.err") || rc=$?
  expect_eq "$1: exit code of cellfs cql" 1 "$rc"
  expect_match "$1: the ERROR line" "^ERROR line [0-9]+:[0-9]+: .*$2" "$(<"$WORK/cql.err")"
  expect_eq "$1: no OK line" "" "$out"
}

# cql_file_refused WHAT PATTERN FILE: the same for `cellfs cql -f FILE`.
cql_file_refused() {
  local rc=0 out
  out=$("$CELLFS" cql "$MNT" -f "$3" 2>"$WORK/cql.err") || rc=$?
  expect_eq "$1: exit code of cellfs cql" 1 "$rc"
  expect_match "$1: the ERROR line" "^ERROR line [0-9]+:[0-9]+: .*$2" "$(<"$WORK/cql.err")"
  expect_eq "$1: no OK line" "" "$out"
}

# The state of keyspace hv, byte for byte: every table dumped and exported, the
# tree with sizes and times, the extended attributes, the schema.
FP_TABLES=(types counts clus comp asck kv ins)
fingerprint() {
  local t
  for t in "${FP_TABLES[@]}"; do
    echo "== hv.$t dump"
    "$CELLFS" dump "$MNT" "hv.$t"
    echo "== hv.$t @csv"
    cat "$MNT/hv/$t/@csv"
  done
  echo "== tree"
  (cd "$MNT/hv" && find . -mindepth 1 -printf '%y %m %s %T@ %p\n')
  echo "== xattrs"
  getfattr -R -d -m '^user\.cellfs\.' --absolute-names "$MNT/hv"
  echo "== schema"
  cat "$MNT/hv/@schema"
}

long() { printf "$1%.0s" $(seq "$2"); }   # long CHAR N: CHAR N times
L255=$(long x 255)
L256=$(long x 256)
SECONDS=0

# --- setup: known data in keyspace hv (fingerprinted), scratch keyspace sc ---

mount_fs
mkdir "$MNT/hv" "$MNT/sc"
TYPES="i int, bi bigint, si smallint, ti tinyint, vi varint, de decimal, fl float, db double,
  bo boolean, ts timestamp, da date, tm time, u uuid, tu timeuuid, ip inet, bl blob, tx text,
  at ascii, li list<int>, se set<text>, ma map<text, int>, tup frozen<tuple<int, text>>"
for ks in hv sc; do
  "$CELLFS" cql "$MNT" -f - >/dev/null <<CQL || die "the schema of $ks was refused"
CREATE TABLE $ks.types (k int PRIMARY KEY, $TYPES);
CREATE TABLE $ks.counts (k text PRIMARY KEY, hits counter);
CREATE TABLE $ks.clus (p text, c1 int, c2 text, v text, s text static, PRIMARY KEY (p, c1, c2));
CREATE TABLE $ks.comp (a int, b text, c int, v int, PRIMARY KEY ((a, b), c));
CREATE TABLE $ks.asck (k ascii, c ascii, v text, PRIMARY KEY (k, c));
CREATE TABLE $ks.kv (k text PRIMARY KEY, v text);
CREATE TABLE $ks.ins (p text, c int, v text, n int, b bigint, d double, l list<int>,
  PRIMARY KEY (p, c));
CQL
done
cql "CREATE TABLE sc.names (p text, c text, v text, PRIMARY KEY (p, c))"

# fill KS: the same known rows in both keyspaces.
fill() {
  local k=$MNT/$1
  mkdir -p "$k/types/1" "$k/types/2" "$k/clus/p/1,a" "$k/clus/p/2,b" "$k/comp/1,x/1" \
    "$k/asck/ok/row" "$k/kv/key" "$k/ins/a/1" "$k/ins/a/2" "$k/counts/a"
  (
    cd "$k/types/1" || exit 1
    echo 7 >i; echo 9000000000 >bi; echo 300 >si; echo 12 >ti
    echo 123456789012345678901234567890 >"vi"; echo 3.14159 >de; echo 1.5 >fl; echo 2.25 >db
    echo true >bo; echo 2024-01-02T03:04:05.678Z >ts; echo 2024-01-02 >da
    echo 03:04:05.123456789 >tm; echo 123e4567-e89b-12d3-a456-426614174000 >u
    echo 50554d6e-29bb-11e5-b345-feff819cdc9f >tu; echo 192.168.0.1 >ip
    printf '\x00\x01bin' >bl; echo "hello world" >tx; echo plain >"at"; echo "[1, 2, 3]" >li
    echo "{'a', 'b'}" >se; echo "{'x': 1}" >ma; echo "(1, 'one')" >tup
  )
  echo 1234 >"$k/types/2/i"; echo small >"$k/types/2/bl"; echo two >"$k/types/2/tx"
  echo 5 >"$k/counts/a/hits"
  echo va >"$k/clus/p/1,a/v"; echo vb >"$k/clus/p/2,b/v"; echo static >"$k/clus/p/s"
  echo 10 >"$k/comp/1,x/1/v"; echo row >"$k/asck/ok/row/v"; echo value >"$k/kv/key/v"
  echo one >"$k/ins/a/1/v"; echo 1 >"$k/ins/a/1/n"; echo two >"$k/ins/a/2/v"
}
fill hv
fill sc
H=$MNT/hv
S=$MNT/sc
fingerprint >"$WORK/before" || die "the fingerprint of hv failed"
step "setup: $(grep -c '^{' "$WORK/before") rows stored in hv, fingerprint $(wc -c <"$WORK/before") bytes"

# hostile_finish: after every case, hv is byte for byte what it was, the daemon
# runs, and the unmount is clean.
hostile_finish() {
  local pid
  step "after every case: hv is unchanged, the daemon alive, unmount clean"
  fingerprint >"$WORK/after" || fail "the fingerprint of hv failed"
  if ! cmp -s "$WORK/before" "$WORK/after"; then
    fail "the data stored before the cases changed:"$'\n'"$(diff "$WORK/before" "$WORK/after" | head -20 | cut -c1-200)"
  fi
  daemon_ok "all cases"
  pid=$DAEMON_PID
  unmount_fs
  alive "$pid" && fail "the daemon still runs after unmount"
  step "ran in $SECONDS s"
}
