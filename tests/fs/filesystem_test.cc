// fs::Filesystem driven without a mount: the tree of DESIGN.md sections 1-4
// through Lookup / MkDir / Create / Write / ReadDir / xattrs, over an
// in-memory engine whose ManualClock makes TTLs expire on demand.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <climits>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/cql/describe.h"
#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

using Names = std::vector<std::string>;

constexpr const char* kTables = R"(
CREATE TABLE ks.t (k text, c int, v text, n int, b blob, tags set<text>, PRIMARY KEY (k, c));
CREATE TABLE ks.ev (k text, ts int, v text, PRIMARY KEY (k, ts)) WITH CLUSTERING ORDER BY (ts DESC);
CREATE TABLE ks.j (k text, c int, a text, b int, PRIMARY KEY (k, c));
CREATE TABLE ks.flat (k text PRIMARY KEY, v text, n int);
CREATE TABLE ks.hits (k text PRIMARY KEY, n counter);
CREATE TABLE ks.ints (k int PRIMARY KEY, v text);
CREATE TABLE ks.names (k text, c text, v text, PRIMARY KEY (k, c));
CREATE TABLE ks.stamps (k text, t timestamp, v text, PRIMARY KEY (k, t));
CREATE TABLE ks.comp (a text, b int, v text, PRIMARY KEY ((a, b)));
CREATE TABLE ks.st (k text, c int, s text static, v text, PRIMARY KEY (k, c));
CREATE TABLE ks.cc (k text, c int, n counter, PRIMARY KEY (k, c));
CREATE TABLE ks.dt (k text PRIMARY KEY, v text, w text) WITH default_time_to_live = 10;
)";

// Keyspace ks with the tables above.
void MakeSchema(FsDriver& d) {
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl(kTables);
}

// mkdir -p of every component of `path` below the keyspace level.
void MkdirP(FsDriver& d, const std::string& path) {
  for (size_t slash = path.find('/');; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (!d.Exists(prefix)) {
      INFO("mkdir " << prefix);
      REQUIRE(d.Mkdir(prefix) == 0);
    }
    if (slash == std::string::npos) break;
  }
}

void Put(FsDriver& d, const std::string& path, const std::string& text) {
  INFO("write " << path);
  REQUIRE(d.Write(path, text) == 0);
}

// A partition of ks.t holding rows 1..count (row markers only).
void MakeRows(FsDriver& d, const std::string& partition, int count) {
  MkdirP(d, partition);
  for (int i = 1; i <= count; ++i) REQUIRE(d.Mkdir(partition + "/" + std::to_string(i)) == 0);
}

std::vector<std::string> NamesOf(const std::vector<Listed>& listed) {
  std::vector<std::string> names;
  for (const Listed& entry : listed) names.push_back(entry.name);
  return names;
}

Names Range(int from, int to, int step = 1) {
  Names names;
  for (int i = from; step > 0 ? i <= to : i >= to; i += step) names.push_back(std::to_string(i));
  return names;
}

int64_t AsInt(const std::string& text) { return std::stoll(text); }

}  // namespace

// ---------------------------------------------------------------- the tree

// The schema, row ks/t/p/1 and its cell v = "x"; the cell's inode.
uint64_t StoredCell(FsDriver& d) {
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  Put(d, "ks/t/p/1/v", "x\n");
  uint64_t inode = 0;
  REQUIRE(d.Resolve("ks/t/p/1/v", &inode) == 0);
  return inode;
}

TEST_CASE("mkdir at the mount root creates a keyspace that lookup, ls and @schema show",
          "[filesystem]") {
  FsDriver d;
  REQUIRE(d.Mkdir("ks") == 0);
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks", &attr) == 0);
  CHECK(S_ISDIR(attr.mode));
  CHECK(d.Ls("") == Names{"ks"});
  CHECK(d.Ls("", true) == Names{"ks"});
  CHECK(d.Cat("ks/@schema").find("CREATE KEYSPACE ks") != std::string::npos);
  CHECK(d.Mkdir("ks") == EEXIST);
  CHECK(d.Stat("other", &attr) == ENOENT);
  CHECK(d.engine().catalog()->FindKeyspace("ks") != nullptr);
}

TEST_CASE("CREATE TABLE written to @cql runs, and the same open file reads its transcript",
          "[filesystem]") {
  FsDriver d;
  REQUIRE(d.Mkdir("ks") == 0);
  std::string transcript;
  CHECK(d.Cql("CREATE TABLE ks.t (k text, c int, v text, PRIMARY KEY (k, c));", &transcript) == 0);
  CHECK(transcript == "OK CREATE TABLE ks.t\n");
  CHECK(d.Ls("ks") == Names{"t"});
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/t", &attr) == 0);
  CHECK(S_ISDIR(attr.mode));

  SECTION("a statement that fails fails the write and says why in the transcript") {
    CHECK(d.Cql("CREATE TABLE ks.u (k nosuchtype PRIMARY KEY);", &transcript) == EINVAL);
    CHECK(transcript.rfind("ERROR line 1:", 0) == 0);
    CHECK(d.Ls("ks") == Names{"t"});
  }
  SECTION("a fresh read of @cql shows the schema") {
    CHECK(d.Cat("@cql").find("CREATE TABLE ks.t") != std::string::npos);
  }
  SECTION("DROP TABLE through @cql tells the kernel to forget the table's name") {
    uint64_t keyspace = 0;
    REQUIRE(d.Resolve("ks", &keyspace) == 0);
    d.notifier().Clear();
    CHECK(d.Cql("DROP TABLE ks.t;", &transcript) == 0);
    CHECK(transcript == "OK DROP TABLE ks.t\n");
    CHECK(d.notifier().SawEntry(keyspace, "t"));
    CHECK_FALSE(d.Exists("ks/t"));
  }
}

TEST_CASE(
    "mkdir -p of partition and row: a clustered partition stores nothing but stays "
    "visible while the kernel holds it",
    "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/t/p1") == 0);
  CHECK(d.Exists("ks/t/p1"));
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/t/p1", &attr) == 0);
  CHECK(S_ISDIR(attr.mode));
  CHECK(d.Ls("ks/t").empty());  // nothing stored
  CHECK(d.Ls("ks/t/p1").empty());

  SECTION("a row under it stores a row marker that outlives the kernel's caches") {
    REQUIRE(d.Mkdir("ks/t/p1/1") == 0);
    CHECK(d.Exists("ks/t/p1/1"));
    CHECK(d.Ls("ks/t") == Names{"p1"});
    CHECK(d.Ls("ks/t/p1") == Names{"1"});
    d.DropCaches();
    CHECK(d.Exists("ks/t/p1/1"));
    CHECK(d.Ls("ks/t/p1") == Names{"1"});
  }
  SECTION("an empty partition goes when the kernel forgets it") {
    d.DropCaches();
    CHECK_FALSE(d.Exists("ks/t/p1"));
  }
  SECTION("a partition of a table without clustering columns stores its row at mkdir") {
    REQUIRE(d.Mkdir("ks/flat/x") == 0);
    d.DropCaches();
    CHECK(d.Ls("ks/flat") == Names{"x"});
    CHECK(d.Ls("ks/flat/x").empty());
  }
  SECTION("mkdir where no key lives is refused") {
    CHECK(d.Mkdir("ks/t2") == EOPNOTSUPP);  // tables come from CREATE TABLE
    CHECK(d.Mkdir("ks/t/p1/v") != 0);       // a column's name is no row key
  }
}

// ---------------------------------------------------------------- cells

TEST_CASE("a text cell reads back with one trailing newline and stat gives the read length",
          "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  const std::string cell = "ks/t/p/1/v";
  auto written = [&](const std::string& text, size_t chunk) {
    REQUIRE(d.Write(cell, text, FsDriver::kWriteFlags, chunk) == 0);
    std::string content = d.Cat(cell);
    fs::NodeAttr attr;
    REQUIRE(d.Stat(cell, &attr) == 0);
    CHECK(S_ISREG(attr.mode));
    CHECK(attr.size == content.size());
    return content;
  };
  const size_t whole = std::string::npos;
  CHECK(written("hello\n", whole) == "hello\n");
  CHECK(written("hello", whole) == "hello\n");
  CHECK(written("a\n\n", whole) == "a\n\n");
  CHECK(written("", whole) == "\n");
  CHECK(written("written a byte at a time\n", 1) == "written a byte at a time\n");
  CHECK(written("h\xC3\xA9llo\n", 2) == "h\xC3\xA9llo\n");  // a character split across writes
  CHECK(d.Cat("ks/t/p/1/@json").find("\"v\": \"h\xC3\xA9llo\"") != std::string::npos);
  CHECK(d.Ls("ks/t/p/1") == Names{"v"});
}

TEST_CASE("a value that does not parse fails the write itself with EINVAL and stores nothing",
          "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  SECTION("a new int cell") {
    CHECK(d.Write("ks/t/p/1/n", "12x\n") == EINVAL);
    CHECK(d.last_step() == "write");
    CHECK_FALSE(d.Exists("ks/t/p/1/n"));
    CHECK(d.Ls("ks/t/p/1").empty());
  }
  SECTION("an existing int cell keeps its value") {
    Put(d, "ks/t/p/1/n", "42\n");
    CHECK(d.Cat("ks/t/p/1/n") == "42\n");
    CHECK(d.Write("ks/t/p/1/n", "4.5\n") == EINVAL);
    CHECK(d.last_step() == "write");
    CHECK(d.Cat("ks/t/p/1/n") == "42\n");
    CHECK(d.Write("ks/t/p/1/n", "2147483648\n") == EINVAL);  // out of int's range
    CHECK(d.Cat("ks/t/p/1/n") == "42\n");
  }
  SECTION("text that is not UTF-8") {
    CHECK(d.Write("ks/t/p/1/v", "bad \xFF byte\n") == EINVAL);
    CHECK(d.last_step() == "write");
  }
  SECTION("a set literal that does not parse") {
    CHECK(d.Write("ks/t/p/1/tags", "{'a', 3\n") == EINVAL);
    CHECK_FALSE(d.Exists("ks/t/p/1/tags"));
  }
}

