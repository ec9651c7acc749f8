// Model-based random test of the engine: seeded sequences of upserts (TTLs,
// explicit, older and tied timestamps), deletions, clock steps, sweeps and
// reopens, with every read checked after every step against cassandra_model.h.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/table_scan.h"
#include "tests/engine/cassandra_model.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using model::Key;

constexpr int64_t kSecond = 1'000'000;
constexpr int64_t kGcGraceSeconds = 3600;
constexpr size_t kLogLength = 20;
constexpr int kDefaultSeeds = 20;
constexpr int kDefaultSteps = 500;

std::string Int(int32_t n) {
  const auto u = static_cast<uint32_t>(n);
  return {static_cast<char>(u >> 24), static_cast<char>((u >> 16) & 0xFF),
          static_cast<char>((u >> 8) & 0xFF), static_cast<char>(u & 0xFF)};
}

std::vector<std::string> Ints(std::initializer_list<int32_t> values) {
  std::vector<std::string> out;
  for (int32_t v : values) out.push_back(Int(v));
  return out;
}

// One table layout; seeds take turns. Columns: pk, the clustering columns,
// then s (static), v1 text, v2 int and, in some layouts, v3 blob.
struct Variant {
  std::string name;
  std::string create_table;
  std::vector<model::ClusteringColumn> clustering;
  std::vector<std::vector<std::string>> domain;  // per clustering column: values rows use
  std::vector<std::vector<std::string>> extra;   // further values that bounds use
  int64_t default_ttl = 0;
};

std::vector<Variant> Variants() {
  using model::KeyType;
  const std::string options = " AND gc_grace_seconds = " + std::to_string(kGcGraceSeconds);
  return {
      {"(c1 int ASC, c2 text DESC)",
       "CREATE TABLE ks.m (pk text, c1 int, c2 text, s text static, v1 text, v2 int, v3 blob,"
       " PRIMARY KEY (pk, c1, c2)) WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)" +
           options + ";",
       {{KeyType::kInt, false}, {KeyType::kText, true}},
       {Ints({-1, 0, 1}), {"a", "b"}},
       {Ints({-5, 7, INT32_MIN}), {"", "ab", "c"}},
       0},
      {"(c1 int DESC), default_time_to_live 4",
       "CREATE TABLE ks.m (pk text, c1 int, s text static, v1 text, v2 int,"
       " PRIMARY KEY (pk, c1)) WITH CLUSTERING ORDER BY (c1 DESC)"
       " AND default_time_to_live = 4" +
           options + ";",
       {{KeyType::kInt, true}},
       {Ints({-2, -1, 0, 1, 2, 3})},
       {Ints({-9, 9, INT32_MAX})},
       4},
      {"(c1 text DESC, c2 int ASC)",
       "CREATE TABLE ks.m (pk text, c1 text, c2 int, s text static, v1 text, v2 int, v3 blob,"
       " PRIMARY KEY (pk, c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC)" +
           options + ";",
       {{KeyType::kText, true}, {KeyType::kInt, false}},
       {{"", "x", "xy"}, Ints({-1, 1})},
       {{"w", "xa", "y"}, Ints({0, -7, 3})},
       0},
  };
}

enum class OpKind { kInsert, kUpdate, kDeleteCells, kDeleteRow, kDeleteRange, kDeletePartition };

// One operation of a Mutation, as given to the engine and to the model.
struct Op {
  OpKind kind = OpKind::kUpdate;
  Key pk;
  Key clustering;                  // empty for static-only writes
  std::vector<ColumnValue> cells;  // kInsert, kUpdate
  std::vector<size_t> columns;     // kDeleteCells
  SliceSpec range;                 // kDeleteRange
  WriteAttributes attributes;
  std::string invalid;  // why the engine must refuse it; empty when valid
};

Status ApplyToMutation(const Op& op, const TableHandle& t, Mutation* m) {
  switch (op.kind) {
    case OpKind::kInsert:
      return m->Insert(t, op.pk, op.clustering, op.cells, op.attributes);
    case OpKind::kUpdate:
      return m->Update(t, op.pk, op.clustering, op.cells, op.attributes);
    case OpKind::kDeleteCells:
      return m->DeleteCells(t, op.pk, op.clustering, op.columns, op.attributes);
    case OpKind::kDeleteRow:
      return m->DeleteRow(t, op.pk, op.clustering, op.attributes);
    case OpKind::kDeleteRange:
      return m->DeleteRange(t, op.pk, op.range, op.attributes);
    case OpKind::kDeletePartition:
      return m->DeletePartition(t, op.pk, op.attributes);
  }
  return Status::InvalidArgument("unknown op");
}

std::optional<model::Bound> ToModel(const std::optional<ClusteringBound>& bound) {
  if (!bound) return std::nullopt;
  return model::Bound{bound->prefix, bound->inclusive};
}

