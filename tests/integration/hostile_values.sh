#!/usr/bin/env bash
# Scenario: hostile names, values and extended attributes, the cases hostile.sh
# leaves out: each refused with the errno the docs give, the daemon up, the data
# stored before unchanged. hostile_statements.sh does CQL and @insert input;
# docs/HOSTILE_INPUT.md tabulates the cases of all three scripts.
source "$(dirname "$0")/hostile_setup.sh"
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
# Truncation cuts or zero-extends a cell's content as on any file (tools.sh);
# what it leaves must still be a value of the column's type.
expect_fail_errno "growing an int with truncate (NULs are no digits)" "Invalid argument" \
  truncate -s 100 "$R/i"
expect_fail_errno "cutting a timestamp to no timestamp" "Invalid argument" truncate -s 5 "$R/ts"
expect_fail_errno "growing text past 64 MiB" "File too large" truncate -s $(((64 << 20) + 1)) "$R/tx"
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

hostile_finish
