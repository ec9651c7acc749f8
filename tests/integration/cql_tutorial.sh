#!/usr/bin/env bash
# Scenario: real schema files (tests/data/cql: Cassandra: The Definitive
# Guide's hotel and reservation keyspaces, the KillrVideo sample schema and
# DS220 physical model) run unchanged through `cellfs cql -f`, then data
# scripts in the style of those tutorials (INSERT, UPDATE, DELETE, BATCH, IF [NOT] EXISTS, counters, TTLs,
# collections, UDTs, static columns, SELECT with =, IN, slices, ORDER BY,
# LIMIT, count(*), JSON, writetime()). What `cellfs cql` prints must equal
# the .expected files, which were written from Cassandra's rules and cqlsh's
# batch-mode format (not copied from cellfs), and the file face must show the
# same values.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

CQL_DIR=$(dirname "$(realpath "$0")")/../data/cql

# run_file FILE: `cellfs cql -f FILE`; sets RC, OUT and ERR (stdout, stderr).
run_file() {
  RC=0
  "$CELLFS" cql "$MNT" -f "$1" >"$WORK/out" 2>"$WORK/err" || RC=$?
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
}

# expect_same_text WHAT EXPECTED_FILE ACTUAL_FILE: equal texts, else the diff.
expect_same_text() {
  local d
  d=$(diff -u --label expected --label actual "$2" "$3") || fail "$1 differs:"$'\n'"$d"
}

# out_of STMT: what `cellfs cql -e STMT` prints, stderr included.
out_of() { "$CELLFS" cql "$MNT" -e "$1" 2>&1 || true; }

mount_fs

step "hotel_tdg.cql runs unchanged"
run_file "$CQL_DIR/hotel_tdg.cql"
expect_eq "exit code" 0 "$RC"
expect_eq "no errors" "" "$ERR"
expect_eq "transcript" "OK CREATE KEYSPACE hotel
OK CREATE TYPE hotel.address
OK CREATE TABLE hotel.hotels_by_poi
OK CREATE TABLE hotel.hotels
OK CREATE TABLE hotel.pois_by_hotel
OK CREATE TABLE hotel.available_rooms_by_hotel_date
OK CREATE TABLE hotel.amenities_by_room" "$OUT"

step "reservation_tdg.cql runs unchanged, its materialized view included"
run_file "$CQL_DIR/reservation_tdg.cql"
expect_eq "exit code" 0 "$RC"
expect_eq "no errors" "" "$ERR"
expect_eq "everything ran" "OK CREATE KEYSPACE reservation
OK CREATE TYPE reservation.address
OK CREATE TABLE reservation.reservations_by_hotel_date
OK CREATE MATERIALIZED VIEW reservation.reservations_by_confirmation
OK CREATE TABLE reservation.reservations_by_guest
OK CREATE TABLE reservation.guests" "$OUT"

step "killrvideo_pmcfadin_sample.cql: its SASI indexes and its view load; refused: what Cassandra refuses"
run_file "$CQL_DIR/killrvideo_pmcfadin_sample.cql"
expect_eq "exit code" 1 "$RC"
expect_eq "the refusal" "ERROR line 86:1: Cannot create index on entries of column tags with non-map type" "$ERR"
expect_eq "everything else ran" "OK no change (IF EXISTS)
OK CREATE KEYSPACE killrvideo
OK USE killrvideo
OK CREATE TABLE killrvideo.user_credentials
OK CREATE TABLE killrvideo.users
OK CREATE INDEX killrvideo.users
OK CREATE INDEX killrvideo.users
OK CREATE INDEX killrvideo.users
OK CREATE INDEX killrvideo.users
OK CREATE TYPE killrvideo.video_metadata
OK CREATE TABLE killrvideo.videos
OK CREATE MATERIALIZED VIEW killrvideo.videos_by_location
OK CREATE TABLE killrvideo.user_videos
OK CREATE TABLE killrvideo.latest_videos
OK CREATE TABLE killrvideo.video_rating
OK CREATE FUNCTION killrvideo.avg_rating
OK CREATE TABLE killrvideo.video_ratings_by_user
OK CREATE TABLE killrvideo.videos_by_tag
OK CREATE TABLE killrvideo.tags_by_letter
OK CREATE TABLE killrvideo.comments_by_video
OK CREATE TABLE killrvideo.comments_by_user
OK CREATE TABLE killrvideo.video_event
OK CREATE TABLE killrvideo.uploaded_videos
OK CREATE TABLE killrvideo.uploaded_videos_by_jobid
OK CREATE TABLE killrvideo.encoding_job_notifications" "$OUT"