// What an accepted op does to the model, at the mutation's write time and
// clock.
void ApplyToModel(const Op& op, const TableSchema& t, int64_t write_time, int64_t now,
                  int64_t default_ttl, model::Table* m) {
  const int64_t ts = op.attributes.timestamp.value_or(write_time);
  const auto ttl = static_cast<uint32_t>(op.attributes.ttl.value_or(default_ttl));
  auto is_static = [&](size_t column) { return t.column(column).kind == ColumnKind::kStatic; };
  auto where = [&](size_t column) {
    return is_static(column) ? std::nullopt : std::optional<Key>(op.clustering);
  };
  switch (op.kind) {
    case OpKind::kInsert:
    case OpKind::kUpdate: {
      for (const ColumnValue& c : op.cells) {
        m->WriteCell(op.pk, where(c.column), c.column, c.value, ts, now, ttl);
      }
      // An INSERT naming the row writes its marker, even with only static
      // cells; without clustering it is a static-only write.
      if (op.kind == OpKind::kInsert && !op.clustering.empty()) {
        m->WriteMarker(op.pk, op.clustering, ts, now, ttl);
      }
      return;
    }
    case OpKind::kDeleteCells:
      for (size_t c : op.columns) m->WriteCell(op.pk, where(c), c, std::nullopt, ts, now, 0);
      return;
    case OpKind::kDeleteRow:
      m->DeleteRow(op.pk, op.clustering, ts);
      return;
    case OpKind::kDeleteRange:
      m->DeleteRange(op.pk, ToModel(op.range.lower), ToModel(op.range.upper), ts);
      return;
    case OpKind::kDeletePartition:
      m->DeletePartition(op.pk, ts);
      return;
  }
}

// Line by line: the model's text and the engine's, marking lines that differ.
std::string Diff(const std::string& expected, const std::string& actual) {
  auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  };
  const auto a = lines(expected), b = lines(actual);
  std::string out;
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string* x = i < a.size() ? &a[i] : nullptr;
    const std::string* y = i < b.size() ? &b[i] : nullptr;
    if (x && y && *x == *y) {
      out += "    " + *x + "\n";
      continue;
    }
    if (x) out += "  - " + *x + "   (model)\n";
    if (y) out += "  + " + *y + "   (engine)\n";
  }
  return out;
}

