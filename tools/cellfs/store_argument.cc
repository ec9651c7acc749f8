// A command's store argument: a RADOS spelling checked and passed through,
// a data directory judged and opened (tools/cellfs/store_argument.h).
#include "tools/cellfs/store_argument.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "engine/store/storage/store_location.h"

namespace cellfs::tools {
namespace {

Result<std::string> RealPath(const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) {
    int err = errno;
    std::string hint = err == ENOTCONN ? " (a dead mount: run cellfs umount --force)" : "";
    return Status::IOError(path + ": " + std::strerror(err) + hint);
  }
  std::string out(resolved);
  std::free(resolved);
  return out;
}

// The absolute, symlink-free path of a data directory that may not exist
// yet: then the realpath of its parent plus its name.
Result<std::string> ResolveDataDir(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 || errno != ENOENT) return RealPath(path);
  size_t slash = path.rfind('/');
  std::string parent = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name == "." || name == "..") return RealPath(path);
  char* real_parent = realpath(parent.c_str(), nullptr);
  if (real_parent == nullptr) {
    return Status::IOError(path + ": " + std::strerror(errno) + " (its parent must exist)");
  }
  std::string resolved(real_parent);
  std::free(real_parent);
  return (resolved == "/" ? "" : resolved) + "/" + name;
}

bool IsWithin(const std::string& path, const std::string& dir) {
  return dir == "/" || path == dir || path.starts_with(dir + "/");
}

}  // namespace

Status CheckStoreSpelling(std::string_view spelling) {
  return storage::ParseStoreLocation(spelling).status();
}

Status CheckSourceArgument(std::string_view source, bool offline) {
  if (offline) return CheckStoreSpelling(source);
  if (!storage::IsRadosSpelling(source)) return Status::Ok();
  return Status::InvalidArgument("'" + std::string(source) +
                                 "' names a store, not a mount: give --offline to work on it "
                                 "directly, or the mount point of a mount of it");
}

Result<StoreArgument> OpenStoreArgument(const std::string& spelling,
                                        const StoreArgumentOptions& options) {
  Result<storage::StoreLocation> location = storage::ParseStoreLocation(spelling);
  if (!location.ok()) return location.status();
  StoreArgument store;
  store.path = spelling;
  if (location->kind == storage::StoreLocation::Kind::kRados) {
    store.rados = true;
    return store;
  }
  if (!options.mount_point.empty()) {
    Result<std::string> absolute = ResolveDataDir(spelling);
    if (!absolute.ok()) return absolute.status();
    store.path = *absolute;
    if (IsWithin(store.path, options.mount_point)) {
      return Status::InvalidArgument("the data directory " + spelling +
                                     " is inside the mount point " + options.mount_point +
                                     "; choose a data directory outside it");
    }
  }
  Result<UniqueFd> dir_fd = OpenTrustedDataDir(store.path, geteuid(), options.create, &store.made);
  if (!dir_fd.ok()) return dir_fd.status();
  store.dir_fd = std::move(*dir_fd);
  return store;
}

}  // namespace cellfs::tools