TEST_CASE("a typed value that arrives in several write() calls is judged whole", "[filesystem]") {
  // The kernel splits a large write into several requests; a literal that
  // is still incomplete must not fail the first of them.
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  std::string content;
  CHECK(d.Write("ks/t/p/1/tags", "{'alpha', 'beta', 'gamma'}\n", FsDriver::kWriteFlags, 4) == 0);
  CHECK(d.Read("ks/t/p/1/tags", &content) == 0);
  CHECK(content == "{'alpha', 'beta', 'gamma'}\n");
  CHECK(d.Write("ks/t/p/1/n", "-12345\n", FsDriver::kWriteFlags, 1) == 0);
  CHECK(d.Read("ks/t/p/1/n", &content) == 0);
  CHECK(content == "-12345\n");
  CHECK(d.Write("ks/t/p/1/n", "12x\n", FsDriver::kWriteFlags, 2) == EINVAL);  // still refused
  CHECK(d.last_step() == "write");
}

TEST_CASE("blob cells are raw bytes both ways", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  const std::string bytes("\x00\x01\xFF\n", 4);
  Put(d, "ks/t/p/1/b", bytes);
  CHECK(d.Cat("ks/t/p/1/b") == bytes);
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/t/p/1/b", &attr) == 0);
  CHECK(attr.size == 4);
  CHECK(d.Cat("ks/t/p/1/@json").find(R"("b": "0x0001ff0a")") != std::string::npos);
  SECTION("an empty blob is a value, not an absence") {
    Put(d, "ks/t/p/1/b", "");
    CHECK(d.Cat("ks/t/p/1/b").empty());
    CHECK(d.Ls("ks/t/p/1") == Names{"b"});
  }
}

TEST_CASE("a counter file adds what is written to it", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/hits/a") == 0);
  Put(d, "ks/hits/a/n", "1\n");
  Put(d, "ks/hits/a/n", "1\n");
  CHECK(d.Cat("ks/hits/a/n") == "2\n");
  Put(d, "ks/hits/a/n", "-5\n");
  CHECK(d.Cat("ks/hits/a/n") == "-3\n");
  CHECK(d.Write("ks/hits/a/n", "x\n") == EINVAL);
  CHECK(d.last_step() == "write");
  CHECK(d.Write("ks/hits/a/n", "1.5\n") == EINVAL);
  CHECK(d.Cat("ks/hits/a/n") == "-3\n");
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/hits/a/n", &attr) == 0);
  CHECK(attr.size == 3);
  d.DropCaches();
  CHECK(d.Ls("ks/hits") == Names{"a"});
  CHECK(d.Cat("ks/hits/@json") == "{\"k\": \"a\", \"n\": -3}\n");
}

TEST_CASE("a counter row of a clustered table is made by mkdir -p and counts", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/cc/p/1");
  CHECK(d.Exists("ks/cc/p/1"));  // counter rows have no marker: held, not stored
  Put(d, "ks/cc/p/1/n", "5\n");
  Put(d, "ks/cc/p/1/n", "5\n");
  CHECK(d.Cat("ks/cc/p/1/n") == "10\n");
  d.DropCaches();
  CHECK(d.Ls("ks/cc/p") == Names{"1"});
  CHECK(d.Mkdir("ks/cc/p/2@ttl=5") == EINVAL);  // counters take no TTL
}

TEST_CASE("O_APPEND to a set column merges the sets", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  Put(d, "ks/t/p/1/tags", "{'b'}\n");
  CHECK(d.Append("ks/t/p/1/tags", "{'a', 'b'}\n") == 0);
  CHECK(d.Cat("ks/t/p/1/tags") == "{'a', 'b'}\n");
  SECTION("appending to an absent set creates it") {
    CHECK(d.Append("ks/t/p/2/tags", "{'z'}\n") == ENOENT);  // no row 2 directory yet
    REQUIRE(d.Mkdir("ks/t/p/2") == 0);
    CHECK(d.Append("ks/t/p/2/tags", "{'z'}\n") == 0);
    CHECK(d.Cat("ks/t/p/2/tags") == "{'z'}\n");
  }
  SECTION("appending to an int means nothing") {
    Put(d, "ks/t/p/1/n", "1\n");
    CHECK(d.Append("ks/t/p/1/n", "2\n") == EINVAL);
    CHECK(d.Cat("ks/t/p/1/n") == "1\n");
  }
}

TEST_CASE("O_APPEND to a text cell is a Unix append of the file's lines", "[filesystem]") {
  // echo hello > v; echo world >> v; cat v  prints two lines.
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  Put(d, "ks/t/p/1/v", "hello\n");
  CHECK(d.Append("ks/t/p/1/v", "world\n") == 0);
  CHECK(d.Cat("ks/t/p/1/v") == "hello\nworld\n");
}

// ---------------------------------------------------------------- TTL

TEST_CASE("a cell written as col@ttl=N is listed as col and gone once the TTL passes",
          "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  Put(d, "ks/t/p/1/v@ttl=60", "x\n");
  CHECK(d.Ls("ks/t/p/1") == Names{"v"});
  CHECK(d.Cat("ks/t/p/1/v") == "x\n");
  std::string ttl;
  CHECK(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &ttl) == 0);
  CHECK(ttl == "60");

  uint64_t row = 0;
  REQUIRE(d.Resolve("ks/t/p/1", &row) == 0);
  fs::Entry entry;
  REQUIRE(d.fs().Lookup(row, "v", &entry) == 0);
  CHECK(entry.entry_timeout > 0);
  CHECK(entry.entry_timeout <= 60);
  CHECK(entry.attr_timeout <= 60);

  d.clock().AdvanceSeconds(59);
  CHECK(d.Exists("ks/t/p/1/v"));
  d.clock().AdvanceSeconds(2);
  fs::NodeAttr attr;
  CHECK(d.Stat("ks/t/p/1/v", &attr) == ENOENT);
  double timeout = 0;
  // The held inode: ESTALE, so that the VFS walks the path again with
  // fresh lookups (stat then says ENOENT, open(O_CREAT) creates).
  CHECK(d.fs().GetAttr(entry.attr.inode, &attr, &timeout) == ESTALE);
  d.fs().Forget(entry.attr.inode, 1);
  CHECK(d.Ls("ks/t/p/1").empty());
  CHECK(d.Exists("ks/t/p/1"));  // its row marker has no TTL
}

TEST_CASE("writing col@ttl=N over an existing cell gives it that TTL", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  Put(d, "ks/t/p/1/v", "a\n");
  Put(d, "ks/t/p/1/v@ttl=10", "b\n");
  CHECK(d.Cat("ks/t/p/1/v") == "b\n");
  std::string ttl;
  REQUIRE(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &ttl) == 0);
  CHECK(ttl == "10");
  CHECK(d.Ls("ks/t/p/1") == Names{"v"});
  d.clock().AdvanceSeconds(11);
  CHECK_FALSE(d.Exists("ks/t/p/1/v"));
}

TEST_CASE("a table's default_time_to_live applies unless the name says @ttl=0", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/dt/p") == 0);
  Put(d, "ks/dt/p/v", "expires\n");
  Put(d, "ks/dt/p/w@ttl=0", "stays\n");
  std::string ttl;
  REQUIRE(d.GetXattr("ks/dt/p/v", "user.cellfs.ttl", &ttl) == 0);
  CHECK(ttl == "10");
  CHECK(d.GetXattr("ks/dt/p/w", "user.cellfs.ttl", &ttl) == ENODATA);
  d.clock().AdvanceSeconds(11);
  CHECK_FALSE(d.Exists("ks/dt/p/v"));
  CHECK(d.Cat("ks/dt/p/w") == "stays\n");
  CHECK(d.Ls("ks/dt/p") == Names{"w"});
}

TEST_CASE("mkdir of row@ttl=N makes a row that disappears after N seconds", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/t/p") == 0);
  REQUIRE(d.Mkdir("ks/t/p/7@ttl=30") == 0);
  CHECK(d.Mkdir("ks/t/p/8@ttl=x") == EINVAL);
  CHECK(d.Mkdir("ks/t/p/8@ttl=630720001") == EINVAL);
  CHECK(d.Ls("ks/t/p") == Names{"7"});
  CHECK(d.Exists("ks/t/p/7"));
  d.clock().AdvanceSeconds(31);
  CHECK(d.Ls("ks/t/p").empty());
  CHECK_FALSE(d.Exists("ks/t/p/7"));
  d.DropCaches();
  CHECK(d.Ls("ks/t").empty());  // its partition went with it
}

// ---------------------------------------------------------------- listings

