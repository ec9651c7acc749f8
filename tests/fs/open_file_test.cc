// Open cells and row @json files through fs::Filesystem, request by request
// as the kernel sends them (open, write, flush, release): what a flush
// stores before its close returns, what a dropped column or a failing
// device makes of it, and the budget of all open files' write buffers.
#include <fcntl.h>
#include <leveldb/helpers/memenv.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fs/ops/handle_table.h"
#include "tests/engine/fault_env.h"
#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

constexpr const char* kTables = R"(
CREATE TABLE ks.kv (k text PRIMARY KEY, v text, b blob);
CREATE TABLE ks.hits (k text PRIMARY KEY, n counter);
CREATE TABLE ks.t (k text, c int, a text, v text, w text, PRIMARY KEY (k, c));
CREATE TABLE ks.big (k text PRIMARY KEY, b blob);
)";

constexpr size_t kMiB = 1u << 20;

void MakeSchema(FsDriver& d) {
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl(kTables);
}

// One descriptor, driven by hand: open(2) of an existing file, or create(2)
// of a new cell in `path`'s directory when `create` is set.
class Handle {
 public:
  Handle(FsDriver& d, const std::string& path, int flags, bool create = false) : d_(d) {
    const size_t slash = path.rfind('/');
    uint64_t parent = 0;
    REQUIRE(d.Resolve(path.substr(0, slash), &parent) == 0);
    fs::Entry entry;
    if (create) {
      // A failed create takes its lookup back itself.
      opened_ = d.fs().Create(parent, path.substr(slash + 1), flags | O_CREAT, &entry, &reply_);
    } else {
      opened_ = d.fs().Lookup(parent, path.substr(slash + 1), &entry);
      if (opened_ == 0) {
        opened_ = d.fs().Open(entry.attr.inode, flags, &reply_);
        if (opened_ != 0) d.fs().Forget(entry.attr.inode, 1);
      }
    }
    inode_ = entry.attr.inode;
  }
  ~Handle() {
    if (opened_ != 0) return;
    if (!released_) d_.fs().Release(reply_.handle);
    d_.fs().Forget(inode_, 1);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  int opened() const { return opened_; }
  // write(2) at `offset`: 0 or the errno.
  int Write(uint64_t offset, std::string_view data) {
    ssize_t wrote = d_.fs().Write(reply_.handle, offset, data);
    if (wrote < 0) return static_cast<int>(-wrote);
    return static_cast<size_t>(wrote) == data.size() ? 0 : EIO;
  }
  int Flush() { return d_.fs().Flush(reply_.handle); }
  int Fsync() { return d_.fs().Fsync(reply_.handle); }
  // ftruncate(fd, 0).
  int Truncate() {
    fs::NodeAttr attr;
    double timeout = 0;
    return d_.fs().SetSize(inode_, 0, reply_.handle, &attr, &timeout);
  }
  void Release() {
    d_.fs().Release(reply_.handle);
    released_ = true;
  }

 private:
  FsDriver& d_;
  fs::OpenReply reply_;
  uint64_t inode_ = 0;
  int opened_ = 0;
  bool released_ = false;
};

// What a cell reads through a filesystem of its own over the same engine:
// one that holds no kept names, handles or caches of the first, so it sees
// only what the engine stores. "(absent)" when the cell does not exist.
std::string Stored(FsDriver& d, const std::string& path) {
  FsDriver other(&d.test_engine(), fs::FilesystemOptions{});
  std::string value;
  if (int e = other.Read(path, &value); e != 0) return e == ENOENT ? "(absent)" : "(error)";
  return value;
}

TEST_CASE("a truncation alone is stored by the flush, before the release", "[open_file]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/kv/a") == 0);
  REQUIRE(d.Write("ks/kv/a/v", "old\n") == 0);
  REQUIRE(d.Write("ks/kv/a/b", "raw") == 0);

  SECTION(": > text") {
    Handle h(d, "ks/kv/a/v", O_WRONLY | O_TRUNC);
    REQUIRE(h.opened() == 0);
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "\n");  // the empty text, read back with its newline
  }
  SECTION(": > blob") {
    Handle h(d, "ks/kv/a/b", O_WRONLY | O_TRUNC);
    REQUIRE(h.opened() == 0);
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/kv/a/b").empty());
  }
  SECTION("ftruncate(fd, 0) then close") {
    Handle h(d, "ks/kv/a/v", O_RDWR);
    REQUIRE(h.opened() == 0);
    REQUIRE(h.Truncate() == 0);
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "\n");
  }
  SECTION("fsync stores it too, once") {
    Handle h(d, "ks/kv/a/v", O_WRONLY | O_TRUNC);
    REQUIRE(h.opened() == 0);
    CHECK(h.Fsync() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "\n");
    CHECK(h.Flush() == 0);
  }
}

