// NewStoreCleanup: what a failed mount created in its data directory is
// removed through the directory's descriptor, never by a path walk, and
// only LevelDB's own file names.
#include "tools/cellfs/new_store_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "tools/cellfs/unique_fd.h"

namespace cellfs::tools {
namespace {

Status Errno(const std::string& what) {
  return Status::IOError(what + ": " + std::strerror(errno));
}

// The names in directory `fd` (without . and ..); false when it cannot be read.
bool ListNames(int fd, std::vector<std::string>* names) {
  int copy = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (copy < 0) return false;
  DIR* dir = fdopendir(copy);
  if (dir == nullptr) {
    close(copy);
    return false;
  }
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names->push_back(std::move(name));
  }
  closedir(dir);
  return true;
}

bool AllDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether a process (another mount) holds LevelDB's lock on DIR/LOCK: a
// write lock test, as LevelDB takes it (fcntl F_SETLK over the whole file).
bool LevelDbLockHeld(int dir_fd) {
  UniqueFd lock(openat(dir_fd, "LOCK", O_RDWR | O_NOFOLLOW | O_CLOEXEC));
  if (!lock.valid()) return errno != ENOENT;  // in doubt: held
  struct flock probe {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  if (fcntl(lock.get(), F_GETLK, &probe) != 0) return true;
  return probe.l_type != F_UNLCK;
}

}  // namespace

bool IsLevelDbFileName(const std::string& name) {
  if (name == "CURRENT" || name == "LOCK" || name == "LOG" || name == "LOG.old") return true;
  if (name.starts_with("MANIFEST-")) return AllDigits(std::string_view(name).substr(9));
  for (std::string_view suffix : {".log", ".ldb", ".sst", ".dbtmp"}) {
    if (name.ends_with(suffix)) {
      return AllDigits(std::string_view(name).substr(0, name.size() - suffix.size()));
    }
  }
  return false;
}

NewStoreCleanup::NewStoreCleanup(int data_dir_fd, MadeDirectory made)
    : data_dir_fd_(data_dir_fd), made_(std::move(made)) {
  Lock();
  std::vector<std::string> names;
  if (!ListNames(data_dir_fd_, &names)) return;
  for (const std::string& name : names) {
    if (IsLevelDbFileName(name) && name != "LOCK") return;  // a store, perhaps damaged
  }
  names_before_.insert(names.begin(), names.end());
  store_existed_ = false;
}

NewStoreCleanup::~NewStoreCleanup() { Unlock(); }

void NewStoreCleanup::Lock() {
  while (flock(data_dir_fd_, LOCK_EX) != 0 && errno == EINTR) {
  }
  locked_ = true;
}

void NewStoreCleanup::Unlock() {
  if (!locked_) return;
  flock(data_dir_fd_, LOCK_UN);
  locked_ = false;
}

void NewStoreCleanup::Opened() { Unlock(); }

Status NewStoreCleanup::Undo() {
  if (store_existed_) return Status::Ok();
  Lock();
  // Another mount that opened the store after this one closed it uses it.
  if (LevelDbLockHeld(data_dir_fd_)) return Status::Ok();
  struct stat dir {};
  if (fstat(data_dir_fd_, &dir) != 0) return Errno("the data directory");
  std::vector<std::string> names;
  if (!ListNames(data_dir_fd_, &names)) return Errno("listing the data directory");
  for (const std::string& name : names) {
    if (names_before_.contains(name) || !IsLevelDbFileName(name)) continue;
    struct stat st {};
    if (fstatat(data_dir_fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    // Files only, on the directory's own filesystem (never what another
    // mount put there).
    if (!S_ISREG(st.st_mode) || st.st_dev != dir.st_dev) continue;
    if (unlinkat(data_dir_fd_, name.c_str(), 0) != 0 && errno != ENOENT) {
      return Errno("removing " + name);
    }
  }
  if (made_.parent.valid() && unlinkat(made_.parent.get(), made_.name.c_str(), AT_REMOVEDIR) != 0 &&
      errno != ENOTEMPTY && errno != EEXIST) {
    return Errno("removing the data directory " + made_.name);
  }
  return Status::Ok();
}

}  // namespace cellfs::tools
