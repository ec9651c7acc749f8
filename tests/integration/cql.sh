#!/usr/bin/env bash
# Scenario: DDL through `cellfs cql` (-e, -f, stdin) and through MOUNT/@cql;
# DESCRIBE text in @cql and @schema; rmdir drops empty tables and keyspaces
# and refuses non-empty ones; mkdir makes keyspaces.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs

step "cellfs cql -e"
out=$("$CELLFS" cql "$MNT" -e "CREATE KEYSPACE music WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}") ||
  fail "cellfs cql -e CREATE KEYSPACE exited $?"
expect_eq "OK line for CREATE KEYSPACE" "OK CREATE KEYSPACE music" "$out"
out=$("$CELLFS" cql "$MNT" -e "CREATE TABLE music.tracks (album text, no int, title text, PRIMARY KEY (album, no));") ||
  fail "cellfs cql -e CREATE TABLE exited $?"
expect_eq "OK line for CREATE TABLE" "OK CREATE TABLE music.tracks" "$out"
expect_eq "the table is a directory" "tracks" "$(ls -U "$MNT/music")"

step "a bad statement: ERROR line L:C on stderr, non-zero exit"
rc=0
"$CELLFS" cql "$MNT" -e "CREATE TABLE music.bad (a int PRIMARY KEY, b nosuchtype)" \
  >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code of a failed statement" 1 "$rc"
expect_eq "nothing on stdout" "" "$(cat "$WORK/out")"
expect_match "ERROR line L:C on stderr" '^ERROR line 1:[0-9]+: ' "$(cat "$WORK/err")"
rc=0
"$CELLFS" cql "$MNT" -e "CREATE TABLE music.bad2 (a int" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code of a syntax error" 1 "$rc"
expect_match "syntax error position" '^ERROR line 1:[0-9]+: ' "$(cat "$WORK/err")"
rc=0
"$CELLFS" cql "$MNT" -e "GRANT SELECT ON music.tracks TO bob" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "statements cellfs does not run are refused" 1 "$rc"
expect_match "GRANT refused with an ERROR line" '^ERROR line 1:1: ' "$(cat "$WORK/err")"
expect_eq "no table made by failed statements" "tracks" "$(ls -U "$MNT/music")"

step "cellfs cql -f FILE with several statements"
cat > "$WORK/schema.cql" <<'CQL'
CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE shop;
CREATE TABLE products (sku text PRIMARY KEY, name text, price decimal);
CREATE TABLE orders (
    customer text,
    placed timestamp,
    sku text,
    PRIMARY KEY (customer, placed)
) WITH CLUSTERING ORDER BY (placed DESC);
CQL
rc=0
"$CELLFS" cql "$MNT" -f "$WORK/schema.cql" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code of -f" 0 "$rc"
expect_eq "OK lines of -f" "OK CREATE KEYSPACE shop
OK USE shop
OK CREATE TABLE shop.products
OK CREATE TABLE shop.orders" "$(cat "$WORK/out")"
expect_eq "no errors of -f" "" "$(cat "$WORK/err")"
expect_eq "tables of -f" $'orders\nproducts' "$(ls "$MNT/shop")"

cat > "$WORK/mixed.cql" <<'CQL'
CREATE TABLE shop.reviews (sku text, id timeuuid, stars int, PRIMARY KEY (sku, id));
CREATE TABLE shop.broken (sku text PRIMARY KEY,
    stars nosuchtype);
CREATE TABLE shop.tags (sku text PRIMARY KEY, tags set<text>);
CQL
rc=0
"$CELLFS" cql "$MNT" -f "$WORK/mixed.cql" >"$WORK/out" 2>"$WORK/err" || rc=$?
expect_eq "exit code of -f with a bad statement" 1 "$rc"
expect_eq "statements after the bad one still run" \
  $'OK CREATE TABLE shop.reviews\nOK CREATE TABLE shop.tags' "$(cat "$WORK/out")"
expect_match "the error names line 3 of the file" '^ERROR line 3:[0-9]+: ' "$(cat "$WORK/err")"
expect_eq "tables after the mixed file" $'orders\nproducts\nreviews\ntags' "$(ls "$MNT/shop")"

out=$(printf 'CREATE TABLE shop.stdin1 (a int PRIMARY KEY);\n' | "$CELLFS" cql "$MNT") ||
  fail "cellfs cql from stdin exited $?"
expect_eq "statements from stdin" "OK CREATE TABLE shop.stdin1" "$out"
out=$(printf 'DROP TABLE shop.stdin1;\n' | "$CELLFS" cql "$MNT" -f -) ||
  fail "cellfs cql -f - exited $?"
expect_eq "statements from -f -" "OK DROP TABLE shop.stdin1" "$out"
expect_eq "dropped table gone" $'orders\nproducts\nreviews\ntags' "$(ls "$MNT/shop")"

step "MOUNT/@cql: write DDL, read the schema"
printf 'CREATE TABLE shop.carts (id uuid PRIMARY KEY, items list<text>);' > "$MNT/@cql"
expect_contains "table made through @cql" "carts" "$(ls "$MNT/shop")"
expect_fail_errno "a bad statement written to @cql" "Invalid argument" \
  bash -c "printf 'CREATE TABLE shop.nope (a nosuchtype PRIMARY KEY);' > '$MNT/@cql'"