TEST_CASE("listings come in the engine's order and never show virtual names", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  SECTION("rows of an ASC int column in numeric order") {
    MkdirP(d, "ks/t/p");
    for (const char* key : {"10", "9", "100", "-1"})
      REQUIRE(d.Mkdir(std::string("ks/t/p/") + key) == 0);
    CHECK(d.Ls("ks/t/p") == Names{"-1", "9", "10", "100"});
    CHECK(d.Ls("ks/t/p", true) == Names{"-1", "9", "10", "100"});
  }
  SECTION("a DESC clustering column lists newest first") {
    MkdirP(d, "ks/ev/p");
    for (const char* key : {"1", "3", "2", "10"})
      REQUIRE(d.Mkdir(std::string("ks/ev/p/") + key) == 0);
    CHECK(d.Ls("ks/ev/p") == Names{"10", "3", "2", "1"});
    CHECK(d.Ls("ks/ev/p", true) == Names{"10", "3", "2", "1"});
  }
  SECTION("partitions in token order, as the engine's partition iterator returns them") {
    for (int i = 0; i < 20; ++i) REQUIRE(d.Mkdir("ks/flat/key" + std::to_string(i)) == 0);
    Names expected;
    ReadView view = d.engine().NewReadView();
    TableHandle table = d.test_engine().Table("ks", "flat");
    for (auto it = view.NewPartitionIterator(table); it->Valid(); it->Next()) {
      std::vector<std::string> key;
      REQUIRE(it->DecodePartitionKey(&key).ok());
      expected.push_back(key[0]);
    }
    REQUIRE(expected.size() == 20);
    Names listed = d.Ls("ks/flat");
    CHECK(listed == expected);
    CHECK(d.Ls("ks/flat", true) == expected);
    CHECK_FALSE(std::is_sorted(listed.begin(), listed.end()));  // not by name
    int64_t previous = INT64_MIN;
    for (const std::string& name : listed) {
      std::string token;
      REQUIRE(d.GetXattr("ks/flat/" + name, "user.cellfs.token", &token) == 0);
      CHECK(AsInt(token) > previous);
      previous = AsInt(token);
    }
  }
  SECTION("a partition lists its static-free rows and a row its cells, no @ names") {
    MkdirP(d, "ks/t/p/1");
    Put(d, "ks/t/p/1/v", "x\n");
    Put(d, "ks/t/p/1/n", "1\n");
    CHECK(d.Ls("ks/t/p/1") == Names{"n", "v"});  // schema order: regular columns by name
    for (const char* dir : {"", "ks", "ks/t", "ks/t/p", "ks/t/p/1"}) {
      for (const std::string& name : d.Ls(dir, true)) CHECK(name[0] != '@');
    }
  }
}

TEST_CASE("a listing read in small chunks yields each entry exactly once", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MakeRows(d, "ks/t/p", 30);
  const Names full = d.Ls("ks/t/p");
  REQUIRE(full == Range(1, 30));
  for (bool plus : {false, true}) {
    for (size_t chunk : {size_t{1}, size_t{2}, size_t{3}, size_t{7}}) {
      INFO("plus " << plus << " chunk " << chunk);
      std::vector<Listed> listed;
      ListOptions options;
      options.plus = plus;
      options.chunk = chunk;
      options.include_dots = true;
      REQUIRE(d.List("ks/t/p", &listed, options) == 0);
      Names names = NamesOf(listed);
      REQUIRE(names.size() >= 2);
      CHECK(names[0] == ".");
      CHECK(names[1] == "..");
      CHECK(Names(names.begin() + 2, names.end()) == full);
      std::set<uint64_t> offsets;
      for (const Listed& entry : listed) offsets.insert(entry.next_offset);
      CHECK(offsets.size() == listed.size());  // every entry has its own offset
      CHECK(offsets.count(0) == 0);            // 0 means the start
      if (plus) {
        for (size_t i = 2; i < listed.size(); ++i) {
          uint64_t inode = 0;
          REQUIRE(d.Resolve("ks/t/p/" + listed[i].name, &inode) == 0);
          CHECK(listed[i].inode == inode);
        }
      }
    }
  }
  SECTION("refused readdirplus entries give their lookup back") {
    d.DropCaches();
    CHECK(d.fs().inodes().size() == 1);
  }
  SECTION("a table's partitions, a row's cells and the keyspaces too") {
    for (int i = 0; i < 12; ++i) REQUIRE(d.Mkdir("ks/flat/key" + std::to_string(i)) == 0);
    Put(d, "ks/t/p/1/v", "x\n");
    Put(d, "ks/t/p/1/n", "1\n");
    Put(d, "ks/t/p/1/b", "");
    REQUIRE(d.Mkdir("ks2") == 0);
    for (const char* dir : {"ks/flat", "ks/t/p/1", "", "ks"}) {
      const Names whole = d.Ls(dir);
      for (bool plus : {false, true}) {
        INFO(dir << " plus " << plus);
        std::vector<Listed> listed;
        REQUIRE(d.List(dir, &listed, ListOptions{plus, 2, false, {}}) == 0);
        CHECK(NamesOf(listed) == whole);
      }
    }
  }
}

TEST_CASE("entries written or removed while a listing is read in chunks do not break it",
          "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MakeRows(d, "ks/t/p", 20);
  const Names full = d.Ls("ks/t/p");
  for (bool plus : {false, true}) {
    for (size_t chunk : {size_t{1}, size_t{3}}) {
      INFO("plus " << plus << " chunk " << chunk);
      int round = 0;
      std::set<std::string> removed;
      ListOptions options;
      options.plus = plus;
      options.chunk = chunk;
      options.between_chunks = [&] {
        ++round;
        std::string before =
            "-" + std::to_string(1000 * (plus ? 2 : 1) + 10 * static_cast<int>(chunk) + round);
        std::string after =
            std::to_string(1000 * (plus ? 2 : 1) + 10 * static_cast<int>(chunk) + round + 100);
        REQUIRE(d.Mkdir("ks/t/p/" + before) == 0);
        REQUIRE(d.Mkdir("ks/t/p/" + after) == 0);
        if (round == 2) {  // one not listed yet goes
          REQUIRE(d.Rmdir("ks/t/p/15") == 0);
          removed.insert("15");
        }
      };
      std::vector<Listed> listed;
      REQUIRE(d.List("ks/t/p", &listed, options) == 0);
      Names names = NamesOf(listed);
      std::set<std::string> unique(names.begin(), names.end());
      CHECK(unique.size() == names.size());  // nothing twice
      for (const std::string& name : full) {
        if (removed.count(name) == 0) CHECK(unique.count(name) == 1);  // nothing skipped
      }
      if (removed.count("15") != 0) REQUIRE(d.Mkdir("ks/t/p/15") == 0);
    }
  }
}

TEST_CASE(
    "seekdir to an offset the listing gave continues after that entry though entries "
    "came meanwhile",
    "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MakeRows(d, "ks/t/p", 10);
  uint64_t inode = 0;
  REQUIRE(d.Resolve("ks/t/p", &inode) == 0);
  uint64_t handle = 0;
  REQUIRE(d.fs().OpenDir(inode, &handle) == 0);
  std::vector<Listed> listed;
  auto take_all = [&](const fs::DirEntry& entry) {
    listed.push_back(Listed{std::string(entry.name), entry.next_offset, 0, 0, 0, 0});
    return true;
  };
  REQUIRE(d.fs().ReadDir(handle, 0, false, take_all) == 0);
  REQUIRE(listed.size() == 12);  // . .. 1..10
  REQUIRE(listed[6].name == "5");
  REQUIRE(d.Mkdir("ks/t/p/-1") == 0);  // sorts before every listed row
  std::string next;
  REQUIRE(d.fs().ReadDir(handle, listed[6].next_offset, false, [&](const fs::DirEntry& entry) {
    next = std::string(entry.name);
    return false;
  }) == 0);
  CHECK(next == "6");
  d.fs().ReleaseDir(handle);
}

// ---------------------------------------------------------------- slices

TEST_CASE("slice directories bound, limit and reverse a partition's rows, nested as AND",
          "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MakeRows(d, "ks/t/p", 10);
  const std::string p = "ks/t/p/";
  CHECK(d.Ls(p + "@ge=3/@lt=8") == Range(3, 7));
  CHECK(d.Ls(p + "@gt=3/@le=8") == Range(4, 8));
  CHECK(d.Ls(p + "@ge=3/@lt=8/@limit=2") == Names{"3", "4"});
  CHECK(d.Ls(p + "@limit=2/@ge=3") == Names{"3", "4"});
  CHECK(d.Ls(p + "@ge=3/@lt=8/@reverse") == Range(7, 3, -1));
  CHECK(d.Ls(p + "@reverse/@limit=2") == Names{"10", "9"});
  CHECK(d.Ls(p + "@ge=3/@ge=5") == Range(5, 10));
  CHECK(d.Ls(p + "@ge=3/@lt=8/@reverse", true) == Range(7, 3, -1));
  CHECK(d.Ls(p + "@ge=9") == Names{"9", "10"});
  SECTION("rows and their cells resolve through a slice") {
    Put(d, p + "5/v", "five\n");
    CHECK(d.Cat(p + "@ge=3/@lt=8/5/v") == "five\n");
    CHECK(d.Ls(p + "@ge=3/5") == Names{"v"});
  }
  SECTION("a slice has its own @json and @csv") {
    std::string json = d.Cat(p + "@ge=9/@json");
    CHECK(json ==
          "{\"k\": \"p\", \"c\": 9, \"b\": null, \"n\": null, \"tags\": null, \"v\": null}\n"
          "{\"k\": \"p\", \"c\": 10, \"b\": null, \"n\": null, \"tags\": null, \"v\": null}\n");
    std::string csv = d.Cat(p + "@gt=8/@reverse/@csv");
    CHECK(csv == "k,c,b,n,tags,v\np,10,,,,\np,9,,,,\n");
  }
  SECTION("a DESC table's slice keeps its order") {
    MakeRows(d, "ks/ev/q", 5);
    CHECK(d.Ls("ks/ev/q/@ge=2") == Names{"5", "4", "3", "2"});
    CHECK(d.Ls("ks/ev/q/@ge=2/@reverse") == Names{"2", "3", "4", "5"});
  }
  SECTION("bad slice names") {
    fs::NodeAttr attr;
    CHECK(d.Stat(p + "@limit=0", &attr) == EINVAL);
    CHECK(d.Stat(p + "@limit=abc", &attr) == EINVAL);
    CHECK(d.Stat(p + "@nope", &attr) == ENOENT);
    std::vector<Listed> listed;
    CHECK(d.List(p + "@ge=abc", &listed) == EINVAL);  // not an int
    CHECK(d.Stat("ks/flat/@ge=1", &attr) == ENOENT);  // no clustering columns
  }
}

// ---------------------------------------------------------------- static columns

