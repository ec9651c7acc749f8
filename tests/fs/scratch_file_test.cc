// Scratch files (fs/tree/scratch_files.h): what `sed -i`, editors, rsync and
// Python's tempfile do beside a cell — create a name that is no column
// with O_EXCL, write it, give it a mode, rename it over the cell — stores
// the content as the cell's value; a typo without O_EXCL still fails, a
// bad value fails the rename with its reason, and nothing is listed.
#include <fcntl.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "fs/tree/scratch_files.h"
#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

constexpr int kMkstemp = O_RDWR | O_CREAT | O_EXCL;

struct ScratchDb {
  ScratchDb() {
    REQUIRE(d.Mkdir("ks") == 0);
    d.Ddl(
        "CREATE TABLE ks.t (k text, c int, v text, n int, s text STATIC, PRIMARY KEY (k, c));"
        "CREATE TABLE ks.kv (k text PRIMARY KEY, v text);");
    REQUIRE(d.Mkdir("ks/t/p") == 0);
    REQUIRE(d.Mkdir("ks/t/p/1") == 0);
    REQUIRE(d.Write("ks/t/p/1/v", "old\n") == 0);
    REQUIRE(d.Write("ks/t/p/1/n", "7") == 0);
    REQUIRE(d.Resolve("ks/t/p/1", &row) == 0);
  }
  int Rename(const std::string& from, const std::string& to) {
    return d.fs().Rename(row, from, row, to);
  }

  FsDriver d;
  uint64_t row = 0;
};

TEST_CASE("a scratch file renamed over a cell stores its content", "[scratch]") {
  ScratchDb s;
  FsDriver& d = s.d;
  REQUIRE(d.Write("ks/t/p/1/sedAb12Z", "new\n", kMkstemp) == 0);
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/t/p/1/sedAb12Z", &attr) == 0);
  CHECK(attr.size == 4);
  CHECK((attr.mode & 07777) == 0600);
  CHECK(d.Cat("ks/t/p/1/sedAb12Z") == "new\n");
  CHECK(d.Ls("ks/t/p/1") == std::vector<std::string>{"n", "v"});  // never listed
  CHECK(d.Cat("ks/t/p/1/v") == "old\n");                          // nothing stored yet

  REQUIRE(s.Rename("sedAb12Z", "v") == 0);
  CHECK(d.Cat("ks/t/p/1/v") == "new\n");
  CHECK(d.Stat("ks/t/p/1/sedAb12Z", &attr) == ENOENT);
  CHECK(d.fs().inodes().size() > 0);
}

TEST_CASE("a typo without O_EXCL still fails; scratch files only where cells live", "[scratch]") {
  ScratchDb s;
  FsDriver& d = s.d;
  CHECK(d.Write("ks/t/p/1/emial", "v\n") == EINVAL);
  CHECK(d.Write("ks/t/p/1/@lt=5/x", "v\n", kMkstemp) != 0);
  CHECK(d.Write("ks/t/p/@lt=5/1/tmpx", "v\n", kMkstemp) == EINVAL);  // beneath a slice
  CHECK(d.Write("ks/t/tmpx", "v\n", kMkstemp) != 0);                 // a table holds partitions
  // A table without clustering columns: its partition holds the cells.
  REQUIRE(d.Mkdir("ks/kv/a") == 0);
  REQUIRE(d.Write("ks/kv/a/.v.XyZ123", "rsync\n", kMkstemp) == 0);
  uint64_t partition = 0;
  REQUIRE(d.Resolve("ks/kv/a", &partition) == 0);
  REQUIRE(d.fs().Rename(partition, ".v.XyZ123", partition, "v") == 0);
  CHECK(d.Cat("ks/kv/a/v") == "rsync\n");
  // Not in a clustered partition, where a name is a row's key.
  CHECK(d.Write("ks/t/p/tmp1", "st\n", kMkstemp) != 0);
}

