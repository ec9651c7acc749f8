// fs::Filesystem over an engine whose device fails (ENOSPC, EROFS) or whose
// machine crashes (tests/engine/fault_env.h): close and write report the
// device's errno, cells stored before read back unchanged, fsync'd cells
// survive an OS crash of the whole stack.
#include <fcntl.h>
#include <leveldb/helpers/memenv.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <memory>
#include <string>
#include <string_view>

#include "tests/engine/fault_env.h"
#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

constexpr const char* kTables = R"(
CREATE TABLE ks.kv (k text PRIMARY KEY, v text);
CREATE TABLE ks.t (k text, c int, v text, w text, PRIMARY KEY (k, c));
)";

int ErrnoOf(DiskFault fault) { return fault == DiskFault::kNoSpace ? ENOSPC : EROFS; }

// The whole stack over a FaultEnv: a TestEngine whose engine is opened on
// the fault env instead of its own, and an FsDriver over it. Unmount and
// Mount close and reopen both, as a daemon restart does.
class FaultStack {
 public:
  explicit FaultStack(CommitMode mode) {
    options_.env = &env;
    options_.clock = &test_engine_.clock;
    options_.commit_mode = mode;
    options_.commit_period_ms = 3'600'000;  // only fsync syncs in periodic mode
    options_.background_sweeper = false;
    Mount();
    REQUIRE(driver->Mkdir("ks") == 0);
    driver->Ddl(kTables);
  }
  ~FaultStack() { Unmount(); }

  void Mount() {
    test_engine_.engine.reset();
    // A remount takes time: the clock moves on, as it would. (Write times
    // stay above everything handed out before, crash or not: the lease of
    // docs/ENGINE.md, "Write times".)
    test_engine_.clock.AdvanceSeconds(1);
    auto opened = Engine::Open("/db", options_);
    INFO(opened.status().ToString());
    REQUIRE(opened.ok());
    test_engine_.engine = std::move(opened).value();
    driver = std::make_unique<FsDriver>(&test_engine_, fs::FilesystemOptions{});
  }
  void Unmount() {
    driver.reset();
    test_engine_.engine.reset();
  }
  // The machine crashes under the mounted filesystem; it boots and mounts again.
  void CrashAndMount(TailLoss tails) {
    env.Crash();
    Unmount();
    env.LoseUnsynced(tails);
    Mount();
  }

  // open(O_WRONLY | O_CREAT | O_TRUNC), write(2), fsync(2), close(2) of a
  // cell; the first error.
  int WriteAndFsync(const std::string& path, std::string_view data) {
    const size_t slash = path.rfind('/');
    uint64_t parent = 0;
    const std::string partition = path.substr(0, slash);
    if (!driver->Exists(partition)) {
      if (int e = driver->Mkdir(partition)) return e;
    }
    if (int e = driver->Resolve(partition, &parent)) return e;
    const std::string name = path.substr(slash + 1);
    fs::Filesystem& fs = driver->fs();
    fs::Entry entry;
    fs::OpenReply reply;
    int e = fs.Lookup(parent, name, &entry);
    if (e == 0) {
      e = fs.Open(entry.attr.inode, O_WRONLY | O_TRUNC, &reply);
    } else if (e == ENOENT) {
      e = fs.Create(parent, name, O_WRONLY | O_CREAT | O_TRUNC, &entry, &reply);
    }
    if (e != 0) return e;
    const ssize_t wrote = fs.Write(reply.handle, 0, data);
    int result = wrote < 0 ? static_cast<int>(-wrote) : 0;
    if (result == 0) result = fs.Fsync(reply.handle);
    const int flushed = fs.Flush(reply.handle);
    if (result == 0) result = flushed;
    fs.Release(reply.handle);
    fs.Forget(entry.attr.inode, 1);
    return result;
  }

  std::unique_ptr<leveldb::Env> memory{leveldb::NewMemEnv(leveldb::Env::Default())};
  FaultEnv env{memory.get()};
  std::unique_ptr<FsDriver> driver;

 private:
  TestEngine test_engine_;  // the clock, and the engine slot FsDriver reads
  EngineOptions options_;
};

// mkdir of the cell's partition directory (which stores nothing), then
// open / write / close of the cell; the first error.
int PutCell(FsDriver& d, const std::string& path, std::string_view value) {
  const std::string partition = path.substr(0, path.rfind('/'));
  if (!d.Exists(partition)) {
    if (int e = d.Mkdir(partition)) return e;
  }
  return d.Write(path, value);
}

// Cells a..e of ks.kv and a row of ks.t, all stored.
void StoreCells(FsDriver& d) {
  for (char c = 'a'; c <= 'e'; ++c) {
    const std::string key(1, c);
    REQUIRE(PutCell(d, "ks/kv/" + key + "/v", "value " + key + "\n") == 0);
  }
  REQUIRE(d.Mkdir("ks/t/p") == 0);
  REQUIRE(d.Mkdir("ks/t/p/1") == 0);
  REQUIRE(d.Write("ks/t/p/1/v", "row one\n") == 0);
}

// The cells StoreCells wrote read back unchanged.
void CheckCells(FsDriver& d) {
  for (char c = 'a'; c <= 'e'; ++c) {
    const std::string key(1, c);
    std::string value;
    CHECK(d.Read("ks/kv/" + key + "/v", &value) == 0);
    CHECK(value == "value " + key + "\n");
  }
  CHECK(d.Cat("ks/t/p/1/v") == "row one\n");
  CHECK(d.Ls("ks/t/p") == std::vector<std::string>{"1"});
}

