// TableStats: one streaming pass over a table's live partitions and rows,
// folded into flat-memory summaries (bucketed histograms, a bounded heap of
// the widest partitions, per-node ring counters), and their text and JSON.
#include "fs/formats/table_stats.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <queue>
#include <span>
#include <utility>

#include "engine/cql/literal.h"
#include "fs/formats/build_progress_json.h"
#include "fs/formats/key_name.h"

namespace cellfs::fs {
namespace {

__extension__ using Uint128 = unsigned __int128;  // GCC/Clang; pedantic needs the marker

constexpr std::array<int, 3> kRingSizes = {3, 6, 12};
// Warning lines kept; wide_partitions counts every wide partition.
constexpr size_t kMaxWarnings = 100;

// Bucket upper bounds as Cassandra's EstimatedHistogram makes them (each
// about 20% over the last: 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 17, ...),
// after a bucket of its own for 0 and up to the largest uint64.
const std::vector<uint64_t>& BucketBounds() {
  static const std::vector<uint64_t> bounds = [] {
    std::vector<uint64_t> out = {0, 1};
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    while (out.back() <= (kMax - 5) / 12) {
      const uint64_t last = out.back();
      const uint64_t next = (last * 12 + 5) / 10;  // round(last * 1.2)
      out.push_back(next == last ? last + 1 : next);
    }
    out.push_back(kMax);
    return out;
  }();
  return bounds;
}

// A histogram over BucketBounds(), with exact min and max.
class Histogram {
 public:
  Histogram() : counts_(BucketBounds().size(), 0) {}

  void Add(uint64_t value) {
    const std::vector<uint64_t>& bounds = BucketBounds();
    const auto bucket = std::lower_bound(bounds.begin(), bounds.end(), value) - bounds.begin();
    ++counts_[static_cast<size_t>(bucket)];
    min_ = total_ == 0 ? value : std::min(min_, value);
    max_ = std::max(max_, value);
    sum_ += static_cast<long double>(value);
    ++total_;
  }

  Percentiles Summarize() const {
    Percentiles out;
    if (total_ == 0) return out;
    out.p50 = Percentile(50);
    out.p75 = Percentile(75);
    out.p95 = Percentile(95);
    out.p98 = Percentile(98);
    out.p99 = Percentile(99);
    out.min = min_;
    out.max = max_;
    out.mean = static_cast<double>(sum_ / static_cast<long double>(total_));
    return out;
  }

 private:
  // The upper bound of the bucket holding the value of rank ceil(total *
  // percent / 100), as EstimatedHistogram.percentile; never above the exact
  // max, which the last bucket's bound may overshoot.
  uint64_t Percentile(uint64_t percent) const {
    const uint64_t rank = std::max<uint64_t>(1, (total_ * percent + 99) / 100);
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank) return std::min(BucketBounds()[i], max_);
    }
    return max_;
  }

  std::vector<uint64_t> counts_;
  uint64_t total_ = 0, min_ = 0, max_ = 0;
  long double sum_ = 0;  // for the mean
};

// The order of "widest": more rows, then more bytes, then the lower token.
bool Wider(const PartitionSize& a, const PartitionSize& b) {
  if (a.rows != b.rows) return a.rows > b.rows;
  if (a.bytes != b.bytes) return a.bytes > b.bytes;
  return a.token < b.token;
}

// The node of a ring of `nodes` equal slices owning `token`:
// floor((token - INT64_MIN) * nodes / 2^64), exact in 128 bits.
size_t NodeOf(int64_t token, int nodes) {
  const uint64_t offset = static_cast<uint64_t>(token) ^ (uint64_t{1} << 63);
  return static_cast<size_t>((Uint128{offset} * static_cast<unsigned>(nodes)) >> 64);
}

double Skew(const std::vector<uint64_t>& per_node) {
  uint64_t total = 0, most = 0;
  for (uint64_t n : per_node) {
    total += n;
    most = std::max(most, n);
  }
  if (total == 0) return 0;
  const double mean = static_cast<double>(total) / static_cast<double>(per_node.size());
  return static_cast<double>(most) / mean;
}

// The partition's directory name; a key too long to have one (no write
// path stores it) is shown by its literals, cut short.
std::string PartitionName(const TableSchema& table, const std::vector<std::string>& key) {
  std::vector<const CqlType*> types;
  for (size_t i = 0; i < table.partition_key_count(); ++i) {
    types.push_back(table.column(i).type.get());
  }
  Result<std::string> name = FormatKeyName(types, key);
  if (name.ok()) return std::move(name).value();
  std::string text;
  for (size_t i = 0; i < key.size(); ++i) {
    text += (i == 0 ? "" : ",") + FormatLiteral(*types[i], key[i]);
  }
  return text.substr(0, kMaxNameBytes) + "...";
}

