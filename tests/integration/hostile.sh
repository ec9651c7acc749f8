#!/usr/bin/env bash
# Scenario: hostile names and values. Keys that need escaping list back
# exactly; limits (255-byte names), bad keys, bad values, unknown names and
# wrong component counts are refused with the errno DESIGN.md gives, and a
# refused write stores nothing.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C.UTF-8

mount_fs
mkdir "$MNT/h"
cql "CREATE TABLE h.t (k text, c text, v text, n int, a ascii, b blob, PRIMARY KEY (k, c))"
cql "CREATE TABLE h.nums (id int, day date, n int, PRIMARY KEY (id, day))"
T=$MNT/h/t

step "escaped names: mkdir with the escaped spelling, listed back exactly"
python3 - "$T" <<'PY' || fail "escaped names round trip (see the lines above)"
import json, os, sys
table = sys.argv[1]
# raw text value -> its directory name (DESIGN.md section 2)
cases = {
    "a/b": "a%2Fb",
    "a,b": "a%2Cb",
    "100%": "100%25",
    "@home": "%40home",
    ".hidden": "%2Ehidden",
    ".": "%2E",
    "..": "%2E.",
    "mid@dle": "mid@dle",
    "mid.dle": "mid.dle",
    "x@ttl=5": "x%40ttl=5",
    "line1\nline2": "line1\nline2",
    "tab\there": "tab\there",
    "caf\u00e9 \u2615 \u65e5\u672c": "caf\u00e9 \u2615 \u65e5\u672c",
    "": "%-",
    " spaced ": " spaced ",
    "-n": "-n",
}
bad = 0
def check(what, want, got):
    global bad
    if want != got:
        print(f"FAIL: {what}: expected {want!r}, got {got!r}", file=sys.stderr)
        bad += 1
part = os.path.join(table, "p%2Fq")          # partition key "p/q"
os.makedirs(part)
for raw, name in cases.items():
    os.mkdir(os.path.join(part, name))
    with open(os.path.join(part, name, "v"), "w", encoding="utf-8") as f:
        f.write(raw.replace("\n", "|") + "\n")
    if raw != "":   # as in Cassandra, a partition key may not be empty
        os.makedirs(os.path.join(table, name, "row"))   # the same names as partition keys
check("row names listed", sorted(cases.values()), sorted(os.listdir(part)))
check("partition names listed", sorted([n for n in cases.values() if n != "%-"] + ["p%2Fq"]),
      sorted(os.listdir(table)))
try:
    os.mkdir(os.path.join(table, "%-"))
    print("FAIL: mkdir of an empty partition key succeeded", file=sys.stderr); bad += 1
except OSError as e:
    check("mkdir of an empty partition key", 22, e.errno)
for raw, name in cases.items():
    with open(os.path.join(part, name, "v"), encoding="utf-8") as f:
        check(f"value under {name!r}", raw.replace("\n", "|") + "\n", f.read())
with open(os.path.join(part, "@json"), encoding="utf-8") as f:
    rows = [json.loads(line) for line in f]
check("@json partition key", {"p/q"}, {r["k"] for r in rows})
check("@json clustering keys are the raw values", sorted(cases), sorted(r["c"] for r in rows))
sys.exit(1 if bad else 0)
PY
expect_eq "an @ in the middle is data" "mid@dle" "$(ls -U "$T/p%2Fq" | grep '^mid@')"
expect_eq "find sees no virtual names" 0 "$(find "$T" -name '@*' | wc -l)"
expect_eq "ls -a shows no dot names but . and .." $'.\n..' "$(ls -a "$T/p%2Fq" | grep '^\.')"

step "key names over 255 bytes: File name too long"
long255=$(printf 'x%.0s' $(seq 255))
long256=$(printf 'x%.0s' $(seq 256))
slashes85=$(printf '%%2F%.0s' $(seq 85))
slashes86=$(printf '%%2F%.0s' $(seq 86))
over_escaped=$(printf '%%78%.0s' $(seq 100))   # 300 bytes given, 100 canonical
expect_ok "mkdir a 255-byte row name" mkdir "$T/p%2Fq/$long255"
expect_fail_errno "mkdir a 256-byte row name" "File name too long" mkdir "$T/p%2Fq/$long256"
expect_fail_errno "mkdir a 256-byte partition name" "File name too long" mkdir "$T/$long256"
expect_fail_errno "mkdir -p through a 256-byte partition name" "File name too long" \
  mkdir -p "$T/$long256/r"
expect_ok "mkdir 85 escaped slashes (255 bytes canonical)" mkdir "$T/p%2Fq/$slashes85"
expect_fail_errno "mkdir 86 escaped slashes (258 bytes)" "File name too long" mkdir "$T/p%2Fq/$slashes86"
expect_fail_errno "a 300-byte over-escaped name" "File name too long" mkdir "$T/p%2Fq/$over_escaped"
expect_fail_errno "a 1000-byte name" "File name too long" \
  mkdir "$T/p%2Fq/$(printf 'y%.0s' $(seq 1000))"
expect_fail_errno "a 256-byte slice bound" "File name too long" ls "$T/p%2Fq/@ge=$long256"
expect_eq "the 255-byte names are listed" 2 "$(ls -U "$T/p%2Fq" | awk 'length($0) == 255' | wc -l)"
expect_fail_errno "stat of a 256-byte row" "File name too long" stat "$T/p%2Fq/${long255}x"

