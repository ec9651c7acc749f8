#!/usr/bin/env bash
# Scenario: hostile values, xattrs, CQL and @insert input, and the names hostile.sh
# leaves out: each refused with the errno the docs give, the daemon up, the data
# stored before unchanged. docs/HOSTILE_INPUT.md tabulates both scripts' cases.
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

# ==============================================================================
step "names: over-long keys on the paths hostile.sh does not take"
expect_fail_errno "echo into a 256-byte partition (create path)" "File name too long" \
  put "$H/kv/$L256/v" x
expect_fail_errno "a 256-byte partition with a @ttl suffix" "File name too long" \
  mkdir "$H/kv/$L256@ttl=60"
expect_fail_errno "a 2-component row key of 256 bytes" "File name too long" \
  mkdir "$H/clus/p/1,$(long x 254)"
expect_fail_errno "a 256-byte composite partition key" "File name too long" \
  mkdir -p "$H/comp/1,$(long x 254)/1"
expect_ok "a 255-byte key plus a @ttl suffix (the suffix is not the key)" \
  mkdir "$S/kv/$L255@ttl=600"
expect_eq "it lists as its 255-byte key" "$L255" "$(ls -U "$S/kv" | grep '^xxx' || true)"

printf '{"p": "%s", "c": "r"}\n' "$L255" >"$WORK/ok255.jsonl"
expect_eq "@insert of a 255-byte key" "write=OK fsync=OK close=OK
1 rows stored, 0 lines refused" "$(feed "$S/names/@insert" rw "$WORK/ok255.jsonl")"
{
  printf '{"p": "%s", "c": "r"}\n' "$L256"
  printf '{"p": "%s", "c": "r"}\n' "$(long / 86)"   # 86 bytes raw, 258 escaped
} >"$WORK/long.jsonl"
printf 'p,c\nq,%s\n' "$(long y 300)" >"$WORK/long.csv"
# DESIGN.md section 2: a name over 255 bytes is refused on every write path.
# Errors on an open @insert file are sticky, so fsync and close fail too.
out=$(feed "$S/names/@insert" rw "$WORK/long.jsonl")
expect_eq "@insert of 256-byte keys (raw and after escaping): each line refused" \
  "write=EINVAL fsync=EINVAL close=EINVAL 1 2 " "$(head -1 <<<"$out") $(transcript_lines "$out")"
expect_eq "the reason names the limit" 2 "$(grep -c '^line [12]: .*would exceed the limit of 255 bytes' <<<"$out")"
expect_eq "the summary of the JSON lines" "0 rows stored, 2 lines refused" "$(tail -1 <<<"$out")"
out=$(feed "$S/names/@insert" rw "$WORK/long.csv")
expect_eq "@insert (CSV) of a 300-byte clustering key: the record refused" \
  "write=EINVAL fsync=EINVAL close=EINVAL 2 " "$(head -1 <<<"$out") $(transcript_lines "$out")"
expect_eq "the CSV reason names the limit" 1 "$(grep -c '^line 2: .*would exceed the limit of 255 bytes' <<<"$out")"
expect_eq "the summary of the CSV record" "0 rows stored, 1 lines refused" "$(tail -1 <<<"$out")"
expect_eq "no over-long key is stored" 1 "$("$CELLFS" dump "$MNT" sc.names | wc -l)"

step "names: ascii keys, newlines, escapes that do not decode"
expect_fail_errno "non-ASCII in an ascii partition key" "Invalid argument" mkdir "$H/asck/caf"$'\xc3\xa9'
expect_fail_errno "the same, escaped" "Invalid argument" mkdir "$H/asck/caf%C3%A9"
expect_fail_errno "non-ASCII in an ascii row key" "Invalid argument" mkdir "$H/asck/ok/"$'\xc3\xa9'
expect_fail_errno "byte 0x80 escaped in an ascii key" "Invalid argument" mkdir "$H/asck/ok/%80"
expect_fail_errno "an int key with a trailing newline" "Invalid argument" mkdir "$H/types/1"$'\n'
expect_fail_errno "an int key with a leading newline" "Invalid argument" mkdir "$H/types/"$'\n1'
expect_fail_errno "a newline inside an int key component" "Invalid argument" mkdir "$H/clus/p/1"$'\n'",a"
for bad in %G1 % %2 a% 1%2; do
  expect_fail_errno "escape $bad does not decode" "Invalid argument" mkdir "$H/kv/$bad"
done
expect_fail_errno "a bad escape in a row key" "Invalid argument" mkdir "$H/clus/p/1,%2"
expect_fail_errno "a bad escape in a slice bound" "Invalid argument" ls "$H/clus/p/@ge=1,%G1"
expect_fail_errno "%- followed by more" "Invalid argument" mkdir "$H/kv/%-x"
expect_ok "a lower-case escape is accepted" mkdir "$S/kv/lower%2fcase"
expect_ok "an escape of a plain character is accepted" mkdir "$S/kv/%41bc"
expect_eq "both list canonically" $'Abc\nlower%2Fcase' "$(ls "$S/kv" | grep -v '^xxx' | grep -v key)"

step "names: wrong component counts"
expect_fail_errno "1 of 2 partition key components" "Invalid argument" mkdir "$H/comp/1"
expect_fail_errno "3 of 2 partition key components" "Invalid argument" mkdir "$H/comp/1,a,b"
expect_fail_errno "an empty int component" "Invalid argument" mkdir "$H/comp/,a"
expect_fail_errno "2 of 1 clustering components" "Invalid argument" mkdir "$H/comp/1,x/1,2"
expect_fail_errno "1 of 2 clustering components" "Invalid argument" mkdir "$H/clus/p/1"
expect_fail_errno "3 of 2 clustering components" "Invalid argument" mkdir "$H/clus/p/1,a,b"
expect_fail_errno "2 components for an int key" "Invalid argument" mkdir "$H/types/1,2"
expect_fail_errno "a slice bound with 3 of 2 components" "Invalid argument" ls "$H/clus/p/@ge=1,a,b"
expect_fail_errno "a slice bound that does not parse" "Invalid argument" ls "$H/clus/p/@ge=x"

