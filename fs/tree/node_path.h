// NodePath: the path of a node relative to the mount, as a user would type
// it (canonical key names), for the reasons MOUNT/@errors and the log give.
#pragma once

#include <string>

#include "fs/tree/node.h"

namespace cellfs::fs {

// "." for the root; "ks", "ks/t", "ks/t/PK", "ks/t/PK/@ge=2018/CK/col",
// "ks/t/PK/CK/m@key=k", "ks/t/@insert". Key components that do not format
// (never stored) show as "?". Write suffixes (@ttl=...) are left out.
std::string NodePath(const Node& node);

}  // namespace cellfs::fs
