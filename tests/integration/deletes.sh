#!/usr/bin/env bash
# Scenario: deletions with timestamps and slices on a real mount, checked by
# Cassandra's replay rule (an older write stays deleted, a newer one shows),
# and the writes that are not INSERTs of a row: mkdir CK@update (no marker),
# static-only @insert and a partition's @json, counters through @insert.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.ev (k text, c int, v text, PRIMARY KEY (k, c))"
cql "CREATE TABLE ks.st (k text, c int, s text static, v text, PRIMARY KEY (k, c))"
cql "CREATE TABLE ks.hits (k text PRIMARY KEY, n counter)"
T=$MNT/ks/ev
OLD=1000   # microseconds: long before now

# Rows C1..C2 of partition $1, INSERTed at $3 with v = vC.
rows() {
  local p=$1 from=$2 to=$3 at=$4 c
  mkdir -p "$T/$p"
  for c in $(seq "$from" "$to"); do
    mkdir "$T/$p/$c@timestamp=$at"
    echo "v$c" > "$T/$p/$c/v@timestamp=$at"
  done
}

step "rm -r ROW@timestamp=T: a row tombstone at T, newer data survives"
rows a 1 2 $((OLD + 10))
echo 7 > "$T/a/1/v@timestamp=$((OLD + 30))"
expect_ok "rm -r a/2@timestamp" rm -r "$T/a/2@timestamp=$((OLD + 20))"
# The kernel's entry for the plain name `2` is invalidated by the notifier
# thread once the rmdir has replied (its parent is locked until then; queued,
# not awaited, docs/FILESYSTEM.md "Deleting"): wait for that, at most 2 s.
for _ in $(seq 1 40); do [[ -e "$T/a/2" ]] || break; sleep 0.05; done
expect_missing "row 2 is gone" "$T/a/2"
mkdir "$T/a/2@timestamp=$((OLD + 15))"
expect_missing "an older replay of row 2 stays deleted" "$T/a/2"
expect_ok "rm -r a/1@timestamp" rm -r "$T/a/1@timestamp=$((OLD + 20))"
expect_eq "row 1 keeps its newer cell" "7" "$(cat "$T/a/1/v")"
expect_ok "rmdir of a row at an older time is a tombstone too" \
  rmdir "$T/a/1@timestamp=$((OLD))"
expect_eq "which shadows nothing newer" "7" "$(cat "$T/a/1/v")"
expect_fail_errno "a deletion takes no TTL" "Invalid argument" rmdir "$T/a/1@ttl=5"

step "rm -r PK@timestamp=T in a clustered table"
rows b 1 30 $((OLD + 10))
rows b 31 31 $((OLD + 30))
expect_ok "rm -r b@timestamp" rm -r "$T/b@timestamp=$((OLD + 20))"
expect_eq "the newer row survives" "31" "$(ls -U "$T/b")"
mkdir "$T/b/5@timestamp=$((OLD + 15))"
expect_eq "an older replay stays deleted" "31" "$(ls -U "$T/b")"

step "rm -r of a slice: one range tombstone"
rows p 0 49 $((OLD + 10))
stat "$T/p/10" >/dev/null   # the kernel now holds PK/CK for a row in the range
expect_ok "rm -r p/@lt=30" rm -r "$T/p/@lt=30"
expect_missing "a row the kernel held under the partition is gone at once" "$T/p/10"
expect_eq "rows 30..49 remain" "20 30" "$(ls -U "$T/p" | wc -l) $(ls -U "$T/p" | head -1)"
mkdir "$T/p/-5@timestamp=$((OLD + 15))"
expect_missing "an older write into the range, at a key never written, stays deleted" "$T/p/-5"
mkdir "$T/p/7"
expect_exists "a newer write appears" "$T/p/7"
expect_ok "nested slices" rm -r "$T/p/@ge=40/@lt=45"
expect_eq "their intersection went" "7 30 31 32 33 34 35 36 37 38 39 45 46 47 48 49" \
  "$(ls "$T/p" | sort -n | tr '\n' ' ' | sed 's/ $//')"
expect_fail_errno "a @limit slice cannot be a range tombstone" "Invalid argument" \
  rm -r "$T/p/@limit=2"