step "killrvideo_ds220_physical.cql runs unchanged"
run_file "$CQL_DIR/killrvideo_ds220_physical.cql"
expect_eq "exit code" 0 "$RC"
expect_eq "no errors" "" "$ERR"
expect_eq "its keyspace and tables" "OK no change (IF EXISTS)
OK CREATE KEYSPACE killr_video
OK USE killr_video
OK CREATE TABLE killr_video.users_by_email
OK CREATE TABLE killr_video.latest_videos
OK CREATE TABLE killr_video.users
OK CREATE TABLE killr_video.videos_by_user
OK CREATE TABLE killr_video.comments_by_user
OK CREATE TABLE killr_video.comments_by_video
OK CREATE TABLE killr_video.ratings_by_video
OK CREATE TYPE killr_video.encoding_type
OK CREATE TABLE killr_video.videos
OK CREATE TABLE killr_video.trailers_by_video
OK CREATE TABLE killr_video.actors_by_video
OK CREATE TABLE killr_video.video_interactions_by_user_video" "$OUT"

for data in tdg_data killrvideo_data killrvideo_ds220_data; do
  step "$data.cql: output as cqlsh prints it ($data.expected)"
  run_file "$CQL_DIR/$data.cql"
  expect_eq "no errors" "" "$ERR"
  expect_eq "exit code" 0 "$RC"
  expect_same_text "output" "$CQL_DIR/$data.expected" "$WORK/out"
done

step "the KillrVideo sample's SASI indexes answer as Cassandra's do"
# firstname: NonTokenizingAnalyzer, case_sensitive false; lastname and email:
# CONTAINS mode, case-sensitive; created_date: SPARSE.
out=$(out_of "SELECT firstname, lastname FROM killrvideo.users WHERE firstname = 'LUKE'")
expect_contains "a case-insensitive index matches any case" "Luke |  Tillman" "$out"
expect_contains "one row" "(1 rows)" "$out"
expect_contains "LIKE through it, case-insensitive" "(1 rows)" \
  "$(out_of "SELECT lastname FROM killrvideo.users WHERE firstname LIKE 'pat%'")"
expect_contains "a substring, case-sensitive" "McFadin" \
  "$(out_of "SELECT lastname FROM killrvideo.users WHERE lastname LIKE '%Fad%'")"
expect_contains "no match in the other case" "(0 rows)" \
  "$(out_of "SELECT lastname FROM killrvideo.users WHERE lastname LIKE '%fad%'")"
expect_contains "a suffix" "(2 rows)" \
  "$(out_of "SELECT email FROM killrvideo.users WHERE email LIKE '%@example.com'")"
expect_contains "a range through the SPARSE index" "Tillman" \
  "$(out_of "SELECT lastname FROM killrvideo.users WHERE created_date > '2011-06-10'")"
expect_contains "LIKE on a column without an index, in Cassandra's words" \
  "LIKE restriction is only supported on properly indexed columns. userid LIKE 'a%' is not valid." \
  "$(out_of "SELECT * FROM killrvideo.users WHERE userid LIKE 'a%'")"