std::string TombstoneWarning(const PartitionSize& p) {
  return "partition '" + p.name + "' holds " + std::to_string(p.tombstones) +
         " tombstones, which a read of it scans (Cassandra warns over " +
         std::to_string(kTombstoneWarning) + " and refuses the read over " +
         std::to_string(kTombstoneFailure) + ")";
}

uint64_t ExpiringCells(const RowFragment& row) {
  uint64_t count = 0;
  for (const RowCell& cell : row.cells)
    if (cell.cell.is_expiring()) ++count;
  return count;
}

std::string WideWarning(const PartitionSize& p) {
  std::string text = "partition '" + p.name + "' has ";
  const bool rows = p.rows > kWidePartitionRows, bytes = p.bytes > kWidePartitionBytes;
  if (rows) {
    text += std::to_string(p.rows) + " rows, over the guidance of " +
            std::to_string(kWidePartitionRows);
  }
  if (rows && bytes) text += ", and ";
  if (bytes) {
    text += std::to_string(p.bytes) + " bytes, over the guidance of " +
            std::to_string(kWidePartitionBytes);
  }
  return text;
}

uint64_t ValueBytes(const RowFragment& row) {
  uint64_t bytes = 0;
  for (const RowCell& cell : row.cells) bytes += cell.cell.value.size();
  return bytes;
}

// The running state of one scan.
class StatsBuilder {
 public:
  StatsBuilder(const TableHandle& table, size_t widest_count, TableStats* out)
      : table_(table), widest_count_(widest_count), out_(out) {
    for (int nodes : kRingSizes) {
      RingSpread ring;
      ring.nodes = nodes;
      ring.partitions.assign(static_cast<size_t>(nodes), 0);
      ring.bytes.assign(static_cast<size_t>(nodes), 0);
      out_->rings.push_back(std::move(ring));
    }
  }

  // Reads one partition's rows and folds it in.
  Status AddPartition(const ReadView& view, const PartitionIterator& partition) {
    std::vector<std::string> key, clustering;
    if (Status s = partition.DecodePartitionKey(&key); !s.ok()) return s;
    PartitionSize size;
    size.token = partition.token();
    for (const std::string& value : key) size.bytes += value.size();
    size.bytes += ValueBytes(partition.static_row());
    size.expiring += ExpiringCells(partition.static_row());
    out_->cells += partition.static_row().cells.size();
    SliceSpec whole;
    whole.count_buried_tombstones = true;  // as Cassandra's read would scan them
    Result<std::unique_ptr<RowIterator>> made = view.NewRowIterator(table_, key, whole);
    if (!made.ok()) return made.status();
    RowIterator& rows = *made.value();
    for (; rows.Valid(); rows.Next()) {
      if (Status s = rows.DecodeClustering(&clustering); !s.ok()) return s;
      for (const std::string& value : clustering) size.bytes += value.size();
      size.bytes += ValueBytes(rows.row());
      size.expiring += ExpiringCells(rows.row());
      out_->cells += rows.row().cells.size();
      ++size.rows;
    }
    if (Status s = rows.status(); !s.ok()) return s;
    size.tombstones = rows.tombstones_read();
    Fold(std::move(size), key);
    return Status::Ok();
  }

  void Finish() {
    out_->rows_per_partition = rows_.Summarize();
    out_->bytes_per_partition = bytes_.Summarize();
    out_->tombstones_per_partition = tombstones_.Summarize();
    out_->expiring_per_partition = expiring_.Summarize();
    out_->widest.clear();
    for (; !heap_.empty(); heap_.pop()) out_->widest.push_back(heap_.top());
    std::sort(out_->widest.begin(), out_->widest.end(), Wider);
    for (RingSpread& ring : out_->rings) {
      ring.partition_skew = Skew(ring.partitions);
      ring.byte_skew = Skew(ring.bytes);
    }
  }

 private:
  void Fold(PartitionSize size, const std::vector<std::string>& key) {
    ++out_->partitions;
    out_->rows += size.rows;
    out_->bytes += size.bytes;
    out_->tombstones += size.tombstones;
    out_->expiring_cells += size.expiring;
    rows_.Add(size.rows);
    bytes_.Add(size.bytes);
    tombstones_.Add(size.tombstones);
    expiring_.Add(size.expiring);
    for (RingSpread& ring : out_->rings) {
      const size_t node = NodeOf(size.token, ring.nodes);
      ++ring.partitions[node];
      ring.bytes[node] += size.bytes;
    }
    const bool wide = size.rows > kWidePartitionRows || size.bytes > kWidePartitionBytes;
    const bool tombstones = size.tombstones > kTombstoneWarning;
    const bool keep =
        widest_count_ > 0 && (heap_.size() < widest_count_ || Wider(size, heap_.top()));
    if (!wide && !tombstones && !keep) return;  // the common case names nothing
    size.name = PartitionName(*table_, key);
    if (wide) {
      ++out_->wide_partitions;
      if (out_->warnings.size() < kMaxWarnings) out_->warnings.push_back(WideWarning(size));
    }
    if (tombstones) {
      ++out_->tombstone_partitions;
      if (out_->warnings.size() < kMaxWarnings) out_->warnings.push_back(TombstoneWarning(size));
    }
    if (!keep) return;
    if (heap_.size() == widest_count_) heap_.pop();
    heap_.push(std::move(size));
  }

