// Reads through the file face while an index or view is still being built
// (engine/store/internal/build_runner.h): the store is opened with a small
// inline build and no builder thread, so a CREATE INDEX or CREATE
// MATERIALIZED VIEW over a populated table leaves its build pending for as
// long as the test looks. Meanwhile @by refuses with Cassandra's "not yet
// available", SELECT through @cql reads by a scan and answers what it
// answers with ALLOW FILTERING, the view refuses reads, and @stats and
// @status show the build under way; once the build runs, all of it answers.
#include <catch2/catch.hpp>
#include <cerrno>
#include <string>

#include "tests/engine/engine_test_util.h"
#include "tests/fs/filesystem_test_util.h"

namespace cellfs::fs {
namespace {

using testing::FsDriver;
using testing::TestEngine;

EngineOptions PendingBuilds() {
  EngineOptions options;
  options.inline_build_rows = 10;     // far fewer than the table holds
  options.background_builds = false;  // nothing finishes the rest
  return options;
}

TEST_CASE("while a build is under way, reads refuse or scan, and say how far it is",
          "[fs][index][build]") {
  TestEngine engine(PendingBuilds());
  FsDriver d(&engine, {});
  d.Ddl(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n"
      "CREATE TABLE ks.users (id int PRIMARY KEY, country text, email text);");
  std::string rows;
  for (int id = 0; id < 200; ++id) {
    rows +=
        std::to_string(id) + "," + (id % 3 == 0 ? "FR" : "US") + ",u" + std::to_string(id) + "@x\n";
  }
  REQUIRE(d.Write("ks/users/@insert", "id,country,email\n" + rows) == 0);
  d.Ddl("CREATE INDEX by_country ON ks.users (country);");
  d.Ddl(
      "CREATE MATERIALIZED VIEW ks.by_email AS SELECT email, id FROM ks.users "
      "WHERE email IS NOT NULL AND id IS NOT NULL PRIMARY KEY (email, id);");

  // @by: Cassandra's refusal, with the reason in @errors.
  std::string out;
  CHECK(d.Read("ks/users/@by/country/FR/@json", &out) == EINVAL);
  CHECK_THAT(d.Cat("@errors"),
             Catch::Contains("The secondary index 'by_country' is not yet available"));
  // The view's rows are not all there yet: its reads are refused, "try
  // again" (EAGAIN), with the reason.
  CHECK(d.Read("ks/by_email/@json", &out) == EAGAIN);
  CHECK_THAT(d.Cat("@errors"), Catch::Contains("materialized view by_email is still being built"));
  // SELECT scans instead of using the unbuilt index: the same rows.
  std::string indexed, filtered;
  REQUIRE(d.Cql("SELECT count(*) FROM ks.users WHERE country = 'FR';", &indexed) == 0);
  REQUIRE(d.Cql("SELECT count(*) FROM ks.users WHERE country = 'FR' ALLOW FILTERING;", &filtered) ==
          0);
  CHECK_THAT(indexed, Catch::Contains(" 67\n"));
  CHECK(indexed == filtered);
  // @stats and @status show both builds under way.
  CHECK_THAT(d.Cat("ks/users/@stats"), Catch::Contains("by_country"));
  CHECK_THAT(d.Cat("@status"), Catch::Contains("by_email"));

  // The builds run (as the builder thread or the next open would): every
  // read answers.
  REQUIRE(d.engine().AwaitBuilds().ok());
  d.DropCaches();
  REQUIRE(d.Read("ks/users/@by/country/FR/@json", &out) == 0);
  size_t lines = 0;
  for (char c : out) lines += c == '\n';
  CHECK(lines == 67);
  CHECK(d.Ls("ks/by_email").size() == 200);
}

}  // namespace
}  // namespace cellfs::fs
