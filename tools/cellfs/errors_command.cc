// `cellfs errors`: reads MOUNT/@errors and filters its lines by path.
#include "tools/cellfs/errors_command.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <string_view>

#include "tools/cellfs/mount_table.h"

namespace cellfs::tools {
namespace {

constexpr const char* kCellfsType = "fuse.cellfs";

// Whether `line` ("TIME OPERATION PATH: ...") is about `path` or a node
// under it.
bool About(std::string_view line, std::string_view path) {
  for (int field = 0; field < 2; ++field) {
    size_t space = line.find(' ');
    if (space == std::string_view::npos) return false;
    line.remove_prefix(space + 1);
  }
  if (!line.starts_with(path)) return false;
  line.remove_prefix(path.size());
  return line.starts_with(':') || line.starts_with('/');
}

}  // namespace

int RunErrors(const ErrorsArgs& args) {
  const std::string mount = AbsolutePathOfMountPoint(args.mount_point);
  std::optional<MountEntry> entry = mount.empty() ? std::nullopt : FindMount(mount);
  if (!entry || entry->fs_type != kCellfsType) {
    std::fprintf(stderr, "cellfs errors: %s: not a cellfs mount point\n", args.mount_point.c_str());
    return 1;
  }
  std::string path = args.path;
  if (path.starts_with('/')) {
    if (path != mount && !path.starts_with(mount + "/")) {
      std::fprintf(stderr, "cellfs errors: %s is not inside the mount %s\n", path.c_str(),
                   mount.c_str());
      return 1;
    }
    path = path.size() == mount.size() ? std::string() : path.substr(mount.size() + 1);
  }
  while (path.ends_with('/')) path.pop_back();
  std::ifstream errors(mount + "/@errors");
  if (!errors) {
    std::fprintf(stderr, "cellfs errors: cannot read %s/@errors\n", mount.c_str());
    return 1;
  }
  for (std::string line; std::getline(errors, line);) {
    if (path.empty() || path == "." || About(line, path)) std::printf("%s\n", line.c_str());
  }
  return 0;
}

}  // namespace cellfs::tools
