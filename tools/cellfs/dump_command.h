// `cellfs dump`: a whole table as JSON Lines or CSV, from a mount's
// TABLE/@json or @csv, or, with --offline, straight from a data directory.
#pragma once

#include <string>

namespace cellfs::tools {

struct DumpArgs {
  std::string source;  // the mount point; with `offline`, the data directory
  bool offline = false;
  std::string keyspace, table;  // as their directories are named
  bool csv = false;             // CSV with a header (COPY TO) instead of JSON Lines
  std::string output;           // -o; empty or "-": stdout
};

// Streams the table, in token order from one snapshot, to the output (a
// file is created or truncated). Offline, the store is opened read-only and
// must not be mounted (its lock is held then). Returns the exit code: 0 when
// the whole table was written, 1 when the table, the mount, the store or the
// output failed (the message printed as "cellfs: ...").
int RunDump(const DumpArgs& args);

}  // namespace cellfs::tools
