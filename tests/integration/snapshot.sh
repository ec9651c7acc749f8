#!/usr/bin/env bash
# Automatic snapshots on a real mount (docs/ENGINE.md "Snapshots"): DROP
# TABLE through cellfs cql, TRUNCATE through @cql and the rmdir of a table
# each keep a snapshot; `cellfs snapshot list|restore|clear` on the
# unmounted store show, restore (the rows read back byte for byte with cat,
# the index answers) and clear them; `rm -r` of a table keeps the rows it
# deleted (its removal run: the snapshot is as of the run's start, and the
# list says so); a mounted store is refused.
source "$(dirname "$0")/lib.sh" "$1"

step "a table with rows, a user type and an index"
mount_fs
cql "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"
cql "CREATE TYPE ks.addr (street text, n int)"
cql "CREATE TABLE ks.t (k int, c int, v text, a frozen<addr>, PRIMARY KEY (k, c))"
cql "CREATE INDEX t_v ON ks.t (v)"
cql "CREATE TABLE ks.scratch (k int PRIMARY KEY, v text)"
for k in 1 2 3; do
  for c in 1 2; do
    mkdir -p "$MNT/ks/t/$k/$c"
    echo "value $k.$c" >"$MNT/ks/t/$k/$c/v"
  done
done
echo "{street: 'Main', n: 7}" >"$MNT/ks/t/1/1/a"
echo same >"$MNT/ks/t/2/2/v"
echo same >"$MNT/ks/t/3/1/v"
mkdir "$MNT/ks/scratch/5" && echo five >"$MNT/ks/scratch/5/v"
before=$(cd "$MNT/ks/t" && find . -type f | sort | while read -r f; do echo "$f=$(cat "$f")"; done)
expect_contains "the rows are there" "./1/1/a={street: 'Main', n: 7}" "$before"

step "DROP TABLE through cellfs cql, TRUNCATE through @cql, rm -r of a table"
cql "DROP TABLE ks.t"
expect_missing "the table is gone from the tree" "$MNT/ks/t"
printf 'TRUNCATE ks.scratch;' >"$MNT/@cql"
expect_eq "the truncated table is empty" "" "$(ls "$MNT/ks/scratch")"
cql "CREATE TABLE ks.gone (k int PRIMARY KEY, v text)"
for k in 7 8 9; do mkdir "$MNT/ks/gone/$k" && echo "gone $k" >"$MNT/ks/gone/$k/v"; done
gone_before=$(cd "$MNT/ks/gone" && find . -type f | sort | while read -r f; do echo "$f=$(cat "$f")"; done)
# The removal run begins at the first rm and goes on while removals follow
# within a minute: the snapshot is as of its start, over a second before
# the rmdir, and keeps the cell removed first as well.
rm "$MNT/ks/gone/7/v"
sleep 1.1
rm -r "$MNT/ks/gone"
expect_missing "rm -r dropped it" "$MNT/ks/gone"

step "a mounted store is refused"
rc=0
err=$("$CELLFS" snapshot list "$DATA" 2>&1) || rc=$?
expect_eq "exit 2" 2 "$rc"
expect_contains "and why" "unmount it" "$err"
unmount_fs

step "cellfs snapshot list: one per removed table, oldest first"
list=$("$CELLFS" snapshot list "$DATA")
echo "$list"
expect_match "the header" "^NAME +REASON +TAKEN +AS-OF +TABLE" "$(head -n 1 <<<"$list")"
expect_eq "three snapshots and the header" 4 "$(wc -l <<<"$list")"
dropped_t=$(awk '$NF == "ks.t" { print $1 }' <<<"$list")
truncated=$(awk '$NF == "ks.scratch" { print $1 }' <<<"$list")
dropped_gone=$(awk '$NF == "ks.gone" { print $1 }' <<<"$list")
expect_match "DROP TABLE's name" "^dropped-[0-9]+-ks\.t$" "$dropped_t"
expect_match "TRUNCATE's name" "^truncated-[0-9]+-ks\.scratch$" "$truncated"
expect_match "rmdir's name" "^dropped-[0-9]+-ks\.gone$" "$dropped_gone"
gone_line=$(grep ' ks\.gone$' <<<"$list")
expect_match "rm -r's snapshot is as of its first removal, not the rmdir" \
  '^[^ ]+ +dropped +[-0-9]+ [:.0-9]+ UTC +[-0-9]+ [:.0-9]+ UTC +ks\.gone$' "$gone_line"
taken=$(awk '{ print $3 " " $4 }' <<<"$gone_line")
as_of=$(awk '{ print $6 " " $7 }' <<<"$gone_line")
expect_ok "as of before it was taken" test "$as_of" "<" "$taken"
t_line=$(grep ' ks\.t$' <<<"$list")
expect_eq "DROP TABLE's snapshot is as of when it was taken" \
  "$(awk '{ print $3 " " $4 }' <<<"$t_line")" "$(awk '{ print $6 " " $7 }' <<<"$t_line")"
out=$("$CELLFS" verify "$DATA")
expect_contains "verify decodes the kept data" "data entries kept by snapshots" "$out"
expect_eq "and finds it sound" "sound" "$(tail -n 1 <<<"$out")"

step "restore: the dropped table comes back as it was; the truncated one beside the new"
expect_fail_errno "an unknown snapshot" "no snapshot named nosuch" "$CELLFS" snapshot restore "$DATA" nosuch
expect_fail_errno "over an existing table" "table ks.scratch exists: drop it first" \
  "$CELLFS" snapshot restore "$DATA" "$truncated"
expect_ok "restore the dropped table" "$CELLFS" snapshot restore "$DATA" "$dropped_t"
expect_ok "restore the truncated rows as another table" \
  "$CELLFS" snapshot restore "$DATA" "$truncated" --as scratch_old
expect_ok "restore what rm -r kept" "$CELLFS" snapshot restore "$DATA" "$dropped_gone"
expect_eq "no snapshots left" "no snapshots" "$("$CELLFS" snapshot list "$DATA")"
mount_fs
after=$(cd "$MNT/ks/t" && find . -type f | sort | while read -r f; do echo "$f=$(cat "$f")"; done)
expect_eq "every cell reads back" "$before" "$after"
expect_eq "the index answers" "2,2 3,1" "$(ls "$MNT/ks/t/@by/v/same" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "the truncated row, under its new name" "five" "$(cat "$MNT/ks/scratch_old/5/v")"
gone_after=$(cd "$MNT/ks/gone" && find . -type f | sort | while read -r f; do echo "$f=$(cat "$f")"; done)
expect_eq "rm -r kept every row it deleted" "$gone_before" "$gone_after"
expect_contains "the rows are there" "./8/v=gone 8" "$gone_after"

step "clear --all hands the space to the sweeper"
cql "DROP TABLE ks.scratch_old"
unmount_fs
expect_fail_errno "clear needs names or --all" "give --all" "$CELLFS" snapshot clear "$DATA"
out=$("$CELLFS" snapshot clear "$DATA" --all)
expect_match "cleared" "^cleared dropped-[0-9]+-ks\.scratch_old$" "$out"
expect_eq "nothing listed" "no snapshots" "$("$CELLFS" snapshot list "$DATA")"
out=$("$CELLFS" verify "$DATA")
expect_not_contains "no data kept" "kept by snapshots" "$out"
expect_eq "sound" "sound" "$(tail -n 1 <<<"$out")"
