// Index and view builds over rows written before CREATE: a bounded part
// inside the statement, the rest on the builder thread (or in AwaitBuilds
// without it), with progress reported, reads refused until built, writes
// during the build kept, and the build surviving a reopen, a TRUNCATE and
// a DROP. Each result is checked against a model of the rows written.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "engine/store/index_iterator.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using testing::TestEngine;
using testing::Value;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE users (id int PRIMARY KEY, country text, email text);\n";

constexpr const char* kIndex = "CREATE INDEX by_country ON users (country);";
constexpr const char* kView =
    "CREATE MATERIALIZED VIEW by_email AS SELECT email, id FROM users "
    "WHERE email IS NOT NULL AND id IS NOT NULL PRIMARY KEY (email, id);";

EngineOptions Options(uint64_t inline_rows, bool background) {
  EngineOptions options;
  options.inline_build_rows = inline_rows;
  options.background_builds = background;
  return options;
}

// The rows written, by id: what every index and view must agree with.
struct Model {
  std::map<int, std::string> country;
  std::map<int, std::string> email;
};

void Put(TestEngine& db, Model& model, int id, const std::string& country,
         const std::string& email) {
  TableHandle t = db.Table("ks", "users");
  const size_t c = testing::ColumnIndexOf(*t, "country");
  const size_t e = testing::ColumnIndexOf(*t, "email");
  Mutation m = db.engine->NewMutation();
  REQUIRE(m.Insert(t, std::vector{testing::IntValue(id)}, {},
                   std::vector<ColumnValue>{{c, Value(*t->column(c).type, country)},
                                            {e, Value(*t->column(e).type, email)}})
              .ok());
  Status applied = db.engine->Apply(std::move(m));
  INFO(applied.ToString());
  REQUIRE(applied.ok());
  model.country[id] = country;
  model.email[id] = email;
}

void Fill(TestEngine& db, Model& model, int rows) {
  for (int id = 0; id < rows; ++id) {
    Put(db, model, id, id % 3 == 0 ? "US" : "FR", "e" + std::to_string(id) + "@x");
  }
}

// The table with `rows` rows, then CREATE INDEX and CREATE MATERIALIZED VIEW.
void FillThenIndex(TestEngine& db, Model& model, int rows) {
  db.Ddl(kSchema);
  Fill(db, model, rows);
  db.Ddl(kIndex);
  db.Ddl(kView);
}

// How many rows the index finds for `country`; the status of the lookup.
Status CountByCountry(TestEngine& db, const std::string& country, size_t* n) {
  TableHandle t = db.Table("ks", "users");
  *n = 0;
  auto made = db.engine->NewReadView().NewIndexIterator(
      t, 0,
      IndexBounds::Equal(Value(*t->column(testing::ColumnIndexOf(*t, "country")).type, country)));
  if (!made.ok()) return made.status();
  for (IndexIterator& it = *made.value(); it.Valid(); it.Next()) ++*n;
  return made.value()->status();
}

void CheckIndex(TestEngine& db, const Model& model) {
  for (const char* country : {"US", "FR", "DE"}) {
    size_t expected = 0;
    for (const auto& [id, value] : model.country) expected += value == country;
    size_t found = 0;
    Status s = CountByCountry(db, country, &found);
    INFO(country << ": " << s.ToString());
    REQUIRE(s.ok());
    CHECK(found == expected);
  }
}

// Every view partition (an email), in the model's terms: email -> id.
void CheckView(TestEngine& db, const Model& model) {
  TableHandle view = db.Table("ks", "by_email");
  std::map<std::string, int> expected;
  for (const auto& [id, email] : model.email) expected[email] = id;
  std::map<std::string, int> found;
  auto it = db.engine->NewReadView().NewPartitionIterator(view);
  for (; it->Valid(); it->Next()) {
    std::vector<std::string> key;
    REQUIRE(it->DecodePartitionKey(&key).ok());
    auto rows = db.engine->NewReadView().NewRowIterator(view, key);
    REQUIRE(rows.ok());
    for (RowIterator& row = *rows.value(); row.Valid(); row.Next()) {
      std::vector<std::string> clustering;
      REQUIRE(row.DecodeClustering(&clustering).ok());
      found[key[0]] = testing::IntOf(clustering[0]);
    }
  }
  REQUIRE(it->status().ok());
  CHECK(found == expected);
}