TEST_CASE("a bad value fails the rename with its reason and keeps both files", "[scratch]") {
  ScratchDb s;
  FsDriver& d = s.d;
  REQUIRE(d.Write("ks/t/p/1/tmpq", "notanint\n", kMkstemp) == 0);
  CHECK(s.Rename("tmpq", "n") == EINVAL);
  CHECK(d.Cat("@errors").find("notanint") != std::string::npos);
  CHECK(d.Cat("ks/t/p/1/n") == "7\n");
  CHECK(d.Cat("ks/t/p/1/tmpq") == "notanint\n");
  // An empty file has no int spelling either; for text it is the empty value.
  REQUIRE(d.Write("ks/t/p/1/tmpe", "", kMkstemp) == 0);
  CHECK(s.Rename("tmpe", "n") == EINVAL);
  CHECK(s.Rename("tmpe", "v") == 0);
  CHECK(d.Cat("ks/t/p/1/v") == "\n");
  // Removed by name, as rm and mkstemp's callers do on failure.
  CHECK(d.Rm("ks/t/p/1/tmpq") == 0);
  fs::NodeAttr attr;
  CHECK(d.Stat("ks/t/p/1/tmpq", &attr) == ENOENT);
  CHECK(d.Rm("ks/t/p/1/tmpq") == ENOENT);
}

TEST_CASE("what a rename may not do", "[scratch]") {
  ScratchDb s;
  FsDriver& d = s.d;
  REQUIRE(d.Write("ks/t/p/1/tmpa", "x\n", kMkstemp) == 0);
  uint64_t other = 0;
  REQUIRE(d.Mkdir("ks/t/p/2") == 0);
  REQUIRE(d.Resolve("ks/t/p/2", &other) == 0);
  CHECK(d.fs().Rename(s.row, "tmpa", other, "v") == EXDEV);  // mv copies instead
  CHECK(d.fs().Rename(s.row, "tmpa", s.row, "v", RENAME_NOREPLACE) == EINVAL);
  CHECK(s.Rename("tmpa", "nosuch") == EINVAL);
  CHECK(s.Rename("v", "n") == EPERM);  // a cell is never renamed
  CHECK(d.Cat("ks/t/p/1/tmpa") == "x\n");
  // Write suffixes on the target: `mv tmp 'v@ttl=60'`.
  REQUIRE(s.Rename("tmpa", "v@ttl=60") == 0);
  CHECK(d.Cat("ks/t/p/1/v") == "x\n");
  std::string ttl;
  REQUIRE(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &ttl) == 0);
  CHECK(ttl == "60");
}

TEST_CASE("scratch files take a mode, a truncation, and are bounded in number", "[scratch]") {
  ScratchDb s;
  FsDriver& d = s.d;
  REQUIRE(d.Write("ks/t/p/1/tmpm", "abcdef", kMkstemp) == 0);
  uint64_t inode = 0;
  REQUIRE(d.Resolve("ks/t/p/1/tmpm", &inode) == 0);
  fs::AttrChanges chmod;
  chmod.mode = 0644;
  fs::NodeAttr attr;
  double timeout = 0;
  REQUIRE(d.fs().SetAttr(inode, chmod, fs::Caller{}, 0, &attr, &timeout) == 0);
  CHECK((attr.mode & 07777) == 0644);
  CHECK(timeout == 0);
  REQUIRE(d.fs().SetSize(inode, 3, 0, &attr, &timeout) == 0);
  CHECK(d.Cat("ks/t/p/1/tmpm") == "abc");
  CHECK(d.Write("ks/t/p/1/tmpm", "z", kMkstemp) == EEXIST);

  for (size_t i = 1; i < fs::ScratchFiles::kMaxFiles; ++i) {
    REQUIRE(d.Write("ks/t/p/1/many" + std::to_string(i), "", kMkstemp) == 0);
  }
  CHECK(d.Write("ks/t/p/1/onetoomany", "", kMkstemp) == ENOSPC);
  CHECK(d.Cat("@errors").find("too many scratch files") != std::string::npos);
  REQUIRE(d.Rm("ks/t/p/1/many1") == 0);
  CHECK(d.Write("ks/t/p/1/onetoomany", "", kMkstemp) == 0);
}