  const TableHandle& table_;
  const size_t widest_count_;
  TableStats* out_;
  Histogram rows_, bytes_, tombstones_, expiring_;
  // The least wide of the kept partitions on top.
  std::priority_queue<PartitionSize, std::vector<PartitionSize>,
                      std::function<bool(const PartitionSize&, const PartitionSize&)>>
      heap_{Wider};
};

std::string Fixed2(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

// Rows of cells, each column padded to its widest cell, two spaces apart.
std::string Columns(const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string text;
  for (const auto& row : rows) {
    std::string line = indent;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    text += line + "\n";
  }
  return text;
}

std::string Joined(const std::vector<uint64_t>& values) {
  std::string text;
  for (uint64_t v : values) text += (text.empty() ? "" : " ") + std::to_string(v);
  return text;
}

std::string PercentileTable(const TableStats& stats) {
  const Percentiles* columns[] = {&stats.rows_per_partition, &stats.bytes_per_partition,
                                  &stats.tombstones_per_partition, &stats.expiring_per_partition};
  const std::pair<const char*, uint64_t Percentiles::*> lines[] = {
      {"50%", &Percentiles::p50}, {"75%", &Percentiles::p75}, {"95%", &Percentiles::p95},
      {"98%", &Percentiles::p98}, {"99%", &Percentiles::p99}, {"Min", &Percentiles::min},
      {"Max", &Percentiles::max}};
  std::vector<std::vector<std::string>> rows = {{"Percentile", "Rows/partition", "Bytes/partition",
                                                 "Tombstones/partition",
                                                 "Expiring cells/partition"}};
  for (const auto& [label, member] : lines) {
    std::vector<std::string> line = {label};
    for (const Percentiles* column : columns) line.push_back(std::to_string(column->*member));
    rows.push_back(std::move(line));
  }
  std::vector<std::string> means = {"Mean"};
  for (const Percentiles* column : columns) means.push_back(Fixed2(column->mean));
  rows.push_back(std::move(means));
  return Columns(rows, "");
}

std::string WidestTable(const TableStats& stats) {
  if (stats.widest.empty()) return "  (none)\n";
  std::vector<std::vector<std::string>> rows = {{"Partition", "Rows", "Bytes", "Token"}};
  for (const PartitionSize& p : stats.widest) {
    rows.push_back({"'" + p.name + "'", std::to_string(p.rows), std::to_string(p.bytes),
                    std::to_string(p.token)});
  }
  return Columns(rows, "  ");
}

nlohmann::ordered_json PercentilesJson(const Percentiles& p) {
  return {{"p50", p.p50}, {"p75", p.p75}, {"p95", p.p95}, {"p98", p.p98},
          {"p99", p.p99}, {"min", p.min}, {"max", p.max}, {"mean", p.mean}};
}

}  // namespace

Status ComputeTableStats(const ReadView& view, const TableHandle& table, size_t widest_count,
                         TableStats* out) {
  *out = TableStats{};
  out->keyspace = table->def.keyspace;
  out->table = table->def.name;
  StatsBuilder builder(table, widest_count, out);
  ReadView scan = view.ForScan();  // a whole-table read: keep the block cache for others
  std::unique_ptr<PartitionIterator> partitions = scan.NewPartitionIterator(table);
  for (; partitions->Valid(); partitions->Next()) {
    if (Status s = builder.AddPartition(scan, *partitions); !s.ok()) return s;
  }
  if (Status s = partitions->status(); !s.ok()) return s;
  builder.Finish();
  return ComputeIndexStats(scan, table, &out->indexes);
}

void AttachBuilds(const std::vector<BuildProgress>& builds, TableStats* stats) {
  stats->builds.clear();
  for (const BuildProgress& build : builds) {
    if (build.keyspace == stats->keyspace && build.table == stats->table) {
      stats->builds.push_back(build);
    }
  }
}