step "names: virtual-name look-alikes"
for name in @jsonx @JSON @json. @thing; do
  expect_fail_errno "cat $name in a row" "No such file or directory" cat "$H/clus/p/1,a/$name"
done
expect_fail_errno "an unknown @ name in a table" "No such file or directory" ls "$H/clus/@thing"
expect_fail_errno "@csv of a row (rows have @json only)" "No such file or directory" \
  cat "$H/clus/p/1,a/@csv"
expect_fail_errno "@limit without =" "No such file or directory" ls "$H/clus/p/@limit"
expect_fail_errno "@reverse=1" "No such file or directory" ls "$H/clus/p/@reverse=1"
for limit in 0 -1 007 abc 18446744073709551616; do
  expect_fail_errno "@limit=$limit" "Invalid argument" ls "$H/clus/p/@limit=$limit"
done
expect_ok "@limit=18446744073709551615 (the largest)" ls "$H/clus/p/@limit=18446744073709551615"
expect_fail_errno "an empty slice bound @ge=" "Invalid argument" ls "$H/clus/p/@ge="
expect_fail_errno "@ge= where there is no clustering column" "No such file or directory" \
  ls "$H/types/1/@ge=1"
for suffix in @ttl=abc @ttl=-1 @ttl=630720001 @ttl= @ttl=007 @timestamp=notanumber \
  @timestamp=-0 @timestamp=-9223372036854775808 @timestamp=9223372036854775808 @ttl=1@ttl=2; do
  expect_fail_errno "mkdir of a row with $suffix" "Invalid argument" mkdir "$H/clus/p/3,c$suffix"
  expect_fail_errno "a cell write with $suffix" "Invalid argument" put "$H/clus/p/1,a/v$suffix" x
done
expect_fail_errno "@TTL= is data, so an unknown column" "Invalid argument" put "$H/clus/p/1,a/v@TTL=5" x
expect_fail_errno "@insert@ttl=abc" "Invalid argument" put "$H/ins/@insert@ttl=abc" '{}'
expect_fail_errno "@insert@ttl=630720001" "Invalid argument" put "$H/ins/@insert@ttl=630720001" '{}'
expect_fail_errno "creating an @ file (touch)" "Operation not permitted" touch "$H/kv/@made"
expect_fail_errno "removing @json" "Operation not permitted" rm "$H/kv/@json"
expect_fail_errno "removing @cql" "Operation not permitted" rm "$MNT/@cql"
expect_fail_errno "mkdir of an unknown @ name" "Operation not permitted" mkdir "$H/@made"
expect_fail_errno "mkdir of an unknown @ name in a row" "Operation not permitted" \
  mkdir "$H/types/1/@made"
expect_fail_errno "renaming a row" "Operation not permitted" mv "$H/kv/key" "$H/kv/other"
expect_fail_errno "a symlink" "Operation not permitted" ln -s key "$H/kv/link"
expect_fail_errno "renaming a cell" "Operation not permitted" mv "$H/kv/key/v" "$H/kv/key/w"
expect_fail_errno "renaming a keyspace" "Operation not permitted" mv "$H" "$MNT/hv2"
expect_fail_errno "a hard link" "Operation not permitted" ln "$H/kv/key/v" "$H/kv/key/w"
expect_fail_errno "a FIFO" "Operation not permitted" mkfifo "$H/kv/fifo"
expect_fail_errno "a device node" "Operation not permitted" mknod "$H/kv/key/dev" c 1 3
expect_fail_errno "mknod(2) of a regular file" "Operation not permitted" \
  python3 -c "import os,stat,sys; os.mknod(sys.argv[1], stat.S_IFREG | 0o644)" "$H/kv/key/v2"
daemon_ok names

# ==============================================================================
step "values: integer overflow at every width"
refuse "tinyint overflow" "Invalid argument" "$H/types/1/ti" 128 -129 1000
refuse "smallint overflow" "Invalid argument" "$H/types/1/si" 32768 -32769
refuse "int overflow" "Invalid argument" "$H/types/1/i" 2147483648 -2147483649 99999999999999999999
refuse "bigint overflow" "Invalid argument" "$H/types/1/bi" 9223372036854775808 -9223372036854775809
refuse "an element of a list<int> overflows" "Invalid argument" "$H/types/1/li" "[1, 2147483648]"
refuse "a tuple's int overflows" "Invalid argument" "$H/types/1/tup" "(2147483648, 'x')"
refuse "a map's int value overflows" "Invalid argument" "$H/types/1/ma" "{'x': 2147483648}"
T=$S/types/1
for v in 127 -128; do expect_ok "tinyint $v" put "$T/ti" $v; expect_eq "tinyint $v" $v "$(cat "$T/ti")"; done
put "$T/bi" -9223372036854775808
expect_eq "bigint minimum" -9223372036854775808 "$(cat "$T/bi")"
big=$(long 9 400)
put "$T/vi" "$big"
expect_eq "a 400-digit varint is exact" "$big" "$(cat "$T/vi")"

