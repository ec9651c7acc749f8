// MountTable: the mounts of this process's namespace, read from
// /proc/self/mountinfo without touching the mounted filesystems (a stat of
// a dead FUSE mount can hang).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cellfs::tools {

struct MountEntry {
  int mount_id = 0;
  unsigned minor = 0;       // of st_dev; for FUSE, the connection number
  std::string mount_point;  // unescaped
  std::string fs_type;      // "fuse.cellfs" for a cellfs mount
  std::string source;       // unescaped; cellfs: its data directory
};

// One line of /proc/self/mountinfo; nullopt when it does not parse.
std::optional<MountEntry> ParseMountInfoLine(std::string_view line);

// Every mount of `fs_type` ("fuse.cellfs"), in the table's order.
std::vector<MountEntry> ListMounts(std::string_view fs_type);

// The topmost mount at `path` (absolute, normalised, symlinks resolved);
// nullopt when nothing is mounted there.
std::optional<MountEntry> FindMount(const std::string& path);

// Whether `mount` is still in the table: the same id at the same mount point
// from the same source (the kernel reuses a freed id at once, so the id
// alone may name another, newer mount).
bool IsMounted(const MountEntry& mount);

// `path` made absolute without resolving its last component (which may be
// a dead mount): the realpath of its parent plus its name. Empty when the
// parent does not resolve.
std::string AbsolutePathOfMountPoint(std::string path);

}  // namespace cellfs::tools