step "TTLs count down from what USING TTL gave"
ttl=$(out_of "SELECT ttl(description) FROM hotel.amenities_by_room
  WHERE hotel_id = 'AZ123' AND room_number = 101 AND amenity_name = 'wifi'" | sed -n 4p | tr -d ' ')
[[ $ttl =~ ^[0-9]+$ ]] && ((ttl > 86000 && ttl <= 86400)) || fail "ttl of a USING TTL 86400 cell: $ttl"
ttl=$(out_of "SELECT ttl(name) FROM killrvideo.latest_videos WHERE yyyymmdd = '20130220'" |
  sed -n 4p | tr -d ' ')
[[ $ttl =~ ^[0-9]+$ ]] && ((ttl > 604000 && ttl <= 604800)) ||
  fail "ttl of a row written in a batch USING TTL 604800: $ttl"
expect_eq "no TTL is null" "null" \
  "$(out_of "SELECT ttl(description) FROM hotel.pois_by_hotel
  WHERE hotel_id = 'AZ123' AND poi_name = 'Camelback Mountain'" | sed -n 4p | tr -d ' ')"

step "the file face shows the same rows and values"
H=$MNT/hotel
K=$MNT/killrvideo
VID=99051fe9-6a9c-46c2-b949-38ef78858dd0
expect_eq "a text cell" "Super Hotel at WestWorld" "$(cat "$H/hotels/AZ123/name")"
expect_eq "a set after UPDATE ... + {...}" \
  "{'Camelback Mountain', 'Desert Botanical Garden', 'WestWorld'}" "$(cat "$H/hotels/AZ123/pois")"
expect_eq "a frozen UDT, a null field shown" \
  "{street: '229 W 43rd St', city: 'New York', state_or_province: 'NY', postal_code: '10036', country: null}" \
  "$(cat "$H/hotels/NY229/address")"
expect_eq "the phone the applied UPDATE ... IF set" "1-212-555-0100" "$(cat "$H/hotels/NY229/phone")"
expect_eq "the name IF NOT EXISTS kept" "Hotel Sedona" "$(cat "$H/hotels/AZ333/name")"
expect_eq "a partition's rows after the DELETE" $'Camelback Mountain\nDesert Botanical Garden' \
  "$(ls_u "$H/pois_by_hotel/AZ123")"
expect_eq "rows of two clustering columns" "2016-01-05,101
2016-01-05,102
2016-01-06,101
2016-01-06,102
2016-01-07,101
2016-01-07,102
2016-01-08,101" "$(ls_u "$H/available_rooms_by_hotel_date/AZ123")"
expect_eq "the boolean the UPDATE set" "false" "$(cat "$H/available_rooms_by_hotel_date/AZ123/2016-01-06,101/is_available")"
expect_missing "the cell DELETE removed" "$H/amenities_by_room/AZ123,101/coffee maker/description"
expect_exists "its row stays (INSERT wrote a row marker)" "$H/amenities_by_room/AZ123,101/coffee maker"
expect_eq "a counter" "12" "$(cat "$K/video_rating/$VID/rating_total")"
expect_eq "comments newest first (clustering DESC), the deleted one gone" \
  $'f2b1d4c0-a3c1-11e1-8bd7-0800200c9a66\nd0cbd4a0-a3c1-11e1-8bd7-0800200c9a66' \
  "$(ls_u "$K/comments_by_video/$VID")"
EVENTS=$K/video_event/$VID,522b1fe2-2e36-4cef-a667-cd4237d08b89
expect_eq "a static cell" "/us/vid/b3/thumb_20.jpg" "$(cat "$EVENTS/preview_image_location")"
expect_eq "events: the static cell, then rows in clustering order" "preview_image_location
30000000-b000-11e2-8000-000000000001,stop
20000000-b000-11e2-8000-000000000001,buffer
20000000-b000-11e2-8000-000000000001,pause
10000000-b000-11e2-8000-000000000001,start" "$(ls_u "$EVENTS")"
expect_eq "rows the range DELETE left" $'2013-02-20T17:40:05.005Z,0x8d3\n2013-02-20T17:32:30.000Z,0x8d2' \
  "$(ls_u "$K/encoding_job_notifications/job-7")"

D=$MNT/killr_video
TOY=a4b6fbf0-3e6e-11e5-9c3f-0800200c9a66
expect_eq "a float" "4.5" "$(cat "$D/videos/$TOY/avg_rating")"
expect_eq "a map of blobs" "{0: 0x89504e47, 30: 0xffd8ff, 60: 0x00}" \
  "$(cat "$D/videos/$TOY/preview_thumbnails")"
expect_eq "a static set" "{'pixar', 'toys'}" "$(cat "$D/comments_by_video/$TOY/tags")"
expect_eq "static cells, then rows (posted_timestamp DESC, user_id ASC)" "tags
title
type
2015-08-02T09:30:00.000Z,0a6f1e2b-7c3d-4e5f-8a9b-0c1d2e3f4a5b
2015-08-02T09:30:00.000Z,fe0a1b2c-3d4e-4f50-9a1b-2c3d4e5f6a7b
2015-08-01T10:00:00.000Z,11bd3b79-0c75-4d3e-a9f5-46c3b1f2c8a1" "$(ls_u "$D/comments_by_video/$TOY")"
expect_eq "rows the prefix DELETE left" $'Don Rickles,Mr. Potato Head\nTim Allen,Buzz Lightyear' \
  "$(ls_u "$D/actors_by_video/$TOY")"
expect_missing "the account the conditional DELETE removed" "$D/users_by_email/woody@example.com"

step "a cell written through the file face, read by SELECT"
echo "Room service until midnight" >"$H/amenities_by_room/AZ123,101/coffee maker/description"
expect_eq "SELECT sees the file's write" "
 amenity_name | description
--------------+-----------------------------
 coffee maker | Room service until midnight

(1 rows)" "$(out_of "SELECT amenity_name, description FROM hotel.amenities_by_room
  WHERE hotel_id = 'AZ123' AND room_number = 101 LIMIT 1")"

unmount_fs
echo "PASS $SCENARIO"