step "values: malformed literals for every type"
R=$H/types/1
refuse "int" "Invalid argument" "$R/i" 0x10 " 5" "5 " 1e3 1.5 12x "" -
refuse "bigint" "Invalid argument" "$R/bi" abc 1.0
refuse "varint" "Invalid argument" "$R/vi" 1.5 1e5 0x1
refuse "decimal" "Invalid argument" "$R/de" abc 1.2.3 1e999999999999 "1 000"
refuse "float" "Invalid argument" "$R/fl" inf 3.5e38 1e39 1,5
refuse "double" "Invalid argument" "$R/db" 1e309 NaNx 0x1p3
refuse "boolean" "Invalid argument" "$R/bo" yes 1 t
refuse "timestamp" "Invalid argument" "$R/ts" 2024-13-01T00:00:00Z notatime 99999999999999999999
refuse "date" "Invalid argument" "$R/da" 2024-02-30 2024-1-1 10000000-01-01
refuse "time" "Invalid argument" "$R/tm" 25:00:00 23:59:60 12:00:00.1234567890
refuse "uuid" "Invalid argument" "$R/u" not-a-uuid 123e4567-e89b-12d3-a456-42661417400
refuse "timeuuid given a version-4 uuid" "Invalid argument" "$R/tu" 123e4567-e89b-42d3-a456-426614174000
refuse "inet" "Invalid argument" "$R/ip" 300.1.1.1 ::gg 1.2.3
refuse "list" "Invalid argument" "$R/li" "[1, x]" "[1, 2" "{1}"
refuse "set" "Invalid argument" "$R/se" "{'a'" "{1}" "['a']"
refuse "map" "Invalid argument" "$R/ma" "{'x': 'y'}" "{'x'}"
refuse "tuple" "Invalid argument" "$R/tup" "(1, 'one', 3)" "(x)" "1, 'one'"
expect_fail_errno "text: an overlong UTF-8 encoding" "Invalid argument" \
  python3 -c "open('$R/tx', 'wb', buffering=0).write(b'a\\xc0\\xaf\\n')"
expect_fail_errno "text: a UTF-16 surrogate" "Invalid argument" python3 -c "open('$R/tx', 'wb', buffering=0).write(b'a\\xed\\xa0\\x80\\n')"
expect_fail_errno "text: past U+10FFFF" "Invalid argument" python3 -c "open('$R/tx', 'wb', buffering=0).write(b'a\\xf4\\x90\\x80\\x80\\n')"
expect_fail_errno "ascii: byte 0x80" "Invalid argument" python3 -c "open('$R/at', 'wb', buffering=0).write(b'a\\x80\\n')"
refuse "counter: not an integer" "Invalid argument" "$H/counts/a/hits" x 1.5 9223372036854775808 ""
expect_fail_errno "counter with @ttl=" "Invalid argument" put "$H/counts/a/hits@ttl=5" 1
# As CQL refuses USING TIMESTAMP on a counter update: refused at open, like
# @ttl=, so the shell reports it and nothing is added.
expect_fail_errno "counter with @timestamp=" "Invalid argument" \
  put "$H/counts/a/hits@timestamp=5" 1
expect_eq "counter with @timestamp=: nothing added" 5 "$(cat "$H/counts/a/hits")"
expect_fail_errno "echo 1 > counter@timestamp= fails in the shell" "Invalid argument" \
  put "$S/counts/a/hits@timestamp=5" 1
expect_eq "nor did the shell's write add" 5 "$(cat "$S/counts/a/hits")"
mkdir "$S/counts/w"
put "$S/counts/w/hits" 2
put "$S/counts/w/hits" 9223372036854775807
expect_eq "a counter past INT64_MAX wraps, as Cassandra's do" -9223372036854775807 "$(cat "$S/counts/w/hits")"
for v in NaN Infinity -Infinity; do
  put "$T/db" "$v"
  expect_eq "double $v (a CQL literal) round-trips" "$v" "$(cat "$T/db")"
done
put "$T/bo" TRUE
expect_eq "boolean is case-insensitive, as in CQL" true "$(cat "$T/bo")"

step "values: a literal completed only at close, and a value refused mid-stream"
printf -- '-' >"$WORK/minus"
expect_eq "a bare '-' into an int: accepted as a prefix, refused at close" \
  "write=OK fsync=OK close=EINVAL" "$(feed "$R/i" trunc "$WORK/minus")"
expect_eq "the int keeps its value" 7 "$(cat "$R/i")"
python3 -c 'import sys; sys.stdout.buffer.write(b"a" * 200000 + b"\xff\n")' >"$WORK/bad.txt"
# A refused write refuses the whole value: the open file stores nothing, not
# the writes accepted before, and its close fails with the same errno.
expect_eq "200 kB of text then a bad byte, in 128 KiB writes: write and close fail" \
  "write=EINVAL fsync=OK close=EINVAL" "$(feed "$S/types/2/tx" trunc "$WORK/bad.txt" 131072)"
expect_eq "a value refused mid-stream leaves the old text" two "$(cat "$S/types/2/tx")"
expect_fail_errno "an int written '12\\n' then 'x\\n' through one descriptor" "Invalid argument" \
  bash -c "{ printf '12\\n'; printf 'x\\n'; } > '$S/types/2/i'"
expect_eq "that int keeps its old value" 1234 "$(cat "$S/types/2/i")"
# With a second copy of the descriptor, the close of that copy (cat's exit) is
# a flush that stores what was written so far, before printf's write is
# refused: Unix close semantics (docs/FILESYSTEM.md), not a refusal undone.
printf '12\n' >"$WORK/twelve"
expect_fail_errno "(cat twelve; printf 'x\\n') > int: printf's write fails" "Invalid argument" \
  bash -c "(cat '$WORK/twelve'; printf 'x\\n') > '$S/types/2/i'"
expect_eq "cat's close stored 12" 12 "$(cat "$S/types/2/i")"

step "values: odd offsets and truncation"
expect_fail_errno "a write at offset 10 of an int (a gap of NULs)" "Invalid argument" \
  dd if=/dev/zero of="$R/i" bs=1 count=1 seek=10 conv=notrunc status=none