TEST_CASE("static cells live in the partition directory, listed before its rows", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/st/p") == 0);
  Put(d, "ks/st/p/s", "shared\n");
  d.DropCaches();
  CHECK(d.Ls("ks/st") == Names{"p"});  // a live static cell keeps the partition
  CHECK(d.Ls("ks/st/p") == Names{"s"});
  CHECK(d.Cat("ks/st/p/s") == "shared\n");
  CHECK(d.Cat("ks/st/p/@json") == R"({"k": "p", "c": null, "s": "shared", "v": null})"
                                  "\n");
  MkdirP(d, "ks/st/p/2");
  MkdirP(d, "ks/st/p/1");
  Put(d, "ks/st/p/1/v", "one\n");
  CHECK(d.Ls("ks/st/p") == Names{"s", "1", "2"});
  CHECK(d.Ls("ks/st/p", true) == Names{"s", "1", "2"});
  CHECK(d.Ls("ks/st/p/1") == Names{"v"});  // a row shows its regular cells only
  fs::NodeAttr attr;
  CHECK(d.Stat("ks/st/p/1/s", &attr) == ENOENT);
  CHECK(d.Cat("ks/st/p/1/@json") == R"({"k": "p", "c": 1, "s": "shared", "v": "one"})"
                                    "\n");
  CHECK(d.Cat("ks/st/p/@ge=2/@json") == R"({"k": "p", "c": 2, "s": "shared", "v": null})"
                                        "\n");
  CHECK(d.Ls("ks/st/p/@ge=1") == Names{"1", "2"});  // a slice lists rows only
  SECTION("rm of a static cell") {
    CHECK(d.Rm("ks/st/p/s") == 0);
    CHECK(d.Ls("ks/st/p") == Names{"1", "2"});
    CHECK(d.Cat("ks/st/p/1/@json") == R"({"k": "p", "c": 1, "s": null, "v": "one"})"
                                      "\n");
  }
  SECTION("a static cell with a TTL") {
    Put(d, "ks/st/p/s@ttl=5", "brief\n");
    CHECK(d.Ls("ks/st/p") == Names{"s", "1", "2"});
    d.clock().AdvanceSeconds(6);
    CHECK(d.Ls("ks/st/p") == Names{"1", "2"});
  }
}

// ---------------------------------------------------------------- @json @csv @schema

TEST_CASE("@json and @csv show a row, a partition and a table", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/j/p1/1");
  MkdirP(d, "ks/j/p1/2");
  MkdirP(d, "ks/j/p2/1");
  Put(d, "ks/j/p1/1/a", "x\n");
  Put(d, "ks/j/p1/1/b", "5\n");
  Put(d, "ks/j/p1/2/a", "y, \"quoted\"\n");
  Put(d, "ks/j/p2/1/a", "z\n");
  const std::string row11 = R"({"k": "p1", "c": 1, "a": "x", "b": 5})"
                            "\n";
  const std::string row12 = R"({"k": "p1", "c": 2, "a": "y, \"quoted\"", "b": null})"
                            "\n";
  const std::string row21 = R"({"k": "p2", "c": 1, "a": "z", "b": null})"
                            "\n";
  CHECK(d.Cat("ks/j/p1/1/@json") == row11);
  CHECK(d.Cat("ks/j/p1/@json") == row11 + row12);
  Names partitions = d.Ls("ks/j");
  REQUIRE(partitions.size() == 2);
  CHECK(d.Cat("ks/j/@json") ==
        (partitions[0] == "p1" ? row11 + row12 + row21 : row21 + row11 + row12));
  const std::string csv_p1 = "k,c,a,b\np1,1,x,5\np1,2,\"y, \"\"quoted\"\"\",\n";
  CHECK(d.Cat("ks/j/p1/@csv") == csv_p1);
  std::string table_csv = d.Cat("ks/j/@csv");
  CHECK(table_csv.rfind("k,c,a,b\n", 0) == 0);
  CHECK(table_csv.size() == csv_p1.size() + std::string("p2,1,z,\n").size());

  SECTION("read in small pieces, the exports are the same") {
    for (size_t chunk : {size_t{1}, size_t{3}, size_t{50}}) {
      std::string piecewise;
      REQUIRE(d.Read("ks/j/@json", &piecewise, chunk) == 0);
      CHECK(piecewise == d.Cat("ks/j/@json"));
      REQUIRE(d.Read("ks/j/p1/@csv", &piecewise, chunk) == 0);
      CHECK(piecewise == csv_p1);
    }
  }
  SECTION("exports are read-only files") {
    fs::NodeAttr attr;
    REQUIRE(d.Stat("ks/j/p1/@json", &attr) == 0);
    CHECK(S_ISREG(attr.mode));
    CHECK(d.Write("ks/j/p1/@json", "{}") == EACCES);
    CHECK(d.Write("ks/j/@csv", "k,c\n") == EACCES);
  }
  SECTION("the partition of a table without clustering columns") {
    REQUIRE(d.Mkdir("ks/flat/f") == 0);
    Put(d, "ks/flat/f/v", "hi\n");
    CHECK(d.Cat("ks/flat/f/@json") == R"({"k": "f", "n": null, "v": "hi"})"
                                      "\n");
    CHECK(d.Cat("ks/flat/@csv") == "k,n,v\nf,,hi\n");
  }
}

TEST_CASE("writing a row's @json changes the columns it names; null deletes", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/j/p/1");
  Put(d, "ks/j/p/1/a", "x\n");
  Put(d, "ks/j/p/1/b", "5\n");
  CHECK(d.Write("ks/j/p/1/@json", R"({"a": "changed"})") == 0);
  CHECK(d.Cat("ks/j/p/1/a") == "changed\n");
  CHECK(d.Cat("ks/j/p/1/b") == "5\n");
  CHECK(d.Write("ks/j/p/1/@json", R"({"b": null})") == 0);
  CHECK_FALSE(d.Exists("ks/j/p/1/b"));
  CHECK(d.Ls("ks/j/p/1") == Names{"a"});
  CHECK(d.Write("ks/j/p/1/@json", R"({"k": "p", "c": 1, "b": 7})", FsDriver::kWriteFlags, 3) == 0);
  CHECK(d.Cat("ks/j/p/1/b") == "7\n");
  CHECK(d.Cat("ks/j/p/1/@json") == R"({"k": "p", "c": 1, "a": "changed", "b": 7})"
                                   "\n");
  SECTION("a bad object fails the write and changes nothing") {
    CHECK(d.Write("ks/j/p/1/@json", R"({"b": "abc"})") == EINVAL);
    CHECK(d.last_step() == "write");
    CHECK(d.Write("ks/j/p/1/@json", R"({"nope": 1})") == EINVAL);
    CHECK(d.last_step() == "write");
    CHECK(d.Write("ks/j/p/1/@json", R"({"c": 2, "b": 1})") == EINVAL);  // another row's key
    CHECK(d.Cat("ks/j/p/1/b") == "7\n");
  }
  SECTION("the partition @json of a table without clustering columns is writable") {
    REQUIRE(d.Mkdir("ks/flat/f") == 0);
    CHECK(d.Write("ks/flat/f/@json", R"({"v": "hi", "n": 3})") == 0);
    CHECK(d.Cat("ks/flat/f/v") == "hi\n");
    CHECK(d.Cat("ks/flat/f/n") == "3\n");
  }
}

TEST_CASE("@schema shows DESCRIBE text, its size is its length, and it cannot be written",
          "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  std::shared_ptr<const Catalog> catalog = d.engine().catalog();
  const std::string table_text = DescribeTable(d.test_engine().Table("ks", "t")->def);
  CHECK(d.Cat("ks/t/@schema") == table_text);
  CHECK(table_text.find("CREATE TABLE ks.t") != std::string::npos);
  const std::string keyspace_text = DescribeKeyspace(*catalog->FindKeyspace("ks"));
  CHECK(d.Cat("ks/@schema") == keyspace_text);
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/t/@schema", &attr) == 0);
  CHECK(attr.size == table_text.size());
  CHECK((attr.mode & 0222) == 0);
  REQUIRE(d.Stat("ks/@schema", &attr) == 0);
  CHECK(attr.size == keyspace_text.size());
  CHECK(d.Write("ks/t/@schema", "x") == EACCES);
  CHECK(d.Ls("ks/t").empty());
}

// ---------------------------------------------------------------- stat, xattrs

