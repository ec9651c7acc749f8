// RemovalRuns: the file face's removal runs, so that the snapshot `rmdir`
// of a table takes keeps the rows `rm -r` deleted just before it
// (docs/ENGINE.md "Removal runs"). A run of a table begins at the first
// removal through the file face after a quiet period and lasts while
// removals follow within it; it remembers the first sequence it could
// write. While a table's run is open the sweeper rewrites none of its data
// (it checks and commits under this registry's lock), so every entry older
// than the run stays as it was, and a snapshot taken during the run keeps
// the table as of its start: a restore deletes the entries the run wrote.
// A run protects for at most its maximum age: one that goes on longer (a
// steady stream of removals, not an `rm -r`) retires, and the table has no
// protecting run until its removals go quiet, so the sweeper is never held
// off for longer.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

#include "engine/status.h"

namespace cellfs::storage {

class SequenceAllocator;

// Thread-safe. Memory: one entry per table whose run is open, or closed
// but not yet pruned (pruned at the next Note).
class RemovalRuns {
 public:
  struct Run {
    uint64_t first_sequence = 0;  // every entry the run wrote has a sequence >= this
    int64_t started_micros = 0;   // the clock when it began
    int64_t last_micros = 0;      // the clock at its latest removal
    bool retired = false;         // went on past the maximum age: protects nothing
  };

  // `quiet_micros`: how long after its latest removal a run stays open;
  // `max_age_micros`: how long after its start it may protect the table.
  RemovalRuns(int64_t quiet_micros, int64_t max_age_micros)
      : quiet_micros_(quiet_micros), max_age_micros_(max_age_micros) {}

  // A removal in table `table_id` at `now_micros`, noted before its
  // mutation is built: extends the table's open run (retiring it once past
  // the maximum age), or begins one at the next sequence `sequences` will
  // hand out.
  void Note(uint32_t table_id, int64_t now_micros, const SequenceAllocator& sequences);

  // The table's run, when one protects it at `now_micros`: open, not
  // retired, younger than the maximum age.
  std::optional<Run> Open(uint32_t table_id, int64_t now_micros) const;

  // Forgets the table's run: a restore deleted what it wrote, so what comes
  // after begins anew. (A DROP keeps it: a sweep that looked before the
  // DROP may still commit after it, and must still be refused.)
  void Forget(uint32_t table_id);

  // Runs `commit` unless a run protects the table at `now_micros`, with no
  // run able to begin meanwhile: Aborted ("a removal run is open") when one
  // does, else what `commit` returns. The sweeper's rewrites of a table's
  // data pass here.
  Status CommitUnlessOpen(uint32_t table_id, int64_t now_micros,
                          const std::function<Status()>& commit) const;

 private:
  bool IsOpen(const Run& run, int64_t now_micros) const {
    return now_micros - run.last_micros < quiet_micros_;
  }
  bool Protects(const Run& run, int64_t now_micros) const {
    return IsOpen(run, now_micros) && !run.retired &&
           now_micros - run.started_micros < max_age_micros_;
  }

  const int64_t quiet_micros_;
  const int64_t max_age_micros_;
  // Guards runs_; held across CommitUnlessOpen's commit (an unsynced
  // storage write), taken inside the sweep's lock and the DDL lock (Open),
  // with nothing taken under it but the storage's and the write fence's
  // own locks (docs/FILESYSTEM.md "Locks").
  mutable std::mutex mutex_;
  std::map<uint32_t, Run> runs_;  // by table id
};

}  // namespace cellfs::storage