expect_fail_errno "a letter over an int's second digit" "Invalid argument" \
  bash -c "printf x | dd of='$H/types/2/i' bs=1 seek=1 conv=notrunc status=none"
printf 9 | dd of="$S/types/2/bl" bs=1 seek=2 conv=notrunc status=none
expect_eq "a blob overwritten in place at offset 2" "sm9ll" "$(cat "$S/types/2/bl")"
expect_fail_errno "a write at 2^62" "File too large" \
  python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_WRONLY); os.pwrite(fd, b'x', 1 << 62)" "$R/bl"
expect_fail_errno "a write that ends past 64 MiB" "File too large" \
  bash -c "printf 9 | dd of='$R/bl' bs=1 seek=$((64 << 20)) conv=notrunc status=none"
expect_fail_errno "growing text with truncate" "Invalid argument" truncate -s 100 "$R/tx"
expect_fail_errno "cutting text short" "Invalid argument" truncate -s 1 "$R/tx"
expect_fail_errno "cutting a blob short" "Invalid argument" truncate -s 2 "$R/bl"
expect_fail_errno "truncate(2) of an int to 0 (no empty int)" "Invalid argument" \
  python3 -c "import os,sys; os.truncate(sys.argv[1], 0)" "$R/i"
expect_fail_errno "a row @json written at offset 5" "Invalid argument" \
  python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_WRONLY); os.pwrite(fd, b'{}', 5)" \
  "$H/clus/p/1,a/@json"
expect_fail_errno "ftruncate(fd, 0) of an open int" "Invalid argument" \
  python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_WRONLY); os.ftruncate(fd, 0)" "$S/types/1/i"
expect_eq "after the refused ftruncate the int keeps its value" 7 "$(cat "$S/types/1/i")"
expect_eq "and its size" 2 "$(stat -c %s "$S/types/1/i")"
expect_eq "cat agrees with @json" 7 \
  "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["i"])' <"$S/types/1/@json")"
truncate -s 0 "$S/types/1/tx"
expect_eq "truncate -s 0 of text stores the empty text" "" "$(cat "$S/types/1/tx")"

step "values: row @json"
J=$H/clus/p/1,a/@json
refuse "row @json" "Invalid argument" "$J" '{"v": 1}' '{"p": "other"}' '{"c1": 99}' \
  '{"nosuch": 1}' '[1]' '{"v": "a"} {}' '{"v": "a", "v": "b"}' \
  '{"l": '"$(long '[' 100)1$(long ']' 100)"'}'
printf '{"v": "x"' >"$WORK/open.json"
expect_eq "an object never closed: refused at close" "write=OK fsync=OK close=EINVAL" \
  "$(feed "$J" trunc "$WORK/open.json")"
expect_fail_errno "echo hello > a row's @json fails at the write" "Invalid argument" put "$J" hello
printf 'hello\n' >"$WORK/hello"
expect_eq "not an object: the write() fails at once" "write=EINVAL fsync=OK close=EINVAL" \
  "$(feed "$J" trunc "$WORK/hello")"
daemon_ok values

step "values: huge writes"
rss0=$(mib VmRSS)
start=$SECONDS
expect_fail_errno "64 MiB + 1 byte into a blob" "File too large" \
  python3 -c "
f = open('$S/types/2/bl', 'wb', buffering=0)
for _ in range(64): f.write(bytes(1 << 20))
f.write(b'x')"
step "  64 MiB + 1: $((SECONDS - start)) s; daemon RSS ${rss0} -> $(mib VmRSS) MiB (peak $(mib VmHWM) MiB)"
# The blob held "sm9ll\n" (written in place above): 6 bytes, unchanged.
expect_eq "the refused 64 MiB + 1 write leaves the old blob" "6 $(printf 'sm9ll\n' | od -An -tx1)" \
  "$(stat -c %s "$S/types/2/bl") $(od -An -tx1 <"$S/types/2/bl")"
(($(mib VmRSS) < 1024)) || fail "daemon RSS $(mib VmRSS) MiB after a refused 64 MiB write"
python3 -c '
import sys
sys.stdout.buffer.write(b"{\"tx\": \"" + b"a" * ((64 << 20) + 1) + b"\"}")' >"$WORK/huge.json"
start=$SECONDS
rc=0
out=$(timeout 15 python3 "$WORK/feed.py" "$S/types/2/@json" trunc "$WORK/huge.json" $((1 << 20))) || rc=$?
rm -f "$WORK/huge.json"
# A row's @json has the cell's limit, and scans each byte once (linear time).
expect_eq "a 64 MiB + 1 text through a row's @json is refused, EFBIG, within 15 s" \
  "0 write=EFBIG fsync=OK close=EFBIG" "$rc $(head -1 <<<"$out")"
expect_eq "the row's text is unchanged" two "$(cat "$S/types/2/tx")"
step "  64 MiB + 1 through @json: $((SECONDS - start)) s"
daemon_ok "huge writes"

# ==============================================================================
step "extended attributes"
C=$H/types/1/i
for v in -1 630720001 007 "" 99999999999999999999 "60 " soon; do
  expect_fail_errno "user.cellfs.ttl $(_show "$v")" "Invalid argument" \
    setfattr -n user.cellfs.ttl -v "$v" "$C"
done
for v in '6\x000' '60\n\n'; do
  expect_fail_errno "user.cellfs.ttl $v" "Invalid argument" \
    python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.cellfs.ttl', b'$v')" "$C"
done
expect_fail_errno "a 64 KiB TTL value" "Invalid argument" \
  python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.cellfs.ttl', b'1' * 65536)" "$C"
expect_fail_errno "a 1 MiB TTL value (the kernel's limit)" "Argument list too long" \
  python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.cellfs.ttl', b'1' * (1 << 20))" "$C"
