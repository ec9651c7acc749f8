// Deletions through the file face (docs/FILESYSTEM.md, "Deleting"): rm,
// rmdir and rm -r of names with @timestamp= are tombstones at that time, and
// a slice directory's removal is one range tombstone, checked by Cassandra's
// rules (an older replay stays deleted, a newer write appears) and by
// counting the store's entries.
#include <fcntl.h>
#include <leveldb/db.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <string>
#include <vector>

#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

using Names = std::vector<std::string>;

constexpr const char* kTables = R"(
CREATE TABLE ks.t (k text, c int, v text, n int, PRIMARY KEY (k, c));
CREATE TABLE ks.flat (k text PRIMARY KEY, v text);
)";

constexpr int64_t kOld = 1'000;  // microseconds, long before the manual clock's now

void MakeSchema(FsDriver& d) {
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl(kTables);
}

std::string At(int64_t micros) { return "@timestamp=" + std::to_string(micros); }

// Row `c` of partition `k` in ks.t: an INSERT at `micros` with v = "v<c>".
void PutRow(FsDriver& d, const std::string& k, int c, int64_t micros) {
  if (!d.Exists("ks/t/" + k)) REQUIRE(d.Mkdir("ks/t/" + k) == 0);
  const std::string row = "ks/t/" + k + "/" + std::to_string(c);
  INFO("row " << row);
  REQUIRE(d.Mkdir(row + At(micros)) == 0);
  REQUIRE(d.Write(row + "/v" + At(micros), "v" + std::to_string(c) + "\n") == 0);
}

// `rm -r PATH` as coreutils does it: list, remove each entry (directories
// depth first), then rmdir the directory itself. The first error, or 0.
int RmR(FsDriver& d, const std::string& path) {
  std::vector<Listed> entries;
  ListOptions plus;
  plus.plus = true;
  if (int e = d.List(path, &entries, plus)) return e;
  for (const Listed& entry : entries) {
    const std::string child = path + "/" + entry.name;
    if (int e = S_ISDIR(entry.mode) ? RmR(d, child) : d.Rm(child)) return e;
  }
  return d.Rmdir(path);
}