TEST_CASE("a cell created and flushed is stored before the release", "[open_file]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/kv/a") == 0);
  SECTION("touch of a text cell: the empty value") {
    Handle h(d, "ks/kv/a/v", O_WRONLY | O_TRUNC, /*create=*/true);
    REQUIRE(h.opened() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "(absent)");
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "\n");
  }
  SECTION("touch of a counter stores nothing: it has no empty value") {
    REQUIRE(d.Mkdir("ks/hits/a") == 0);
    Handle h(d, "ks/hits/a/n", O_WRONLY | O_TRUNC, /*create=*/true);
    REQUIRE(h.opened() == 0);
    CHECK(h.Flush() == 0);
    h.Release();
    CHECK(Stored(d, "ks/hits/a/n") == "(absent)");
  }
}

TEST_CASE("a shell's redirection stores the empty value, then the value, each once",
          "[open_file]") {
  // bash: open(O_TRUNC) as fd 3, dup2(3, 1), close(3) (a flush), write
  // through fd 1, close(1) (a flush), then the release.
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/kv/a") == 0);
  REQUIRE(d.Write("ks/kv/a/v", "old\n") == 0);

  SECTION("echo new > v") {
    Handle h(d, "ks/kv/a/v", O_WRONLY | O_TRUNC);
    REQUIRE(h.opened() == 0);
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "\n");
    CHECK(h.Write(0, "new\n") == 0);
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "new\n");
    CHECK(h.Write(4, "more\n") == 0);  // a later write after a flush is stored by the next one
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "new\nmore\n");
    h.Release();
    CHECK(Stored(d, "ks/kv/a/v") == "new\nmore\n");
  }
  SECTION("a counter: each delta is added once however many flushes follow") {
    REQUIRE(d.Mkdir("ks/hits/a") == 0);
    Handle h(d, "ks/hits/a/n", O_WRONLY | O_TRUNC, /*create=*/true);
    REQUIRE(h.opened() == 0);
    CHECK(h.Flush() == 0);
    CHECK(h.Write(0, "5\n") == 0);
    CHECK(h.Flush() == 0);
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/hits/a/n") == "5\n");
    CHECK(h.Write(2, "2\n") == 0);
    CHECK(h.Flush() == 0);
    h.Release();
    CHECK(Stored(d, "ks/hits/a/n") == "7\n");
  }
  SECTION(">> text: the appendix is added once") {
    Handle h(d, "ks/kv/a/v", O_WRONLY | O_APPEND);
    REQUIRE(h.opened() == 0);
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/kv/a/v") == "old\n");
    CHECK(h.Write(4, "tail\n") == 0);
    CHECK(h.Flush() == 0);
    CHECK(h.Flush() == 0);
    h.Release();
    CHECK(Stored(d, "ks/kv/a/v") == "old\ntail\n");
  }
}

// The fs over an engine on a FaultEnv (tests/engine/fault_env.h), as in
// filesystem_fault_test.
class FaultStack {
 public:
  FaultStack() {
    EngineOptions options;
    options.env = &env;
    options.clock = &test_engine_.clock;
    options.commit_mode = CommitMode::kBatch;
    options.background_sweeper = false;
    test_engine_.engine.reset();
    auto opened = Engine::Open("/db", options);
    REQUIRE(opened.ok());
    test_engine_.engine = std::move(opened).value();
    driver = std::make_unique<FsDriver>(&test_engine_, fs::FilesystemOptions{});
  }
  ~FaultStack() {
    driver.reset();
    test_engine_.engine.reset();
  }

