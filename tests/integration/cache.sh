#!/usr/bin/env bash
# Scenario: the kernel's caches never show a stale value. Entries and
# attributes are cached (cells themselves are read direct_io), so every way
# a cell changes (a rewrite by another process, a shorter or non-canonical
# value, an append, a row @json write, a TTL rewrite, expiry, a dropped
# table) must be visible to the very next reader, its size and mtime too.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/c"
cql "CREATE TABLE c.t (p int, k int, v text, n int, tags set<text>, PRIMARY KEY (p, k))"
R=$MNT/c/t/1/1
mkdir -p "$R"

step "rewrites of one cell by separate processes, longer and shorter, read at once"
for value in a "a much longer value than before" b "" "mid-length value" x; do
  printf '%s\n' "$value" > "$R/v"
  expect_eq "cat after writing '$value'" "$value" "$(cat "$R/v")"
  expect_eq "size after writing '$value'" "$(( ${#value} + 1 ))" "$(stat -c %s "$R/v")"
  expect_eq "dd (no stat) after writing '$value'" "$value" "$(dd if="$R/v" bs=4096 2>/dev/null)"
done

step "a non-canonical spelling reads back canonical"
echo 0042 > "$R/n"
expect_eq "int read" 42 "$(cat "$R/n")"
expect_eq "int size" 3 "$(stat -c %s "$R/n")"
echo +7 > "$R/n" 2>/dev/null || echo 7 > "$R/n"
expect_eq "int rewritten" 7 "$(cat "$R/n")"

step "appends show at once"
echo "{'b'}" > "$R/tags"
cat "$R/tags" >/dev/null
echo "{'a'}" >> "$R/tags"
expect_eq "set after append" "{'a', 'b'}" "$(cat "$R/tags")"

step "a row @json write changes what the cell file shows"
cat "$R/v" >/dev/null
echo '{"v": "from json"}' > "$R/@json"
expect_eq "cell after @json" "from json" "$(cat "$R/v")"

step "setfattr user.cellfs.ttl keeps the value, then expiry removes it"
setfattr -n user.cellfs.ttl -v 2 "$R/v"
expect_eq "value kept by the TTL rewrite" "from json" "$(cat "$R/v")"
sleep 3
expect_fail_errno "expired cell is gone for cat" "No such file" cat "$R/v"
expect_not_contains "expired cell is not listed" "v" "$(ls -U "$R" | grep -x v || true)"

step "many write/read rounds from two processes stay consistent"
for i in $(seq 1 200); do
  value=$(printf 'round %d %*s' "$i" $(( i % 37 )) "")
  printf '%s\n' "$value" > "$R/v"
  got=$(cat "$R/v")
  [[ $got == "$value" ]] || fail "round $i: wrote '$value', read '$got'"
done

step "a dropped table's paths go at once"
cat "$R/n" >/dev/null
cql "DROP TABLE c.t"
expect_fail_errno "cell of a dropped table" "No such file" cat "$R/n"
expect_fail_errno "table directory of a dropped table" "No such file" ls "$MNT/c/t"

unmount_fs
echo "cache: ok"