expect_fail_errno "a 1 MiB unknown attribute" "Argument list too long" \
  python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.big', b'x' * (1 << 20))" "$C"
expect_fail_errno "a 64 KiB unknown attribute" "Operation not supported" \
  python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.big', b'x' * 65536)" "$C"
expect_fail_errno "an attribute name over 255 bytes" "Numerical result out of range" \
  python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.' + 'n' * 300, b'1')" "$C"
expect_fail_errno "an unknown user.* attribute" "Operation not supported" setfattr -n user.foo -v 1 "$C"
expect_fail_errno "setting user.cellfs.writetime" "Operation not permitted" \
  setfattr -n user.cellfs.writetime -v 1 "$C"
expect_fail_errno "removing user.cellfs.writetime" "Operation not permitted" \
  setfattr -x user.cellfs.writetime "$C"
expect_fail_errno "setting user.cellfs.token on a partition" "Operation not permitted" \
  setfattr -n user.cellfs.token -v 1 "$H/kv/key"
expect_fail_errno "a TTL on a row directory" "Operation not supported" \
  setfattr -n user.cellfs.ttl -v 60 "$H/clus/p/1,a"
expect_fail_errno "a TTL on a partition directory" "Operation not supported" \
  setfattr -n user.cellfs.ttl -v 60 "$H/kv/key"
expect_fail_errno "a TTL on a counter" "Invalid argument" setfattr -n user.cellfs.ttl -v 60 "$H/counts/a/hits"
expect_fail_errno "removing an unknown attribute" "No such attribute" setfattr -x user.nosuch "$C"
expect_fail_errno "a TTL on @json" "Operation not supported" \
  setfattr -n user.cellfs.ttl -v 60 "$H/clus/p/1,a/@json"
python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.cellfs.ttl', b'600\n')" "$S/types/1/bi"
ttl=$(getfattr --absolute-names --only-values -n user.cellfs.ttl "$S/types/1/bi")
((ttl > 590 && ttl <= 600)) || fail "a TTL ending in one newline is taken (got $ttl)"
setfattr -n user.cellfs.ttl -v 630720000 "$S/types/1/si"
ttl=$(getfattr --absolute-names --only-values -n user.cellfs.ttl "$S/types/1/si")
((ttl > 630719990)) || fail "the largest TTL is taken (got $ttl)"
daemon_ok "extended attributes"

# ==============================================================================
step "CQL: malformed statements"
cql_refused "a missing parenthesis" "expected" "CREATE TABLE sc.x (a int PRIMARY KEY"
cql_refused "an unterminated string" "unterminated string literal" \
  "CREATE TABLE sc.x (a int PRIMARY KEY) WITH comment = 'open"
cql_refused "an unterminated comment" "unterminated /\\* comment" \
  "CREATE TABLE sc.x (a int PRIMARY KEY) /* open"
cql_refused "an unterminated \$\$ string" "unterminated \\$\\$ string" \
  "CREATE TABLE sc.x (a int PRIMARY KEY) WITH comment = \$\$ open"
cql_refused "a word that is no statement" "unsupported statement" "garbage"
cql_refused "an unknown type" "unknown type" "CREATE TABLE sc.x (a int PRIMARY KEY, b nosuch)"
cql_refused "a keyspace name with a dash" "must be 1 to 48 letters" \
  "CREATE KEYSPACE \"bad-name\" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"
cql_refused "a 49-character table name" "must be 1 to 48 letters" \
  "CREATE TABLE sc.$(long t 49) (a int PRIMARY KEY)"
cql_refused "an existing table" "already exists" "CREATE TABLE hv.types (k int PRIMARY KEY)"
cql_refused "a column added twice" "" "ALTER TABLE hv.types ADD i int"
cql_refused "default_time_to_live above 630720000" "" \
  "ALTER TABLE hv.types WITH default_time_to_live = 630720001"
cql_refused "negative gc_grace_seconds" "" "ALTER TABLE hv.types WITH gc_grace_seconds = -1"
cql_refused "an unknown table option" "" "ALTER TABLE hv.types WITH nosuchoption = 1"
cql_refused "a counter beside other columns" "counter" "CREATE TABLE sc.x (a int PRIMARY KEY, b counter, c int)"
cql_refused "COMPACT STORAGE" "COMPACT STORAGE" "CREATE TABLE sc.x (a int PRIMARY KEY) WITH COMPACT STORAGE"
cql_refused "an empty quoted identifier" "" "CREATE TABLE sc.x (\"\" int PRIMARY KEY)"

step "CQL: unsupported and data statements"
cql_refused "CREATE INDEX" "CREATE INDEX is not supported" "CREATE INDEX ON hv.types (i)"
cql_refused "CREATE MATERIALIZED VIEW" "is not supported" \
  "CREATE MATERIALIZED VIEW hv.mv AS SELECT * FROM hv.types WHERE k IS NOT NULL PRIMARY KEY (k)"
for stmt in "SELECT * FROM hv.types" "INSERT INTO hv.types (k) VALUES (3)" "TRUNCATE hv.types" \
  "DELETE FROM hv.types WHERE k = 1" "UPDATE hv.counts SET hits = hits + 1 WHERE k = 'a'"; do
  cql_refused "${stmt%% *}" "DDL only" "$stmt"
done

step "CQL: NUL bytes, invalid UTF-8, many statements in one write"
cql_write() { printf "$1" >"$WORK/stmt.cql"; feed "$MNT/@cql" rw "$WORK/stmt.cql"; }
out=$(cql_write 'CREATE TABLE sc.n1 (k int PRIMARY KEY)\x00;')
expect_eq "a NUL byte outside a string" "write=EINVAL fsync=OK close=OK
ERROR line 1:39: unexpected character byte 0x00" "$out"
expect_match "invalid UTF-8 in a string literal" "ERROR line 1:[0-9]+: invalid UTF-8 in string literal" \
  "$(cql_write "CREATE TABLE sc.n2 (k int PRIMARY KEY) WITH comment = 'a\\xffb';")"
