// `cellfs stats`: a table's partition sizes, widest partitions and token
// spread (TABLE/@stats, @stats.json), as text, JSON or an SVG picture.
#pragma once

#include <string>

namespace cellfs::tools {

struct StatsArgs {
  std::string source;  // the mount point; with `offline`, the data directory
  bool offline = false;
  std::string keyspace, table;  // as their directories are named
  bool json = false;            // print @stats.json instead of @stats
  std::string plot;             // --plot: write the SVG of stats_plot.h here
};

// Prints the statistics to stdout and, with `plot`, writes their picture
// (created or truncated). Offline, they are computed over the store opened
// read-only, which must not be mounted. Returns the exit code: 0 on
// success, 1 when the table, the mount, the store or the plot file failed
// (the message printed as "cellfs: ...").
int RunStats(const StatsArgs& args);

}  // namespace cellfs::tools