// One seeded walk over one table.
class Walk {
 public:
  Walk(uint64_t seed, Variant variant)
      : seed_(seed),
        variant_(std::move(variant)),
        rng_(seed),
        model_(model::Schema{variant_.clustering, variant_.default_ttl}) {
    db_.Ddl(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1};" +
        variant_.create_table);
    table_ = db_.Table("ks", "m");
    // Start inside a second, so that second-granular expiries are exercised.
    db_.clock.AdvanceMicros(1 + static_cast<int64_t>(rng_() % (kSecond - 1)));
    t0_ = db_.clock.NowMicros();
    epoch_start_ = tie_base_ = t0_;
    for (size_t i = 0; i < table_->def.columns.size(); ++i) {
      const ColumnKind kind = table_->column(i).kind;
      if (kind == ColumnKind::kStatic) static_columns_.push_back(i);
      if (kind == ColumnKind::kRegular) regular_columns_.push_back(i);
    }
    for (const char* pk : {"p0", "p1", "p2"}) partitions_.push_back({pk});
  }
  ~Walk() { db_.Close(); }
  Walk(const Walk&) = delete;
  Walk& operator=(const Walk&) = delete;

  // Runs `steps` random steps, each followed by every check, then a jump
  // past gc_grace_seconds with a sweep and a last check. Stops at the first
  // disagreement (reported with FAIL_CHECK); returns false then.
  bool Run(int steps) {
    for (step_ = 1; step_ <= steps && !failed_; ++step_) {
      Step();
      if (!failed_) CheckAll();
    }
    if (failed_) return false;
    step_ = steps + 1;
    GcJump();
    if (!failed_) CheckAll();
    return !failed_;
  }

  // What the walk did, for the figures the test prints.
  struct Totals {
    uint64_t checks = 0;
    uint64_t sweeps = 0;
    uint64_t rows_rewritten = 0;  // by sweeps: folded or purged rows written back
    uint64_t rows_removed = 0;    // by sweeps: rows whose every fragment was purged
    uint64_t rows_buried = 0;     // by sweeps: dead rows moved out of the data space
  };
  const Totals& totals() const { return totals_; }

 private:
  // ---- Random choices.

  uint64_t Below(uint64_t n) { return rng_() % n; }
  bool OneIn(uint64_t n) { return Below(n) == 0; }
  template <typename T>
  const T& Pick(const std::vector<T>& from) {
    return from[Below(from.size())];
  }

  Key RandomPk() { return Pick(partitions_); }
  Key RandomClustering() {
    Key key;
    for (const auto& values : variant_.domain) key.push_back(Pick(values));
    return key;
  }

  std::string RandomValue(size_t column) {
    switch (table_->column(column).type->kind()) {
      case TypeKind::kInt:
        return Int(Pick(std::vector<int32_t>{-1, 0, 1, 256}));
      case TypeKind::kBlob:
        return Pick(std::vector<std::string>{"", std::string(1, '\0'), "\xff", "\x01\x02"});
      default:
        return Pick(std::vector<std::string>{"a", "b", "ab", "", "\xc3\xa9"});
    }
  }

  std::optional<std::string> RandomValueOrNull(size_t column) {
    if (OneIn(7)) return std::nullopt;
    return RandomValue(column);
  }

  // A non-empty random subset of `columns`, in random order.
  std::vector<size_t> RandomSubset(std::vector<size_t> columns) {
    std::shuffle(columns.begin(), columns.end(), rng_);
    columns.resize(1 + Below(columns.size()));
    return columns;
  }

  std::vector<ColumnValue> RandomCells(const std::vector<size_t>& columns) {
    std::vector<ColumnValue> cells;
    for (size_t c : RandomSubset(columns)) cells.push_back({c, RandomValueOrNull(c)});
    return cells;
  }

  // USING TIMESTAMP: usually the server's; else older, tied to a small pool
  // (so that writes collide exactly), the previous mutation's, or ahead.
  std::optional<int64_t> RandomTimestamp(int64_t write_time) {
    switch (Below(12)) {
      case 0:
        return write_time - 1 - static_cast<int64_t>(Below(20 * kSecond));
      case 1:
      case 2:
      case 3:
        return tie_base_ + static_cast<int64_t>(Below(3)) * kSecond;
      case 4:
        return previous_write_time_ == INT64_MIN ? write_time : previous_write_time_;
      case 5:
        return write_time + 1 + static_cast<int64_t>(Below(5 * kSecond));
      default:
        return std::nullopt;
    }
  }

  // USING TTL: usually none given (the table's default), sometimes an
  // explicit 0, sometimes a few seconds.
  std::optional<int64_t> RandomTtl() {
    const uint64_t r = Below(10);
    if (r < 5) return std::nullopt;
    if (r == 5) return 0;
    return 1 + static_cast<int64_t>(Below(8));
  }

  std::optional<ClusteringBound> RandomBound() {
    if (OneIn(3)) return std::nullopt;
    ClusteringBound bound;
    const size_t n = 1 + Below(variant_.domain.size());
    for (size_t i = 0; i < n; ++i) {
      bound.prefix.push_back(OneIn(4) ? Pick(variant_.extra[i]) : Pick(variant_.domain[i]));
    }
    bound.inclusive = OneIn(2);
    return bound;
  }

  Op RandomOp(int64_t write_time) {
    Op op;
    op.pk = RandomPk();
    op.attributes.timestamp = RandomTimestamp(write_time);
    const uint64_t r = Below(100);
    if (r < 30) {  // UPDATE of regular cells, sometimes a static one too
      op.kind = OpKind::kUpdate;
      op.clustering = RandomClustering();
      std::vector<size_t> columns = regular_columns_;
      if (OneIn(5)) columns.push_back(static_columns_[0]);
      op.cells = RandomCells(columns);
      op.attributes.ttl = RandomTtl();
    } else if (r < 45) {  // INSERT: a marker and some cells (maybe none)
      op.kind = OpKind::kInsert;
      op.clustering = RandomClustering();
      if (!OneIn(4)) {
        std::vector<size_t> columns = regular_columns_;
        if (OneIn(4)) columns.push_back(static_columns_[0]);
        op.cells = RandomCells(columns);
      }
      op.attributes.ttl = RandomTtl();
    } else if (r < 55) {  // static-only UPDATE or INSERT, with or without clustering
      op.kind = OneIn(3) ? OpKind::kInsert : OpKind::kUpdate;
      if (op.kind == OpKind::kUpdate && OneIn(2)) op.clustering = RandomClustering();
      op.cells = {{static_columns_[0], RandomValueOrNull(static_columns_[0])}};
      op.attributes.ttl = RandomTtl();
    } else if (r < 67) {  // DELETE cells (regular, sometimes static)
      op.kind = OpKind::kDeleteCells;
      op.clustering = RandomClustering();
      std::vector<size_t> columns = regular_columns_;
      if (OneIn(5)) columns.push_back(static_columns_[0]);
      op.columns = RandomSubset(columns);
      if (OneIn(4)) op.columns = {static_columns_[0]};
      if (op.columns == std::vector<size_t>{static_columns_[0]} && OneIn(2)) op.clustering = {};
    } else if (r < 79) {
      op.kind = OpKind::kDeleteRow;
      op.clustering = RandomClustering();
    } else if (r < 89) {
      op.kind = OpKind::kDeleteRange;
      op.range.lower = RandomBound();
      op.range.upper = RandomBound();
    } else if (r < 94) {
      op.kind = OpKind::kDeletePartition;
    } else {
      return RandomInvalidOp();
    }
    return op;
  }

  // An op the engine must refuse, leaving the rest of the batch as it was.
  Op RandomInvalidOp() {
    Op op;
    op.pk = RandomPk();
    op.clustering = RandomClustering();
    op.kind = OpKind::kUpdate;
    const size_t v1 = regular_columns_[0], v2 = regular_columns_[1];
    op.cells = {{v1, RandomValue(v1)}};
    switch (Below(14)) {
      case 0:
        op.cells = {{v2, std::string("\x01\x02\x03")}};
        op.invalid = "an int of 3 bytes";
        break;
      case 1:
        op.cells = {{v1, std::string("a\xff")}};
        op.invalid = "text that is not UTF-8";
        break;
      case 2:
        op.kind = OpKind::kInsert;
        op.attributes.ttl = int64_t{kMaxTtlSeconds} + 1;
        op.invalid = "a TTL above the maximum";
        break;
      case 3:
        op.attributes.ttl = -1;
        op.invalid = "a negative TTL";
        break;
      case 4:
        op.kind = OpKind::kDeleteCells;
        op.columns = {v1};
        op.attributes.ttl = 5;
        op.invalid = "a TTL on a deletion";
        break;
      case 5:
        op.kind = OpKind::kDeleteRange;
        op.range.lower = ClusteringBound{{Pick(variant_.domain[0])}, true};
        op.range.limit = 1;
        op.invalid = "a range deletion with a limit";
        break;
      case 6:
        op.cells.clear();
        op.invalid = "an update of no column";
        break;
      case 7:
        op.cells = {{v1, RandomValue(v1)}, {v2, RandomValue(v2)}, {v1, RandomValue(v1)}};
        op.invalid = "a column given twice";
        break;
      case 8:
        op.clustering.clear();
        op.invalid = "regular cells without clustering";
        break;
      case 9:
        op.clustering.push_back(op.clustering.back());
        op.invalid = "too many clustering values";
        break;
      case 10:
        op.kind = OpKind::kDeleteRow;
        op.attributes.timestamp = INT64_MIN;
        op.invalid = "timestamp INT64_MIN";
        break;
      case 11:
        op.kind = OpKind::kDeleteRange;
        op.range.upper = ClusteringBound{{}, true};
        op.invalid = "a bound with no values";
        break;
      case 12:
        op.cells = {{1, op.clustering[0]}};
        op.invalid = "a primary key column set on its own";
        break;
      default:
        op.kind = OpKind::kDeleteRow;
        op.clustering.pop_back();
        op.invalid = "a row deletion without the full clustering key";
        break;
    }
    return op;
  }

  // ---- Steps.

  void Step() {
    const uint64_t r = Below(100);
    if (r < 55) {
      WriteStep();
    } else if (r < 78) {
      AdvanceStep();
    } else if (r < 88) {
      Log("read only");
    } else if (r < 94) {
      Sweep("sweep");
    } else if (r < 98) {
      Reopen();
    } else {
      GcJump();
    }
  }

  void WriteStep() {
    const int64_t now = db_.clock.NowMicros();
    const int64_t expected_time = std::max(now, last_write_time_ + 1);
    Mutation m = db_.engine->NewMutation();
    if (reopened_) {
      // Closing may hand out a write time of its own (the high-water mark it
      // stores); the contract is only: above every earlier one, not below the clock.
      Check("the first server write time after a reopen (> previous, >= clock)", "yes",
            m.write_time() >= expected_time ? "yes" : std::to_string(m.write_time()));
      reopened_ = false;
    } else {
      Check("the mutation's server write time (max(clock, previous + 1))",
            std::to_string(expected_time), std::to_string(m.write_time()));
    }
    Check("the mutation's clock", std::to_string(now), std::to_string(m.now()));
    // Not from an earlier epoch: it may be older than a purged tombstone.
    previous_write_time_ = last_write_time_ >= epoch_start_ ? last_write_time_ : INT64_MIN;
    last_write_time_ = m.write_time();
    const int ops = OneIn(3) ? 2 + static_cast<int>(Below(2)) : 1;
    for (int i = 0; i < ops && !failed_; ++i) {
      Op op = RandomOp(m.write_time());
      const Status status = ApplyToMutation(op, table_, &m);
      Log(Describe(op, m.write_time()) + (status.ok() ? "" : "  -> refused: " + status.message()));
      const std::string refused =
          op.invalid.empty() ? "refused: " + status.ToString() : std::string("refused");
      Check("acceptance of " + Describe(op, m.write_time()),
            op.invalid.empty() ? "accepted" : "refused", status.ok() ? "accepted" : refused);
      if (status.ok()) {
        ApplyToModel(op, *table_, m.write_time(), m.now(), variant_.default_ttl, &model_);
      }
    }
    const Status applied = db_.engine->Apply(std::move(m));
    Check("Apply", "ok", applied.ok() ? "ok" : applied.ToString());
  }

  void AdvanceStep() {
    const int64_t now = db_.clock.NowMicros();
    const int64_t into_second = ((now % kSecond) + kSecond) % kSecond;
    int64_t delta = 0;
    switch (Below(4)) {
      case 0:
        delta = static_cast<int64_t>(Below(10 * kSecond + 1));
        break;
      case 1:  // exactly onto the next second: expiries fall due there
        delta = kSecond - into_second;
        break;
      case 2:  // one microsecond before it
        delta = kSecond - into_second - 1;
        break;
      default:
        delta = static_cast<int64_t>(Below(11)) * kSecond;
        break;
    }
    // Tombstones must not reach gc_grace_seconds inside an epoch: an older
    // replay would then legitimately come back, depending on sweep timing.
    if (now + delta - epoch_start_ >= (kGcGraceSeconds - 15) * kSecond) {
      GcJump();
      return;
    }
    db_.clock.AdvanceMicros(delta);
    Log("advance the clock by " + std::to_string(delta) + " us to " + Time(now + delta));
  }

  // Sweeps, checking that what reads return does not change; the model
  // turns expired cells into tombstones as the sweep does.
  void Sweep(const std::string& what) {
    Log(what + " at " + Time(db_.clock.NowMicros()));
    std::vector<std::string> positions;
    const std::string before = EngineTable(db_.engine->NewReadView(), &positions);
    SweepStats stats;
    const Status swept = db_.engine->Sweep(&stats);
    Check("Sweep", "ok", swept.ok() ? "ok" : swept.ToString());
    ++totals_.sweeps;
    totals_.rows_rewritten += stats.rows_rewritten;
    totals_.rows_removed += stats.rows_removed;
    totals_.rows_buried += stats.rows_buried;
    model_.Sweep(db_.clock.NowMicros());
    Check("what reads return, before the sweep (-) and after (+)", before,
          EngineTable(db_.engine->NewReadView(), &positions));
  }

  void Reopen() {
    Log("close and reopen the engine");
    db_.Reopen();
    table_ = db_.Table("ks", "m");
    reopened_ = true;
  }

  // Moves past gc_grace_seconds and sweeps: every tombstone goes, with what
  // it shadows. A new epoch starts: later timestamps (even "older" ones) are
  // all newer than anything purged, so the model, which never purges, stays
  // exact.
  void GcJump() {
    db_.clock.AdvanceMicros((kGcGraceSeconds + 1) * kSecond + static_cast<int64_t>(Below(kSecond)));
    Sweep("jump past gc_grace_seconds and sweep");
    epoch_start_ = tie_base_ = db_.clock.NowMicros();
  }

  // ---- Checks.

  void CheckAll() {
    const ReadView view = db_.engine->NewReadView();
    const int64_t now = db_.clock.NowMicros();
    Check("the view's time", std::to_string(now), std::to_string(view.now()));
    std::vector<std::string> positions;
    const std::string expected = ModelTable(now);
    Check("the whole table (partition and row iterators)", expected, EngineTable(view, &positions));
    Check("the whole table (TableScan)", expected, ScanTable(view.ForScan()));
    CheckResume(view, positions, now);
    CheckSlice(view, now);
    CheckPaging(view, now);
    CheckPointReads(view, now);
  }

  void CheckResume(const ReadView& view, const std::vector<std::string>& positions, int64_t now) {
    if (positions.empty()) return;
    const size_t from = Below(positions.size());
    std::string expected, actual;
    const auto partitions = model_.Partitions(now);
    for (size_t i = from + 1; i < partitions.size(); ++i) {
      expected += PartitionName(partitions[i].partition_key) + "\n";
    }
    auto it = view.NewPartitionIterator(table_, positions[from]);
    for (; it->Valid(); it->Next()) {
      Key pk;
      const Status decoded = it->DecodePartitionKey(&pk);
      actual += decoded.ok() ? PartitionName(pk) + "\n" : "!" + decoded.ToString() + "\n";
    }
    if (!it->status().ok()) actual += "!" + it->status().ToString() + "\n";
    Check("partitions after resuming from the position of partition #" + std::to_string(from),
          expected, actual);
  }

  SliceSpec RandomSlice() {
    SliceSpec slice;
    slice.lower = RandomBound();
    slice.upper = RandomBound();
    slice.limit = OneIn(2) ? 0 : 1 + Below(4);
    slice.reverse = OneIn(2);
    return slice;
  }

  std::vector<model::RowOut> ModelSlice(const Key& pk, const SliceSpec& slice, int64_t now) {
    return model_.Rows(pk, now, ToModel(slice.lower), ToModel(slice.upper),
                       static_cast<size_t>(slice.limit), slice.reverse);
  }

  void CheckSlice(const ReadView& view, int64_t now) {
    const Key pk = RandomPk();
    const SliceSpec slice = RandomSlice();
    Check("slice " + DescribeSlice(pk, slice), RenderRows(ModelSlice(pk, slice, now)),
          EngineRows(view, pk, slice));
  }

  // The same slice read in pages of a few rows, each resuming after the
  // last row of the one before.
  void CheckPaging(const ReadView& view, int64_t now) {
    const Key pk = RandomPk();
    SliceSpec slice = RandomSlice();
    slice.limit = 0;
    const std::string expected = RenderRows(ModelSlice(pk, slice, now));
    slice.limit = 1 + Below(3);
    std::string actual;
    for (int page = 0; page < 64; ++page) {
      std::string last_key;
      const std::string rows = EngineRows(view, pk, slice, &last_key);
      actual += rows;
      if (last_key.empty() || rows.find('!') != std::string::npos) break;
      slice.resume_after = last_key;
    }
    Check("paged (" + std::to_string(slice.limit) + " a page) slice " + DescribeSlice(pk, slice),
          expected, actual);
  }

  void CheckPointReads(const ReadView& view, int64_t now) {
    const Key pk = RandomPk();
    const Key ck = RandomClustering();
    const std::string row_name = "GetRow " + PartitionName(pk) + " (" + ClusteringName(ck) + ")";
    std::optional<model::RowOut> expected_row = model_.GetRow(pk, ck, now);
    auto row = view.GetRow(table_, pk, ck);
    std::string actual_row = "!" + row.status().ToString();
    if (row.ok()) actual_row = row.value() ? RenderRow(FromEngine(ck, **row)) : "-";
    Check(row_name, expected_row ? RenderRow(*expected_row) : "-", actual_row);

    const model::CellsOut statics = model_.Statics(pk, now);
    auto static_row = view.GetStaticRow(table_, pk);
    std::string actual_static = "!" + static_row.status().ToString();
    if (static_row.ok()) {
      actual_static = static_row.value() ? RenderCells(CellsOf(**static_row)) : "-";
    }
    Check("GetStaticRow " + PartitionName(pk), statics.empty() ? "-" : RenderCells(statics),
          actual_static);

    auto live = view.IsPartitionLive(table_, pk);
    Check("IsPartitionLive " + PartitionName(pk), model_.IsPartitionLive(pk, now) ? "yes" : "no",
          live.ok() ? (live.value() ? "yes" : "no") : "!" + live.status().ToString());

    auto token = view.Token(table_, pk);
    Check("Token " + PartitionName(pk), std::to_string(model::Token(pk)),
          token.ok() ? std::to_string(token.value()) : "!" + token.status().ToString());
  }

  // Counts a check; on a disagreement reports everything needed to replay it.
  void Check(const std::string& what, const std::string& expected, const std::string& actual) {
    ++totals_.checks;
    if (failed_ || expected == actual) return;
    failed_ = true;
    std::string report = "engine and model disagree: seed " + std::to_string(seed_) + ", step " +
                         std::to_string(step_) + ", layout " + variant_.name +
                         "\n(re-run: CELLFS_MODEL_SEED=" + std::to_string(seed_) +
                         " CELLFS_MODEL_STEPS=" + std::to_string(step_) + ")\n" + what + ":\n" +
                         Diff(expected, actual) + "last operations:\n";
    for (const std::string& line : log_) report += "  " + line + "\n";
    FAIL_CHECK(report);
  }

  void Log(const std::string& line) {
    log_.push_back("step " + std::to_string(step_) + ": " + line);
    if (log_.size() > kLogLength) log_.pop_front();
  }

  // ---- Reading the engine.

  model::CellsOut CellsOf(const RowFragment& fragment) const {
    model::CellsOut out;
    for (const RowCell& rc : fragment.cells) {
      std::optional<size_t> index = table_->ColumnIndexById(rc.column_id);
      const size_t column = index ? *index : 1000 + rc.column_id;
      std::string value = rc.cell.value;
      if (rc.cell.is_tombstone()) value = "<tombstone>";
      if (rc.cell.is_counter()) value = "<counter>";
      out[column] = {value, rc.cell.write_time, rc.cell.ttl, rc.cell.local_deletion_time};
    }
    return out;
  }

  model::RowOut FromEngine(const Key& clustering, const RowFragment& fragment) const {
    model::RowOut row{clustering, std::nullopt, CellsOf(fragment)};
    if (fragment.marker) {
      row.marker =
          model::Marker{fragment.marker->write_time, fragment.marker->ttl, fragment.marker->expiry};
    }
    if (fragment.deletion) {  // never part of live content: shows up as a cell
      row.cells[999] = {"<row deletion>", fragment.deletion->write_time, 0, 0};
    }
    return row;
  }

  // The rows `slice` selects, one line each; `*last_key` gets the encoded
  // key of the last one ("" when none).
  std::string EngineRows(const ReadView& view, const Key& pk, const SliceSpec& slice,
                         std::string* last_key = nullptr) const {
    auto made = view.NewRowIterator(table_, pk, slice);
    if (!made.ok()) return "!" + made.status().ToString() + "\n";
    std::string out;
    RowIterator& it = **made;
    for (; it.Valid(); it.Next()) {
      Key ck;
      const Status decoded = it.DecodeClustering(&ck);
      if (!decoded.ok()) return out + "!" + decoded.ToString() + "\n";
      out += RenderRow(FromEngine(ck, it.row())) + "\n";
      if (last_key) *last_key = std::string(it.clustering_key());
    }
    if (!it.status().ok()) out += "!" + it.status().ToString() + "\n";
    return out;
  }

  // Every live partition (header line) and its rows; `*positions` gets each
  // partition's resume position.
  std::string EngineTable(const ReadView& view, std::vector<std::string>* positions) const {
    positions->clear();
    std::string out;
    auto it = view.NewPartitionIterator(table_);
    for (; it->Valid(); it->Next()) {
      Key pk;
      const Status decoded = it->DecodePartitionKey(&pk);
      if (!decoded.ok()) return out + "!" + decoded.ToString() + "\n";
      positions->emplace_back(it->position());
      out += RenderPartition(pk, it->token(), CellsOf(it->static_row()));
      out += EngineRows(view, pk, {});
    }
    if (!it->status().ok()) out += "!" + it->status().ToString() + "\n";
    return out;
  }

  // The same through TableScan, which yields (partition, row) pairs.
  std::string ScanTable(const ReadView& view) const {
    std::string out, position;
    TableScan scan(view, table_);
    for (; scan.Valid(); scan.Next()) {
      const PartitionIterator& p = scan.partition();
      if (p.position() != position || out.empty()) {
        position = std::string(p.position());
        Key pk;
        const Status decoded = p.DecodePartitionKey(&pk);
        if (!decoded.ok()) return out + "!" + decoded.ToString() + "\n";
        out += RenderPartition(pk, p.token(), CellsOf(p.static_row()));
      }
      if (!scan.has_row()) continue;
      Key ck;
      const Status decoded = scan.row().DecodeClustering(&ck);
      if (!decoded.ok()) return out + "!" + decoded.ToString() + "\n";
      out += RenderRow(FromEngine(ck, scan.row().row())) + "\n";
    }
    if (!scan.status().ok()) out += "!" + scan.status().ToString() + "\n";
    return out;
  }

  std::string ModelTable(int64_t now) const {
    std::string out;
    for (const model::PartitionOut& p : model_.Partitions(now)) {
      out += RenderPartition(p.partition_key, p.token, p.statics);
      out += RenderRows(model_.Rows(p.partition_key, now));
    }
    return out;
  }

  // ---- Rendering. Times are relative to the walk's start: write times in
  // microseconds, expiries in seconds.

  // A write time relative to the start; absolute when that would overflow
  // (the INT64_MIN of an invalid op).
  std::string Relative(int64_t micros) const {
    int64_t relative = 0;
    if (__builtin_sub_overflow(micros, t0_, &relative)) return "abs" + std::to_string(micros);
    return std::to_string(relative);
  }
  std::string Time(int64_t micros) const { return "+" + Relative(micros) + "us"; }
  std::string Expiry(uint32_t ttl, int64_t expiry) const {
    if (ttl == 0 && expiry == 0) return "";
    return "/ttl=" + std::to_string(ttl) + ",exp=+" +
           std::to_string(expiry - model::FloorDiv(t0_)) + "s";
  }

  std::string ColumnName(size_t column) const {
    return column < table_->def.columns.size() ? table_->column(column).name
                                               : "#" + std::to_string(column);
  }
  std::string Term(size_t column, const std::string& value) const {
    if (column >= table_->def.columns.size() || value.starts_with("<")) return value;
    return FormatTerm(*table_->column(column).type, value);
  }

  std::string PartitionName(const Key& pk) const { return testing::FormatKey(*table_, 0, pk); }
  std::string ClusteringName(const Key& ck) const {
    // A bound may hold fewer values than the key; format what is there.
    std::string text;
    for (size_t i = 0; i < ck.size(); ++i) {
      text += (i == 0 ? "" : ",") + FormatTerm(*table_->column(1 + i).type, ck[i]);
    }
    return text;
  }

  std::string RenderCells(const model::CellsOut& cells) const {
    std::string out;
    for (const auto& [column, c] : cells) {
      out += (out.empty() ? "" : " ") + ColumnName(column) + "=" + Term(column, c.value) + "@" +
             Relative(c.write_time) + Expiry(c.ttl, c.expiry);
    }
    return out;
  }

  std::string RenderRow(const model::RowOut& row) const {
    std::string out = "  (" + ClusteringName(row.clustering) + ")";
    if (row.marker) {
      out += " marker@" + Relative(row.marker->write_time) +
             Expiry(row.marker->ttl, row.marker->expiry);
    }
    if (!row.cells.empty()) out += " " + RenderCells(row.cells);
    return out;
  }

  std::string RenderRows(const std::vector<model::RowOut>& rows) const {
    std::string out;
    for (const model::RowOut& row : rows) out += RenderRow(row) + "\n";
    return out;
  }

  std::string RenderPartition(const Key& pk, int64_t token, const model::CellsOut& statics) const {
    return PartitionName(pk) + " token=" + std::to_string(token) + " static{" +
           RenderCells(statics) + "}\n";
  }

  std::string DescribeBound(const char* op, const ClusteringBound& bound) const {
    return std::string(op) + (bound.inclusive ? "=" : "") + " (" + ClusteringName(bound.prefix) +
           ")";
  }

  std::string DescribeSlice(const Key& pk, const SliceSpec& slice) const {
    std::string out = PartitionName(pk);
    if (slice.lower) out += " " + DescribeBound(">", *slice.lower);
    if (slice.upper) out += " " + DescribeBound("<", *slice.upper);
    if (slice.limit != 0) out += " limit " + std::to_string(slice.limit);
    if (slice.reverse) out += " reverse";
    return out;
  }

  std::string Describe(const Op& op, int64_t write_time) const {
    static const char* const kNames[] = {"INSERT",     "UPDATE",       "DELETE cells",
                                         "DELETE row", "DELETE range", "DELETE partition"};
    std::string out = std::string(kNames[static_cast<size_t>(op.kind)]) + " " +
                      PartitionName(op.pk) + " (" + ClusteringName(op.clustering) + ")";
    for (const ColumnValue& c : op.cells) {
      out += " " + ColumnName(c.column) + "=" +
             (c.value ? (op.invalid.empty() ? Term(c.column, *c.value) : "<bytes>") : "null");
    }
    for (size_t c : op.columns) out += " " + ColumnName(c);
    if (op.range.lower) out += " " + DescribeBound(">", *op.range.lower);
    if (op.range.upper) out += " " + DescribeBound("<", *op.range.upper);
    out += " at " + Relative(op.attributes.timestamp.value_or(write_time));
    if (op.attributes.timestamp) out += " (USING TIMESTAMP)";
    if (op.attributes.ttl) out += " USING TTL " + std::to_string(*op.attributes.ttl);
    if (!op.invalid.empty()) out += " [invalid: " + op.invalid + "]";
    return out;
  }

  const uint64_t seed_;
  const Variant variant_;
  std::mt19937_64 rng_;
  testing::TestEngine db_;
  TableHandle table_;
  model::Table model_;
  std::vector<size_t> static_columns_, regular_columns_;
  std::vector<Key> partitions_;

  int64_t t0_ = 0;
  int64_t epoch_start_ = 0;  // clock when the current gc epoch began
  int64_t tie_base_ = 0;     // base of the pool of shared explicit timestamps
  int64_t last_write_time_ = INT64_MIN;
  int64_t previous_write_time_ = INT64_MIN;

  int step_ = 0;
  bool failed_ = false;
  bool reopened_ = false;
  Totals totals_;
  std::deque<std::string> log_;
};

