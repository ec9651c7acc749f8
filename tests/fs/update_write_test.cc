// Writes that are not INSERTs of a row (docs/FILESYSTEM.md): a row made
// with `mkdir CK@update` (UPDATE: no row marker, so it lives only while its
// cells do), the static row alone through @insert and a partition's @json,
// and counter tables bulk-loaded through @insert (each record adds).
#include <catch2/catch.hpp>
#include <cerrno>
#include <string>
#include <vector>

#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

using Names = std::vector<std::string>;

constexpr const char* kTables = R"(
CREATE TABLE ks.t (k text, c int, v text, PRIMARY KEY (k, c));
CREATE TABLE ks.flat (k text PRIMARY KEY, v text);
CREATE TABLE ks.names (k text, c text, v text, PRIMARY KEY (k, c));
CREATE TABLE ks.st (k text, c int, s text static, v text, PRIMARY KEY (k, c));
CREATE TABLE ks.hits (k text PRIMARY KEY, n counter, m counter);
CREATE TABLE ks.cc (k text, c int, n counter, PRIMARY KEY (k, c));
)";

void MakeSchema(FsDriver& d) {
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl(kTables);
}

TEST_CASE("a row made with mkdir CK@update has no marker: it goes when its cells expire",
          "[fs][update]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/t/p") == 0);
  uint64_t inode = 0;  // looked up, the name is absent, so mkdir -p goes on to make it
  CHECK(d.Resolve("ks/t/p/1@update", &inode) == ENOENT);
  REQUIRE(d.Mkdir("ks/t/p/1@update") == 0);
  REQUIRE(d.Write("ks/t/p/1/v@ttl=5", "updated\n") == 0);
  REQUIRE(d.Mkdir("ks/t/p/2") == 0);  // INSERT: a marker without TTL
  REQUIRE(d.Write("ks/t/p/2/v@ttl=5", "inserted\n") == 0);
  CHECK(d.Ls("ks/t/p") == Names{"1", "2"});
  CHECK(d.Cat("ks/t/p/1/v") == "updated\n");

  d.clock().AdvanceSeconds(6);
  d.DropCaches();
  CHECK(d.Ls("ks/t/p") == Names{"2"});
  CHECK_FALSE(d.Exists("ks/t/p/1"));
  CHECK(d.Ls("ks/t/p/2").empty());

  SECTION("in a table without clustering columns, mkdir PK@update") {
    REQUIRE(d.Mkdir("ks/flat/q@update") == 0);
    REQUIRE(d.Write("ks/flat/q/v@ttl=5", "x\n") == 0);
    CHECK(d.Ls("ks/flat") == Names{"q"});
    d.clock().AdvanceSeconds(6);
    d.DropCaches();
    CHECK(d.Ls("ks/flat").empty());
  }
  SECTION("the flag stores nothing, so it takes no @ttl= or @timestamp=") {
    CHECK(d.Mkdir("ks/t/p/3@ttl=5@update") == EINVAL);
    CHECK(d.Mkdir("ks/t/p/3@update@ttl=5") == EINVAL);
  }
  SECTION("a key whose text ends in @update is listed with its '@' escaped") {
    REQUIRE(d.Mkdir("ks/names/a") == 0);
    REQUIRE(d.Mkdir("ks/names/a/x%40update") == 0);
    CHECK(d.Ls("ks/names/a") == Names{"x%40update"});
  }
}

TEST_CASE("@insert takes a record of the partition key and static columns only", "[fs][static]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Write("ks/st/@insert", "{\"k\": \"a\", \"s\": \"json\"}\n") == 0);
  REQUIRE(d.Write("ks/st/@insert", "k,s\nb,csv\n") == 0);
  CHECK(d.Cat("ks/st/a/s") == "json\n");
  CHECK(d.Cat("ks/st/b/s") == "csv\n");
  CHECK(d.Ls("ks/st/a") == Names{"s"});  // the static row alone: no row
  // A regular column needs its row's clustering key.
  CHECK(d.Write("ks/st/@insert", "{\"k\": \"c\", \"s\": \"x\", \"v\": \"y\"}\n") == EINVAL);
  CHECK_FALSE(d.Exists("ks/st/c"));
}

TEST_CASE("a clustered partition's @json takes an object of its static columns", "[fs][static]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/st/a") == 0);
  REQUIRE(d.Write("ks/st/a/@json", "{\"s\": \"one\"}") == 0);
  CHECK(d.Cat("ks/st/a/s") == "one\n");
  REQUIRE(d.Write("ks/st/a/@json", "{\"k\": \"a\", \"s\": \"two\"}") == 0);
  CHECK(d.Cat("ks/st/a/s") == "two\n");
  CHECK(d.Write("ks/st/a/@json", "{\"k\": \"b\", \"s\": \"x\"}") == EINVAL);
  CHECK(d.Write("ks/st/a/@json", "{\"v\": \"x\"}") == EINVAL);
  CHECK(d.Write("ks/st/a/@json", "{\"c\": 1, \"s\": \"x\"}") == EINVAL);
  CHECK(d.Cat("ks/st/a/s") == "two\n");
  CHECK(d.Ls("ks/st/a") == Names{"s"});
  // Read, it is still the partition's export.
  CHECK(d.Cat("ks/st/a/@json") == "{\"k\": \"a\", \"c\": null, \"s\": \"two\", \"v\": null}\n");
  REQUIRE(d.Write("ks/st/a/@json", "{\"s\": null}") == 0);
  d.DropCaches();
  CHECK_FALSE(d.Exists("ks/st/a"));
}

TEST_CASE("@insert into a counter table adds each record's values, as COPY FROM", "[fs][counter]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Write("ks/hits/@insert",
                  "{\"k\": \"a\", \"n\": 5}\n{\"k\": \"a\", \"n\": 2, \"m\": 1}\n") == 0);
  REQUIRE(d.Write("ks/hits/@insert", "k,n\na,3\nb,-1\n") == 0);
  CHECK(d.Cat("ks/hits/a/n") == "10\n");
  CHECK(d.Cat("ks/hits/a/m") == "1\n");
  CHECK(d.Cat("ks/hits/b/n") == "-1\n");
  REQUIRE(d.Write("ks/cc/@insert", "k,c,n\np,1,4\np,1,4\n") == 0);
  CHECK(d.Cat("ks/cc/p/1/n") == "8\n");

  // Cassandra refuses USING TTL and USING TIMESTAMP on counter updates.
  CHECK(d.Write("ks/hits/@insert@ttl=5", "{\"k\": \"a\", \"n\": 1}\n") == EINVAL);
  CHECK(d.Write("ks/hits/@insert@timestamp=5", "{\"k\": \"a\", \"n\": 1}\n") == EINVAL);
  CHECK(d.Write("ks/hits/@insert", "{\"k\": \"a\", \"n\": 1, \"@ttl\": 5}\n") == EINVAL);
  CHECK(d.Write("ks/hits/@insert", "{\"k\": \"a\", \"n\": null}\n") == EINVAL);
  CHECK(d.Cat("ks/hits/a/n") == "10\n");
}

}  // namespace
}  // namespace cellfs::testing