TEST_CASE("stat tells the truth: sizes are read lengths and mtime is the write time",
          "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  REQUIRE(d.Mkdir("ks/hits/h") == 0);
  const int64_t t0 = 1'800'000'000'000'000;
  d.clock().Set(t0);
  Put(d, "ks/t/p/1/v", "some text\n");
  Put(d, "ks/t/p/1/n", "-42\n");
  Put(d, "ks/t/p/1/b", std::string("\x01\x02", 2));
  Put(d, "ks/t/p/1/tags", "{'z', 'a'}\n");
  Put(d, "ks/hits/h/n", "12\n");
  for (const std::string cell :
       {"ks/t/p/1/v", "ks/t/p/1/n", "ks/t/p/1/b", "ks/t/p/1/tags", "ks/hits/h/n"}) {
    INFO(cell);
    fs::NodeAttr attr;
    REQUIRE(d.Stat(cell, &attr) == 0);
    CHECK(attr.size == d.Cat(cell).size());
    CHECK(attr.mtime_micros >= t0);
    CHECK(attr.mtime_micros < t0 + 1000);
    std::string writetime;
    if (cell != "ks/hits/h/n") {
      REQUIRE(d.GetXattr(cell, "user.cellfs.writetime", &writetime) == 0);
      CHECK(AsInt(writetime) == attr.mtime_micros);
    }
  }
  SECTION("readdirplus tells the same truth") {
    std::vector<Listed> listed;
    ListOptions options;
    options.plus = true;
    REQUIRE(d.List("ks/t/p/1", &listed, options) == 0);
    REQUIRE(listed.size() == 4);
    for (const Listed& entry : listed) {
      INFO(entry.name);
      fs::NodeAttr attr;
      REQUIRE(d.Stat("ks/t/p/1/" + entry.name, &attr) == 0);
      CHECK(S_ISREG(entry.mode));
      CHECK(entry.size == d.Cat("ks/t/p/1/" + entry.name).size());
      CHECK(entry.mtime_micros == attr.mtime_micros);
      CHECK(entry.inode == attr.inode);
    }
  }
  SECTION("a later write moves mtime, and the row's mtime is its newest write") {
    d.clock().AdvanceSeconds(5);
    Put(d, "ks/t/p/1/v", "newer\n");
    fs::NodeAttr cell, row;
    REQUIRE(d.Stat("ks/t/p/1/v", &cell) == 0);
    CHECK(cell.mtime_micros >= t0 + 5'000'000);
    REQUIRE(d.Stat("ks/t/p/1", &row) == 0);
    CHECK(S_ISDIR(row.mode));
    CHECK(row.mtime_micros == cell.mtime_micros);
  }
  SECTION("col@timestamp=T writes at T") {
    Put(d, "ks/t/p/1/v@timestamp=1900000000000000", "later\n");
    fs::NodeAttr attr;
    REQUIRE(d.Stat("ks/t/p/1/v", &attr) == 0);
    CHECK(attr.mtime_micros == 1'900'000'000'000'000);
    CHECK(d.Cat("ks/t/p/1/v") == "later\n");
    CHECK(d.Ls("ks/t/p/1") == Names{"b", "n", "tags", "v"});
    // An older timestamp loses to the newer write, as in Cassandra.
    Put(d, "ks/t/p/1/v@timestamp=1000", "stale\n");
    CHECK(d.Cat("ks/t/p/1/v") == "later\n");
  }
}

TEST_CASE("xattrs give a cell's ttl and writetime and a partition's token", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  Put(d, "ks/t/p/1/v", "forever\n");
  Put(d, "ks/t/p/1/n@ttl=60", "1\n");
  std::string value;
  std::vector<std::string> names;
  CHECK(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &value) == ENODATA);
  REQUIRE(d.ListXattr("ks/t/p/1/v", &names) == 0);
  CHECK(names == Names{"user.cellfs.writetime"});
  REQUIRE(d.ListXattr("ks/t/p/1/n", &names) == 0);
  CHECK(std::set<std::string>(names.begin(), names.end()) ==
        std::set<std::string>{"user.cellfs.ttl", "user.cellfs.writetime"});
  REQUIRE(d.GetXattr("ks/t/p/1/n", "user.cellfs.ttl", &value) == 0);
  CHECK(value == "60");
  d.clock().AdvanceSeconds(10);
  REQUIRE(d.GetXattr("ks/t/p/1/n", "user.cellfs.ttl", &value) == 0);
  CHECK(value == "50");
  CHECK(d.GetXattr("ks/t/p/1/n", "user.other", &value) == ENODATA);

  SECTION("a partition's token is the engine's") {
    REQUIRE(d.GetXattr("ks/t/p", "user.cellfs.token", &value) == 0);
    ReadView view = d.engine().NewReadView();
    auto token = view.Token(d.test_engine().Table("ks", "t"), std::vector<std::string>{"p"});
    REQUIRE(token.ok());
    CHECK(value == std::to_string(token.value()));
    REQUIRE(d.ListXattr("ks/t/p", &names) == 0);
    CHECK(names == Names{"user.cellfs.token"});
  }
  SECTION("setting user.cellfs.ttl rewrites the cell with that TTL") {
    uint64_t inode = 0;
    REQUIRE(d.Resolve("ks/t/p/1/v", &inode) == 0);
    d.notifier().Clear();
    CHECK(d.SetXattr("ks/t/p/1/v", "user.cellfs.ttl", "5") == 0);
    CHECK(d.notifier().SawInode(inode));
    REQUIRE(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &value) == 0);
    CHECK(value == "5");
    CHECK(d.Cat("ks/t/p/1/v") == "forever\n");
    d.clock().AdvanceSeconds(6);
    CHECK_FALSE(d.Exists("ks/t/p/1/v"));
  }
  SECTION("a TTL of 0 makes the cell permanent again") {
    CHECK(d.SetXattr("ks/t/p/1/n", "user.cellfs.ttl", "0") == 0);
    CHECK(d.GetXattr("ks/t/p/1/n", "user.cellfs.ttl", &value) == ENODATA);
    d.clock().AdvanceSeconds(3600);
    CHECK(d.Cat("ks/t/p/1/n") == "1\n");
  }
  SECTION("what cannot be set") {
    CHECK(d.SetXattr("ks/t/p/1/v", "user.cellfs.ttl", "abc") == EINVAL);
    CHECK(d.SetXattr("ks/t/p/1/v", "user.cellfs.ttl", "-1") == EINVAL);
    CHECK(d.SetXattr("ks/t/p/1/v", "user.cellfs.writetime", "1") == EPERM);
    REQUIRE(d.Mkdir("ks/hits/h") == 0);
    Put(d, "ks/hits/h/n", "1\n");
    CHECK(d.SetXattr("ks/hits/h/n", "user.cellfs.ttl", "5") == EINVAL);  // counters have no TTL
    CHECK(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &value) == ENODATA);
  }
}

// ---------------------------------------------------------------- removal

TEST_CASE("rmdir drops an empty table or keyspace and refuses one with data", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  CHECK(d.Rmdir("ks/t") == ENOTEMPTY);
  CHECK(d.Rmdir("ks") == ENOTEMPTY);
  CHECK(d.Rmdir("ks/j") == 0);  // empty
  CHECK_FALSE(d.Exists("ks/j"));
  Names tables = d.Ls("ks");
  CHECK(std::find(tables.begin(), tables.end(), "j") == tables.end());
  CHECK(std::find(tables.begin(), tables.end(), "t") != tables.end());
  SECTION("an empty keyspace is dropped") {
    REQUIRE(d.Mkdir("ks2") == 0);
    CHECK(d.Rmdir("ks2") == 0);
    CHECK_FALSE(d.Exists("ks2"));
    CHECK(d.Ls("") == Names{"ks"});
  }
  SECTION("a table whose rows were all removed is empty") {
    REQUIRE(d.Rmdir("ks/t/p/1") == 0);
    CHECK(d.Rmdir("ks/t") == 0);
    CHECK(d.engine().FindTable("ks", "t").status().code() == StatusCode::kNotFound);
  }
}

TEST_CASE("rm of every cell, then rmdir of the row and the partition, empties the partition",
          "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  MkdirP(d, "ks/t/p/2");
  Put(d, "ks/t/p/1/v", "x\n");
  Put(d, "ks/t/p/1/n", "1\n");
  CHECK(d.Rmdir("ks/t/p/1") == ENOTEMPTY);
  CHECK(d.Rmdir("ks/t/p") == ENOTEMPTY);
  CHECK(d.Rm("ks/t/p/1/v") == 0);
  CHECK(d.Rm("ks/t/p/1/n") == 0);
  CHECK(d.Rm("ks/t/p/1/n") == ENOENT);
  CHECK(d.Ls("ks/t/p/1").empty());
  CHECK(d.Rmdir("ks/t/p/1") == 0);
  CHECK(d.Rmdir("ks/t/p/2") == 0);
  CHECK(d.Ls("ks/t/p").empty());
  CHECK(d.Rmdir("ks/t/p") == 0);
  d.DropCaches();
  CHECK_FALSE(d.Exists("ks/t/p"));
  CHECK(d.Ls("ks/t").empty());
  SECTION("the same in a table without clustering columns") {
    REQUIRE(d.Mkdir("ks/flat/f") == 0);
    Put(d, "ks/flat/f/v", "x\n");
    CHECK(d.Rmdir("ks/flat/f") == ENOTEMPTY);
    CHECK(d.Rm("ks/flat/f/v") == 0);
    CHECK(d.Rmdir("ks/flat/f") == 0);
    d.DropCaches();
    CHECK(d.Ls("ks/flat").empty());
  }
  SECTION("rm of a name that is a directory") {
    REQUIRE(d.Mkdir("ks/t/q/1") == ENOENT);  // no mkdir -p in one call
    MkdirP(d, "ks/t/q/1");
    CHECK(d.Rm("ks/t/q/1") == EISDIR);
    CHECK(d.Rm("ks/t/q/@json") == EPERM);
  }
}

// ---------------------------------------------------------------- names