  std::unique_ptr<leveldb::Env> memory{leveldb::NewMemEnv(leveldb::Env::Default())};
  FaultEnv env{memory.get()};
  std::unique_ptr<FsDriver> driver;

 private:
  TestEngine test_engine_;
};

TEST_CASE("a flush whose store fails returns the device's errno, and stores nothing later",
          "[open_file]") {
  FaultStack stack;
  FsDriver& d = *stack.driver;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/kv/a") == 0);
  REQUIRE(d.Write("ks/kv/a/v", "old\n") == 0);

  SECTION(": > v on a full disk") {
    Handle h(d, "ks/kv/a/v", O_WRONLY | O_TRUNC);
    REQUIRE(h.opened() == 0);
    stack.env.Inject(FaultPlan::Now(DiskFault::kNoSpace));
    CHECK(h.Flush() == ENOSPC);
    stack.env.ClearFault();
    CHECK(h.Flush() == ENOSPC);  // sticky
    h.Release();
    CHECK(d.Cat("ks/kv/a/v") == "old\n");
  }
  SECTION("touch of a new cell on a read-only device") {
    Handle h(d, "ks/kv/a/b", O_WRONLY | O_TRUNC, /*create=*/true);
    REQUIRE(h.opened() == 0);
    stack.env.Inject(FaultPlan::Now(DiskFault::kReadOnly));
    CHECK(h.Flush() == EROFS);
    CHECK(h.Write(0, "x") == EROFS);
    h.Release();
    CHECK(Stored(d, "ks/kv/a/b") == "(absent)");
  }
}

TEST_CASE("a write through a file whose column was dropped since the open fails with ESTALE",
          "[open_file]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/t/p") == 0);
  REQUIRE(d.Mkdir("ks/t/p/1") == 0);
  REQUIRE(d.Write("ks/t/p/1/v", "kept\n") == 0);

  SECTION("dropped between the write and the close: the close fails, nothing is stored") {
    Handle h(d, "ks/t/p/1/w", O_WRONLY | O_TRUNC, /*create=*/true);
    REQUIRE(h.opened() == 0);
    REQUIRE(h.Write(0, "lost?\n") == 0);
    d.Ddl("ALTER TABLE ks.t DROP w;");
    CHECK(h.Flush() == ESTALE);
    CHECK(h.Write(6, "more\n") == ESTALE);  // sticky
    h.Release();
    d.Ddl("ALTER TABLE ks.t ADD w text;");  // a new column: starts empty
    CHECK(Stored(d, "ks/t/p/1/w") == "(absent)");
  }
  SECTION("dropped before the write: the write itself fails") {
    Handle h(d, "ks/t/p/1/w", O_WRONLY | O_TRUNC, /*create=*/true);
    REQUIRE(h.opened() == 0);
    d.Ddl("ALTER TABLE ks.t DROP w;");
    CHECK(h.Write(0, "lost?\n") == ESTALE);
    CHECK(h.Flush() == ESTALE);
  }
  SECTION("a truncation alone, the column dropped and added again under the same name") {
    Handle h(d, "ks/t/p/1/v", O_WRONLY | O_TRUNC);
    REQUIRE(h.opened() == 0);
    d.Ddl("ALTER TABLE ks.t DROP v; ALTER TABLE ks.t ADD v text;");
    CHECK(h.Flush() == ESTALE);
    h.Release();
    CHECK(Stored(d, "ks/t/p/1/v") == "(absent)");
  }
  SECTION("another column dropped: the write lands in its own column") {
    Handle h(d, "ks/t/p/1/w", O_WRONLY | O_TRUNC, /*create=*/true);
    REQUIRE(h.opened() == 0);
    d.Ddl("ALTER TABLE ks.t DROP a;");  // the columns after it move up one place
    REQUIRE(h.Write(0, "mine\n") == 0);
    CHECK(h.Flush() == 0);
    CHECK(Stored(d, "ks/t/p/1/w") == "mine\n");
    CHECK(Stored(d, "ks/t/p/1/v") == "kept\n");
  }
  SECTION("the table dropped: the close fails") {
    Handle h(d, "ks/t/p/1/v", O_WRONLY | O_TRUNC);
    REQUIRE(h.opened() == 0);
    REQUIRE(h.Write(0, "lost?\n") == 0);
    d.Ddl("DROP TABLE ks.t;");
    CHECK(h.Flush() == ESTALE);
  }
  SECTION("a row's @json naming the dropped column") {
    Handle h(d, "ks/t/p/1/@json", O_WRONLY | O_TRUNC);
    REQUIRE(h.opened() == 0);
    REQUIRE(h.Write(0, R"({"v": "new", "w": "lost?"})") == 0);
    d.Ddl("ALTER TABLE ks.t DROP w;");
    CHECK(h.Flush() == ESTALE);
    h.Release();
    CHECK(Stored(d, "ks/t/p/1/v") == "kept\n");  // nothing of the object: it is one write
  }
}

