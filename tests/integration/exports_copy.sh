#!/usr/bin/env bash
# Scenario: the generated @json and @csv files stat their exact size and
# their newest write as mtime (issue 17), so the tools that copy by size
# (cp, tar, rsync, Python's shutil.copyfile) copy every byte of an export,
# and a row's @json reads as its size says.
source "$(dirname "$0")/lib.sh" "$1"
command -v rsync >/dev/null || die "rsync is not installed (tools/install-deps.sh)"

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.t (k text, c int, s text static, v text, PRIMARY KEY (k, c))"
for i in $(seq 1 300); do
  echo "{\"k\": \"p$((i % 7))\", \"c\": $i, \"v\": \"value number $i with some text\"}"
done >"$WORK/rows.jsonl"
cat "$WORK/rows.jsonl" >"$MNT/ks/t/@insert"
echo "static text" >"$MNT/ks/t/p3/s"
echo "dated" >"$MNT/ks/t/p3/10/v@timestamp=4102444800000000"

# Every export, and a row's @json: stat's size is what cat reads.
FILES=("ks/t/@json" "ks/t/@csv" "ks/t/p3/@json" "ks/t/p3/@csv" "ks/t/p3/@ge=100/@csv"
  "ks/t/p3/10/@json" "ks/t/@count" "ks/t/p3/@count" "ks/t/@where/v=dated/@json"
  "ks/t/@where/v=dated/@count" "ks/t/p3/@columns=c,v/@csv")
step "stat's size is the byte count cat reads"
for f in "${FILES[@]}"; do
  expect_eq "size of $f" "$(cat "$MNT/$f" | wc -c)" "$(stat -c %s "$MNT/$f")"
done
expect_eq "the table's count" "300" "$(cat "$MNT/ks/t/@count")"
expect_eq "a table export is not empty" 1 "$(($(stat -c %s "$MNT/ks/t/@json") > 20000))"

step "cp, shutil.copyfile, tar and rsync copy every byte"
mkdir "$WORK/cp" "$WORK/py" "$WORK/tar" "$WORK/rsync"
cat "$MNT/ks/t/@json" >"$WORK/expected.json"
cat "$MNT/ks/t/p3/@csv" >"$WORK/expected.csv"
expect_ok "cp" cp "$MNT/ks/t/@json" "$WORK/cp/t.json"
expect_ok "cmp after cp" cmp "$WORK/expected.json" "$WORK/cp/t.json"
expect_ok "shutil.copyfile" python3 -c 'import shutil, sys; shutil.copyfile(sys.argv[1], sys.argv[2])' \
  "$MNT/ks/t/@json" "$WORK/py/t.json"
expect_ok "cmp after shutil.copyfile" cmp "$WORK/expected.json" "$WORK/py/t.json"
expect_ok "tar -c of named exports" tar -C "$MNT" -cf "$WORK/exports.tar" ks/t/@json ks/t/p3/@csv
expect_ok "tar -x" tar -C "$WORK/tar" -xf "$WORK/exports.tar"
expect_ok "cmp the table export from tar" cmp "$WORK/expected.json" "$WORK/tar/ks/t/@json"
expect_ok "cmp the partition export from tar" cmp "$WORK/expected.csv" "$WORK/tar/ks/t/p3/@csv"
expect_ok "rsync" rsync "$MNT/ks/t/p3/@csv" "$WORK/rsync/p3.csv"
expect_ok "cmp after rsync" cmp "$WORK/expected.csv" "$WORK/rsync/p3.csv"

step "mtime is the newest write shown, and rsync sees a change"
expect_eq "row @json mtime: its newest cell" 4102444800 "$(stat -c %Y "$MNT/ks/t/p3/10/@json")"
expect_eq "partition export mtime" 4102444800 "$(stat -c %Y "$MNT/ks/t/p3/@csv")"
echo "changed" >"$MNT/ks/t/p3/17/v@timestamp=4102444900000000"
expect_ok "rsync again" rsync "$MNT/ks/t/p3/@csv" "$WORK/rsync/p3.csv"
expect_ok "cmp after the change" cmp <(cat "$MNT/ks/t/p3/@csv") "$WORK/rsync/p3.csv"
expect_contains "the change copied" "changed" "$(cat "$WORK/rsync/p3.csv")"

echo "PASS $SCENARIO"
