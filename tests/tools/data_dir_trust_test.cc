// OpenTrustedDataDir: a data directory is opened only when nobody but its
// user (and root) can replace it or any directory above it. And the store
// argument over it: a directory judged so, a RADOS pool's spelling passed
// through untouched.
#include "tools/cellfs/data_dir_trust.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tools/cellfs/store_argument.h"

namespace cellfs::tools {
namespace {

namespace stdfs = std::filesystem;

constexpr uid_t kOtherUid = 65534;  // nobody

// A fresh directory (0700, root-owned when run as root) under the system's
// temporary directory, removed after.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (stdfs::temp_directory_path() / "cellfs-trust.XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    stdfs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Makes `name` (relative) with exactly `mode`, owned by `owner`.
  std::string Make(const std::string& name, mode_t mode, uid_t owner = geteuid()) const {
    std::string path = (path_ / name).string();
    REQUIRE(mkdir(path.c_str(), 0700) == 0);
    REQUIRE(chmod(path.c_str(), mode) == 0);
    if (owner != geteuid()) REQUIRE(chown(path.c_str(), owner, static_cast<gid_t>(-1)) == 0);
    return path;
  }
  const stdfs::path& path() const { return path_; }

 private:
  stdfs::path path_;
};

std::string Refusal(const std::string& dir, bool create = true) {
  Result<UniqueFd> opened = OpenTrustedDataDir(dir, geteuid(), create);
  REQUIRE_FALSE(opened.ok());
  return opened.status().message();
}

// The descriptor opened is the directory at `dir`.
void CheckOpens(const std::string& dir) {
  Result<UniqueFd> opened = OpenTrustedDataDir(dir, geteuid(), true);
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  struct stat by_fd {};
  struct stat by_path {};
  REQUIRE(fstat(opened->get(), &by_fd) == 0);
  REQUIRE(stat(dir.c_str(), &by_path) == 0);
  CHECK(by_fd.st_ino == by_path.st_ino);
  CHECK(by_fd.st_dev == by_path.st_dev);
}

TEST_CASE("an ancestor other users can write is refused, naming it and the fix", "[trust]") {
  ScratchDir scratch;
  SECTION("world-writable, not sticky") {
    std::string parent = scratch.Make("open", 0777);
    scratch.Make("open/data", 0700);
    std::string message = Refusal(parent + "/data");
    CHECK(message == "the data directory " + parent + "/data is not safe: its ancestor " + parent +
                         " is writable by others (mode 0777), who could replace the data "
                         "directory (chmod o-w " +
                         parent + ", or use a directory elsewhere)");
  }
  SECTION("group-writable") {
    std::string parent = scratch.Make("group", 0770);
    scratch.Make("group/a", 0755);
    std::string message = Refusal(parent + "/a/data");  // judged before data is made
    CHECK(message.find("its ancestor " + parent + " is writable by its group (mode 0770)") !=
          std::string::npos);
    CHECK(message.find("chmod g-w " + parent) != std::string::npos);
    CHECK_FALSE(stdfs::exists(parent + "/a/data"));
  }
  SECTION("two levels up") {
    std::string top = scratch.Make("top", 0757);
    scratch.Make("top/middle", 0755);
    std::string message = Refusal(top + "/middle/data");
    CHECK(message.find("its ancestor " + top + " is writable by others (mode 0757)") !=
          std::string::npos);
    CHECK_FALSE(stdfs::exists(top + "/middle/data"));
  }
}

TEST_CASE("a sticky world-writable ancestor, like /tmp, protects entries of root or the user",
          "[trust]") {
  ScratchDir scratch;
  std::string sticky = scratch.Make("sticky", 01777);
  SECTION("the entry below is the user's") {
    scratch.Make("sticky/mine", 0755);
    CheckOpens(sticky + "/mine/data");
  }
  SECTION("the data directory itself is the entry") { CheckOpens(sticky + "/data"); }
  SECTION("the entry below is another user's") {
    if (geteuid() != 0) {
      WARN("not root: cannot make a directory another user owns");
      return;
    }
    std::string theirs = scratch.Make("sticky/theirs", 0755, kOtherUid);
    std::string message = Refusal(theirs + "/data");
    CHECK(message.find("its ancestor " + theirs +
                       " is owned by uid 65534, who could replace "
                       "the data directory (chown root " +
                       theirs) != std::string::npos);
  }
}

TEST_CASE("the data directory must be the user's and writable by nobody else", "[trust]") {
  ScratchDir scratch;
  SECTION("owned by another uid") {
    if (geteuid() != 0) {
      WARN("not root: cannot make a directory another user owns");
      return;
    }
    std::string data = scratch.Make("data", 0700, kOtherUid);
    CHECK(Refusal(data).find("the data directory " + data +
                             " is owned by uid 65534, not by the user opening it") !=
          std::string::npos);
  }
  SECTION("writable by others") {
    std::string data = scratch.Make("data", 0777);
    CHECK(Refusal(data).find("is writable by others (mode 0777)") != std::string::npos);
  }
  SECTION("writable by its group") {
    std::string data = scratch.Make("data", 0770);
    CHECK(Refusal(data).find("is writable by its group (mode 0770)") != std::string::npos);
  }
  SECTION("a symbolic link as the data directory is resolved, then judged") {
    std::string real = scratch.Make("real", 0700);
    stdfs::create_directory_symlink(real, scratch.path() / "link");
    CheckOpens((scratch.path() / "link").string());
  }
  SECTION("a file") {
    std::string file = (scratch.path() / "file").string();
    REQUIRE(close(creat(file.c_str(), 0600)) == 0);
    CHECK(Refusal(file).find(file) != std::string::npos);
  }
}

TEST_CASE("a missing data directory is created 0700 whatever the umask, only when asked",
          "[trust]") {
  ScratchDir scratch;
  std::string data = (scratch.path() / "data").string();
  CHECK(Refusal(data, /*create=*/false).find("No such file or directory") != std::string::npos);
  CHECK_FALSE(stdfs::exists(data));
  mode_t saved = umask(0);
  CheckOpens(data);
  umask(saved);
  struct stat st {};
  REQUIRE(stat(data.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0700);
  CHECK(st.st_uid == geteuid());
  CHECK(Refusal((scratch.path() / "missing/data").string()).find("No such file or directory") !=
        std::string::npos);
}

TEST_CASE("a data directory made and then refused is not left behind", "[trust]") {
  ScratchDir scratch;
  std::string data = (scratch.path() / "data").string();
  // Opened for another user, the directory this process makes is not theirs.
  const uid_t other = geteuid() + 4242;
  Result<UniqueFd> opened = OpenTrustedDataDir(data, other, true);
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.status().message().find("is owned by uid") != std::string::npos);
  CHECK_FALSE(stdfs::exists(data));
  // One that was there already stays.
  scratch.Make("kept", 0700);
  CHECK_FALSE(OpenTrustedDataDir((scratch.path() / "kept").string(), other, true).ok());
  CHECK(stdfs::exists(scratch.path() / "kept"));
}

TEST_CASE("a rados spelling goes to the engine as given; no directory is judged or made",
          "[store_argument]") {
  const std::string spelling = "rados:cellfs?conf=/etc/ceph/a,b.conf&id=fs";
  StoreArgumentOptions options;
  options.create = true;
  options.mount_point = "/";  // every directory lies inside it
  Result<StoreArgument> store = OpenStoreArgument(spelling, options);
  INFO(store.status().ToString());
  REQUIRE(store.ok());
  CHECK(store->rados);
  CHECK(store->path == spelling);
  CHECK_FALSE(store->dir_fd.valid());
  CHECK(store->dir_fd.get() == -1);  // EngineOptions::data_dir_fd's "none"
  CHECK_FALSE(store->made.parent.valid());
  CHECK_FALSE(stdfs::exists(spelling));
  CHECK(CheckStoreSpelling(spelling).ok());
}

TEST_CASE("a bad rados spelling is refused with the parser's message, touching nothing",
          "[store_argument]") {
  for (const auto& [spelling, why] :
       {std::pair<std::string, std::string>{"rados:", "no pool named"},
        {"rados:?conf=/c", "no pool named"},
        {"rados:p?x=1", "unknown parameter 'x'"},
        {"rados:p?conf=", "empty conf"},
        {"rados:p?id=a&id=b", "id given twice"},
        {"rados:p?conf", "is not NAME=VALUE"}}) {
    INFO(spelling);
    Status checked = CheckStoreSpelling(spelling);
    CHECK(checked.code() == StatusCode::kInvalidArgument);
    CHECK(checked.message().find(why) != std::string::npos);
    CHECK(checked.message().find("(expected rados:POOL[") != std::string::npos);
    StoreArgumentOptions create;
    create.create = true;
    Result<StoreArgument> store = OpenStoreArgument(spelling, create);
    REQUIRE_FALSE(store.ok());
    CHECK(store.status().message() == checked.message());
    CHECK_FALSE(stdfs::exists(spelling));
  }
  // Anything else is a directory, judged only when opened.
  CHECK(CheckStoreSpelling("/no/such/dir").ok());
  CHECK(CheckStoreSpelling("radosdir").ok());
  CHECK(CheckStoreSpelling("./rados:p").ok());
}

TEST_CASE("a data directory is judged and held; against a mount point, made absolute",
          "[store_argument]") {
  ScratchDir scratch;
  const std::string data = (scratch.path() / "data").string();
  SECTION("opened, made when asked") {
    StoreArgumentOptions options;
    CHECK_FALSE(OpenStoreArgument(data, options).ok());  // never made unless asked
    CHECK_FALSE(stdfs::exists(data));
    options.create = true;
    Result<StoreArgument> store = OpenStoreArgument(data, options);
    INFO(store.status().ToString());
    REQUIRE(store.ok());
    CHECK_FALSE(store->rados);
    CHECK(store->path == data);
    CHECK(store->dir_fd.valid());
    CHECK(store->made.parent.valid());
    CHECK(store->made.name == "data");
  }
  SECTION("inside the mount point: refused before it is made") {
    StoreArgumentOptions options;
    options.create = true;
    options.mount_point = scratch.path().string();
    Result<StoreArgument> store = OpenStoreArgument(data, options);
    REQUIRE_FALSE(store.ok());
    CHECK(store.status().message().find("is inside the mount point") != std::string::npos);
    CHECK_FALSE(stdfs::exists(data));
  }
  SECTION("outside it: absolute, symlinks resolved") {
    scratch.Make("real", 0700);
    stdfs::create_directory_symlink(scratch.path() / "real", scratch.path() / "link");
    StoreArgumentOptions options;
    options.mount_point = stdfs::canonical(scratch.Make("mnt", 0755)).string();
    Result<StoreArgument> store =
        OpenStoreArgument((scratch.path() / "link").string() + "/", options);
    INFO(store.status().ToString());
    REQUIRE(store.ok());
    CHECK(store->path == stdfs::canonical(scratch.path() / "real").string());
    CHECK_FALSE(store->made.parent.valid());
  }
}

TEST_CASE("load, dump and stats take a rados spelling only with --offline", "[store_argument]") {
  CHECK(CheckSourceArgument("rados:cellfs", /*offline=*/true).ok());
  CHECK(CheckSourceArgument("/mnt/cellfs", /*offline=*/false).ok());
  CHECK(CheckSourceArgument("/data", /*offline=*/true).ok());
  Status online = CheckSourceArgument("rados:cellfs", /*offline=*/false);
  CHECK(online.message().find("names a store, not a mount") != std::string::npos);
  CHECK(online.message().find("--offline") != std::string::npos);
  CHECK(CheckSourceArgument("rados:", /*offline=*/true).message().find("no pool named") !=
        std::string::npos);
}

}  // namespace
}  // namespace cellfs::tools
