// MountStatusText: what MOUNT/@status shows, the facts `cellfs status`
// gathers from every mount (docs/FILESYSTEM.md "Virtual files").
#pragma once

#include <string>

namespace cellfs::fs {

class TreeContext;

// One JSON object and a newline: the daemon (pid, data directory, mount
// time, commit mode, read-only), the store's size in bytes, whether writes
// are taken ("writes": "ok", or the write fence's reason, as every write
// would now fail), the refusals (how many since the mount, the latest
// @errors line), and the index and view builds under way ("builds":
// BuildProgressJson each). Fields the daemon did not give (FilesystemOptions::daemon
// left empty) are null. Thread-safe.
std::string MountStatusText(const TreeContext& tree);

}  // namespace cellfs::fs