TEST_CASE("an open scratch file after its rename or unlink", "[scratch]") {
  ScratchDb s;
  FsDriver& d = s.d;
  fs::Entry entry;
  fs::OpenReply reply;
  REQUIRE(d.fs().Create(s.row, "tmpo", kMkstemp, &entry, &reply) == 0);
  REQUIRE(d.fs().Write(reply.handle, 0, "new\n") == 4);
  const uint64_t inode = entry.attr.inode;
  REQUIRE(s.Rename("tmpo", "v") == 0);
  CHECK(d.Cat("ks/t/p/1/v") == "new\n");
  // fstat of the descriptor: the file, with no link left.
  fs::NodeAttr attr;
  double timeout = 0;
  REQUIRE(d.fs().GetAttr(inode, &attr, &timeout) == 0);
  CHECK(attr.nlink == 0);
  CHECK(attr.size == 4);
  // A later write would reach nothing: refused, with the reason.
  CHECK(d.fs().Write(reply.handle, 4, "more\n") == -ESTALE);
  CHECK(d.Cat("@errors").find("renamed over its cell") != std::string::npos);
  CHECK(d.Cat("ks/t/p/1/v") == "new\n");
  d.fs().Release(reply.handle);

  // After an unlink the open file is still a file, as on any file system.
  REQUIRE(d.fs().Create(s.row, "tmpu", kMkstemp, &entry, &reply) == 0);
  REQUIRE(d.Rm("ks/t/p/1/tmpu") == 0);
  CHECK(d.fs().Write(reply.handle, 0, "abc") == 3);
  REQUIRE(d.fs().GetAttr(entry.attr.inode, &attr, &timeout) == 0);
  CHECK(attr.nlink == 0);
  CHECK(attr.size == 3);
  d.fs().Release(reply.handle);
  CHECK(d.fs().GetAttr(entry.attr.inode, &attr, &timeout) == ENOENT);
}

TEST_CASE("scratch files go with their directory, and idle ones are taken back", "[scratch]") {
  ScratchDb s;
  FsDriver& d = s.d;
  REQUIRE(d.Write("ks/t/p/1/tmpr", "half", kMkstemp) == 0);
  // rm -r of the row: rm removes what it lists, then rmdir.
  REQUIRE(d.Rm("ks/t/p/1/v") == 0);
  REQUIRE(d.Rm("ks/t/p/1/n") == 0);
  REQUIRE(d.Rmdir("ks/t/p/1") == 0);
  REQUIRE(d.Mkdir("ks/t/p/1") == 0);
  fs::NodeAttr attr;
  CHECK(d.Stat("ks/t/p/1/tmpr", &attr) == ENOENT);  // a new row starts empty

  // Names no tool will rename (it was killed first) fill the slots; once
  // idle for kIdleMicros, a create takes them back.
  for (size_t i = 0; i < fs::ScratchFiles::kMaxFiles; ++i) {
    REQUIRE(d.Write("ks/t/p/1/left" + std::to_string(i), "", kMkstemp) == 0);
  }
  CHECK(d.Write("ks/t/p/1/next", "", kMkstemp) == ENOSPC);
  d.clock().AdvanceSeconds(10 * 60 + 1);
  CHECK(d.Write("ks/t/p/1/next", "", kMkstemp) == 0);
  CHECK(d.Stat("ks/t/p/1/left0", &attr) == ENOENT);
}

TEST_CASE("names a scratch file may not have", "[scratch]") {
  ScratchDb s;
  FsDriver& d = s.d;
  CHECK(d.Write("ks/t/p/1/k", "x", kMkstemp) == EINVAL);  // key columns' names
  CHECK(d.Write("ks/t/p/1/c", "x", kMkstemp) == EINVAL);
  CHECK(d.Write("ks/t/p/1/" + std::string(256, 't'), "x", kMkstemp) == ENAMETOOLONG);
  CHECK(d.Write("ks/t/p/1/" + std::string(255, 't'), "x", kMkstemp) == 0);
  REQUIRE(d.Write("ks/t/p/1/tmpj", "x", kMkstemp) == 0);
  CHECK(s.Rename("tmpj", "@json") == EINVAL);
  CHECK(d.Cat("@errors").find("ks/t/p/1/tmpj") != std::string::npos);  // the path names it
}

}  // namespace
}  // namespace cellfs::testing