TEST_CASE("hostile names: too long, unparsable, escaped and other spellings", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  fs::NodeAttr attr;
  SECTION("a key name over 255 bytes is ENAMETOOLONG on every path") {
    CHECK(d.Mkdir("ks/flat/" + std::string(255, 'a')) == 0);
    CHECK(d.Mkdir("ks/flat/" + std::string(256, 'a')) == ENAMETOOLONG);
    CHECK(d.Stat("ks/flat/" + std::string(256, 'a'), &attr) == ENAMETOOLONG);
    MkdirP(d, "ks/names/p");
    CHECK(d.Mkdir("ks/names/p/" + std::string(256, 'b')) == ENAMETOOLONG);
    // 100 slashes are 300 bytes once escaped: too long to be listed.
    std::string slashes;
    for (int i = 0; i < 100; ++i) slashes += "%2F";
    CHECK(d.Mkdir("ks/names/p/" + slashes.substr(0, 240)) == 0);  // 80 slashes: 240 bytes
    CHECK(d.Mkdir("ks/flat/" + std::string(300, 'c') + "@ttl=5") == ENAMETOOLONG);
    CHECK(d.Ls("ks/flat") == Names{std::string(255, 'a')});
  }
  SECTION("a key that does not parse for its type is EINVAL") {
    CHECK(d.Mkdir("ks/ints/12x") == EINVAL);
    CHECK(d.Stat("ks/ints/12x", &attr) == EINVAL);
    CHECK(d.Mkdir("ks/ints/99999999999") == EINVAL);
    CHECK(d.Mkdir("ks/flat/bad\xFFutf8") == EINVAL);
    CHECK(d.Mkdir("ks/comp/x") == EINVAL);  // two components wanted
    CHECK(d.Mkdir("ks/comp/x,1,2") == EINVAL);
    CHECK(d.Mkdir("ks/comp/x,1") == 0);
    CHECK(d.Mkdir("ks/flat/a%ZZ") == EINVAL);
    CHECK(d.Ls("ks/ints").empty());
    CHECK(d.Ls("ks/comp") == Names{"x,1"});
  }
  SECTION("escaped characters are stored decoded and listed escaped") {
    REQUIRE(d.Mkdir("ks/flat/a%2Fb") == 0);
    REQUIRE(d.Mkdir("ks/flat/c%2cd") == 0);  // lower-case hex is accepted
    REQUIRE(d.Mkdir("ks/flat/%40at") == 0);
    REQUIRE(d.Mkdir("ks/flat/.dot") == 0);
    REQUIRE(d.Mkdir("ks/flat/100%25") == 0);
    Names listed = d.Ls("ks/flat");
    std::sort(listed.begin(), listed.end());
    CHECK(listed == Names{"%2Edot", "%40at", "100%25", "a%2Fb", "c%2Cd"});
    CHECK(d.Cat("ks/flat/a%2Fb/@json") == R"({"k": "a/b", "n": null, "v": null})"
                                          "\n");
    CHECK(d.Exists("ks/flat/%2Edot"));
    CHECK(d.Exists("ks/flat/c%2Cd"));
    CHECK(d.Mkdir("ks/flat/@x") == EPERM);  // the virtual namespace: no @ name can be made
  }
  SECTION("other CQL spellings of a key find the canonical one") {
    MkdirP(d, "ks/stamps/p");
    REQUIRE(d.Mkdir("ks/stamps/p/2018-07-23 11:04:22.432+0000") == 0);
    CHECK(d.Ls("ks/stamps/p") == Names{"2018-07-23T11:04:22.432Z"});
    CHECK(d.Exists("ks/stamps/p/2018-07-23T11:04:22.432Z"));
    Put(d, "ks/stamps/p/2018-07-23T11:04:22.432Z/v", "same row\n");
    CHECK(d.Cat("ks/stamps/p/2018-07-23 11:04:22.432+0000/v") == "same row\n");
  }
  SECTION("an unknown column is not a file") {
    MkdirP(d, "ks/t/p/1");
    CHECK(d.Stat("ks/t/p/1/nope", &attr) == ENOENT);
    CHECK(d.Stat("ks/t/p/1/k", &attr) == ENOENT);  // key columns are not cells
    CHECK(d.Write("ks/t/p/1/nope", "x\n") != 0);
  }
}

// ---------------------------------------------------------------- read-only

TEST_CASE("a read-only filesystem answers EROFS to every write and still reads", "[filesystem]") {
  FsDriver rw;
  MakeSchema(rw);
  MkdirP(rw, "ks/t/p/1");
  Put(rw, "ks/t/p/1/v", "x\n");
  fs::FilesystemOptions options;
  options.read_only = true;
  FsDriver d(&rw.test_engine(), options);
  CHECK(d.Cat("ks/t/p/1/v") == "x\n");
  CHECK(d.Ls("ks/t/p") == Names{"1"});
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/t/p/1/v", &attr) == 0);
  CHECK((attr.mode & 0222) == 0);
  REQUIRE(d.Stat("ks/t/p/1", &attr) == 0);
  CHECK((attr.mode & 0222) == 0);
  CHECK(d.Mkdir("ks2") == EROFS);
  CHECK(d.Mkdir("ks/t/p/2") == EROFS);
  CHECK(d.Write("ks/t/p/1/v", "y\n") == EROFS);
  CHECK(d.Write("ks/t/p/1/n", "1\n") == EROFS);
  CHECK(d.Write("ks/t/p/1/@json", R"({"v": "y"})") == EROFS);
  CHECK(d.Rm("ks/t/p/1/v") == EROFS);
  CHECK(d.Rmdir("ks/t/p/1") == EROFS);
  CHECK(d.Rmdir("ks/j") == EROFS);
  CHECK(d.SetXattr("ks/t/p/1/v", "user.cellfs.ttl", "5") == EROFS);
  std::string transcript;
  CHECK(d.Cql("DROP TABLE ks.j;", &transcript) == EROFS);
  uint64_t inode = 0;
  REQUIRE(d.Resolve("ks/t/p/1/v", &inode) == 0);
  double timeout = 0;
  CHECK(d.fs().SetSize(inode, 0, 0, &attr, &timeout) == EROFS);
  CHECK(rw.Cat("ks/t/p/1/v") == "x\n");
  CHECK(rw.Exists("ks/j"));
}

// Open for writing and truncation ask one rule: for every kind of node they
// refuse alike, with the errno docs/FILESYSTEM.md ("Errors") gives, and the
// mode bits stat shows agree.
TEST_CASE("open for writing and truncation refuse the same nodes with the same errno",
          "[filesystem]") {
  FsDriver rw;
  MakeSchema(rw);
  MkdirP(rw, "ks/t/p/1");
  Put(rw, "ks/t/p/1/v", "x\n");
  MkdirP(rw, "ks/flat/f");
  Put(rw, "ks/flat/f/v", "y\n");
  fs::FilesystemOptions read_only;
  read_only.read_only = true;
  FsDriver ro(&rw.test_engine(), read_only);
  const std::vector<std::pair<std::string, int>> nodes = {
      {"", EISDIR},
      {"ks", EISDIR},
      {"ks/t", EISDIR},
      {"ks/t/p", EISDIR},
      {"ks/t/p/@ge=1", EISDIR},
      {"ks/t/p/1", EISDIR},
      {"ks/flat/f", EISDIR},
      {"ks/t/p/1/v", 0},
      {"ks/t/p/1/v@ttl=60", 0},
      {"ks/flat/f/v", 0},
      {"@cql", 0},
      {"ks/t/@insert", 0},
      {"ks/t/p/1/@json", 0},
      {"ks/flat/f/@json", 0},
      {"ks/@schema", EACCES},
      {"ks/t/@schema", EACCES},
      {"ks/t/@json", EACCES},
      {"ks/t/@csv", EACCES},
      {"ks/t/p/@json", EACCES},
      {"ks/t/p/@csv", EACCES},
      {"ks/t/p/@ge=1/@json", EACCES},
      {"ks/t/p/@ge=1/@csv", EACCES},
      {"ks/flat/@json", EACCES},
      {"ks/flat/@csv", EACCES},
      {"ks/t/@stats", EACCES},
      {"ks/t/@stats.json", EACCES},
  };
  for (FsDriver* d : {&rw, &ro}) {
    const bool mounted_read_only = d == &ro;
    for (const auto& [path, refusal] : nodes) {
      INFO((mounted_read_only ? "ro " : "rw ") << "'" << path << "'");
      // A read-only mount refuses every write with EROFS; a directory is
      // EISDIR first, as open(2) of one for writing is everywhere.
      const int expected = mounted_read_only && refusal != EISDIR ? EROFS : refusal;
      uint64_t inode = 0;
      fs::NodeAttr attr;
      REQUIRE(d->Resolve(path, &inode, &attr) == 0);
      for (int flags : {O_WRONLY, O_RDWR, O_WRONLY | O_TRUNC}) {
        fs::OpenReply reply;
        const int opened = d->fs().Open(inode, flags, &reply);
        CHECK(opened == expected);
        if (opened == 0) d->fs().Discard(reply.handle);
      }
      double timeout = 0;
      fs::NodeAttr truncated;
      CHECK(d->fs().SetSize(inode, 0, 0, &truncated, &timeout) == expected);
      if (!S_ISDIR(attr.mode)) CHECK(((attr.mode & 0222) != 0) == (expected == 0));
    }
  }
}

// ---------------------------------------------------------------- setattr, xattr flags