expect_match "invalid UTF-8 in a quoted identifier" "ERROR line 1:[0-9]+: invalid UTF-8 in quoted identifier" \
  "$(cql_write 'CREATE TABLE sc.n3 ("\xff" int PRIMARY KEY);')"
expect_match "a raw 0xff byte" "^write=EINVAL.*unexpected character byte 0xff" \
  "$(cql_write 'CREATE TABLE sc.\xff (k int PRIMARY KEY);' | tr '\n' ' ')"
out=$(cql_write 'CREATE TABLE sc.m1 (k int PRIMARY KEY);\nCREATE TABLE sc.m2 (k nosuch PRIMARY KEY);\nCREATE TABLE sc.m3 (k int PRIMARY KEY);')
expect_match "one bad statement among three: the write fails, the others run" \
  "^write=EINVAL fsync=OK close=OK
OK CREATE TABLE sc.m1
ERROR line 2:[0-9]+: unknown type sc.nosuch
OK CREATE TABLE sc.m3$" "$out"
expect_eq "an unterminated string at close: fsync reports it" "write=OK fsync=EINVAL close=OK" \
  "$(cql_write "CREATE TABLE sc.u1 (k int PRIMARY KEY) WITH comment = 'open" | head -1)"
expect_eq "only comments: nothing to run" "write=OK fsync=OK close=OK" \
  "$(cql_write '/* c */ -- x\n// y\n')"
expect_eq "no table from a refused statement" "m1 m3" \
  "$(ls "$S" | grep -E '^(n[0-9]|m[0-9]|u[0-9]|x)$' | tr '\n' ' ' | sed 's/ $//')"

step "CQL: deep nesting, huge statements"
nest() { python3 -c "import sys; d = int(sys.argv[1]); print(sys.argv[2] + sys.argv[3] * d + sys.argv[4] + sys.argv[5] * d + sys.argv[6])" "$@"; }
nest 1000 "CREATE TABLE sc.d1 (k int PRIMARY KEY, v " "frozen<list<" int ">>" ");" >"$WORK/d.cql"
cql_file_refused "frozen<list<... 1000 deep (cellfs cql)" "nested more than 32 levels" "$WORK/d.cql"
# Deeper still, each in one write() (a recursive parser would run out of stack).
for deep in "tuple 50000 deep|CREATE TABLE sc.d2 (k int PRIMARY KEY, v |frozen<tuple<|int|>>|);|nested more than 32" \
  "map key 50000 deep|CREATE TABLE sc.d3 (k int PRIMARY KEY, v map<|frozen<map<int, |int|>>|, int>);|nested more than 32" \
  "UDT field 50000 deep|CREATE TYPE sc.d4 (a |frozen<set<|int|>>|);|nested more than 32" \
  "PRIMARY KEY in 50000 parentheses|CREATE TABLE sc.d5 (k int, v int, PRIMARY KEY |(|k|)|);|expected" \
  "option map 50000 deep|CREATE TABLE sc.d6 (k int PRIMARY KEY) WITH compaction = |{'a': |1|}|;|expected" \
  "collection literal 50000 deep|CREATE TABLE sc.d7 (k int PRIMARY KEY) WITH caching = |[|1|]|;|expected"; do
  IFS='|' read -r what head open mid close tail pattern <<<"$deep"
  nest 50000 "$head" "$open" "$mid" "$close" "$tail" >"$WORK/d.cql"
  expect_match "a $what" "^write=EINVAL fsync=OK close=OK
ERROR line 1:[0-9]+: .*$pattern" "$(feed "$MNT/@cql" rw "$WORK/d.cql")"
done
nest 2000 "CREATE FUNCTION sc.f (a int) RETURNS NULL ON NULL INPUT RETURNS " "frozen<list<" int ">>" \
  " LANGUAGE java AS 'return a;';" >"$WORK/d.cql"
expect_eq "a function's 2000-deep return type: kept as written, never run" "OK CREATE FUNCTION sc.f" \
  "$("$CELLFS" cql "$MNT" -f "$WORK/d.cql" 2>&1)"
