// What the fs tells the kernel after changes behind its back (fs/files/notifier.h):
// @insert invalidates the rows and cells the kernel holds, and only those;
// DROP and CREATE of a table in one @cql write, and ALTER, invalidate its
// name and its @schema.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>

#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

void MakeTables(FsDriver& d) {
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl(
      "CREATE TABLE ks.t (k text, c int, v text, s text STATIC, PRIMARY KEY (k, c));"
      "CREATE TABLE ks.kv (k text PRIMARY KEY, v text);");
}

uint64_t InodeOf(FsDriver& d, const std::string& path) {
  uint64_t inode = 0;
  REQUIRE(d.Resolve(path, &inode) == 0);
  return inode;
}

TEST_CASE("@insert invalidates the rows and cells the kernel holds", "[kernel_invalidation]") {
  FsDriver d;
  MakeTables(d);
  REQUIRE(d.Mkdir("ks/t/p") == 0);
  REQUIRE(d.Mkdir("ks/t/p/1") == 0);
  REQUIRE(d.Write("ks/t/p/1/v", "old\n") == 0);
  REQUIRE(d.Write("ks/t/p/s", "static\n") == 0);
  REQUIRE(d.Mkdir("ks/kv/a") == 0);
  REQUIRE(d.Write("ks/kv/a/v", "old\n") == 0);
  const uint64_t row = InodeOf(d, "ks/t/p/1");
  const uint64_t cell = InodeOf(d, "ks/t/p/1/v");
  const uint64_t static_cell = InodeOf(d, "ks/t/p/s");
  const uint64_t kv_cell = InodeOf(d, "ks/kv/a/v");
  const uint64_t kv_partition = InodeOf(d, "ks/kv/a");
  d.notifier().Clear();

  SECTION("a changed cell, its row and a static cell") {
    REQUIRE(d.Write("ks/t/@insert", "{\"k\": \"p\", \"c\": 1, \"v\": \"newer\", \"s\": \"x\"}\n") ==
            0);
    CHECK(d.notifier().SawInode(row));
    CHECK(d.notifier().SawInode(cell));
    CHECK(d.notifier().SawEntry(row, "v"));
    CHECK(d.notifier().SawInode(static_cell));
    fs::NodeAttr attr;
    REQUIRE(d.Stat("ks/t/p/1/v", &attr) == 0);
    CHECK(attr.size == 6);
  }
  SECTION("a cell deleted by a null: its name is invalidated") {
    REQUIRE(d.Write("ks/kv/@insert", "k,v\na,\n") == 0);
    CHECK(d.notifier().SawInode(kv_cell));
    CHECK(d.notifier().SawEntry(kv_partition, "v"));
  }
  SECTION("rows of partitions the kernel does not hold send nothing") {
    std::string lines;
    for (int i = 0; i < 1000; ++i) lines += "{\"k\": \"q" + std::to_string(i) + "\", \"c\": 1}\n";
    REQUIRE(d.Write("ks/t/@insert", lines) == 0);
    CHECK(d.notifier().events().empty());
  }
}