TEST_CASE("the write buffers of all open files share one budget; the writer past it gets ENOSPC",
          "[open_file]") {
  FsDriver d;
  MakeSchema(d);
  const std::string chunk(kMiB, 'x');
  constexpr size_t kValueMiB = 60;  // each file holds a 64 MiB buffer: 4 fill the 256 MiB
  // Opens ks/big/kI/b and writes kValueMiB MiB to it; the first error.
  auto fill = [&](Handle& h) {
    for (size_t i = 0; i < kValueMiB; ++i) {
      if (int e = h.Write(i * kMiB, chunk)) return e;
    }
    return 0;
  };
  std::vector<std::unique_ptr<Handle>> files;
  for (int i = 0; i < 6; ++i) {
    const std::string dir = "ks/big/k" + std::to_string(i);
    REQUIRE(d.Mkdir(dir) == 0);
    files.push_back(std::make_unique<Handle>(d, dir + "/b", O_WRONLY | O_TRUNC, true));
    REQUIRE(files.back()->opened() == 0);
  }
  for (int i = 0; i < 4; ++i) {
    INFO("file " << i);
    CHECK(fill(*files[static_cast<size_t>(i)]) == 0);
  }
  CHECK(fill(*files[4]) == ENOSPC);
  CHECK(files[4]->Write(0, "y") == ENOSPC);  // sticky, as other refusals
  CHECK(files[4]->Flush() == ENOSPC);

  // A row's @json counts too.
  REQUIRE(d.Mkdir("ks/t/p") == 0);
  REQUIRE(d.Mkdir("ks/t/p/1") == 0);
  {
    Handle row(d, "ks/t/p/1/@json", O_WRONLY | O_TRUNC);
    REQUIRE(row.opened() == 0);
    CHECK(row.Write(0, "{\"v\": \"" + chunk) == ENOSPC);
  }

  // ftruncate gives a buffer's memory back.
  REQUIRE(files[0]->Truncate() == 0);
  CHECK(fill(*files[5]) == 0);

  // So do a store and a release.
  for (int i = 0; i < 4; ++i) {
    REQUIRE(files[static_cast<size_t>(i)]->Truncate() == 0);  // nothing big to store
    files[static_cast<size_t>(i)]->Release();
  }
  CHECK(files[5]->Flush() == 0);  // 60 MiB in the engine
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/big/k5/b", &attr) == 0);
  CHECK(attr.size == kValueMiB * kMiB);
  CHECK(fill(*files[5]) == 0);   // written again after the store: 60 MiB held
  for (int i = 0; i < 3; ++i) {  // and 3 x 64 MiB more fit
    const std::string dir = "ks/big/n" + std::to_string(i);
    REQUIRE(d.Mkdir(dir) == 0);
    Handle h(d, dir + "/b", O_WRONLY | O_TRUNC, true);
    INFO("new file " << i);
    CHECK(fill(h) == 0);
    CHECK(h.Truncate() == 0);
  }
  CHECK(files[5]->Truncate() == 0);
}

// ---- Handles: numbers checked against a table, never pointers.