expect_not_contains "no table from the bad statement" "nope" "$(ls "$MNT/shop")"
transcript=$(python3 - "$MNT/@cql" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
for stmt in (b"CREATE TABLE shop.t1 (a int PRIMARY KEY);\n",
             b"CREATE TABLE shop.t2 (a int PRIMARY KEY, b nosuchtype);\n"):
    try:
        os.write(fd, stmt)
    except OSError as e:
        print("write:", e.strerror)
print(os.pread(fd, 65536, 0).decode(), end="")
os.close(fd)
PY
)
expect_eq "the transcript read on the same open file" "write: Invalid argument
OK CREATE TABLE shop.t1
$(printf '%s\n' "$transcript" | grep '^ERROR line 2:')" "$transcript"
expect_match "the transcript's error is on line 2" $'\nERROR line 2:[0-9]+: ' "$transcript"
schema=$(cat "$MNT/@cql")
expect_contains "@cql describes the keyspace" "CREATE KEYSPACE shop WITH replication" "$schema"
expect_contains "@cql describes a table" "CREATE TABLE shop.orders (" "$schema"
expect_contains "@cql describes the clustering order" "WITH CLUSTERING ORDER BY (placed DESC)" "$schema"
expect_contains "@cql describes the other keyspace" "CREATE TABLE music.tracks (" "$schema"

step "@schema of a keyspace and a table"
ks_schema=$(cat "$MNT/shop/@schema")
expect_match "keyspace @schema starts with CREATE KEYSPACE" '^CREATE KEYSPACE shop WITH ' "$ks_schema"
expect_contains "keyspace @schema includes its tables" "CREATE TABLE shop.products (" "$ks_schema"
expect_not_contains "keyspace @schema has only its keyspace" "music" "$ks_schema"
t_schema=$(cat "$MNT/shop/orders/@schema")
expect_eq "table @schema" "CREATE TABLE shop.orders (
    customer text,
    placed timestamp,
    sku text,
    PRIMARY KEY (customer, placed)
) WITH CLUSTERING ORDER BY (placed DESC)
    AND default_time_to_live = 0
    AND gc_grace_seconds = 864000;" "$t_schema"
expect_eq "@schema size is exact" "$(cat "$MNT/shop/orders/@schema" | wc -c)" \
  "$(stat -c %s "$MNT/shop/orders/@schema")"
expect_fail_errno "@schema is read-only" "Permission denied" \
  bash -c "echo x > '$MNT/shop/orders/@schema'"
expect_eq "@ names are not listed" "" "$(ls -A "$MNT/shop/orders")"

step "ALTER TABLE: a new column is writable, @schema follows"
ls "$MNT/shop/products" >/dev/null
cql "ALTER TABLE shop.products ADD stock int"
mkdir "$MNT/shop/products/sku-1"
echo 5 > "$MNT/shop/products/sku-1/stock"
expect_eq "the added column" "5" "$(cat "$MNT/shop/products/sku-1/stock")"
expect_contains "@schema after ALTER" "stock int" "$(cat "$MNT/shop/products/@schema")"

step "rmdir of a table: non-empty refused, empty dropped"
mkdir -p "$MNT/shop/orders/ann/2024-01-01T00:00:00.000Z"
echo sku-1 > "$MNT/shop/orders/ann/2024-01-01T00:00:00.000Z/sku"
expect_fail_errno "rmdir of a non-empty table" "Directory not empty" rmdir "$MNT/shop/orders"
expect_contains "the table is still there" "orders" "$(ls "$MNT/shop")"
expect_eq "its data is still there" "sku-1" "$(cat "$MNT/shop/orders/ann/2024-01-01T00:00:00.000Z/sku")"
rm -r "$MNT/shop/orders/ann"
rmdir "$MNT/shop/orders" || fail "rmdir of an emptied table failed"
expect_not_contains "dropped table not listed" "orders" "$(ls "$MNT/shop")"
expect_missing "dropped table" "$MNT/shop/orders"
expect_not_contains "dropped table not in @cql" "shop.orders" "$(cat "$MNT/@cql")"
ls "$MNT/shop/tags" >/dev/null
cql "DROP TABLE shop.tags"
expect_missing "a table dropped by cellfs cql (after being cached)" "$MNT/shop/tags"

step "mkdir / rmdir of keyspaces"
mkdir "$MNT/scratch"
expect_contains "new keyspace listed" "scratch" "$(ls "$MNT")"
expect_match "new keyspace @schema" '^CREATE KEYSPACE scratch WITH ' "$(cat "$MNT/scratch/@schema")"
expect_contains "new keyspace in @cql" "CREATE KEYSPACE scratch" "$(cat "$MNT/@cql")"
expect_fail_errno "mkdir in a keyspace" "Operation not supported" mkdir "$MNT/scratch/t"
expect_fail_errno "mkdir of an existing keyspace" "File exists" mkdir "$MNT/scratch"
expect_fail_errno "mkdir of a keyspace with a bad name" "Invalid argument" mkdir "$MNT/bad-name"
rmdir "$MNT/scratch" || fail "rmdir of an empty keyspace failed"
expect_missing "dropped keyspace" "$MNT/scratch"
expect_not_contains "dropped keyspace not in @cql" "scratch" "$(cat "$MNT/@cql")"
expect_fail_errno "rmdir of a non-empty keyspace" "Directory not empty" rmdir "$MNT/shop"
expect_contains "non-empty keyspace still there" "shop" "$(ls "$MNT")"
