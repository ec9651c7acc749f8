// NewStoreCleanup: a failed mount removes the store it created (the files
// that were not there, then the directory it made), and never touches a
// store that was there before.
#include "tools/cellfs/new_store_cleanup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace cellfs::tools {
namespace {

namespace stdfs = std::filesystem;

// A fresh parent directory under the system's temporary directory, removed after.
struct Scratch {
  stdfs::path root;
  Scratch() {
    std::string pattern = (stdfs::temp_directory_path() / "cellfs-cleanup.XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root = pattern;
  }
  ~Scratch() {
    std::error_code ignored;
    stdfs::remove_all(root, ignored);
  }
};

void Touch(const stdfs::path& path) { std::ofstream(path) << "x"; }

// What an engine's first open leaves: LevelDB's files.
void MakeStoreFiles(const stdfs::path& dir) {
  for (const char* name : {"CURRENT", "LOCK", "LOG", "MANIFEST-000001", "000003.log"}) {
    Touch(dir / name);
  }
}

MadeDirectory Made(const stdfs::path& data, UniqueFd* fd) {
  MadeDirectory made;
  Result<UniqueFd> opened = OpenTrustedDataDir(data.string(), geteuid(), true, &made);
  REQUIRE(opened.ok());
  *fd = std::move(*opened);
  return made;
}

TEST_CASE("a data directory the mount made goes, with the store in it") {
  Scratch scratch;
  const stdfs::path data = scratch.root / "data";
  UniqueFd fd;
  MadeDirectory made = Made(data, &fd);
  REQUIRE(made.parent.valid());
  NewStoreCleanup cleanup(fd.get(), std::move(made));
  MakeStoreFiles(data);
  REQUIRE(cleanup.Undo().ok());
  CHECK_FALSE(stdfs::exists(data));
  CHECK(stdfs::exists(scratch.root));
}

TEST_CASE("only LevelDB's files go: a directory holding anything else stays") {
  Scratch scratch;
  const stdfs::path data = scratch.root / "data";
  UniqueFd fd;
  MadeDirectory made = Made(data, &fd);
  NewStoreCleanup real(fd.get(), std::move(made));
  MakeStoreFiles(data);
  Touch(data / "someone-elses");
  stdfs::create_directory(data / "000007.ldb");  // a directory by a LevelDB name: not LevelDB's
  REQUIRE(real.Undo().ok());
  CHECK(stdfs::exists(data / "someone-elses"));
  CHECK(stdfs::exists(data / "000007.ldb"));
  CHECK_FALSE(stdfs::exists(data / "CURRENT"));
  CHECK_FALSE(stdfs::exists(data / "000003.log"));
}

TEST_CASE("in a directory that was there, only the new store's files go") {
  Scratch scratch;
  const stdfs::path data = scratch.root / "data";
  stdfs::create_directory(data);
  stdfs::permissions(data, stdfs::perms::owner_all);
  Touch(data / "notes.txt");
  UniqueFd fd;
  MadeDirectory made = Made(data, &fd);
  CHECK_FALSE(made.parent.valid());  // not made by this call
  NewStoreCleanup cleanup(fd.get(), std::move(made));
  MakeStoreFiles(data);
  REQUIRE(cleanup.Undo().ok());
  CHECK(stdfs::exists(data / "notes.txt"));
  CHECK_FALSE(stdfs::exists(data / "CURRENT"));
  CHECK_FALSE(stdfs::exists(data / "LOCK"));
  CHECK_FALSE(stdfs::exists(data / "000003.log"));
}

TEST_CASE("a store that was there, or what is left of one, is never touched") {
  Scratch scratch;
  const stdfs::path data = scratch.root / "data";
  stdfs::create_directory(data);
  stdfs::permissions(data, stdfs::perms::owner_all);
  SECTION("a whole store") { MakeStoreFiles(data); }
  SECTION("a store that lost its CURRENT") {
    Touch(data / "MANIFEST-000004");
    Touch(data / "000005.ldb");
  }
  UniqueFd fd;
  MadeDirectory made = Made(data, &fd);
  NewStoreCleanup cleanup(fd.get(), std::move(made));
  Touch(data / "000009.log");  // what the failed open added
  REQUIRE(cleanup.Undo().ok());
  CHECK(stdfs::exists(data / "000009.log"));
  CHECK(stdfs::exists(data / "MANIFEST-000004") != stdfs::exists(data / "CURRENT"));
}

TEST_CASE("a store another process has open (LevelDB's LOCK held) is never touched") {
  Scratch scratch;
  const stdfs::path data = scratch.root / "data";
  UniqueFd fd;
  MadeDirectory made = Made(data, &fd);
  NewStoreCleanup cleanup(fd.get(), std::move(made));
  MakeStoreFiles(data);
  // Another mount's engine: a process holding a write lock on LOCK.
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t holder = fork();
  REQUIRE(holder >= 0);
  if (holder == 0) {
    int lock = open((data / "LOCK").c_str(), O_RDWR);
    struct flock whole {};
    whole.l_type = F_WRLCK;
    whole.l_whence = SEEK_SET;
    const char ok = lock >= 0 && fcntl(lock, F_SETLK, &whole) == 0 ? 'y' : 'n';
    (void)!write(ready[1], &ok, 1);
    pause();
    _exit(0);
  }
  char ok = 0;
  REQUIRE(read(ready[0], &ok, 1) == 1);
  CHECK(ok == 'y');
  const Status undone = cleanup.Undo();
  kill(holder, SIGKILL);
  waitpid(holder, nullptr, 0);
  close(ready[0]);
  close(ready[1]);
  REQUIRE(undone.ok());
  CHECK(stdfs::exists(data / "CURRENT"));
  CHECK(stdfs::exists(data / "000003.log"));
}

TEST_CASE("LevelDB's file names") {
  for (const char* name : {"CURRENT", "LOCK", "LOG", "LOG.old", "MANIFEST-000002", "000003.log",
                           "123.ldb", "9.sst", "000010.dbtmp"}) {
    INFO(name);
    CHECK(IsLevelDbFileName(name));
  }
  for (const char* name : {"current", "LOCK2", "MANIFEST-", "MANIFEST-1x", ".log", "a.log",
                           "12.ldb.bak", "notes.txt", "LOG.older"}) {
    INFO(name);
    CHECK_FALSE(IsLevelDbFileName(name));
  }
}

}  // namespace
}  // namespace cellfs::tools
