// `cellfs snapshot list|restore|clear DATADIR ...`: the tables DROP and
// TRUNCATE kept (Cassandra's auto_snapshot; Engine::Snapshots), on an
// unmounted store.
#pragma once

#include <string>
#include <vector>

namespace cellfs::tools {

struct SnapshotArgs {
  enum class Action { kList, kRestore, kClear };
  Action action = Action::kList;
  std::string data_dir;
  std::vector<std::string> names;  // restore: one; clear: any number
  std::string as_table;            // restore --as
  bool all = false;                // clear --all
};

// Opens DATADIR (refused while a mount holds it) and lists (name, table,
// why, when taken, oldest first), restores or clears snapshots. Returns the
// exit code: 0 done, 1 refused (no such snapshot, the table exists, …, the
// reason on stderr), 2 when the store cannot be opened or written.
int RunSnapshot(const SnapshotArgs& args);

}  // namespace cellfs::tools
