// A deliberately simple in-memory model of Cassandra's semantics for one
// table (DESIGN.md section 5, docs/ENGINE.md "Semantics and decisions"),
// written without the engine's code, for the model-based engine test.
#pragma once

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cellfs::model {

// Values are serialized bytes, as the engine's API takes them.
using Key = std::vector<std::string>;

// The clustering types the model knows how to order.
enum class KeyType : uint8_t { kInt, kText };

struct ClusteringColumn {
  KeyType type = KeyType::kInt;
  bool descending = false;
};

// Columns are opaque ids chosen by the caller (the test uses the engine's
// column indexes).
struct Schema {
  std::vector<ClusteringColumn> clustering;
  int64_t default_ttl = 0;  // seconds; 0 = none
};

inline int64_t FloorDiv(int64_t micros) {
  return micros >= 0 ? micros / 1'000'000 : -((-micros + 999'999) / 1'000'000);
}

// Natural (value) order of one clustering component: <0, 0, >0.
inline int CompareValue(KeyType type, const std::string& a, const std::string& b) {
  if (type == KeyType::kInt) {
    auto decode = [](const std::string& s) {
      uint32_t u = 0;
      for (char c : s) u = (u << 8) | static_cast<unsigned char>(c);
      return static_cast<int32_t>(u);
    };
    const int32_t x = decode(a), y = decode(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  const int c = a.compare(b);  // char_traits<char> compares as unsigned
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// CQL tuple comparison of the first min(|a|, |b|) components, in value order.
inline int ComparePrefix(const Schema& schema, const Key& a, const Key& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (int c = CompareValue(schema.clustering[i].type, a[i], b[i]); c != 0) return c;
  }
  return 0;
}

// The table's clustering order (ASC/DESC per column).
struct ClusteringLess {
  const Schema* schema;
  bool operator()(const Key& a, const Key& b) const {
    for (size_t i = 0; i < a.size(); ++i) {
      int c = CompareValue(schema->clustering[i].type, a[i], b[i]);
      if (schema->clustering[i].descending) c = -c;
      if (c != 0) return c < 0;
    }
    return false;
  }
};

struct Bound {
  Key prefix;
  bool inclusive = true;
};

// True when `key` satisfies the optional lower and upper bounds.
inline bool InRange(const Schema& schema, const Key& key, const std::optional<Bound>& lower,
                    const std::optional<Bound>& upper) {
  if (lower) {
    const int c = ComparePrefix(schema, key, lower->prefix);
    if (c < 0 || (c == 0 && !lower->inclusive)) return false;
  }
  if (upper) {
    const int c = ComparePrefix(schema, key, upper->prefix);
    if (c > 0 || (c == 0 && !upper->inclusive)) return false;
  }
  return true;
}

// Token: xxHash64 (seed 0) of the serialized partition key, signed, with
// INT64_MIN moved to INT64_MAX (DESIGN.md section 5).
inline int64_t Token(const Key& partition_key) {
  std::string serialized;
  if (partition_key.size() == 1) {
    serialized = partition_key[0];
  } else {
    for (const std::string& part : partition_key) {
      serialized += static_cast<char>((part.size() >> 8) & 0xFF);
      serialized += static_cast<char>(part.size() & 0xFF);
      serialized += part;
      serialized += '\0';
    }
  }
  const auto token = static_cast<int64_t>(XXH64(serialized.data(), serialized.size(), 0));
  return token == INT64_MIN ? INT64_MAX : token;
}

// One version of a cell. Expiry in seconds: dead from expiry * 10^6 µs on.
struct Version {
  int64_t write_time = 0;
  bool tombstone = false;
  std::string value;
  uint32_t ttl = 0;                 // 0 = does not expire
  int64_t local_deletion_time = 0;  // expiry (expiring) or deletion second (tombstone)

  bool expiring() const { return !tombstone && ttl != 0; }
  bool LiveAt(int64_t now) const {
    return !tombstone && (ttl == 0 || FloorDiv(now) < local_deletion_time);
  }
};

// Last write wins; on a tie a deletion, then an expiring cell, then the
// greater value (unsigned bytes), then the later expiry, then the longer TTL.
inline bool Wins(const Version& a, const Version& b) {
  if (a.write_time != b.write_time) return a.write_time > b.write_time;
  auto rank = [](const Version& v) { return v.tombstone ? 2 : (v.expiring() ? 1 : 0); };
  if (rank(a) != rank(b)) return rank(a) > rank(b);
  if (int c = a.value.compare(b.value); c != 0) return c > 0;
  if (a.local_deletion_time != b.local_deletion_time) {
    return a.local_deletion_time > b.local_deletion_time;
  }
  return a.ttl > b.ttl;
}

// Row markers reconcile the same way, without values.
struct Marker {
  int64_t write_time = 0;
  uint32_t ttl = 0;
  int64_t expiry = 0;

  bool LiveAt(int64_t now) const { return ttl == 0 || FloorDiv(now) < expiry; }
};

inline bool Wins(const Marker& a, const Marker& b) {
  if (a.write_time != b.write_time) return a.write_time > b.write_time;
  if ((a.ttl != 0) != (b.ttl != 0)) return a.ttl != 0;
  if (a.expiry != b.expiry) return a.expiry > b.expiry;
  return a.ttl > b.ttl;
}

// What a reader sees.
struct CellOut {
  std::string value;
  int64_t write_time = 0;
  uint32_t ttl = 0;
  int64_t expiry = 0;  // 0 when ttl == 0
};
using CellsOut = std::map<size_t, CellOut>;  // by column id

struct RowOut {
  Key clustering;
  std::optional<Marker> marker;
  CellsOut cells;
};

struct PartitionOut {
  Key partition_key;
  int64_t token = 0;
  CellsOut statics;
};

// The model: the winning version of every cell and marker, the newest
// deletion of every row and partition, and every range deletion. Shadowed
// data is kept (it stays shadowed: nothing is purged while the model is in
// use, see the test's gc epochs). Thread-compatible.
class Table {
 public:
  explicit Table(Schema schema) : schema_(std::move(schema)) {}
  // Partitions point at schema_: the model stays where it was made.
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const Schema& schema() const { return schema_; }

  // ---- Writes. `now` is the mutation's clock (µs); `ttl` is the resolved
  // TTL in seconds (0 = none); a null value writes a tombstone.

  void WriteCell(const Key& pk, const std::optional<Key>& clustering, size_t column,
                 const std::optional<std::string>& value, int64_t write_time, int64_t now,
                 uint32_t ttl) {
    Version v;
    v.write_time = write_time;
    if (!value) {
      v.tombstone = true;
      v.local_deletion_time = FloorDiv(now);
    } else {
      v.value = *value;
      v.ttl = ttl;
      v.local_deletion_time = ttl == 0 ? 0 : FloorDiv(now) + ttl;
    }
    Partition& p = PartitionAt(pk);
    auto& cells = clustering ? RowAt(&p, *clustering).cells : p.statics;
    Reconcile(&cells, column, v);
  }

  void WriteMarker(const Key& pk, const Key& clustering, int64_t write_time, int64_t now,
                   uint32_t ttl) {
    Marker m{write_time, ttl, ttl == 0 ? 0 : FloorDiv(now) + ttl};
    Row& row = RowAt(&PartitionAt(pk), clustering);
    if (!row.marker || Wins(m, *row.marker)) row.marker = m;
  }

  void DeleteRow(const Key& pk, const Key& clustering, int64_t write_time) {
    Row& row = RowAt(&PartitionAt(pk), clustering);
    row.deletion = std::max(row.deletion.value_or(INT64_MIN), write_time);
  }

  void DeleteRange(const Key& pk, const std::optional<Bound>& lower,
                   const std::optional<Bound>& upper, int64_t write_time) {
    PartitionAt(pk).ranges.push_back({lower, upper, write_time});
  }

  void DeletePartition(const Key& pk, int64_t write_time) {
    Partition& p = PartitionAt(pk);
    p.deletion = std::max(p.deletion.value_or(INT64_MIN), write_time);
  }

  // What a sweep at `now` does that a later write can see: an expired cell
  // becomes a tombstone with its write time (Cassandra's compaction), so an
  // expiring write that would have beaten it on a tie no longer does.
  void Sweep(int64_t now) {
    for (auto& [pk, p] : partitions_) {
      ConvertExpired(&p.statics, now);
      for (auto& [ck, row] : p.rows) ConvertExpired(&row.cells, now);
    }
  }

  // ---- Reads at `now` (µs).

  // The live partitions in token order (then serialized key order).
  std::vector<PartitionOut> Partitions(int64_t now) const {
    std::vector<PartitionOut> out;
    for (const auto& [pk, p] : partitions_) {
      if (!PartitionLive(p, now)) continue;
      out.push_back({pk, Token(pk), LiveStatics(p, now)});
    }
    std::sort(out.begin(), out.end(), [](const PartitionOut& a, const PartitionOut& b) {
      if (a.token != b.token) return a.token < b.token;
      return a.partition_key < b.partition_key;
    });
    return out;
  }

  bool IsPartitionLive(const Key& pk, int64_t now) const {
    auto it = partitions_.find(pk);
    return it != partitions_.end() && PartitionLive(it->second, now);
  }

  CellsOut Statics(const Key& pk, int64_t now) const {
    auto it = partitions_.find(pk);
    return it == partitions_.end() ? CellsOut{} : LiveStatics(it->second, now);
  }

  // The live rows between the bounds, in clustering order (or reversed),
  // the first `limit` of them (0 = all).
  std::vector<RowOut> Rows(const Key& pk, int64_t now, const std::optional<Bound>& lower = {},
                           const std::optional<Bound>& upper = {}, size_t limit = 0,
                           bool reverse = false) const {
    std::vector<RowOut> out;
    auto it = partitions_.find(pk);
    if (it == partitions_.end()) return out;
    for (const auto& [ck, row] : it->second.rows) {
      if (!InRange(schema_, ck, lower, upper)) continue;
      if (std::optional<RowOut> live = LiveRow(it->second, ck, row, now)) out.push_back(*live);
    }
    if (reverse) std::reverse(out.begin(), out.end());
    if (limit != 0 && out.size() > limit) out.resize(limit);
    return out;
  }

  std::optional<RowOut> GetRow(const Key& pk, const Key& clustering, int64_t now) const {
    auto p = partitions_.find(pk);
    if (p == partitions_.end()) return std::nullopt;
    auto row = p->second.rows.find(clustering);
    if (row == p->second.rows.end()) return std::nullopt;
    return LiveRow(p->second, clustering, row->second, now);
  }

 private:
  struct Row {
    std::optional<Marker> marker;
    std::optional<int64_t> deletion;
    std::map<size_t, Version> cells;
  };
  struct RangeDeletion {
    std::optional<Bound> lower, upper;
    int64_t write_time;
  };
  struct Partition {
    explicit Partition(const Schema* schema) : rows(ClusteringLess{schema}) {}
    std::optional<int64_t> deletion;
    std::map<size_t, Version> statics;
    std::map<Key, Row, ClusteringLess> rows;
    std::vector<RangeDeletion> ranges;
  };

  Partition& PartitionAt(const Key& pk) {
    return partitions_.try_emplace(pk, &schema_).first->second;
  }

  static Row& RowAt(Partition* p, const Key& clustering) { return p->rows[clustering]; }

  static void Reconcile(std::map<size_t, Version>* cells, size_t column, const Version& v) {
    auto [it, inserted] = cells->try_emplace(column, v);
    if (!inserted && Wins(v, it->second)) it->second = v;
  }

  static void ConvertExpired(std::map<size_t, Version>* cells, int64_t now) {
    for (auto& [column, v] : *cells) {
      if (!v.expiring() || v.LiveAt(now)) continue;
      v.tombstone = true;
      v.value.clear();
      v.ttl = 0;  // local_deletion_time stays the expiry
    }
  }

  static CellsOut LiveCells(const std::map<size_t, Version>& cells, int64_t shadow, int64_t now) {
    CellsOut out;
    for (const auto& [column, v] : cells) {
      if (v.write_time <= shadow || !v.LiveAt(now)) continue;
      out[column] = {v.value, v.write_time, v.ttl, v.ttl == 0 ? 0 : v.local_deletion_time};
    }
    return out;
  }

  static CellsOut LiveStatics(const Partition& p, int64_t now) {
    return LiveCells(p.statics, p.deletion.value_or(INT64_MIN), now);
  }

  // The newest deletion covering the row: partition, range or row.
  int64_t Shadow(const Partition& p, const Key& ck, const Row& row) const {
    int64_t shadow = std::max(p.deletion.value_or(INT64_MIN), row.deletion.value_or(INT64_MIN));
    for (const RangeDeletion& range : p.ranges) {
      if (InRange(schema_, ck, range.lower, range.upper)) {
        shadow = std::max(shadow, range.write_time);
      }
    }
    return shadow;
  }

  std::optional<RowOut> LiveRow(const Partition& p, const Key& ck, const Row& row,
                                int64_t now) const {
    const int64_t shadow = Shadow(p, ck, row);
    RowOut out{ck, std::nullopt, LiveCells(row.cells, shadow, now)};
    if (row.marker && row.marker->write_time > shadow && row.marker->LiveAt(now)) {
      out.marker = row.marker;
    }
    if (!out.marker && out.cells.empty()) return std::nullopt;
    return out;
  }

  bool PartitionLive(const Partition& p, int64_t now) const {
    if (!LiveStatics(p, now).empty()) return true;
    for (const auto& [ck, row] : p.rows) {
      if (LiveRow(p, ck, row, now)) return true;
    }
    return false;
  }

  Schema schema_;
  std::map<Key, Partition> partitions_;
};

}  // namespace cellfs::model
