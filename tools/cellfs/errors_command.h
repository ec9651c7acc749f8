// `cellfs errors`: shows a mount's latest refused requests with their
// reasons (MOUNT/@errors), optionally only those under one path.
#pragma once

#include <string>

namespace cellfs::tools {

struct ErrorsArgs {
  std::string mount_point;
  std::string path;  // empty: every refusal; else the mount's path, or one under it
};

// Prints the lines of MOUNTPOINT/@errors (oldest first), those whose path
// is `path` or lies under it when one is given (absolute, or relative to
// the mount point). Returns the exit code: 0; 1 with a message on stderr
// when MOUNTPOINT is not a cellfs mount, or PATH is not inside it.
int RunErrors(const ErrorsArgs& args);

}  // namespace cellfs::tools