TEST_CASE("chmod and chown succeed only when the mode or owner is already true", "[filesystem]") {
  fs::FilesystemOptions options;
  options.uid = 1000;
  options.gid = 100;
  FsDriver d(options);
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  Put(d, "ks/t/p/1/v", "x\n");
  const fs::Caller owner{1000, 100};
  const fs::Caller root{0, 0};
  const fs::Caller stranger{2000, 200};
  auto set = [&](const std::string& path, const fs::AttrChanges& changes,
                 const fs::Caller& caller) {
    uint64_t inode = 0;
    REQUIRE(d.Resolve(path, &inode) == 0);
    fs::NodeAttr out;
    double timeout = 0;
    return d.fs().SetAttr(inode, changes, caller, 0, &out, &timeout);
  };
  auto mode = [](mode_t m) {
    fs::AttrChanges changes;
    changes.mode = m;
    return changes;
  };
  SECTION("a mode") {
    CHECK(set("ks/t/p/1/v", mode(S_IFREG | 0644), owner) == 0);
    CHECK(set("ks/t/p/1/v", mode(0644), root) == 0);  // only permission bits count
    CHECK(set("ks/t/p/1/v", mode(S_IFREG | 0666), owner) == EPERM);
    CHECK(set("ks/t/p/1", mode(S_IFDIR | 0755), owner) == 0);
    CHECK(set("ks/t/p/1", mode(S_IFDIR | 0777), root) == EPERM);
    CHECK(set("ks/t/@schema", mode(S_IFREG | 0444), owner) == 0);
    CHECK(set("ks/t/p/1/v", mode(S_IFREG | 0644), stranger) == EPERM);
  }
  SECTION("an owner or group") {
    fs::AttrChanges same;
    same.uid = 1000;
    same.gid = 100;
    CHECK(set("ks/t/p/1/v", same, owner) == 0);
    CHECK(set("ks/t/p/1/v", same, stranger) == EPERM);
    fs::AttrChanges other_owner;
    other_owner.uid = 2000;
    CHECK(set("ks/t/p/1/v", other_owner, root) == EPERM);
    fs::AttrChanges other_group;
    other_group.gid = 200;
    CHECK(set("ks/t/p/1/v", other_group, owner) == EPERM);
  }
  SECTION("times are accepted and change nothing (touch)") {
    fs::NodeAttr before;
    REQUIRE(d.Stat("ks/t/p/1/v", &before) == 0);
    fs::AttrChanges times;
    times.times = true;
    CHECK(set("ks/t/p/1/v", times, owner) == 0);
    CHECK(set("ks/t/p/1/v", times, stranger) == 0);
    fs::NodeAttr after;
    REQUIRE(d.Stat("ks/t/p/1/v", &after) == 0);
    CHECK(after.mtime_micros == before.mtime_micros);
    CHECK(d.Cat("ks/t/p/1/v") == "x\n");
  }
  SECTION("a refused mode leaves the size alone") {
    fs::AttrChanges both = mode(S_IFREG | 0600);
    both.size = 0;
    CHECK(set("ks/t/p/1/v", both, owner) == EPERM);
    CHECK(d.Cat("ks/t/p/1/v") == "x\n");
    both.mode = S_IFREG | 0644;
    CHECK(set("ks/t/p/1/v", both, owner) == 0);
    CHECK(d.Cat("ks/t/p/1/v") == "\n");  // the empty text
  }
  SECTION("a read-only mount refuses even a mode already true") {
    fs::FilesystemOptions ro_options = options;
    ro_options.read_only = true;
    FsDriver ro(&d.test_engine(), ro_options);
    uint64_t inode = 0;
    REQUIRE(ro.Resolve("ks/t/p/1/v", &inode) == 0);
    fs::NodeAttr out;
    double timeout = 0;
    CHECK(ro.fs().SetAttr(inode, mode(S_IFREG | 0444), owner, 0, &out, &timeout) == EROFS);
  }
}

TEST_CASE("setxattr's XATTR_CREATE and XATTR_REPLACE follow whether the attribute exists",
          "[filesystem]") {
  FsDriver d;
  const uint64_t inode = StoredCell(d);
  std::string value;
  REQUIRE(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &value) == ENODATA);
  CHECK(d.fs().SetXattr(inode, "user.cellfs.ttl", "60", XATTR_REPLACE) == ENODATA);
  CHECK(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &value) == ENODATA);
  CHECK(d.fs().SetXattr(inode, "user.cellfs.ttl", "60", XATTR_CREATE) == 0);
  REQUIRE(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &value) == 0);
  CHECK(value == "60");
  CHECK(d.fs().SetXattr(inode, "user.cellfs.ttl", "90", XATTR_CREATE) == EEXIST);
  CHECK(d.fs().SetXattr(inode, "user.cellfs.ttl", "90", XATTR_REPLACE) == 0);
  REQUIRE(d.GetXattr("ks/t/p/1/v", "user.cellfs.ttl", &value) == 0);
  CHECK(value == "90");
  CHECK(d.fs().SetXattr(inode, "user.cellfs.writetime", "1", XATTR_CREATE) == EEXIST);
  CHECK(d.fs().SetXattr(inode, "user.other", "1", XATTR_REPLACE) == ENODATA);
}

TEST_CASE("rename, links and device nodes are refused with EPERM", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  Put(d, "ks/t/p/1/v", "x\n");
  uint64_t row = 0;
  uint64_t cell = 0;
  REQUIRE(d.Resolve("ks/t/p/1", &row) == 0);
  REQUIRE(d.Resolve("ks/t/p/1/v", &cell) == 0);
  CHECK(d.fs().Rename(row, "v", row, "b") == EPERM);
  CHECK(d.fs().Link(cell, row, "b") == EPERM);
  CHECK(d.fs().Symlink("v", row, "b") == EPERM);
  CHECK(d.fs().MkNod(row, "b", S_IFIFO | 0644) == EPERM);
  CHECK(d.Cat("ks/t/p/1/v") == "x\n");
  CHECK(d.Ls("ks/t/p/1") == Names{"v"});
}

// ---------------------------------------------------------------- bookkeeping

TEST_CASE("every lookup the fs hands out is taken back by forget", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MakeRows(d, "ks/t/p", 5);
  Put(d, "ks/t/p/1/v", "x\n");
  Put(d, "ks/t/p/1/n@ttl=5", "1\n");
  (void)d.Cat("ks/t/p/@json");
  (void)d.Ls("ks/t/p", true);
  (void)d.Ls("ks/t/p/1", true);
  std::vector<Listed> listed;
  ListOptions options;
  options.plus = true;
  options.chunk = 2;
  REQUIRE(d.List("ks/t", &listed, options) == 0);
  REQUIRE(d.List("ks/t/p/@ge=2", &listed, options) == 0);
  CHECK(d.fs().inodes().size() > 1);
  d.DropCaches();
  CHECK(d.fs().inodes().size() == 1);
}

TEST_CASE("cell opens reply direct_io, so each open reads its own whole value", "[filesystem]") {
  FsDriver d;
  const uint64_t inode = StoredCell(d);
  for (int flags : {O_RDONLY, O_RDWR, O_WRONLY | O_TRUNC, O_WRONLY | O_APPEND}) {
    INFO("flags " << flags);
    fs::OpenReply reply;
    REQUIRE(d.fs().Open(inode, flags, &reply) == 0);
    CHECK(reply.direct_io);
    d.fs().Release(reply.handle);
  }
  fs::Entry entry;
  fs::OpenReply created;
  uint64_t row = 0;
  REQUIRE(d.Resolve("ks/t/p/1", &row) == 0);
  REQUIRE(d.fs().Create(row, "n", O_WRONLY | O_CREAT | O_TRUNC, &entry, &created) == 0);
  CHECK(created.direct_io);
  d.fs().Release(created.handle);
  d.fs().Forget(entry.attr.inode, 1);
  SECTION("generated files are direct_io") {
    for (const char* path : {"@cql", "ks/t/@json", "ks/t/p/@csv", "ks/t/p/1/@json"}) {
      INFO(path);
      uint64_t file = 0;
      REQUIRE(d.Resolve(path, &file) == 0);
      fs::OpenReply reply;
      REQUIRE(d.fs().Open(file, O_RDONLY, &reply) == 0);
      CHECK((reply.direct_io || std::string(path) == "ks/t/p/1/@json"));
      d.fs().Release(reply.handle);
    }
  }
}

TEST_CASE("a CQL statement split across writes to @cql runs once it is complete", "[filesystem]") {
  FsDriver d;
  REQUIRE(d.Mkdir("ks") == 0);
  uint64_t cql = 0;
  REQUIRE(d.Resolve("@cql", &cql) == 0);
  fs::OpenReply reply;
  REQUIRE(d.fs().Open(cql, O_WRONLY | O_TRUNC, &reply) == 0);
  const std::string first = "CREATE TABLE ks.x (k int PRI";
  const std::string second = "MARY KEY, v text); CREATE TABLE ks.y (k int PRIMARY KEY)";
  CHECK(d.fs().Write(reply.handle, 0, first) == static_cast<ssize_t>(first.size()));
  CHECK_FALSE(d.Exists("ks/x"));
  CHECK(d.fs().Write(reply.handle, first.size(), second) == static_cast<ssize_t>(second.size()));
  CHECK(d.Exists("ks/x"));
  CHECK_FALSE(d.Exists("ks/y"));           // no ';' yet
  CHECK(d.fs().Flush(reply.handle) == 0);  // close ends the script
  d.fs().Release(reply.handle);
  CHECK(d.Ls("ks") == Names{"x", "y"});
}

TEST_CASE("a cell written through one open file invalidates the kernel's copy", "[filesystem]") {
  FsDriver d;
  const uint64_t inode = StoredCell(d);
  d.notifier().Clear();
  Put(d, "ks/t/p/1/v", "y\n");
  CHECK(d.notifier().SawInode(inode));
  d.notifier().Clear();
  CHECK(d.Write("ks/j/@json", "{}") != 0);  // not a row: nothing changes, nothing to tell
  CHECK(d.Rm("ks/t/p/1/v") == 0);
  CHECK(d.notifier().SawInode(inode));
}

// ---------------------------------------------------------------- threads

TEST_CASE("requests from several threads at once all take effect", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/hits/h") == 0);
  constexpr int kThreads = 4;
  constexpr int kRounds = 25;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        std::string row = "ks/t/q/" + std::to_string(t * 1000 + i);
        std::vector<Listed> listed;
        int errors = 0;
        errors += d.Write("ks/hits/h/n", "1\n") != 0;
        errors += d.Mkdir(row.substr(0, 6)) != 0 && !d.Exists(row.substr(0, 6));
        errors += d.Mkdir(row) != 0;
        errors += d.Write(row + "/v", "value\n") != 0;
        errors += d.List("ks/t/q", &listed, ListOptions{i % 2 == 0, 3, false, {}}) != 0;
        failures[static_cast<size_t>(t)] += errors;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(failures == std::vector<int>(kThreads, 0));
  CHECK(d.Cat("ks/hits/h/n") == std::to_string(kThreads * kRounds) + "\n");
  CHECK(d.Ls("ks/t/q").size() == static_cast<size_t>(kThreads * kRounds));
  d.DropCaches();
  CHECK(d.fs().inodes().size() == 1);
}