// The model's own rules, on hand-worked cases, so that a disagreement
// points at the engine rather than at the model.
TEST_CASE("the model reconciles, expires and shadows as DESIGN.md section 5 says",
          "[engine][model]") {
  using model::KeyType;
  model::Table t(model::Schema{{{KeyType::kInt, false}, {KeyType::kText, true}}, 0});
  const Key pk{"p"}, row{Int(1), "a"};
  const int64_t now = 100 * kSecond + kSecond / 2;  // 100.5 s
  auto value = [&](const Key& ck, size_t column) -> std::string {
    auto r = t.GetRow(pk, ck, now);
    if (!r || !r->cells.contains(column)) return "-";
    return r->cells.at(column).value;
  };

  SECTION("a higher write time wins; on a tie a deletion, then the greater unsigned value") {
    t.WriteCell(pk, row, 5, std::string("z"), 10, now, 0);
    t.WriteCell(pk, row, 5, std::string("a"), 11, now, 0);
    CHECK(value(row, 5) == "a");
    t.WriteCell(pk, row, 5, std::string("\xff"), 11, now, 0);
    CHECK(value(row, 5) == "\xff");
    t.WriteCell(pk, row, 5, std::nullopt, 11, now, 0);
    CHECK(value(row, 5) == "-");
  }
  SECTION("on a tie an expiring cell beats a non-expiring one, whatever the values") {
    t.WriteCell(pk, row, 5, std::string("b"), 10, now, 0);
    t.WriteCell(pk, row, 5, std::string("a"), 10, now, 60);
    CHECK(t.GetRow(pk, row, now)->cells.at(5).ttl == 60);
  }
  SECTION("a TTL counts from the mutation's clock; dead from expiry * 10^6 us on") {
    t.WriteCell(pk, row, 5, std::string("v"), 10, now, 2);  // expires at second 102
    CHECK(t.GetRow(pk, row, 102 * kSecond - 1));
    CHECK_FALSE(t.GetRow(pk, row, 102 * kSecond));
  }
  SECTION("deletions shadow writes at or before their time, replays included") {
    t.DeleteRow(pk, row, 20);
    t.WriteCell(pk, row, 5, std::string("old"), 20, now, 0);
    CHECK_FALSE(t.GetRow(pk, row, now));
    t.WriteCell(pk, row, 5, std::string("new"), 21, now, 0);
    CHECK(value(row, 5) == "new");
    t.DeletePartition(pk, 30);
    CHECK_FALSE(t.IsPartitionLive(pk, now));
  }
  SECTION("a row lives by its marker or a cell; a partition by a row or a static cell") {
    t.WriteCell(pk, row, 5, std::string("v"), 10, now, 0);
    t.WriteCell(pk, row, 5, std::nullopt, 11, now, 0);
    CHECK_FALSE(t.IsPartitionLive(pk, now));
    t.WriteMarker(pk, row, 12, now, 0);
    CHECK(t.GetRow(pk, row, now));
    t.DeleteRow(pk, row, 13);
    t.WriteCell(pk, std::nullopt, 4, std::string("s"), 14, now, 0);
    CHECK(t.IsPartitionLive(pk, now));
    CHECK(t.Rows(pk, now).empty());
  }
  SECTION("range bounds compare tuples in value order; DESC only orders the rows") {
    for (const char* c2 : {"a", "b", "c"}) t.WriteMarker(pk, {Int(1), c2}, 10, now, 0);
    CHECK(t.Rows(pk, now).front().clustering[1] == "c");
    t.DeleteRange(pk, model::Bound{{Int(1), "a"}, false}, model::Bound{{Int(1), "c"}, false}, 11);
    const auto rows = t.Rows(pk, now);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].clustering[1] == "c");
    CHECK(rows[1].clustering[1] == "a");
  }
  SECTION("a sweep turns an expired cell into a tombstone that wins later ties") {
    t.WriteCell(pk, row, 5, std::string("a"), 10, now, 1);  // expires at second 101
    t.Sweep(101 * kSecond);
    t.WriteCell(pk, row, 5, std::string("b"), 10, 101 * kSecond, 60);
    CHECK_FALSE(t.GetRow(pk, row, 102 * kSecond));
  }
}

