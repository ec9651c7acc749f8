// BuildScan: the walk an index or view build makes over its base table, in
// token order, from where an earlier part of the build stopped, in steps a
// caller can bound (by rows) and stop, so a build can run partly inside
// the statement that created it and finish on the builder thread.
//
// Why any snapshot will do for any part: every write after the index or
// view joined the schema adds its own entries, so a part needs only the
// rows its snapshot sees; an entry for a value a later write replaced is
// stale, and reads check every entry against its row (docs/ENGINE.md
// "Index builds").
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/partition_iterator.h"
#include "engine/store/read_view.h"

namespace cellfs {

struct EngineCore;

namespace storage {

class BuildBatch;

// Where a build is. A plain value type.
struct BuildCursor {
  std::string position;  // the last partition done (PartitionIterator::position); "" before any
  int64_t token = INT64_MIN;  // that partition's token
  uint64_t rows = 0;          // rows and static rows read so far
  bool done = false;          // every partition read
};

struct BuildLimits {
  // Stop at the first partition boundary once this many rows were read by
  // this call; 0: no bound.
  uint64_t rows = 0;
  // Checked before each partition: when set, stop there (Ok, not done).
  const std::atomic<bool>* stop = nullptr;
  // Whether the build is still wanted in a schema (false once the index or
  // view was dropped, or its table truncated): asked of the current schema
  // every kWantedCheckPartitions partitions, and under the schema lock
  // before each batch of entries is committed, so no entry of a dropped
  // index or view lands once its DROP has returned. false ends the walk
  // with Aborted. May be empty: always wanted.
  std::function<bool(const SchemaState&)> still_wanted;
  // Told where the walk is after each partition (for display: the entries
  // of those partitions may not be committed yet).
  std::function<void(const BuildCursor&)> progress;
};

inline constexpr uint64_t kWantedCheckPartitions = 256;

// Adds the entries of one partition's rows to the batch; `*rows` receives
// how many rows (static row included) it read.
using BuildPartitionVisitor =
    std::function<Status(const ReadView& view, const PartitionIterator& partition, uint64_t* rows)>;

// Walks `base`'s live partitions after cursor->position at a fresh
// snapshot, calling `visit` for each, and flushes `batch` before it
// returns. `*cursor` moves past the partitions walked only once their
// entries are committed, so on any error it is where it was. Ok with
// cursor->done false when a limit stopped it; Aborted when still_wanted
// said no; storage errors as the reads and the batch's. A limit applies
// between partitions: one wide partition is walked whole.
Status ScanForBuild(EngineCore* core, const TableHandle& base, BuildBatch* batch,
                    const BuildLimits& limits, BuildCursor* cursor,
                    const BuildPartitionVisitor& visit);

}  // namespace storage
}  // namespace cellfs