expect_fail_errno "nor a @reverse one" "Invalid argument" rmdir "$T/p/@ge=100/@reverse"
expect_fail_errno "rmdir of a slice that lists rows" "Directory not empty" rmdir "$T/p/@ge=30"
rows q 0 9 $((OLD + 10))
echo newer > "$T/q/2/v@timestamp=$((OLD + 30))"
expect_ok "rm -r a slice at a timestamp" rm -r "$T/q/@lt=5@timestamp=$((OLD + 20))"
expect_eq "what is newer survives it" "2 5 6 7 8 9" "$(ls -U "$T/q" | tr '\n' ' ' | sed 's/ $//')"

step "mkdir CK@update: cells without a row marker"
mkdir -p "$T/u/1@update"
echo gone > "$T/u/1/v@ttl=2"
mkdir "$T/u/2"
echo stays > "$T/u/2/v@ttl=2"
expect_eq "both rows listed" $'1\n2' "$(ls -U "$T/u")"
sleep 3
expect_eq "the updated row went with its cell; the inserted one stays" "2" "$(ls -U "$T/u")"

step "static-only writes"
echo '{"k": "s1", "s": "from-insert"}' > "$MNT/ks/st/@insert"
expect_eq "static-only @insert" "from-insert" "$(cat "$MNT/ks/st/s1/s")"
echo '{"s": "from-json"}' > "$MNT/ks/st/s1/@json"
expect_eq "a partition's @json writes its static columns" "from-json" "$(cat "$MNT/ks/st/s1/s")"
expect_fail_errno "but not a regular column" "Invalid argument" \
  bash -c "echo '{\"v\": \"x\"}' > '$MNT/ks/st/s1/@json'"

step "counters through @insert add"
printf 'k,n\na,5\na,2\n' > "$MNT/ks/hits/@insert"
expect_eq "each record added" "7" "$(cat "$MNT/ks/hits/a/n")"
expect_fail_errno "no TTL on counters" "Invalid argument" \
  bash -c "printf 'k,n\na,1\n' > '$MNT/ks/hits/@insert@ttl=5'"
expect_eq "unchanged" "7" "$(cat "$MNT/ks/hits/a/n")"

step "deleted rows are buried: listings walk past them, late replays stay deleted"
# A table of its own: the file-face removals above opened a removal run in
# ks.ev, which holds the sweeper off it for a minute (docs/ENGINE.md).
cql "CREATE TABLE ks.graves (k text, c int, v text, PRIMARY KEY (k, c))"
G=$MNT/ks/graves
for c in $(seq 1 300); do
  printf '{"k": "dead", "c": %d, "v": "v%d", "@timestamp": %d}\n' "$c" "$c" $((OLD + 10))
done > "$WORK/rows.jsonl"
cat "$WORK/rows.jsonl" > "$G/@insert"
expect_eq "300 rows" "300" "$(ls -U "$G/dead" | wc -l)"
# Through CQL, which opens no removal run.
for c in $(seq 1 290); do echo "DELETE FROM ks.graves WHERE k = 'dead' AND c = $c;"; done > "$MNT/@cql"
expect_eq "deleting 290 rows leaves 10" "$(seq 291 300)" "$(ls -U "$G/dead")"
# That listing met the dead rows and handed the partition to the sweeper,
# which runs every second.
sleep 3
expect_eq "the same 10 after the sweep" "$(seq 291 300)" "$(ls -U "$G/dead")"
mkdir "$G/dead/5@timestamp=$((OLD + 20))"
cql "UPDATE ks.graves USING TIMESTAMP $((OLD + 20)) SET v = 'late' WHERE k = 'dead' AND c = 7"
expect_missing "an older replay of a buried row stays deleted" "$G/dead/5"
expect_missing "an older cell write into a buried row stays deleted" "$G/dead/7"
mkdir "$G/dead/6"
expect_eq "a newer write brings a buried row back, in its place" "$(seq 6 6; seq 291 300)" \
  "$(ls -U "$G/dead")"
expect_eq "@json of the partition agrees" "11" "$(wc -l < "$G/dead/@json")"
unmount_fs
out=$("$CELLFS" verify "$DATA")
expect_match "verify counts the buried rows and finds no fault" \
  "; 2[89][0-9] buried dead rows" "$out"
expect_contains "and the store is sound" "sound" "$out"
