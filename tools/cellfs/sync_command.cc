// `cellfs sync`: fsync(2) of a cellfs mount's root directory, after a
// check in the mount table that it is one.
#include "tools/cellfs/sync_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "tools/cellfs/mount_table.h"

namespace cellfs::tools {
namespace {

constexpr const char* kCellfsType = "fuse.cellfs";

int Fail(const std::string& mount_point, const std::string& what, int err) {
  std::string hint;
  if (err == ENOTCONN) hint = " (the daemon is gone: run cellfs umount --force, then mount again)";
  std::fprintf(stderr, "cellfs sync: %s: %s%s%s\n", mount_point.c_str(), what.c_str(),
               std::strerror(err), hint.c_str());
  return 1;
}

}  // namespace

int RunSync(const SyncArgs& args) {
  // The mount table first: a stat or open of a dead mount can hang.
  const std::string absolute = AbsolutePathOfMountPoint(args.mount_point);
  std::optional<MountEntry> mount = absolute.empty() ? std::nullopt : FindMount(absolute);
  if (!mount || mount->fs_type != kCellfsType) {
    std::fprintf(stderr, "cellfs sync: %s: not a cellfs mount point\n", args.mount_point.c_str());
    return 1;
  }
  int fd = open(args.mount_point.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Fail(args.mount_point, "", errno);
  int rc;
  do {
    rc = fsync(fd);
  } while (rc != 0 && errno == EINTR);
  const int err = rc != 0 ? errno : 0;
  close(fd);
  if (err != 0) return Fail(args.mount_point, "fsync: ", err);
  return 0;
}

}  // namespace cellfs::tools
