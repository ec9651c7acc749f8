// Real public Cassandra schema files load unchanged, materialized views and
// indexes included; only what Cassandra itself refuses is refused.
#include <catch2/catch.hpp>

#include "engine/cql/describe.h"
#include "tests/engine/schema_script.h"

namespace cellfs {
namespace {

struct LoadResult {
  int applied = 0;
  std::vector<std::string> unsupported;  // messages of statements cellfs does not support
  std::vector<std::string> errors;       // anything else that failed
};

// Applies every statement of a file, as `cellfs cql -f` will: refusals of
// unsupported statements are collected, other failures are errors.
LoadResult LoadFile(Catalog& catalog, const std::string& text, std::string keyspace = "") {
  LoadResult result;
  CqlParser parser(text);
  while (true) {
    Statement statement;
    bool done = false;
    Status parsed = parser.Next(&statement, &done);
    if (!parsed.ok()) {
      result.errors.push_back(parsed.message());
      continue;
    }
    if (done) break;
    Status applied = catalog.Apply(statement, &keyspace);
    if (applied.ok()) {
      ++result.applied;
    } else if (applied.code() == StatusCode::kNotSupported) {
      result.unsupported.push_back(applied.message());
    } else {
      result.errors.push_back(applied.message());
    }
  }
  return result;
}

void CheckDescribeRoundTrip(const Catalog& catalog) {
  for (const auto& [name, keyspace] : catalog.keyspaces()) {
    Catalog copy;
    const std::string text = DescribeKeyspace(keyspace);
    INFO(text);
    REQUIRE(testing::RunScript(copy, text).ok());
    CHECK(SameKeyspace(keyspace, *copy.FindKeyspace(name)));
  }
}

TEST_CASE("the hotel schema loads: UDTs, sets, clustering order", "[schema_files]") {
  Catalog catalog;
  LoadResult r = LoadFile(catalog, testing::ReadTestFile("cql/hotel_tdg.cql"));
  CHECK(r.errors.empty());
  CHECK(r.unsupported.empty());
  const KeyspaceDef* ks = catalog.FindKeyspace("hotel");
  REQUIRE(ks != nullptr);
  CHECK(ks->types.contains("address"));
  CHECK(ks->tables.size() == 5);
  CHECK(ks->replication.at("replication_factor") == "3");
  CheckDescribeRoundTrip(catalog);
}

TEST_CASE("the reservation schema loads fully, its materialized view included", "[schema_files]") {
  Catalog catalog;
  LoadResult r = LoadFile(catalog, testing::ReadTestFile("cql/reservation_tdg.cql"));
  CHECK(r.errors.empty());
  CHECK(r.unsupported.empty());
  const KeyspaceDef* ks = catalog.FindKeyspace("reservation");
  REQUIRE(ks != nullptr);
  const TableDef* view = catalog.FindTable("reservation", "reservations_by_confirmation");
  REQUIRE(view != nullptr);
  REQUIRE(view->view.has_value());
  CHECK(view->view->base_table == "reservations_by_hotel_date");
  CHECK(view->view->select_all);
  CHECK(view->view->where_text ==
        "confirm_number IS NOT NULL AND hotel_id IS NOT NULL AND start_date IS NOT NULL AND "
        "room_number IS NOT NULL");
  CHECK(view->partition_key_count() == 1);
  CHECK(view->clustering_count() == 3);
  CheckDescribeRoundTrip(catalog);
}

TEST_CASE("the DS220 KillrVideo schema loads: statics, counters, UDTs, composite keys",
          "[schema_files]") {
  Catalog catalog;
  LoadResult r = LoadFile(catalog, testing::ReadTestFile("cql/killrvideo_ds220_physical.cql"));
  CHECK(r.errors.empty());
  CHECK(r.unsupported.empty());
  const KeyspaceDef* ks = catalog.FindKeyspace("killr_video");
  REQUIRE(ks != nullptr);
  const TableDef* comments = catalog.FindTable("killr_video", "comments_by_video");
  REQUIRE(comments != nullptr);
  CHECK(comments->FindColumn("title")->kind == ColumnKind::kStatic);
  CHECK(comments->FindColumn("posted_timestamp")->order == SortOrder::kDesc);
  const TableDef* ratings = catalog.FindTable("killr_video", "ratings_by_video");
  REQUIRE(ratings != nullptr);
  CHECK(ratings->has_counters());
  const TableDef* interactions =
      catalog.FindTable("killr_video", "video_interactions_by_user_video");
  REQUIRE(interactions != nullptr);
  CHECK(interactions->partition_key_count() == 2);
  CheckDescribeRoundTrip(catalog);
}

// The sample's ENTRIES(tags) is on a set, which Cassandra itself refuses.
TEST_CASE(
    "the original KillrVideo sample loads with its SASI indexes and its view, refusing what "
    "Cassandra refuses",
    "[schema_files]") {
  Catalog catalog;
  LoadResult r = LoadFile(catalog, testing::ReadTestFile("cql/killrvideo_pmcfadin_sample.cql"));
  REQUIRE(r.errors.size() == 1);
  CHECK_THAT(r.errors[0],
             Catch::Contains("Cannot create index on entries of column tags with non-map type"));
  CHECK(r.unsupported.empty());
  const TableDef* view = catalog.FindTable("killrvideo", "videos_by_location");
  REQUIRE(view != nullptr);
  REQUIRE(view->view.has_value());
  CHECK(view->view->where_text == "videoid IS NOT NULL AND location IS NOT NULL");
  CHECK(view->columns.size() == 4);
  const TableDef* users = catalog.FindTable("killrvideo", "users");
  REQUIRE(users != nullptr);
  CHECK(users->indexes.size() == 4);
  const KeyspaceDef* ks = catalog.FindKeyspace("killrvideo");
  REQUIRE(ks != nullptr);
  CHECK(ks->routines.size() >= 1);
  const TableDef* event = catalog.FindTable("killrvideo", "video_event");
  REQUIRE(event != nullptr);
  CHECK(event->partition_key_count() == 2);
  CHECK(event->FindColumn("preview_image_location")->kind == ColumnKind::kStatic);
  CheckDescribeRoundTrip(catalog);
}

TEST_CASE("the KillrVideo reference schema loads after USE of an existing keyspace",
          "[schema_files]") {
  Catalog catalog;
  REQUIRE(testing::RunScript(catalog,
                             "CREATE KEYSPACE killrvideo WITH replication = {'class': "
                             "'SimpleStrategy', 'replication_factor': 1};")
              .ok());
  LoadResult r =
      LoadFile(catalog, testing::ReadTestFile("cql/killrvideo_reference_schema.cql"), "killrvideo");
  CHECK(r.errors.empty());
  CHECK(r.unsupported.empty());
  CHECK(catalog.FindKeyspace("killrvideo")->tables.size() >= 10);
  CheckDescribeRoundTrip(catalog);
}

TEST_CASE("the reference schema without a keyspace fails clearly", "[schema_files]") {
  Catalog catalog;
  LoadResult r = LoadFile(catalog, testing::ReadTestFile("cql/killrvideo_reference_schema.cql"));
  REQUIRE_FALSE(r.errors.empty());
  CHECK_THAT(r.errors[0], Catch::Contains("no keyspace has been specified"));
}

}  // namespace
}  // namespace cellfs