// A name is invalidated with the node it named, whichever name the
// deletion came through: the kernel must not keep `v` after `rm
// v@timestamp=T`, nor a row's name after a range tombstone or a CQL DELETE.
TEST_CASE("a deletion invalidates the kernel's name and node of what it deleted",
          "[kernel_invalidation]") {
  FsDriver d;
  MakeTables(d);
  REQUIRE(d.Mkdir("ks/t/p") == 0);
  REQUIRE(d.Mkdir("ks/t/p/1") == 0);
  REQUIRE(d.Write("ks/t/p/1/v@timestamp=100", "old\n") == 0);
  REQUIRE(d.Write("ks/t/p/s@timestamp=100", "static\n") == 0);
  const uint64_t partition = InodeOf(d, "ks/t/p");
  const uint64_t row = InodeOf(d, "ks/t/p/1");
  const uint64_t cell = InodeOf(d, "ks/t/p/1/v");
  const uint64_t static_cell = InodeOf(d, "ks/t/p/s");
  d.notifier().Clear();

  SECTION("rm col@timestamp=T") {
    REQUIRE(d.Rm("ks/t/p/1/v@timestamp=200") == 0);
    CHECK(d.notifier().SawEntry(row, "v"));
    CHECK(d.notifier().SawInode(cell));
    // Until that reaches the kernel, it may check the cached `v` with a
    // GETATTR: ESTALE, so the VFS looks `v` up again and `echo > v` creates.
    fs::NodeAttr attr;
    double timeout = 0;
    CHECK(d.fs().GetAttr(cell, &attr, &timeout) == ESTALE);
    CHECK(d.Write("ks/t/p/1/v", "new\n") == 0);
    CHECK(d.fs().GetAttr(cell, &attr, &timeout) == 0);
  }
  SECTION("rm of a static cell @timestamp=T") {
    REQUIRE(d.Rm("ks/t/p/s@timestamp=200") == 0);
    CHECK(d.notifier().SawEntry(partition, "s"));
    CHECK(d.notifier().SawInode(static_cell));
  }
  SECTION("rm -r ROW@timestamp=T") {
    REQUIRE(d.Rmdir("ks/t/p/1@timestamp=200") == 0);
    CHECK(d.notifier().SawEntry(partition, "1"));
    CHECK(d.notifier().SawInode(row));
  }
  SECTION("a range tombstone over held rows") {
    // As rm -r walks it: what lies beneath, then the slice itself.
    REQUIRE(d.Rm("ks/t/p/@lt=5/1/v") == 0);
    REQUIRE(d.Rmdir("ks/t/p/@lt=5/1") == 0);
    REQUIRE(d.Rmdir("ks/t/p/@lt=5") == 0);
    CHECK(d.notifier().SawEntry(partition, "1"));
    CHECK(d.notifier().SawInode(row));
  }
  SECTION("CQL DELETE of the row and of a cell") {
    std::string transcript;
    REQUIRE(d.Cql("DELETE v FROM ks.t WHERE k = 'p' AND c = 1;", &transcript) == 0);
    CHECK(d.notifier().SawEntry(row, "v"));
    CHECK(d.notifier().SawInode(cell));
    d.notifier().Clear();
    REQUIRE(d.Cql("DELETE FROM ks.t WHERE k = 'p' AND c = 1;", &transcript) == 0);
    CHECK(d.notifier().SawEntry(partition, "1"));
    CHECK(d.notifier().SawInode(row));
  }
  SECTION("@insert with a null") {
    REQUIRE(d.Write("ks/t/@insert", "{\"k\": \"p\", \"c\": 1, \"v\": null}\n") == 0);
    CHECK(d.notifier().SawEntry(row, "v"));
    CHECK(d.notifier().SawInode(cell));
  }
}

TEST_CASE("DROP and CREATE of a table in one @cql write invalidate its name and @schema",
          "[kernel_invalidation]") {
  FsDriver d;
  MakeTables(d);
  const uint64_t keyspace = InodeOf(d, "ks");
  InodeOf(d, "ks/t");
  const uint64_t schema = InodeOf(d, "ks/t/@schema");
  std::string transcript;
  SECTION("the same definition made again: a new table the old entry cannot reach") {
    d.notifier().Clear();
    REQUIRE(d.Cql("DROP TABLE ks.t; CREATE TABLE ks.t (k text, c int, v text, s text STATIC, "
                  "PRIMARY KEY (k, c));",
                  &transcript) == 0);
    CHECK(d.notifier().SawEntry(keyspace, "t"));
    CHECK(d.notifier().SawInode(schema));
  }
  SECTION("ALTER: the table's name and its @schema") {
    d.notifier().Clear();
    REQUIRE(d.Cql("ALTER TABLE ks.t ADD w int;", &transcript) == 0);
    CHECK(d.notifier().SawEntry(keyspace, "t"));
    CHECK(d.notifier().SawInode(schema));
  }
  SECTION("TRUNCATE: the table's name (a fresh table id) and its @schema") {
    REQUIRE(d.Mkdir("ks/t/a") == 0);
    REQUIRE(d.Mkdir("ks/t/a/1") == 0);
    REQUIRE(d.Write("ks/t/a/1/v", "x\n") == 0);
    d.notifier().Clear();
    REQUIRE(d.Cql("TRUNCATE ks.t;", &transcript) == 0);
    CHECK(transcript == "OK TRUNCATE ks.t\n");
    CHECK(d.notifier().SawEntry(keyspace, "t"));
    CHECK(d.notifier().SawInode(schema));
    CHECK(d.Ls("ks/t").empty());
    uint64_t inode = 0;
    CHECK(d.Resolve("ks/t/a/1/v", &inode) == ENOENT);
    CHECK(d.Ls("ks/kv").empty());
    REQUIRE(d.Mkdir("ks/t/b") == 0);  // the table takes writes at once
    REQUIRE(d.Mkdir("ks/t/b/2") == 0);
    REQUIRE(d.Write("ks/t/b/2/v", "y\n") == 0);
    CHECK(d.Ls("ks/t") == std::vector<std::string>{"b"});
    CHECK(d.Cat("ks/t/b/2/v") == "y\n");
  }
  SECTION("an unrelated table is left alone") {
    d.notifier().Clear();
    REQUIRE(d.Cql("CREATE TABLE ks.other (k int PRIMARY KEY);", &transcript) == 0);
    CHECK_FALSE(d.notifier().SawEntry(keyspace, "t"));
    CHECK_FALSE(d.notifier().SawInode(schema));
  }
}

}  // namespace
}  // namespace cellfs::testing