TEST_CASE(
    "a build past the inline bound waits, refusing reads, and keeps the writes made meanwhile",
    "[index][build]") {
  TestEngine db(Options(10, false));
  Model model;
  FillThenIndex(db, model, 300);

  // The statements returned with the builds under way.
  CHECK_FALSE(db.Table("ks", "users")->FindIndex("by_country")->built);
  std::vector<BuildProgress> progress = db.engine->BuildsInProgress();
  REQUIRE(progress.size() == 2);
  CHECK(progress[0].kind == BuildProgress::Kind::kIndex);
  CHECK(progress[0].name == "by_country");
  CHECK(progress[0].table == "users");
  CHECK(progress[0].rows >= 10);
  CHECK(progress[0].rows < 300);
  CHECK(progress[0].fraction > 0);
  CHECK(progress[0].fraction < 1);
  CHECK(progress[0].error.empty());
  CHECK(progress[1].kind == BuildProgress::Kind::kView);
  CHECK(progress[1].name == "by_email");
  CHECK(progress[1].rows >= 10);

  size_t n = 0;
  Status refused = CountByCountry(db, "US", &n);
  CHECK(refused.code() == StatusCode::kFailedPrecondition);
  CHECK(refused.message() == "The secondary index 'by_country' is not yet available");
  auto view_read = db.engine->NewReadView().NewRowIterator(db.Table("ks", "by_email"),
                                                           std::vector<std::string>{"e1@x"});
  CHECK(view_read.status().code() == StatusCode::kAborted);  // try again later

  // Writes during the build, on both sides of where it stopped.
  for (int id = 0; id < 300; id += 7) Put(db, model, id, "DE", "moved" + std::to_string(id));
  Put(db, model, 1000, "US", "new@x");

  REQUIRE(db.engine->AwaitBuilds().ok());
  CHECK(db.engine->BuildsInProgress().empty());
  CHECK(db.Table("ks", "users")->FindIndex("by_country")->built);
  CheckIndex(db, model);
  CheckView(db, model);
}

TEST_CASE("the builder thread finishes builds while writes go on", "[index][build]") {
  TestEngine db(Options(0, true));
  Model model;
  FillThenIndex(db, model, 2000);
  for (int id = 0; id < 2000; id += 3) Put(db, model, id, "DE", "later" + std::to_string(id));
  Status awaited = db.engine->AwaitBuilds();
  INFO(awaited.ToString());
  REQUIRE(awaited.ok());
  CHECK(db.engine->BuildsInProgress().empty());
  CheckIndex(db, model);
  CheckView(db, model);
}

TEST_CASE("a build interrupted by a close starts over at the next open", "[index][build]") {
  TestEngine db(Options(10, false));
  Model model;
  FillThenIndex(db, model, 200);
  REQUIRE(db.engine->BuildsInProgress().size() == 2);
  db.Reopen();
  // The open ran its own inline part; the rest waits as before.
  std::vector<BuildProgress> progress = db.engine->BuildsInProgress();
  REQUIRE(progress.size() == 2);
  CHECK(progress[0].rows >= 10);
  REQUIRE(db.engine->AwaitBuilds().ok());
  CheckIndex(db, model);
  CheckView(db, model);
}

TEST_CASE("a build under way ends with its index's DROP or its table's TRUNCATE",
          "[index][build]") {
  TestEngine db(Options(10, false));
  Model model;
  FillThenIndex(db, model, 200);
  REQUIRE(db.engine->BuildsInProgress().size() == 2);

  SECTION("DROP") {
    db.Ddl("DROP INDEX by_country;");
    db.Ddl("DROP MATERIALIZED VIEW by_email;");
    CHECK(db.engine->BuildsInProgress().empty());
    REQUIRE(db.engine->AwaitBuilds().ok());
    // The same name again is a new build, from the start.
    db.Ddl(kIndex);
    REQUIRE(db.engine->AwaitBuilds().ok());
    CheckIndex(db, model);
  }
  SECTION("TRUNCATE") {
    db.Ddl("TRUNCATE users;");
    REQUIRE(db.engine->AwaitBuilds().ok());
    CHECK(db.engine->BuildsInProgress().empty());
    model = Model();
    Put(db, model, 5, "US", "five@x");
    CheckIndex(db, model);
    CheckView(db, model);
  }
}

TEST_CASE("with the default bound, a small table's index and view are built when CREATE returns",
          "[index][build]") {
  TestEngine db;  // background builds on, 50,000 rows inline
  Model model;
  FillThenIndex(db, model, 500);
  CHECK(db.engine->BuildsInProgress().empty());
  CHECK(db.Table("ks", "users")->FindIndex("by_country")->built);
  CheckIndex(db, model);
  CheckView(db, model);
}

TEST_CASE("a statement builds its own index inline, not one an earlier statement left",
          "[index][build]") {
  TestEngine db(Options(10, false));
  Model model;
  FillThenIndex(db, model, 300);
  db.Reopen();  // both builds start over; the open's inline part goes to one
  REQUIRE(db.engine->BuildsInProgress().size() == 2);
  // Named to come after users in the pending builds' order.
  db.Ddl("CREATE TABLE zsmall (id int PRIMARY KEY, v int);");
  db.Ddl("CREATE INDEX ON zsmall (v);");
  // Its own build (an empty table) finished within the statement's bound.
  CHECK(db.Table("ks", "zsmall")->FindIndex("zsmall_v_idx")->built);
  const std::vector<BuildProgress> left = db.engine->BuildsInProgress();
  REQUIRE(left.size() == 2);
  for (const BuildProgress& build : left) CHECK(build.table != "zsmall");
  // An unrelated statement runs no build inline.
  const uint64_t before = left[0].rows + left[1].rows;
  db.Ddl("CREATE TABLE other (id int PRIMARY KEY);");
  const std::vector<BuildProgress> after = db.engine->BuildsInProgress();
  REQUIRE(after.size() == 2);
  CHECK(after[0].rows + after[1].rows == before);
  REQUIRE(db.engine->AwaitBuilds().ok());
  CheckIndex(db, model);
  CheckView(db, model);
}

}  // namespace
}  // namespace cellfs
