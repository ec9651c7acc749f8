#!/usr/bin/env bash
# Scenario: the seed's users-by-email materialized view on a real mount.
# CREATE MATERIALIZED VIEW over a populated table, then ks/users_by_email/
# driven with ls, cat, grep and the view's exports; writes of every kind to
# the base (a cell file, a row's @json, @insert, rm, TTL expiry, CQL) show
# in the view at once, a changed email moves the view row, a null email has
# none; writes into the view fail with EROFS and a reason; a remount; DROP.
# Every answer is checked against the base table's export (the definition).
source "$(dirname "$0")/lib.sh" "$1"

mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.users (id int PRIMARY KEY, name text, email text, country text)"

step "load 200 users, then the view over the populated table"
{
  echo "id,name,email,country"
  for i in $(seq 1 200); do echo "$i,user$i,u$i@example.com,US"; done
} >"$WORK/users.csv"
cat "$WORK/users.csv" >"$MNT/ks/users/@insert"
cql "CREATE MATERIALIZED VIEW ks.users_by_email AS SELECT email, id, name, country FROM ks.users
     WHERE email IS NOT NULL AND id IS NOT NULL PRIMARY KEY (email, id)"
expect_contains "DESCRIBE shows the view" "CREATE MATERIALIZED VIEW ks.users_by_email AS" \
  "$(cat "$MNT/ks/@schema")"
expect_contains "the view is a table directory beside its base" "users_by_email" \
  "$(ls "$MNT/ks")"
expect_contains "the base's @schema ends with its view, as DESCRIBE TABLE" \
  "CREATE MATERIALIZED VIEW ks.users_by_email AS" "$(cat "$MNT/ks/users/@schema")"

V="$MNT/ks/users_by_email"
# check_view WHEN: the view's rows are exactly the base rows with an email,
# re-keyed: compare the sorted "email,id,name" lines of both exports.
check_view() {
  python3 - "$MNT/ks/users/@json" "$V/@json" "$1" <<'PY'
import json, sys
base = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
view = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
want = sorted((r["email"], r["id"], r["name"], r["country"]) for r in base if r["email"] is not None)
have = sorted((r["email"], r["id"], r["name"], r["country"]) for r in view)
if want != have:
    print("FAIL %s: the view differs from its definition:\n want %s\n have %s"
          % (sys.argv[3], want[:5], have[:5]))
    sys.exit(1)
print("ok %s: %d view rows" % (sys.argv[3], len(have)))
PY
}

step "the view: a partition per email, each row reading like the base row"
check_view "after the build"
expect_eq "200 partitions" 200 "$(ls -U "$V" | wc -l)"
expect_eq "a view row's cell" "user7" "$(cat "$V/u7@example.com/7/name")"
expect_eq "a view partition's @json" 1 "$(wc -l <"$V/u7@example.com/@json")"
out=$("$CELLFS" cql "$MNT" -e "SELECT name FROM ks.users_by_email WHERE email = 'u9@example.com'")
expect_contains "SELECT from the view" "user9" "$out"

step "writes of every kind to the base show in the view at once"
echo new1@example.com >"$MNT/ks/users/1/email"              # a cell file: the row moves
printf '{"email": "new2@example.com"}' >"$MNT/ks/users/2/@json"  # a row's @json
printf 'id,name,email,country\n3,user3,new3@example.com,FR\n' >"$MNT/ks/users/@insert"
rm -r "$MNT/ks/users/4"                                       # a deleted row
rm "$MNT/ks/users/5/email"                                    # a null email: no view row
cql "UPDATE ks.users SET name = 'renamed' WHERE id = 6"       # a cell the view selects
mkdir "$MNT/ks/users/1000"
# expires: TTLs count whole seconds from the write's second (as Cassandra's
# do), so a TTL of 3 leaves at least 2 s to see the row before it goes
echo tmp@example.com >"$MNT/ks/users/1000/email@ttl=3"
expect_eq "the moved row is under its new email" "user1" "$(cat "$V/new1@example.com/1/name")"
expect_missing "and gone from its old one" "$V/u1@example.com"
expect_eq "@json moved row 2" "user2" "$(cat "$V/new2@example.com/2/name")"
expect_eq "@insert moved row 3 and changed its country" "FR" \
  "$(cat "$V/new3@example.com/3/country")"
expect_missing "a deleted base row is gone" "$V/u4@example.com"
expect_missing "a row whose email was deleted is gone" "$V/u5@example.com"
expect_eq "a changed cell shows" "renamed" "$(cat "$V/u6@example.com/6/name")"
expect_eq "the expiring row is there" "1000" "$(ls "$V/tmp@example.com")"
sleep 3
expect_missing "and gone once its email expired" "$V/tmp@example.com"
check_view "after the writes"

step "writes into the view fail with EROFS, the reason in @errors"
expect_fail_errno "a cell file" "Read-only file system" sh -c "echo x >'$V/u7@example.com/7/name'"
expect_fail_errno "mkdir" "Read-only file system" mkdir "$V/x@example.com"
expect_fail_errno "rm -r" "Read-only file system" rm -r "$V/u7@example.com"
expect_contains "the reason" "materialized view ks.users_by_email is read-only" \
  "$(cat "$MNT/@errors")"
rc=0
out=$("$CELLFS" cql "$MNT" -e "INSERT INTO ks.users_by_email (email, id) VALUES ('a', 1)" 2>&1) ||
  rc=$?
expect_eq "INSERT into a view is refused" 1 "$rc"
expect_contains "in Cassandra's words" "Cannot directly modify a materialized view" "$out"
check_view "after the refusals"

step "the view survives a remount"
unmount_fs
mount_fs
check_view "after a remount"

step "DROP TABLE refuses while the view exists; DROP MATERIALIZED VIEW"
rc=0
out=$("$CELLFS" cql "$MNT" -e "DROP TABLE ks.users" 2>&1) || rc=$?
expect_eq "DROP TABLE of a base with a view is refused" 1 "$rc"
cql "DROP MATERIALIZED VIEW ks.users_by_email"
expect_missing "the view's directory is gone" "$V"
expect_eq "the base is untouched" 200 "$(ls -U "$MNT/ks/users" | wc -l)"

echo "PASS $SCENARIO"