TEST_CASE("a handle table refuses a released handle, also once its slot is reused", "[open_file]") {
  fs::HandleTable<std::string> table;
  CHECK(table.Find(0) == nullptr);  // never issued
  CHECK(table.Find(12345) == nullptr);
  const uint64_t first = table.Add(std::make_shared<std::string>("first"));
  CHECK(first != 0);
  REQUIRE(table.Find(first) != nullptr);
  CHECK(*table.Find(first) == "first");
  std::shared_ptr<std::string> held = table.Find(first);
  std::shared_ptr<std::string> removed = table.Remove(first);
  REQUIRE(removed != nullptr);
  CHECK(*held == "first");  // a caller still holding it is not left dangling
  CHECK(table.Find(first) == nullptr);
  CHECK(table.Remove(first) == nullptr);
  const uint64_t second = table.Add(std::make_shared<std::string>("second"));
  CHECK(static_cast<uint32_t>(second) == static_cast<uint32_t>(first));  // the slot, reused
  CHECK(second != first);
  CHECK(table.Find(first) == nullptr);
  CHECK(table.Remove(first) == nullptr);
  REQUIRE(table.Find(second) != nullptr);
  CHECK(*table.Find(second) == "second");
  const uint64_t third = table.Add(std::make_shared<std::string>("third"));
  CHECK(table.size() == 2);
  std::vector<std::shared_ptr<std::string>> all = table.RemoveAll();
  CHECK(all.size() == 2);
  CHECK(table.size() == 0);
  CHECK(table.Find(second) == nullptr);
  CHECK(table.Find(third) == nullptr);
}

TEST_CASE("a file or directory handle used after its release is EBADF", "[open_file]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/kv/a") == 0);
  REQUIRE(d.Write("ks/kv/a/v", "old\n") == 0);
  uint64_t inode = 0;
  REQUIRE(d.Resolve("ks/kv/a/v", &inode) == 0);

  fs::OpenReply first;
  REQUIRE(d.fs().Open(inode, O_RDWR, &first) == 0);
  d.fs().Release(first.handle);
  fs::OpenReply second;  // takes the slot the first one left
  REQUIRE(d.fs().Open(inode, O_WRONLY | O_TRUNC, &second) == 0);
  CHECK(second.handle != first.handle);
  std::string out;
  CHECK(d.fs().Read(first.handle, 0, 10, &out) == EBADF);
  CHECK(d.fs().Write(first.handle, 0, "stale\n") == -EBADF);
  CHECK(d.fs().Flush(first.handle) == EBADF);
  CHECK(d.fs().Fsync(first.handle) == EBADF);
  fs::NodeAttr attr;
  double timeout = 0;
  CHECK(d.fs().SetSize(inode, 0, first.handle, &attr, &timeout) == EBADF);
  d.fs().Release(first.handle);  // a second release does nothing
  d.fs().Discard(first.handle);
  CHECK(d.fs().Write(second.handle, 0, "new\n") == 4);
  CHECK(d.fs().Flush(second.handle) == 0);
  d.fs().Release(second.handle);
  CHECK(Stored(d, "ks/kv/a/v") == "new\n");

  uint64_t dir_inode = 0;
  REQUIRE(d.Resolve("ks/kv", &dir_inode) == 0);
  uint64_t dir = 0;
  REQUIRE(d.fs().OpenDir(dir_inode, &dir) == 0);
  d.fs().ReleaseDir(dir);
  const fs::DirEntrySink sink = [](const fs::DirEntry&) { return true; };
  CHECK(d.fs().ReadDir(dir, 0, false, sink) == EBADF);
  CHECK(d.fs().FsyncDir(dir) == EBADF);
  d.fs().ReleaseDir(dir);
  CHECK(d.fs().ReadDir(0, 0, false, sink) == EBADF);  // never issued
}

TEST_CASE("a write through a file opened read-only is EBADF and stores nothing", "[open_file]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/kv/a") == 0);
  REQUIRE(d.Write("ks/kv/a/v", "old\n") == 0);
  Handle h(d, "ks/kv/a/v", O_RDONLY);
  REQUIRE(h.opened() == 0);
  CHECK(h.Write(0, "new\n") == EBADF);
  CHECK(h.Flush() == 0);
  h.Release();
  CHECK(Stored(d, "ks/kv/a/v") == "old\n");
}

}  // namespace
}  // namespace cellfs::testing
