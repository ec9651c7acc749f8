// `cellfs status`: every cellfs mount of this mount namespace (or the ones
// named) with its data directory, daemon pid, commit mode, store size and
// health, read from each mount's MOUNT/@status.
#pragma once

#include <string>
#include <vector>

namespace cellfs::tools {

struct StatusArgs {
  std::vector<std::string> mount_points;  // empty: every cellfs mount
  bool json = false;                      // one JSON object per mount instead of a table
};

// Prints a table (or JSON Lines) of the mounts. A mount that does not answer
// within 3 seconds (a hung daemon) or cannot be read (a dead mount, another
// user's private mount) is listed with the reason. Returns 0 when every
// mount answered and takes writes; 1 otherwise: a mount that does not
// answer, cannot be read or refuses writes (a read-only mount too), or a
// MOUNTPOINT that is not a cellfs mount.
int RunStatus(const StatusArgs& args);

}  // namespace cellfs::tools
