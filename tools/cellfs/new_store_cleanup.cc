// NewStoreCleanup: what a failed mount created in its data directory is
// removed through the directory's descriptor, never by a path walk.
#include "tools/cellfs/new_store_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

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

// Removes `name` in directory `fd`, a directory with everything below it.
Status RemoveAt(int fd, const std::string& name) {
  if (unlinkat(fd, name.c_str(), 0) == 0 || errno == ENOENT) return Status::Ok();
  if (errno != EISDIR && errno != EPERM) return Errno("removing " + name);
  UniqueFd below(openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!below.valid()) return Errno("opening " + name);
  std::vector<std::string> names;
  if (!ListNames(below.get(), &names)) return Errno("listing " + name);
  for (const std::string& inner : names) CELLFS_RETURN_IF_ERROR(RemoveAt(below.get(), inner));
  if (unlinkat(fd, name.c_str(), AT_REMOVEDIR) != 0) return Errno("removing " + name);
  return Status::Ok();
}

}  // namespace

NewStoreCleanup::NewStoreCleanup(int data_dir_fd, MadeDirectory made)
    : data_dir_fd_(data_dir_fd), made_(std::move(made)) {
  struct stat st {};
  if (fstatat(data_dir_fd_, "CURRENT", &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT) return;
  std::vector<std::string> names;
  if (!ListNames(data_dir_fd_, &names)) return;
  names_before_.insert(names.begin(), names.end());
  store_existed_ = false;
}

Status NewStoreCleanup::Undo() {
  if (store_existed_) return Status::Ok();
  std::vector<std::string> names;
  if (!ListNames(data_dir_fd_, &names)) return Errno("listing the data directory");
  for (const std::string& name : names) {
    if (!names_before_.contains(name)) CELLFS_RETURN_IF_ERROR(RemoveAt(data_dir_fd_, name));
  }
  if (made_.parent.valid() && unlinkat(made_.parent.get(), made_.name.c_str(), AT_REMOVEDIR) != 0) {
    return Errno("removing the data directory " + made_.name);
  }
  return Status::Ok();
}

}  // namespace cellfs::tools