TEST_CASE("a full or read-only device fails the close with its errno, then every write at once",
          "[filesystem_fault]") {
  const DiskFault fault = GENERATE(DiskFault::kNoSpace, DiskFault::kReadOnly);
  const int error = ErrnoOf(fault);
  INFO("errno " << error);
  FaultStack stack(CommitMode::kPeriodic);
  FsDriver& d0 = *stack.driver;
  StoreCells(d0);

  stack.env.Inject(FaultPlan::Now(fault));
  CHECK(d0.Write("ks/kv/a/v", "changed\n") == error);
  CHECK(d0.last_step() == "flush");  // write(2) buffered it; close(2) stored it

  stack.env.ClearFault();  // space freed: the engine still refuses until a remount
  CHECK(d0.Write("ks/kv/b/v", "changed\n") == error);
  CHECK(d0.last_step() == "write");
  CHECK(d0.Write("ks/t/p/1/w", "a new cell\n") == error);
  CHECK(d0.last_step() == "write");
  CHECK(d0.Mkdir("ks/kv/f") == error);  // stores a row marker: no clustering columns
  CHECK(d0.Mkdir("ks/t/p/2") == error);
  CHECK(d0.Rm("ks/kv/c/v") == error);
  CheckCells(d0);
  CHECK_FALSE(d0.Exists("ks/t/p/1/w"));
  CHECK_FALSE(d0.Exists("ks/kv/f"));
  CHECK_FALSE(d0.Exists("ks/t/p/2"));

  stack.Unmount();
  stack.Mount();
  FsDriver& d = *stack.driver;
  CheckCells(d);
  CHECK_FALSE(d.Exists("ks/t/p/1/w"));
  CHECK_FALSE(d.Exists("ks/kv/f"));
  CHECK(d.Write("ks/kv/a/v", "after the remount\n") == 0);
  CHECK(d.Cat("ks/kv/a/v") == "after the remount\n");
}

TEST_CASE("a cell whose log record the full disk tears fails at close and is never stored",
          "[filesystem_fault]") {
  FaultStack stack(CommitMode::kBatch);
  FsDriver& d0 = *stack.driver;
  StoreCells(d0);
  REQUIRE(d0.Mkdir("ks/kv/big") == 0);
  stack.env.Inject(FaultPlan::AfterBytes(DiskFault::kNoSpace, 40));
  const std::string big(5000, 'x');
  CHECK(d0.Write("ks/kv/big/v", big) == ENOSPC);
  CHECK(d0.last_step() == "flush");
  CHECK(stack.env.torn_appends() == 1);
  stack.env.ClearFault();
  CheckCells(d0);
  CHECK_FALSE(d0.Exists("ks/kv/big/v"));
  CHECK(d0.Write("ks/kv/c/v", "changed\n") == ENOSPC);

  stack.Unmount();
  stack.Mount();
  FsDriver& d = *stack.driver;
  CheckCells(d);
  CHECK(d.Exists("ks/kv/big"));  // its row marker was acknowledged before the fault
  CHECK_FALSE(d.Exists("ks/kv/big/v"));
  CHECK(d.Write("ks/kv/big/v", big) == 0);
  CHECK(d.Cat("ks/kv/big/v") == big + "\n");
}

TEST_CASE("an fsync'd cell survives an OS crash of the whole stack", "[filesystem_fault]") {
  SECTION("periodic mode: fsync makes every earlier close durable, later ones are lost") {
    FaultStack stack(CommitMode::kPeriodic);
    StoreCells(*stack.driver);
    CHECK(stack.WriteAndFsync("ks/kv/synced/v", "fsync'd\n") == 0);
    REQUIRE(PutCell(*stack.driver, "ks/kv/late/v", "closed, never synced\n") == 0);
    stack.CrashAndMount(TailLoss::kExact);
    CheckCells(*stack.driver);
    CHECK(stack.driver->Cat("ks/kv/synced/v") == "fsync'd\n");
    // Proves the crash really dropped what was not synced.
    CHECK_FALSE(stack.driver->Exists("ks/kv/late/v"));
  }
  SECTION("periodic mode, torn tails: what fsync covered survives whatever else does") {
    FaultStack stack(CommitMode::kPeriodic);
    StoreCells(*stack.driver);
    CHECK(stack.WriteAndFsync("ks/kv/synced/v", "fsync'd\n") == 0);
    for (int i = 0; i < 50; ++i) {
      REQUIRE(PutCell(*stack.driver, "ks/kv/late" + std::to_string(i) + "/v", "late\n") == 0);
    }
    stack.CrashAndMount(TailLoss::kTorn);
    CheckCells(*stack.driver);
    CHECK(stack.driver->Cat("ks/kv/synced/v") == "fsync'd\n");
    CHECK(PutCell(*stack.driver, "ks/kv/after/v", "after\n") == 0);
  }
  SECTION("batch mode: every closed cell is durable") {
    FaultStack stack(CommitMode::kBatch);
    StoreCells(*stack.driver);
    REQUIRE(PutCell(*stack.driver, "ks/kv/late/v", "closed\n") == 0);
    stack.CrashAndMount(TailLoss::kTorn);
    CheckCells(*stack.driver);
    CHECK(stack.driver->Cat("ks/kv/late/v") == "closed\n");
  }
}

}  // namespace
}  // namespace cellfs::testing