TEST_CASE("a cell another open file is creating can be opened, as lookup says it exists",
          "[filesystem]") {
  // Process A: echo 1 > n, still between create and close; process B:
  // echo 1 > n at that moment. Both increments must land.
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/hits/h") == 0);
  uint64_t partition = 0;
  REQUIRE(d.Resolve("ks/hits/h", &partition) == 0);
  fs::Entry entry;
  fs::OpenReply a;
  REQUIRE(d.fs().Create(partition, "n", FsDriver::kWriteFlags, &entry, &a) == 0);
  fs::Entry seen;
  if (d.fs().Lookup(partition, "n", &seen) == 0) {  // visible while being created
    fs::OpenReply b;
    CHECK(d.fs().Open(seen.attr.inode, O_RDONLY, &b) == 0);
    if (b.handle != 0) d.fs().Release(b.handle);
    d.fs().Forget(seen.attr.inode, 1);
  }
  CHECK(d.Write("ks/hits/h/n", "1\n") == 0);
  CHECK(d.fs().Write(a.handle, 0, "1\n") == 2);
  CHECK(d.fs().Flush(a.handle) == 0);
  d.fs().Release(a.handle);
  d.fs().Forget(entry.attr.inode, 1);
  CHECK(d.Cat("ks/hits/h/n") == "2\n");
}

TEST_CASE("appends to one set from several threads at once lose no element", "[filesystem]") {
  // echo "{'x'}" >> tags from several processes: each element must land,
  // as CQL's SET tags = tags + {...} never loses a concurrent one.
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/0");
  constexpr int kThreads = 4;
  constexpr int kRounds = 50;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        std::string tag = "{'t" + std::to_string(t) + "-" + std::to_string(i) + "'}\n";
        failures[static_cast<size_t>(t)] += d.Append("ks/t/p/0/tags", tag) != 0;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(failures == std::vector<int>(kThreads, 0));
  std::string tags = d.Cat("ks/t/p/0/tags");
  CHECK(std::count(tags.begin(), tags.end(), ',') == kThreads * kRounds - 1);
}

}  // namespace cellfs::testing

namespace cellfs::testing {

TEST_CASE("only the root's and keyspaces' listings may be cached by the kernel", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  for (const auto& [path, cached] : std::vector<std::pair<std::string, bool>>{
           {"", true}, {"ks", true}, {"ks/t", false}, {"ks/t/p", false}, {"ks/t/p/1", false}}) {
    INFO(path);
    uint64_t inode = fs::InodeTable::kRootInode;
    if (!path.empty()) REQUIRE(d.Resolve(path, &inode) == 0);
    CHECK(d.fs().CachesListing(inode) == cached);
  }
}

TEST_CASE("DDL through @cql invalidates the cached listings it changes", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  uint64_t keyspace = 0;
  REQUIRE(d.Resolve("ks", &keyspace) == 0);
  d.notifier().Clear();
  d.Ddl("CREATE TABLE ks.other (k int PRIMARY KEY, v int);");
  CHECK(d.notifier().SawInode(keyspace));
  CHECK(d.notifier().SawInode(fs::InodeTable::kRootInode));
}

}  // namespace cellfs::testing

namespace cellfs::testing {

TEST_CASE("truncate(2) by path stores the empty text; of an int it is refused", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  REQUIRE(d.Write("ks/t/p/1/v", "hello world\n") == 0);
  REQUIRE(d.Write("ks/t/p/1/n", "42\n") == 0);
  uint64_t inode = 0;
  fs::NodeAttr attr;
  double timeout = 0;
  REQUIRE(d.Resolve("ks/t/p/1/v", &inode) == 0);
  CHECK(d.fs().SetSize(inode, 0, 0, &attr, &timeout) == 0);
  CHECK(d.Cat("ks/t/p/1/v") == "\n");
  REQUIRE(d.Resolve("ks/t/p/1/n", &inode) == 0);
  CHECK(d.fs().SetSize(inode, 0, 0, &attr, &timeout) == EINVAL);
  CHECK(d.Cat("ks/t/p/1/n") == "42\n");
}

TEST_CASE("ftruncate through an open file drops what it held", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  REQUIRE(d.Write("ks/t/p/1/v", "hello world\n") == 0);
  uint64_t inode = 0;
  REQUIRE(d.Resolve("ks/t/p/1/v", &inode) == 0);
  fs::OpenReply reply;
  REQUIRE(d.fs().Open(inode, O_RDWR, &reply) == 0);
  fs::NodeAttr attr;
  double timeout = 0;
  CHECK(d.fs().SetSize(inode, 0, reply.handle, &attr, &timeout) == 0);
  CHECK(d.fs().Write(reply.handle, 0, "abc\n") == 4);
  CHECK(d.fs().Flush(reply.handle) == 0);
  d.fs().Release(reply.handle);
  CHECK(d.Cat("ks/t/p/1/v") == "abc\n");
}

// rsync --inplace, truncate(1), editors: a cell's file truncates to any
// length as any file does; the result is judged when it is stored.
TEST_CASE("truncation to any length cuts or zero-extends a cell's content", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  REQUIRE(d.Write("ks/t/p/1/v", "hello world\n") == 0);
  REQUIRE(d.Write("ks/t/p/1/n", "12345\n") == 0);
  REQUIRE(d.Write("ks/t/p/1/b", "abcdef") == 0);
  fs::NodeAttr attr;
  double timeout = 0;
  auto truncate_path = [&](const char* path, uint64_t size) {
    uint64_t inode = 0;
    REQUIRE(d.Resolve(path, &inode) == 0);
    return d.fs().SetSize(inode, size, 0, &attr, &timeout);
  };
  SECTION("by path: cut, stored at once, stat tells the new size") {
    CHECK(truncate_path("ks/t/p/1/v", 5) == 0);
    CHECK(d.Cat("ks/t/p/1/v") == "hello\n");  // the text "hello", shown with its newline
    CHECK(attr.size == 6);
    CHECK(truncate_path("ks/t/p/1/n", 3) == 0);  // "123" is an int too
    CHECK(d.Cat("ks/t/p/1/n") == "123\n");
    CHECK(truncate_path("ks/t/p/1/b", 8) == 0);  // a blob zero-extends
    CHECK(d.Cat("ks/t/p/1/b") == std::string("abcdef\0\0", 8));
  }
  SECTION("to the current length nothing changes, for any type") {
    fs::NodeAttr before;
    REQUIRE(d.Stat("ks/t/p/1/n", &before) == 0);
    d.clock().AdvanceSeconds(5);
    CHECK(truncate_path("ks/t/p/1/n", 6) == 0);
    fs::NodeAttr after;
    REQUIRE(d.Stat("ks/t/p/1/n", &after) == 0);
    CHECK(after.mtime_micros == before.mtime_micros);  // not written again
    CHECK(d.Cat("ks/t/p/1/n") == "12345\n");
  }
  SECTION("a result that does not parse is refused and nothing changes") {
    CHECK(truncate_path("ks/t/p/1/n", 9) == EINVAL);  // "12345\n\0\0\0"
    CHECK(d.Cat("ks/t/p/1/n") == "12345\n");
    CHECK(truncate_path("ks/t/p/1/v", 1u << 30) == EFBIG);
    CHECK(d.Cat("ks/t/p/1/v") == "hello world\n");
  }
  SECTION("through an open file: the cut is what a write then continues") {
    uint64_t inode = 0;
    REQUIRE(d.Resolve("ks/t/p/1/v", &inode) == 0);
    fs::OpenReply reply;
    REQUIRE(d.fs().Open(inode, O_RDWR, &reply) == 0);
    CHECK(d.fs().SetSize(inode, 6, reply.handle, &attr, &timeout) == 0);
    CHECK(attr.size == 6);
    CHECK(d.fs().Write(reply.handle, 6, "there\n") == 6);
    CHECK(d.fs().Flush(reply.handle) == 0);
    d.fs().Release(reply.handle);
    CHECK(d.Cat("ks/t/p/1/v") == "hello there\n");
  }
}

TEST_CASE("a row whose key is spelled like a column can be made and found", "[filesystem]") {
  FsDriver d;
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl("CREATE TABLE ks.w (p int, c text, v text, s int static, PRIMARY KEY (p, c));");
  MkdirP(d, "ks/w/1");
  CHECK(d.Mkdir("ks/w/1/v") == 0);  // a regular column's name: a row key here
  CHECK(d.Mkdir("ks/w/1/c") == 0);  // the clustering column's name
  REQUIRE(d.Write("ks/w/1/v/v", "x\n") == 0);
  CHECK(d.Cat("ks/w/1/v/v") == "x\n");
  // A key spelled like the static column is reached escaped, and listed so.
  CHECK(d.Mkdir("ks/w/1/%73") == 0);
  REQUIRE(d.Write("ks/w/1/s", "7\n") == 0);
  CHECK(d.Ls("ks/w/1") == std::vector<std::string>{"s", "c", "%73", "v"});
  CHECK(d.Cat("ks/w/1/s") == "7\n");
}

TEST_CASE("a slice bound that does not parse fails its lookup", "[filesystem]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  CHECK_FALSE(d.Exists("ks/t/p/@ge=%"));
  CHECK_FALSE(d.Exists("ks/t/p/@ge=1,2,3,4"));
  CHECK(d.Exists("ks/t/p/@ge=1"));
}

}  // namespace cellfs::testing

namespace cellfs::testing {

TEST_CASE("files still open when the filesystem goes are stored, not lost", "[filesystem]") {
  TestEngine engine;
  {
    FsDriver d(&engine, fs::FilesystemOptions{});
    MakeSchema(d);
    MkdirP(d, "ks/t/p/1");
    REQUIRE(d.Write("ks/t/p/1/v", "old\n") == 0);
    uint64_t inode = 0;
    REQUIRE(d.Resolve("ks/t/p/1/v", &inode) == 0);
    fs::OpenReply reply;
    REQUIRE(d.fs().Open(inode, O_WRONLY | O_TRUNC, &reply) == 0);
    REQUIRE(d.fs().Write(reply.handle, 0, "written, never closed\n") == 22);
    // No flush or release: the session ends with the file open.
  }
  FsDriver again(&engine, fs::FilesystemOptions{});
  CHECK(again.Cat("ks/t/p/1/v") == "written, never closed\n");
}

}  // namespace cellfs::testing