python3 -c "
print(\"CREATE TABLE sc.big (k int PRIMARY KEY, v nosuch) WITH comment = '\" + 'c' * (10 << 20) + \"';\")
" >"$WORK/big.cql"
start=$SECONDS
out=$(feed "$MNT/@cql" rw "$WORK/big.cql" $((512 << 10)))
expect_match "a 10 MiB statement in 512 KiB writes, refused" \
  "^write=EINVAL fsync=OK close=OK
ERROR line 1:[0-9]+: unknown type sc.nosuch$" "$out"
step "  10 MiB statement: $((SECONDS - start)) s"
rm -f "$WORK/big.cql"
python3 -c "
print(\"CREATE TABLE sc.r1 (k int PRIMARY KEY) WITH comment = '\" + 'c' * (4 << 20) + \"';\")
print('CREATE TABLE sc.r2 (k nosuch PRIMARY KEY);')
print('CREATE TABLE sc.r3 (k int PRIMARY KEY);')" >"$WORK/retry.cql"
out=$(feed "$MNT/@cql" rw "$WORK/retry.cql")
rm -f "$WORK/retry.cql"
# The write() is split into kernel requests; the piece holding the bad
# statement fails, the writer gets a short count and re-sends the rest, which
# @cql skips (it ran already). So that write() returns in full, and @cql keeps
# no sticky error: the refusal shows only in the transcript.
expect_match "a 4 MiB script in one write(): each statement runs once" \
  "^write=OK fsync=OK close=OK
OK CREATE TABLE sc.r1
ERROR line 2:[0-9]+: unknown type sc.nosuch
OK CREATE TABLE sc.r3$" "$out"
daemon_ok CQL
expect_eq "the schema of hv is untouched" "$(sed -n '/^== schema$/,$p' "$WORK/before" | tail -n +2)" \
  "$(cat "$H/@schema")"

# ==============================================================================
step "@insert: JSON Lines, good and bad lines mixed"
{
  echo '{"p": "m", "c": 1, "v": "good 1"}'
  echo '{"p": "m", "c": 2, "v": "truncated'
  echo '{"p": "m", "c": "x"}'
  echo '{"p": "m", "c": 4, "nosuch": 1}'
  echo '{"c": 5, "v": "no partition key"}'
  echo '{"p": "m", "v": "no clustering key"}'
  echo '{"p": "m", "c": 7, "c": 8}'
  echo '{"p": "m", "c": 8, "n": 2147483648}'
  echo '{"p": "m", "c": 9, "b": 9223372036854775808}'
  echo '{"p": "m", "c": 10, "d": 1e400}'
  echo "{\"p\": \"m\", \"c\": 11, \"l\": $(long '[' 100000)1$(long ']' 100000)}"
  echo '[1, 2, 3]'
  echo '{"p": "m", "c": 13, "v": "good 13"}'
  echo '{"p": null, "c": 14}'
  echo '{"p": "m", "c": 15, "@ttl": -1}'
  echo '{"p": "m", "c": 16, "@ttl": 630720001}'
  echo '{"p": "m", "c": 17, "@timestamp": "soon"}'
  echo '{"p": "m", "c": 18, "v": "ok"} trailing'
  echo '{"p": "m", "c": 19, "v": "\ud800"}'
  printf '{"p": "m", "c": 20, "v": "\xff"}\n'
  echo '{"p": "m", "c": 21, "n": 01}'
  echo
  echo '{"p": "m", "c": 23, "v": "good column", "n": "bad column"}'
  echo '{"p": "m", "c": 24, "v": "good 24"}'
} >"$WORK/mixed.jsonl"
out=$(feed "$S/ins/@insert" rw "$WORK/mixed.jsonl")
expect_eq "the write fails (and stays failed), each bad line is reported by number" \
  "write=EINVAL fsync=EINVAL close=EINVAL 2 3 4 5 6 7 8 9 10 11 12 14 15 16 17 18 19 20 21 23 " \
  "$(head -1 <<<"$out") $(transcript_lines "$out")"
expect_eq "the summary line" "3 rows stored, 20 lines refused" "$(tail -1 <<<"$out")"
expect_contains "an unknown column is named" "line 4: unknown column 'nosuch'" "$out"
expect_contains "a missing key column is named" "line 5: missing key column 'p'" "$out"
expect_contains "an overflow is named" "line 8: column 'n': value 2147483648 is out of range" "$out"
expect_eq "the good lines landed, nothing else" "1 13 24" "$(ls -U "$S/ins/m" | tr '\n' ' ' | sed 's/ $//')"
expect_missing "a line with one bad column stores none of it" "$S/ins/m/23"

step "@insert: bad lines aimed at stored rows change nothing"
{
  echo '{"p": "a", "c": 1, "v": "changed", "n": "NaN"}'
  echo '{"p": "a", "c": 1, "v": "changed", "zz": 1}'
  echo '{"p": "a", "c": 1, "v": "changed", "@ttl": "x"}'
  echo '{"p": "a", "c": 2, "v": "changed", "l": [2147483648]}'
} >"$WORK/aimed.jsonl"
expect_eq "every line refused" "write=EINVAL fsync=EINVAL close=EINVAL 1 2 3 4 0 rows stored, 4 lines refused" \
  "$(out=$(feed "$H/ins/@insert" rw "$WORK/aimed.jsonl"); echo "$(head -1 <<<"$out") $(transcript_lines "$out")$(tail -1 <<<"$out")")"
expect_eq "the row keeps its value" one "$(cat "$H/ins/a/1/v")"
# A counter table's @insert adds (cqlsh COPY FROM); what Cassandra refuses
# for a counter update is refused per record, and changes nothing.
expect_fail_errno "a counter @insert with a TTL" "Invalid argument" \
  put "$H/counts/@insert" '{"k": "a", "hits": 1, "@ttl": 5}'
expect_fail_errno "a counter @insert with @insert@timestamp=" "Invalid argument" \
  put "$H/counts/@insert@timestamp=5" '{"k": "a", "hits": 1}'
expect_fail_errno "a null counter in @insert" "Invalid argument" \
  put "$H/counts/@insert" '{"k": "a", "hits": null}'
expect_fail_errno "a counter @insert that is not an integer" "Invalid argument" \
  put "$H/counts/@insert" '{"k": "a", "hits": 1.5}'
expect_ok "a counter @insert adds" put "$S/counts/@insert" '{"k": "ins", "hits": 2}'
expect_ok "and adds again" put "$S/counts/@insert" '{"k": "ins", "hits": 3}'
expect_eq "a counter loaded through @insert" 5 "$(cat "$S/counts/ins/hits")"

step "@insert: CSV"
printf '%s\n' 'p,c,v,n' 'k,1,good 1,1' 'k,2,too,many,fields' 'k,3' 'k,4,"bad "quote",1' 'k,5,ok,x' \
  'k,,null clustering key,1' ',7,null partition key,1' '"",8,empty partition key,1' \
  'k,9,"good, 9",9' 'k,10,"never closed,1' >"$WORK/mixed.csv"
out=$(feed "$S/ins/@insert" rw "$WORK/mixed.csv")
expect_eq "the write and the end both fail, each bad record reported" \
  "write=EINVAL fsync=EINVAL close=EINVAL 3 4 5 6 7 8 9 11 " \
  "$(head -1 <<<"$out") $(transcript_lines "$out")"
expect_contains "a wrong field count is named" "line 3: 5 fields, the header has 4" "$out"
expect_contains "an unclosed quote is named" "line 11: a quoted field is not closed" "$out"
expect_eq "the CSV summary" "2 rows stored, 8 lines refused" "$(tail -1 <<<"$out")"
expect_eq "the good records landed" "1 9" "$(ls -U "$S/ins/k" | tr '\n' ' ' | sed 's/ $//')"
for header in 'p,c,nosuch' 'p,v' 'p,c,c' $'\x01\x02'; do
  printf '%s\na,1,x\na,2,y\n' "$header" >"$WORK/header.csv"
  expect_eq "a bad header $(_show "$header") refuses every record" \
    "write=EINVAL fsync=EINVAL close=EINVAL 1 2 3 0 rows stored, 3 lines refused" \
    "$(out=$(feed "$H/ins/@insert" rw "$WORK/header.csv"); echo "$(head -1 <<<"$out") $(transcript_lines "$out")$(tail -1 <<<"$out")")"
done
printf 'p,c,v\n\xff\xfe,1,x\nok,2,caf\xc3\n' >"$WORK/utf8.csv"
out=$(feed "$H/ins/@insert" rw "$WORK/utf8.csv")
expect_eq "invalid UTF-8 in a CSV key and value" \
  "write=EINVAL fsync=EINVAL close=EINVAL 2 3 0 rows stored, 2 lines refused" \
  "$(head -1 <<<"$out") $(transcript_lines "$out")$(tail -1 <<<"$out")"
expect_contains "the bad key is named" "line 2: column 'p': invalid UTF-8" "$out"
printf '{"p": "d", "c": 1, "v": "first"}\n{"p": "d", "c": 1, "v": "second"}\n' >"$WORK/twice.jsonl"
expect_eq "one row twice in one write" "write=OK fsync=OK close=OK
2 rows stored, 0 lines refused" "$(feed "$S/ins/@insert" rw "$WORK/twice.jsonl")"
expect_eq "the later line wins" second "$(cat "$S/ins/d/1/v")"
: >"$WORK/empty"
expect_eq "empty input" "write=OK fsync=OK close=OK
0 rows stored, 0 lines refused" "$(feed "$H/ins/@insert" rw "$WORK/empty")"
printf '\n\n\n' >"$WORK/blank"
expect_eq "blank lines only" "write=OK fsync=OK close=OK
0 rows stored, 0 lines refused" "$(feed "$H/ins/@insert" rw "$WORK/blank")"
python3 - "$S/ins/@insert" >"$WORK/out" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
os.write(fd, b'p,c,v\nq,1,"never closed\n')
for data in (None, None, b"q,3,after\n", None):
    try:
        if data is None:
            os.fsync(fd)
        else:
            os.write(fd, data)
        print("ok")
    except OSError as e:
        print(e.strerror)
sys.stdout.write(os.pread(fd, 1 << 16, 0).decode())
try:
    os.close(fd)
except OSError as e:
    print("close:", e.strerror)
PY
# The first fsync ends the open quoted field and refuses that record; the
# error stays (every later fsync and the close fail), the record is reported
# once, and the good line written next is stored.
expect_eq "an unclosed quote, fsync twice, then a good line" "Invalid argument
Invalid argument
ok
Invalid argument
line 2: a quoted field is not closed at the end of the input
1 rows stored, 1 lines refused
close: Invalid argument" "$(cat "$WORK/out")"
expect_eq "the good line after it was stored" after "$(cat "$S/ins/q/3/v")"
python3 -c '
import json
for i in range(30000):
    print(json.dumps({"p": "big", "c": i, "v": "x" * 40} if i != 29990 else {"p": "big", "c": "bad"}))
' >"$WORK/big.jsonl"
out=$(feed "$S/ins/@insert" rw "$WORK/big.jsonl")
expect_eq "a $(($(wc -c <"$WORK/big.jsonl") >> 20)) MiB write(): re-sent bytes are not parsed twice" \
  "29991 29999 rows stored, 1 lines refused" "$(transcript_lines "$out")$(tail -1 <<<"$out")"
# The bad line falls in a later piece of a write() larger than the kernel's
# largest request: that piece fails, the writer gets a short count and the
# re-sent rest is skipped (parsed already), so the write() itself may return
# in full; the error is sticky, so fsync and close fail.
expect_match "that write() is reported by fsync and close" "^write=(OK|EINVAL) fsync=EINVAL close=EINVAL$" \
  "$(head -1 <<<"$out")"
expect_eq "each good line stored once" 29999 "$(ls -U "$S/ins/big" | wc -l)"
python3 - "$S/ins/@insert" >"$WORK/out" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
for data in (b'{"p": "a"}\n', b'{"p": "w", "c": 1, "v": "after"}\n'):
    try:
        print(os.write(fd, data), end=" ")
    except OSError as e:
        print(e.strerror, end=" ")
    print("at", os.lseek(fd, 0, os.SEEK_CUR))
try:
    os.fsync(fd)
except OSError as e:
    print("fsync:", e.strerror)
sys.stdout.write(os.pread(fd, 1 << 16, 0).decode())
try:
    os.close(fd)
except OSError as e:
    print("close:", e.strerror)
PY
expect_eq "a write refused as a whole, then a good line at the same offset" "Invalid argument at 0
33 at 33
fsync: Invalid argument
line 1: missing key column 'c'
1 rows stored, 1 lines refused
close: Invalid argument" "$(cat "$WORK/out")"
expect_eq "the good line is stored (new input, not a re-send)" after "$(cat "$S/ins/w/1/v")"
daemon_ok "@insert"

# ==============================================================================
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