step "keys that do not parse, wrong component counts"
N=$MNT/h/nums
expect_fail_errno "mkdir int key 12x" "Invalid argument" mkdir "$N/12x"
expect_fail_errno "ls int key 12x" "Invalid argument" ls "$N/12x"
expect_fail_errno "int key out of range" "Invalid argument" mkdir "$N/2147483648"
expect_fail_errno "date key that does not parse" "Invalid argument" mkdir -p "$N/12/2024-13-45"
expect_fail_errno "two components for a one-column partition key" "Invalid argument" mkdir "$N/1,2"
expect_fail_errno "text partition key with an unescaped comma" "Invalid argument" mkdir "$T/a,b"
expect_fail_errno "a bad escape" "Invalid argument" mkdir "$T/bad%zz"
expect_fail_errno "an invalid UTF-8 key" "Invalid argument" mkdir "$T/p%2Fq/"$'\xff\xfe'
expect_fail_errno "an escaped invalid UTF-8 key" "Invalid argument" mkdir "$T/p%2Fq/%FF"
mkdir -p "$N/12/2024-01-01"
expect_eq "only the good int key was stored" "12" "$(ls -U "$N")"

step "bad values fail the write, the old value stays"
R=$T/p%2Fq/a%2Fb
echo 42 > "$R/n"
expect_fail_errno "echo x > intcol" "Invalid argument" bash -c "echo x > '$R/n'"
expect_fail_errno "echo 12x > intcol" "Invalid argument" bash -c "echo 12x > '$R/n'"
expect_fail_errno "int out of range" "Invalid argument" bash -c "echo 99999999999 > '$R/n'"
expect_eq "the int keeps its old value" "42" "$(cat "$R/n")"
# Written through one descriptor (Python, cp), a refused value stores
# nothing: the old value stays.
echo good > "$R/v"
expect_fail_errno "invalid UTF-8 text" "Invalid argument" python3 -c "open('$R/v', 'wb', buffering=0).write(b'bad\\xff\\xfe\\n')"
expect_eq "text keeps its old value" "good" "$(cat "$R/v")"
echo plain > "$R/a"
expect_fail_errno "non-ASCII in an ascii column" "Invalid argument" python3 -c "open('$R/a', 'wb', buffering=0).write(b'caf\\xc3\\xa9\\n')"
expect_eq "ascii keeps its old value" "plain" "$(cat "$R/a")"
# A shell redirection truncates first, as on any file: bash opens with
# O_TRUNC and closes a copy of the descriptor before it writes (so does dd),
# and that
# close acknowledges the truncation (docs/FILESYSTEM.md). The refused value
# is still not stored.
expect_fail_errno "invalid UTF-8 text through a redirection" "Invalid argument" bash -c "printf 'bad\\xff\\n' > '$R/v'"
expect_eq "the redirection's truncation stays, the bad value is not stored" "$(printf '\n' | od -An -tx1)" "$(od -An -tx1 < "$R/v")"
echo good > "$R/v"
expect_fail_errno "a bad value in a new cell" "Invalid argument" bash -c "echo x > '$T/p%2Fq/mid.dle/n'"
expect_missing "the new cell was not created" "$T/p%2Fq/mid.dle/n"

step "raw blobs and the text newline convention"
printf '\x00\xff\n\n' > "$R/b"
expect_eq "blob bytes round trip" "$(printf '\x00\xff\n\n' | od -An -tx1)" "$(od -An -tx1 < "$R/b")"
expect_eq "blob size is exact" 4 "$(stat -c %s "$R/b")"
printf 'no newline' > "$R/v"
expect_eq "text written without a newline reads with one" "$(printf 'no newline\n' | od -An -c)" \
  "$(od -An -c < "$R/v")"
printf 'two\n\n' > "$R/v"
expect_eq "only one trailing newline is dropped" "$(printf 'two\n\n' | od -An -c)" "$(od -An -c < "$R/v")"

step "unknown names"
expect_fail_errno "cat @foo" "No such file or directory" cat "$R/@foo"
expect_fail_errno "ls @foo in a partition" "No such file or directory" ls "$T/p%2Fq/@foo"
expect_fail_errno "ls @foo at the root" "No such file or directory" ls "$MNT/@foo"
expect_fail_errno "an unknown column" "Invalid argument" bash -c "echo x > '$R/nosuch'"
expect_fail_errno "cat an unknown column" "No such file or directory" cat "$R/nosuch"
expect_fail_errno "an unknown keyspace" "No such file or directory" ls "$MNT/nosuch"
expect_fail_errno "an unknown table" "No such file or directory" ls "$MNT/h/nosuch"
expect_fail_errno "a regular file in a table" "" bash -c "echo x > '$T/file'"
expect_fail_errno "a file at the root" "" bash -c "echo x > '$MNT/file'"
expect_fail_errno "a column@json suffix" "Invalid argument" bash -c "echo '{}' > '$R/@json@ttl=5'"

step "nothing was stored by the failed writes"
expect_eq "cells of the row" $'a\nb\nn\nv' "$(ls -U "$R" | sort)"
expect_eq "the row's values" "42" "$(cat "$R/n")"
expect_eq "no stray keyspace or table" "h" "$(ls -U "$MNT")"
expect_eq "tables" $'nums\nt' "$(ls "$MNT/h")"
expect_eq "nums rows" "12/2024-01-01" "$(cd "$N" && find . -mindepth 2 -type d | sed 's|^\./||')"