std::optional<long long> EnvNumber(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  return std::atoll(text);
}

TEST_CASE("random operation sequences read back as the Cassandra model says after every step",
          "[engine][model]") {
  const std::vector<Variant> variants = Variants();
  std::vector<uint64_t> seeds;
  if (auto one = EnvNumber("CELLFS_MODEL_SEED")) {
    seeds.push_back(static_cast<uint64_t>(*one));
  } else {
    const auto count = EnvNumber("CELLFS_MODEL_SEEDS").value_or(kDefaultSeeds);
    for (long long s = 1; s <= count; ++s) seeds.push_back(static_cast<uint64_t>(s));
  }
  const int steps = static_cast<int>(EnvNumber("CELLFS_MODEL_STEPS").value_or(kDefaultSteps));
  REQUIRE(steps > 0);

  uint64_t checks = 0, sweeps = 0, rewritten = 0, removed = 0, buried = 0;
  int failures = 0;
  for (uint64_t seed : seeds) {
    Walk walk(seed, variants[seed % variants.size()]);
    if (!walk.Run(steps)) ++failures;
    checks += walk.totals().checks;
    sweeps += walk.totals().sweeps;
    rewritten += walk.totals().rows_rewritten;
    removed += walk.totals().rows_removed;
    buried += walk.totals().rows_buried;
  }
  std::cout << "engine model: " << seeds.size() << " seeds, "
            << seeds.size() * static_cast<uint64_t>(steps) << " steps, " << checks << " checks; "
            << sweeps << " sweeps rewrote " << rewritten << " rows, removed " << removed
            << " and buried " << buried << (failures ? "; FAILED" : "") << "\n";
  CHECK(failures == 0);
  // The walks' reads hand dead rows to the sweeper, so the checks after
  // later sweeps read rows merged from both spaces.
  if (seeds.size() >= 10) CHECK(buried > 0);
}

}  // namespace
}  // namespace cellfs
