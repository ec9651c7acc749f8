// TableStats: what the data-modeling guidance asks people to watch about a
// table (TABLE/@stats, `cellfs stats`): sizes, partition-size percentiles as
// nodetool tablehistograms shows them, the widest partitions, and how evenly
// partitions and bytes would spread over a ring of nodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/build_progress.h"
#include "engine/store/read_view.h"
#include "fs/formats/index_stats.h"

namespace cellfs::fs {

// Partitions over this many rows or bytes get a warning (the guidance:
// under 100k rows and 100 MB).
inline constexpr uint64_t kWidePartitionRows = 100'000;
inline constexpr uint64_t kWidePartitionBytes = 100'000'000;
// A read that scans over this many tombstones makes Cassandra warn
// (tombstone_warn_threshold); over kTombstoneFailure it refuses the read.
inline constexpr uint64_t kTombstoneWarning = 1'000;
inline constexpr uint64_t kTombstoneFailure = 100'000;

// "Bytes" throughout are logical: the serialized key values plus the
// serialized values of the live cells (no storage overhead), so they do not
// depend on compaction state.
struct PartitionSize {
  std::string name;  // the partition's directory name (fs/formats/key_name.h)
  int64_t token = 0;
  uint64_t rows = 0;  // live rows; a partition of static cells only counts 0
  uint64_t bytes = 0;
  uint64_t tombstones =
      0;                  // what a read of the whole partition scans (RowIterator::tombstones_read)
  uint64_t expiring = 0;  // live cells with a TTL
};

// Percentiles of a distribution over partitions, from a histogram with
// buckets growing by 20% (as Cassandra's EstimatedHistogram), so memory
// stays flat: each percentile is its bucket's upper bound, capped at the
// exact max; min, max and the mean are exact. All 0 when the table has no
// partitions.
struct Percentiles {
  uint64_t p50 = 0, p75 = 0, p95 = 0, p98 = 0, p99 = 0, min = 0, max = 0;
  double mean = 0;
};

// A ring of `nodes` nodes owning equal token ranges (node i owns the i-th
// of `nodes` equal slices of the signed 64-bit token space, in order).
struct RingSpread {
  int nodes = 0;
  std::vector<uint64_t> partitions;  // per node
  std::vector<uint64_t> bytes;       // per node
  // max / mean over nodes (1.0 = perfectly even; 0 when the table is empty).
  double partition_skew = 0;
  double byte_skew = 0;
};

struct TableStats {
  std::string keyspace, table;
  uint64_t partitions = 0, rows = 0, cells = 0, bytes = 0;
  uint64_t tombstones = 0, expiring_cells = 0;
  Percentiles rows_per_partition;
  Percentiles bytes_per_partition;
  Percentiles tombstones_per_partition;
  Percentiles expiring_per_partition;
  std::vector<PartitionSize> widest;  // by rows, then bytes; at most the count asked
  std::vector<RingSpread> rings;      // 3, 6 and 12 nodes
  // One line per partition over kWidePartitionRows or kWidePartitionBytes,
  // or whose read scans over kTombstoneWarning tombstones, the first 100 of
  // them (all are counted in `wide_partitions` and `tombstone_partitions`):
  // "partition 'X' has 123456 rows, over the guidance of 100000",
  // "partition 'X' holds 2345 tombstones, which a read of it scans (Cassandra
  // warns over 1000 and refuses the read over 100000)".
  std::vector<std::string> warnings;
  uint64_t wide_partitions = 0;
  uint64_t tombstone_partitions = 0;
  std::vector<IndexStats> indexes;  // fs/formats/index_stats.h
  // The builds under way of this table's indexes and, for a view, of the
  // view itself (AttachBuilds).
  std::vector<BuildProgress> builds;
};

// Keeps in stats->builds those of `builds` (Engine::BuildsInProgress) that
// concern stats->keyspace.stats->table.
void AttachBuilds(const std::vector<BuildProgress>& builds, TableStats* stats);

// Scans the table once at `view` (every live partition and row), then
// each of its indexes (ComputeIndexStats), with memory flat in the table's
// size. `widest_count`: how many of the widest
// partitions to keep. IOError / Corruption from the read.
Status ComputeTableStats(const ReadView& view, const TableHandle& table, size_t widest_count,
                         TableStats* out);

// The text of TABLE/@stats: a summary, the two percentile tables (as
// nodetool tablehistograms lays them out), the widest partitions, the ring
// spreads with their skew, the indexes (FormatIndexStatsText), the builds
// under way (BuildProgressText), and the warnings. Ends with '\n'.
std::string FormatStatsText(const TableStats& stats);

// The same as one JSON object (TABLE/@stats.json, `cellfs stats --json`):
// {"keyspace","table","partitions","rows","cells","bytes","tombstones","expiring_cells",
//  "rows_per_partition":{"p50",...,"min","max","mean"}, "bytes_per_partition":{...},
//  "tombstones_per_partition":{...}, "expiring_per_partition":{...},
//  "widest":[{"name","token","rows","bytes"}], "rings":[{"nodes",
//  "partitions":[...],"bytes":[...],"partition_skew","byte_skew"}],
//  "wide_partitions", "tombstone_partitions", "warnings":[...],
//  "indexes":[{"name","target","built",
//  "values","matches","widest_value","widest_matches","high_cardinality"}],
//  "builds":[BuildProgressJson...]}.
//  Ends with '\n'.
std::string FormatStatsJson(const TableStats& stats);

}  // namespace cellfs::fs