std::string FormatStatsText(const TableStats& stats) {
  std::string text = "Table: " + stats.keyspace + "." + stats.table + "\n";
  text += "Partitions: " + std::to_string(stats.partitions) +
          "  Rows: " + std::to_string(stats.rows) + "  Cells: " + std::to_string(stats.cells) +
          "  Bytes: " + std::to_string(stats.bytes) +
          "  Tombstones: " + std::to_string(stats.tombstones) +
          "  Expiring cells: " + std::to_string(stats.expiring_cells) + "\n\n";
  text += PercentileTable(stats) + "\n";
  text += "Widest partitions (by rows):\n" + WidestTable(stats) + "\n";
  text += "Token spread (partitions / bytes per node, skew = max/mean):\n";
  for (const RingSpread& ring : stats.rings) {
    text += "  " + std::to_string(ring.nodes) + " nodes:  " + Joined(ring.partitions) + "  (skew " +
            Fixed2(ring.partition_skew) + ")  bytes: " + Joined(ring.bytes) + "  (skew " +
            Fixed2(ring.byte_skew) + ")\n";
  }
  if (!stats.indexes.empty()) text += "\n" + FormatIndexStatsText(stats.indexes);
  if (!stats.builds.empty()) {
    text += "\nBuilds under way:\n";
    for (const BuildProgress& build : stats.builds) {
      text += std::string("  ") + (build.kind == BuildProgress::Kind::kView ? "view " : "index ") +
              build.name + ": " + BuildProgressText(build) + "\n";
    }
  }
  if (stats.wide_partitions == 0 && stats.tombstone_partitions == 0) {
    return text + "\nWarnings: none\n";
  }
  auto partitions = [](uint64_t n) {
    return std::to_string(n) + " partition" + (n == 1 ? "" : "s");
  };
  std::vector<std::string> counts;
  if (stats.wide_partitions > 0) {
    counts.push_back(partitions(stats.wide_partitions) + " over the guidance of " +
                     std::to_string(kWidePartitionRows) + " rows or " +
                     std::to_string(kWidePartitionBytes) + " bytes");
  }
  if (stats.tombstone_partitions > 0) {
    counts.push_back(partitions(stats.tombstone_partitions) + " over " +
                     std::to_string(kTombstoneWarning) + " tombstones");
  }
  text += "\nWarnings: " + counts[0] + (counts.size() > 1 ? "; " + counts[1] : "") + "\n";
  for (const std::string& warning : stats.warnings) text += "  " + warning + "\n";
  const uint64_t warned = stats.wide_partitions + stats.tombstone_partitions;
  if (warned > stats.warnings.size()) {
    text += "  ... and " + std::to_string(warned - stats.warnings.size()) + " more\n";
  }
  return text;
}

std::string FormatStatsJson(const TableStats& stats) {
  nlohmann::ordered_json widest = nlohmann::ordered_json::array();
  for (const PartitionSize& p : stats.widest) {
    widest.push_back({{"name", p.name}, {"token", p.token}, {"rows", p.rows}, {"bytes", p.bytes}});
  }
  nlohmann::ordered_json rings = nlohmann::ordered_json::array();
  for (const RingSpread& ring : stats.rings) {
    rings.push_back({{"nodes", ring.nodes},
                     {"partitions", ring.partitions},
                     {"bytes", ring.bytes},
                     {"partition_skew", ring.partition_skew},
                     {"byte_skew", ring.byte_skew}});
  }
  nlohmann::ordered_json json = {
      {"keyspace", stats.keyspace},
      {"table", stats.table},
      {"partitions", stats.partitions},
      {"rows", stats.rows},
      {"cells", stats.cells},
      {"bytes", stats.bytes},
      {"tombstones", stats.tombstones},
      {"expiring_cells", stats.expiring_cells},
      {"rows_per_partition", PercentilesJson(stats.rows_per_partition)},
      {"bytes_per_partition", PercentilesJson(stats.bytes_per_partition)},
      {"tombstones_per_partition", PercentilesJson(stats.tombstones_per_partition)},
      {"expiring_per_partition", PercentilesJson(stats.expiring_per_partition)},
      {"widest", std::move(widest)},
      {"rings", std::move(rings)},
      {"wide_partitions", stats.wide_partitions},
      {"tombstone_partitions", stats.tombstone_partitions},
      {"warnings", stats.warnings}};
  nlohmann::ordered_json indexes = nlohmann::ordered_json::array();
  for (const IndexStats& index : stats.indexes) {
    indexes.push_back({{"name", index.name},
                       {"target", index.target},
                       {"built", index.built},
                       {"values", index.values},
                       {"matches", index.matches},
                       {"widest_value", index.widest_value},
                       {"widest_matches", index.widest_matches},
                       {"high_cardinality", index.high_cardinality}});
  }
  json["indexes"] = std::move(indexes);
  nlohmann::ordered_json builds = nlohmann::ordered_json::array();
  for (const BuildProgress& build : stats.builds) {
    builds.push_back(nlohmann::ordered_json(BuildProgressJson(build)));
  }
  json["builds"] = std::move(builds);
  // Names are valid UTF-8 (key values are validated); replacing bad bytes
  // keeps dump from throwing should one ever not be.
  return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace cellfs::fs
