// NewStoreCleanup: a failed mount removes the store it created (the files
// that were not there, then the directory it made), and never touches a
// store that was there before.
#include "tools/cellfs/new_store_cleanup.h"

#include <fcntl.h>
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

// What an engine's first open leaves: LevelDB's files and a directory.
void MakeStoreFiles(const stdfs::path& dir) {
  Touch(dir / "CURRENT");
  Touch(dir / "MANIFEST-000001");
  Touch(dir / "000003.log");
  stdfs::create_directory(dir / "sub");
  Touch(dir / "sub" / "inner");
}

TEST_CASE("a data directory the mount made goes, with everything in it") {
  Scratch scratch;
  const stdfs::path data = scratch.root / "data";
  MadeDirectory made;
  Result<UniqueFd> fd = OpenTrustedDataDir(data.string(), geteuid(), true, &made);
  REQUIRE(fd.ok());
  REQUIRE(made.parent.valid());
  NewStoreCleanup cleanup(fd->get(), std::move(made));
  MakeStoreFiles(data);
  REQUIRE(cleanup.Undo().ok());
  CHECK_FALSE(stdfs::exists(data));
  CHECK(stdfs::exists(scratch.root));
}

TEST_CASE("in a directory that was there, only the new store's files go") {
  Scratch scratch;
  const stdfs::path data = scratch.root / "data";
  stdfs::create_directory(data);
  stdfs::permissions(data, stdfs::perms::owner_all);
  Touch(data / "notes.txt");
  MadeDirectory made;
  Result<UniqueFd> fd = OpenTrustedDataDir(data.string(), geteuid(), true, &made);
  REQUIRE(fd.ok());
  CHECK_FALSE(made.parent.valid());  // not made by this call
  NewStoreCleanup cleanup(fd->get(), std::move(made));
  MakeStoreFiles(data);
  REQUIRE(cleanup.Undo().ok());
  CHECK(stdfs::exists(data / "notes.txt"));
  CHECK_FALSE(stdfs::exists(data / "CURRENT"));
  CHECK_FALSE(stdfs::exists(data / "000003.log"));
  CHECK_FALSE(stdfs::exists(data / "sub"));
}

TEST_CASE("a store that was there is never touched") {
  Scratch scratch;
  const stdfs::path data = scratch.root / "data";
  stdfs::create_directory(data);
  stdfs::permissions(data, stdfs::perms::owner_all);
  MakeStoreFiles(data);
  Result<UniqueFd> fd = OpenTrustedDataDir(data.string(), geteuid(), true);
  REQUIRE(fd.ok());
  NewStoreCleanup cleanup(fd->get(), MadeDirectory{});
  Touch(data / "000005.log");  // what the failed open added
  REQUIRE(cleanup.Undo().ok());
  CHECK(stdfs::exists(data / "CURRENT"));
  CHECK(stdfs::exists(data / "000005.log"));
  CHECK(stdfs::exists(data / "sub" / "inner"));
}

}  // namespace
}  // namespace cellfs::tools