// The number of entries in the store, the engine closed meanwhile.
size_t StoreEntries(TestEngine& engine) {
  engine.Close();
  leveldb::Options options;
  options.env = engine.env();
  leveldb::DB* raw = nullptr;
  REQUIRE(leveldb::DB::Open(options, "/db", &raw).ok());
  size_t count = 0;
  {
    std::unique_ptr<leveldb::DB> owned(raw);
    std::unique_ptr<leveldb::Iterator> it(owned->NewIterator(leveldb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++count;
  }
  engine.Reopen();
  return count;
}

TEST_CASE("rmdir ROW@timestamp=T is a row tombstone at T", "[fs][delete]") {
  FsDriver d;
  MakeSchema(d);
  PutRow(d, "a", 1, kOld + 10);
  PutRow(d, "a", 2, kOld + 10);

  // Older than the row: nothing of it is shadowed, and the rmdir says so
  // only by what survives (a deletion at T is written whatever is listed).
  CHECK(d.Rmdir("ks/t/a/1" + At(kOld)) == 0);
  CHECK(d.Cat("ks/t/a/1/v") == "v1\n");

  CHECK(d.Rmdir("ks/t/a/2" + At(kOld + 20)) == 0);
  CHECK_FALSE(d.Exists("ks/t/a/2"));
  // A replay older than the tombstone stays deleted; a newer write appears.
  REQUIRE(d.Mkdir("ks/t/a/2" + At(kOld + 15)) == 0);
  CHECK_FALSE(d.Exists("ks/t/a/2"));
  REQUIRE(d.Mkdir("ks/t/a/2" + At(kOld + 25)) == 0);
  CHECK(d.Exists("ks/t/a/2"));

  SECTION("a deletion takes no TTL, as CQL's DELETE") {
    CHECK(d.Rmdir("ks/t/a/1@ttl=5") == EINVAL);
    CHECK(d.Cat("ks/t/a/1/v") == "v1\n");
  }
}

TEST_CASE("rm -r ROW@timestamp=T deletes what is not newer than T, every child at T",
          "[fs][delete]") {
  FsDriver d;
  MakeSchema(d);
  PutRow(d, "a", 1, kOld + 10);
  REQUIRE(d.Write("ks/t/a/1/n" + At(kOld + 30), "7") == 0);  // newer than the delete

  REQUIRE(RmR(d, "ks/t/a/1" + At(kOld + 20)) == 0);
  CHECK(d.Ls("ks/t/a/1") == Names{"n"});
  CHECK(d.Cat("ks/t/a/1/n") == "7\n");
  REQUIRE(d.Write("ks/t/a/1/v" + At(kOld + 15), "replayed\n") == 0);
  CHECK(d.Ls("ks/t/a/1") == Names{"n"});

  SECTION("in a table without clustering columns, the partition is the row") {
    REQUIRE(d.Mkdir("ks/flat/p" + At(kOld + 10)) == 0);
    REQUIRE(d.Write("ks/flat/p/v" + At(kOld + 10), "x\n") == 0);
    REQUIRE(RmR(d, "ks/flat/p" + At(kOld + 20)) == 0);
    CHECK_FALSE(d.Exists("ks/flat/p"));
    REQUIRE(d.Mkdir("ks/flat/p" + At(kOld + 15)) == 0);
    CHECK_FALSE(d.Exists("ks/flat/p"));
  }
}

TEST_CASE("a directory's write suffixes pass to its children, listed or looked up",
          "[fs][delete]") {
  FsDriver d;
  MakeSchema(d);
  PutRow(d, "a", 1, kOld + 10);
  const std::string row = "ks/t/a/1" + At(kOld + 40);
  // Looked up: a cell written through the row's suffixed name is at T.
  REQUIRE(d.Write(row + "/n", "3") == 0);
  std::string writetime;
  REQUIRE(d.GetXattr("ks/t/a/1/n", "user.cellfs.writetime", &writetime) == 0);
  CHECK(writetime == std::to_string(kOld + 40));
  // Listed (readdirplus): the entry's inode writes at T too.
  std::vector<Listed> listed;
  ListOptions plus;
  plus.plus = true;
  REQUIRE(d.List(row, &listed, plus) == 0);
  uint64_t v = 0;
  for (const Listed& entry : listed) {
    if (entry.name == "v") v = entry.inode;
  }
  REQUIRE(v != 0);
  fs::OpenReply reply;
  REQUIRE(d.fs().Open(v, O_WRONLY | O_TRUNC, &reply) == 0);
  CHECK(d.fs().Write(reply.handle, 0, "w\n") == 2);
  CHECK(d.fs().Flush(reply.handle) == 0);
  d.fs().Release(reply.handle);
  REQUIRE(d.GetXattr("ks/t/a/1/v", "user.cellfs.writetime", &writetime) == 0);
  CHECK(writetime == std::to_string(kOld + 40));
}

TEST_CASE("rm -r PK@timestamp=T in a clustered table deletes at T", "[fs][delete]") {
  FsDriver d;
  MakeSchema(d);
  for (int c = 0; c < 20; ++c) PutRow(d, "b", c, kOld + 10);
  PutRow(d, "b", 20, kOld + 30);

  REQUIRE(RmR(d, "ks/t/b" + At(kOld + 20)) == 0);
  CHECK(d.Ls("ks/t/b") == Names{"20"});
  REQUIRE(d.Mkdir("ks/t/b/5" + At(kOld + 15)) == 0);
  CHECK(d.Ls("ks/t/b") == Names{"20"});
  REQUIRE(d.Mkdir("ks/t/b/5" + At(kOld + 25)) == 0);
  CHECK(d.Ls("ks/t/b") == Names{"5", "20"});
}

TEST_CASE("rm -r of a slice directory is one range tombstone", "[fs][delete][slice]") {
  TestEngine engine;
  {
    FsDriver d(&engine, {});
    MakeSchema(d);
    for (int c = 0; c < 50; ++c) PutRow(d, "p", c, kOld + 10);
  }
  const size_t before = StoreEntries(engine);
  {
    FsDriver d(&engine, {});
    REQUIRE(RmR(d, "ks/t/p/@lt=30") == 0);
    CHECK(d.Ls("ks/t/p").size() == 20);
    CHECK(d.Ls("ks/t/p").front() == "30");
  }
  const size_t after = StoreEntries(engine);
  // One range deletion (its entry and, at most, its purge-index entry), not
  // one per row.
  CHECK(after - before <= 2);

  FsDriver d(&engine, {});
  // A replay older than the range tombstone, at a key that was never
  // written, stays deleted; a newer write appears.
  REQUIRE(d.Mkdir("ks/t/p/-5" + At(kOld + 15)) == 0);
  CHECK_FALSE(d.Exists("ks/t/p/-5"));
  REQUIRE(d.Mkdir("ks/t/p/7") == 0);
  CHECK(d.Exists("ks/t/p/7"));
}

TEST_CASE("a range deletion invalidates the rows the kernel holds under the partition",
          "[fs][delete][slice]") {
  FsDriver d;
  MakeSchema(d);
  for (int c = 0; c < 5; ++c) PutRow(d, "p", c, kOld + 10);
  REQUIRE(d.Exists("ks/t/p/1"));  // held as PK/CK
  uint64_t partition = 0;
  REQUIRE(d.Resolve("ks/t/p", &partition) == 0);
  d.notifier().Clear();
  REQUIRE(RmR(d, "ks/t/p/@lt=3") == 0);
  CHECK(d.notifier().SawEntry(partition, "1"));
  CHECK_FALSE(d.notifier().SawEntry(partition, "4"));
}

TEST_CASE("slice removals: nested bounds, timestamps, emptiness, limits", "[fs][delete][slice]") {
  FsDriver d;
  MakeSchema(d);
  for (int c = 0; c < 10; ++c) PutRow(d, "p", c, kOld + 10);

  SECTION("nested slices delete their intersection") {
    REQUIRE(RmR(d, "ks/t/p/@ge=3/@lt=6") == 0);
    CHECK(d.Ls("ks/t/p") == Names{"0", "1", "2", "6", "7", "8", "9"});
  }
  SECTION("@timestamp=T on a slice is the range tombstone at T") {
    PutRow(d, "p", 4, kOld + 30);
    REQUIRE(RmR(d, "ks/t/p/@lt=6" + At(kOld + 20)) == 0);
    CHECK(d.Ls("ks/t/p") == Names{"4", "6", "7", "8", "9"});
    REQUIRE(d.Mkdir("ks/t/p/2" + At(kOld + 15)) == 0);
    CHECK_FALSE(d.Exists("ks/t/p/2"));
  }
  SECTION("rmdir of a slice that lists rows is ENOTEMPTY; of an empty one, its tombstone") {
    CHECK(d.Rmdir("ks/t/p/@lt=6") == ENOTEMPTY);
    CHECK(d.Ls("ks/t/p").size() == 10);
    REQUIRE(d.Rmdir("ks/t/p/@ge=20") == 0);
    REQUIRE(d.Mkdir("ks/t/p/25" + At(kOld + 15)) == 0);
    CHECK_FALSE(d.Exists("ks/t/p/25"));
  }
  SECTION("a slice with @limit or @reverse cannot be a range tombstone") {
    CHECK(RmR(d, "ks/t/p/@limit=2") == EINVAL);
    CHECK(RmR(d, "ks/t/p/@lt=3/@reverse") == EINVAL);
    CHECK(d.Rmdir("ks/t/p/@ge=20/@reverse") == EINVAL);
    CHECK(d.Ls("ks/t/p").size() == 10);
  }
  SECTION("other @ names are still not removable") { CHECK(d.Rmdir("ks/t/p/@json") == EPERM); }
}

}  // namespace
}  // namespace cellfs::testing
