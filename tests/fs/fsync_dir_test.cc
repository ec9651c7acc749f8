// fsync(2) of a directory (Filesystem::FsyncDir) makes mkdir, rm and rm -r
// durable: over an engine on a fault-injecting env in periodic mode with a
// long period, what FsyncDir covered survives a simulated OS crash, and
// (proving the crash real) what it did not cover is lost.
#include <fcntl.h>
#include <leveldb/helpers/memenv.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <memory>
#include <string>

#include "tests/engine/fault_env.h"
#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

// The whole stack over a FaultEnv, as tests/fs/filesystem_fault_test.cc
// builds it: only an explicit sync syncs the log in this periodic mode.
class CrashStack {
 public:
  CrashStack() {
    options_.env = &env;
    options_.clock = &test_engine_.clock;
    options_.commit_mode = CommitMode::kPeriodic;
    options_.commit_period_ms = 3'600'000;
    options_.background_sweeper = false;
    Mount();
    REQUIRE(driver->Mkdir("ks") == 0);
    driver->Ddl("CREATE TABLE ks.t (k text, c int, v text, PRIMARY KEY (k, c));");
  }
  ~CrashStack() { Unmount(); }

  void Mount() {
    test_engine_.engine.reset();
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
  void CrashAndMount() {
    env.Crash();
    Unmount();
    env.LoseUnsynced(TailLoss::kExact);
    Mount();
  }
  // opendir, fsync, closedir of `path`, as python's os.fsync(os.open(dir)).
  int FsyncDir(const std::string& path) {
    uint64_t inode = 0;
    if (int e = driver->Resolve(path, &inode)) return e;
    uint64_t handle = 0;
    if (int e = driver->fs().OpenDir(inode, &handle)) return e;
    int result = driver->fs().FsyncDir(handle);
    driver->fs().ReleaseDir(handle);
    return result;
  }

  std::unique_ptr<leveldb::Env> memory{leveldb::NewMemEnv(leveldb::Env::Default())};
  FaultEnv env{memory.get()};
  std::unique_ptr<FsDriver> driver;

 private:
  TestEngine test_engine_;
  EngineOptions options_;
};

TEST_CASE("fsync of a directory makes mkdir, rm and rm -r durable against an OS crash",
          "[fsync_dir]") {
  CrashStack stack;
  SECTION("mkdir of a row: kept with the fsync, lost without it") {
    REQUIRE(stack.driver->Mkdir("ks/t/p") == 0);
    REQUIRE(stack.driver->Mkdir("ks/t/p/1") == 0);
    CHECK(stack.FsyncDir("ks/t/p") == 0);
    REQUIRE(stack.driver->Mkdir("ks/t/p/2") == 0);  // after the fsync
    stack.CrashAndMount();
    CHECK(stack.driver->Ls("ks/t/p") == std::vector<std::string>{"1"});
  }
  SECTION("rm of a cell and rm -r of a row: deletions kept with the fsync") {
    REQUIRE(stack.driver->Mkdir("ks/t/p") == 0);
    REQUIRE(stack.driver->Mkdir("ks/t/p/1") == 0);
    REQUIRE(stack.driver->Write("ks/t/p/1/v", "one\n") == 0);
    REQUIRE(stack.driver->Mkdir("ks/t/p/2") == 0);
    REQUIRE(stack.driver->Write("ks/t/p/2/v", "two\n") == 0);
    REQUIRE(stack.FsyncDir("") == 0);  // the root: everything so far
    REQUIRE(stack.driver->Rm("ks/t/p/1/v") == 0);
    REQUIRE(stack.driver->Rm("ks/t/p/2/v") == 0);
    REQUIRE(stack.driver->Rmdir("ks/t/p/2") == 0);
    CHECK(stack.FsyncDir("ks/t/p") == 0);
    stack.CrashAndMount();
    CHECK(stack.driver->Ls("ks/t/p") == std::vector<std::string>{"1"});
    CHECK_FALSE(stack.driver->Exists("ks/t/p/1/v"));
  }
  SECTION("without fsync the crash loses them (the crash is real)") {
    REQUIRE(stack.FsyncDir("") == 0);
    REQUIRE(stack.driver->Mkdir("ks/t/p") == 0);
    REQUIRE(stack.driver->Mkdir("ks/t/p/1") == 0);
    stack.CrashAndMount();
    CHECK_FALSE(stack.driver->Exists("ks/t/p/1"));
  }
  SECTION("once the store refuses writes, fsync of a directory reports it") {
    REQUIRE(stack.driver->Mkdir("ks/t/p") == 0);
    stack.env.Inject(FaultPlan::Now(DiskFault::kNoSpace));
    REQUIRE(stack.driver->Mkdir("ks/t/p/1") != 0);
    CHECK(stack.FsyncDir("ks/t") == ENOSPC);
  }
}

TEST_CASE("fsync of an @insert that refused a line still makes its stored rows durable",
          "[fsync_dir]") {
  CrashStack stack;
  uint64_t inode = 0;
  REQUIRE(stack.driver->Resolve("ks/t/@insert", &inode) == 0);
  fs::OpenReply reply;
  REQUIRE(stack.driver->fs().Open(inode, O_WRONLY, &reply) == 0);
  const std::string rows =
      "{\"k\": \"p\", \"c\": 1, \"v\": \"one\"}\n"
      "{\"k\": \"p\", \"c\": \"bad\"}\n";
  (void)stack.driver->fs().Write(reply.handle, 0, rows);  // the bad line is refused
  // The refusal is reported, and the valid row is synced all the same.
  CHECK(stack.driver->fs().Fsync(reply.handle) == EINVAL);
  stack.driver->fs().Release(reply.handle);
  stack.CrashAndMount();
  CHECK(stack.driver->Cat("ks/t/p/1/v") == "one\n");
}

}  // namespace
}  // namespace cellfs::testing
