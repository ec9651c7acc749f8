// Engine reads: point reads, slices (every bound kind, limit, reverse,
// resume) against an in-memory model, liveness under deletions and TTL,
// partition order, snapshot isolation; and the fragment reader and live-row
// rules underneath them.
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/write_batch.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/store/internal/fragment_reader.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/leveldb/leveldb_storage.h"
#include "engine/store/token.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/hex_test_util.h"

namespace cellfs {
namespace {

using testing::ToHex;
using testing::Value;
using Key = std::vector<std::string>;

constexpr char kSchema[] = R"(
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.logs (host text, day int, ts timestamp, level text, msg text,
  PRIMARY KEY ((host, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);
CREATE TABLE ks.events (k int, a int, b text, v text, PRIMARY KEY (k, a, b))
  WITH CLUSTERING ORDER BY (a ASC, b DESC);
CREATE TABLE ks.grid (k int, x int, y text, z bigint, v int, PRIMARY KEY (k, x, y, z))
  WITH CLUSTERING ORDER BY (x DESC, y ASC, z DESC);
CREATE TABLE ks.kv (k text PRIMARY KEY, v int);
CREATE TABLE ks.accounts (owner text, seq int, balance bigint STATIC, note text,
  PRIMARY KEY (owner, seq));
)";

// testing::TestEngine declares its Env after its Engine, so the Env would be
// destroyed first; closing the engine before the members go avoids that.
struct TestEngine : testing::TestEngine {
  ~TestEngine() { Close(); }
};

// ---- Building keys, cells and writes.

Key KeyValues(const TableSchema& table, size_t first, const std::vector<std::string>& literals) {
  Key values;
  for (size_t i = 0; i < literals.size(); ++i) {
    values.push_back(Value(*table.column(first + i).type, literals[i]));
  }
  return values;
}
Key Pk(const TableHandle& table, const std::vector<std::string>& literals) {
  return KeyValues(*table, 0, literals);
}
Key Ck(const TableHandle& table, const std::vector<std::string>& literals) {
  return KeyValues(*table, table->partition_key_count(), literals);
}

size_t Col(const TableHandle& table, std::string_view name) {
  for (size_t i = 0; i < table->def.columns.size(); ++i) {
    if (table->column(i).name == name) return i;
  }
  FAIL("no column " << name);
  return 0;
}

ColumnValue Set(const TableHandle& table, std::string_view name, const std::string& literal) {
  const size_t column = Col(table, name);
  return {column, Value(*table->column(column).type, literal)};
}

std::string Int32(int32_t v) {
  std::string out(4, '\0');
  for (int i = 0; i < 4; ++i) {
    out[static_cast<size_t>(i)] = static_cast<char>(static_cast<uint32_t>(v) >> (24 - 8 * i));
  }
  return out;
}
std::string Int64(int64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) {
    out[static_cast<size_t>(i)] = static_cast<char>(static_cast<uint64_t>(v) >> (56 - 8 * i));
  }
  return out;
}

// Runs one operation in its own mutation and applies it; REQUIREs success.
void Write(Engine& engine, const std::function<Status(Mutation&)>& op) {
  Mutation mutation = engine.NewMutation();
  const Status built = op(mutation);
  INFO(built.ToString());
  REQUIRE(built.ok());
  const Status applied = engine.Apply(std::move(mutation));
  INFO(applied.ToString());
  REQUIRE(applied.ok());
}

// ---- Rendering what the engine returns.

std::string Render(const TableSchema& table, size_t first, const Key& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out += ',';
    out += FormatLiteral(*table.column(first + i).type, values[i]);
  }
  return out;
}

// "marker level=INFO msg=boot": the live content, cells by column id.
std::string RenderRow(const TableSchema& table, const RowFragment& row) {
  std::string out = row.marker ? "marker" : "-";
  for (const RowCell& c : row.cells) {
    const size_t index = table.ColumnIndexById(c.column_id).value();
    out += " " + table.column(index).name + "=" +
           FormatLiteral(*table.column(index).type, c.cell.value);
  }
  return out;
}

std::string RenderGet(const TableSchema& table, const Result<std::optional<RowFragment>>& got) {
  INFO(got.status().ToString());
  REQUIRE(got.ok());
  return got.value() ? RenderRow(table, *got.value()) : "absent";
}

// The rows a slice lists: "clustering" or "clustering:cells", and each
// row's encoded clustering key (for resume_after).
struct Listing {
  std::vector<std::string> rows;
  std::vector<std::string> encoded;
};

Listing List(const ReadView& view, const TableHandle& table, const Key& pk,
             const SliceSpec& slice = {}, bool with_cells = false) {
  auto it = view.NewRowIterator(table, pk, slice);
  INFO(it.status().ToString());
  REQUIRE(it.ok());
  Listing listing;
  for (RowIterator& rows = **it; rows.Valid(); rows.Next()) {
    Key values;
    REQUIRE(rows.DecodeClustering(&values).ok());
    std::string text = Render(*table, table->partition_key_count(), values);
    if (with_cells) text += ":" + RenderRow(*table, rows.row());
    listing.rows.push_back(text);
    listing.encoded.emplace_back(rows.clustering_key());
  }
  REQUIRE((*it)->status().ok());
  return listing;
}

std::vector<std::string> Rows(const ReadView& view, const TableHandle& table, const Key& pk,
                              const SliceSpec& slice = {}) {
  return List(view, table, pk, slice).rows;
}

ClusteringBound Bound(Key prefix, bool inclusive) { return {std::move(prefix), inclusive}; }

// ---- The model: CQL's order worked out from decoded values, sharing
// nothing with the key codec.

int64_t SignedBigEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  const size_t bits = bytes.size() * 8;
  if (bits > 0 && bits < 64 && (v >> (bits - 1)) != 0) v |= ~uint64_t{0} << bits;
  return static_cast<int64_t>(v);
}

class TupleOrder {
 public:
  explicit TupleOrder(const TableSchema& table) {
    for (size_t i = 0; i < table.clustering_count(); ++i) {
      const ColumnDef& column = table.column(table.partition_key_count() + i);
      text_.push_back(column.type->kind() == TypeKind::kText);
      desc_.push_back(column.order == SortOrder::kDesc);
    }
  }

  // Value order (DESC ignored) on the bound's columns: what `>=` means.
  int ComparePrefix(const Key& row, const Key& bound) const {
    for (size_t i = 0; i < bound.size(); ++i) {
      if (int c = CompareValues(i, row[i], bound[i]); c != 0) return c;
    }
    return 0;
  }

  // The table's order: per column ASC or DESC.
  bool operator()(const Key& a, const Key& b) const {
    for (size_t i = 0; i < a.size(); ++i) {
      if (int c = CompareValues(i, a[i], b[i]); c != 0) return desc_[i] ? c > 0 : c < 0;
    }
    return false;
  }

 private:
  int CompareValues(size_t column, std::string_view a, std::string_view b) const {
    if (text_[column]) return a < b ? -1 : (a > b ? 1 : 0);
    const int64_t x = SignedBigEndian(a);
    const int64_t y = SignedBigEndian(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }

  std::vector<bool> text_;
  std::vector<bool> desc_;
};

bool InBounds(const TupleOrder& order, const Key& row, const SliceSpec& slice) {
  if (slice.lower) {
    const int c = order.ComparePrefix(row, slice.lower->prefix);
    if (c < 0 || (c == 0 && !slice.lower->inclusive)) return false;
  }
  if (slice.upper) {
    const int c = order.ComparePrefix(row, slice.upper->prefix);
    if (c > 0 || (c == 0 && !slice.upper->inclusive)) return false;
  }
  return true;
}

// What `slice` should list from `rows` (live rows, any order): keys in
// table order (or reversed), after `resume` when given, at most limit.
template <typename Render>
std::vector<std::string> ExpectedSlice(const TupleOrder& order, std::vector<Key> rows,
                                       const SliceSpec& slice, const std::optional<Key>& resume,
                                       const Render& render) {
  std::erase_if(rows, [&](const Key& row) { return !InBounds(order, row, slice); });
  std::sort(rows.begin(), rows.end(), order);
  if (slice.reverse) std::reverse(rows.begin(), rows.end());
  if (resume) {
    auto at = std::find(rows.begin(), rows.end(), *resume);
    REQUIRE(at != rows.end());
    rows.erase(rows.begin(), at + 1);
  }
  if (slice.limit != 0 && rows.size() > slice.limit) rows.resize(slice.limit);
  std::vector<std::string> out;
  for (const Key& row : rows) out.push_back(render(row));
  return out;
}

std::string DescribeSlice(const TableSchema& table, const SliceSpec& slice) {
  const size_t first = table.partition_key_count();
  std::string out;
  if (slice.lower) {
    out +=
        (slice.lower->inclusive ? ">=(" : ">(") + Render(table, first, slice.lower->prefix) + ") ";
  }
  if (slice.upper) {
    out +=
        (slice.upper->inclusive ? "<=(" : "<(") + Render(table, first, slice.upper->prefix) + ") ";
  }
  out += "limit=" + std::to_string(slice.limit) + (slice.reverse ? " reverse" : "");
  return out;
}

// ---- Point reads.

TEST_CASE("GetRow returns the row's live content after inserts and updates", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle logs = db.Table("ks", "logs");
  const Key pk = Pk(logs, {"MPLS2", "20180723"});
  const Key ck = Ck(logs, {"2018-07-23T11:04:22.432Z"});
  Write(*db.engine, [&](Mutation& m) {
    return m.Insert(logs, pk, ck,
                    std::vector{Set(logs, "level", "INFO"), Set(logs, "msg", "boot")});
  });
  CHECK(RenderGet(*logs, db.engine->NewReadView().GetRow(logs, pk, ck)) ==
        "marker level=INFO msg=boot");

  Write(*db.engine, [&](Mutation& m) {
    return m.Update(logs, pk, ck, std::vector{Set(logs, "msg", "rebooted")});
  });
  const ReadView view = db.engine->NewReadView();
  auto row = view.GetRow(logs, pk, ck);
  CHECK(RenderGet(*logs, row) == "marker level=INFO msg=rebooted");
  REQUIRE(row.value()->cells.size() == 2);
  CHECK(row.value()->cells[1].cell.write_time > row.value()->cells[0].cell.write_time);
  CHECK(!row.value()->deletion);

  SECTION("rows and partitions never written are absent") {
    CHECK(RenderGet(*logs, view.GetRow(logs, pk, Ck(logs, {"2018-07-23T11:04:22.431Z"}))) ==
          "absent");
    CHECK(RenderGet(*logs, view.GetRow(logs, Pk(logs, {"MPLS2", "20180724"}), ck)) == "absent");
  }
  SECTION("a row with cells and no marker is live") {
    const Key other = Ck(logs, {"2018-07-23T12:00:00.000Z"});
    Write(*db.engine, [&](Mutation& m) {
      return m.Update(logs, pk, other, std::vector{Set(logs, "level", "WARN")});
    });
    CHECK(RenderGet(*logs, db.engine->NewReadView().GetRow(logs, pk, other)) == "- level=WARN");
  }
  SECTION("keys that do not fit the table are InvalidArgument") {
    CHECK(view.GetRow(logs, Pk(logs, {"MPLS2"}), ck).status().code() ==
          StatusCode::kInvalidArgument);
    CHECK(view.GetRow(logs, pk, Key{}).status().code() == StatusCode::kInvalidArgument);
    CHECK(view.GetRow(logs, Key{pk[0], "abc"}, ck).status().code() == StatusCode::kInvalidArgument);
    CHECK(view.NewRowIterator(logs, Key{pk[0], "abc"}).status().code() ==
          StatusCode::kInvalidArgument);
    SliceSpec too_long;
    too_long.lower = Bound({ck[0], ck[0]}, true);
    CHECK(view.NewRowIterator(logs, pk, too_long).status().code() == StatusCode::kInvalidArgument);
    CHECK(view.Token(logs, Pk(logs, {"MPLS2"})).status().code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("A table without clustering columns has one row per partition", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle kv = db.Table("ks", "kv");
  const Key pk = Pk(kv, {"alpha"});
  Write(*db.engine,
        [&](Mutation& m) { return m.Insert(kv, pk, Key{}, std::vector{Set(kv, "v", "7")}); });
  const ReadView view = db.engine->NewReadView();
  CHECK(RenderGet(*kv, view.GetRow(kv, pk, Key{})) == "marker v=7");
  const Listing listing = List(view, kv, pk, {}, true);
  CHECK(listing.rows == std::vector<std::string>{":marker v=7"});
  CHECK(listing.encoded == std::vector<std::string>{""});
  SliceSpec resumed;
  resumed.resume_after = "";
  CHECK(Rows(view, kv, pk, resumed).empty());
  resumed.reverse = true;
  CHECK(Rows(view, kv, pk, resumed).empty());
  CHECK(view.IsPartitionLive(kv, pk).value());
  CHECK(!view.IsPartitionLive(kv, Pk(kv, {"beta"})).value());
}

// ---- Slices.

TEST_CASE("Slices over a DESC timestamp return rows newest first", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle logs = db.Table("ks", "logs");
  const Key pk = Pk(logs, {"MPLS2", "20180723"});
  auto at = [](int hour) {
    return std::string("2018-07-23T") + (hour < 10 ? "0" : "") + std::to_string(hour) +
           ":00:00.000Z";
  };
  for (int hour = 0; hour < 24; ++hour) {
    Write(*db.engine, [&](Mutation& m) {
      return m.Insert(logs, pk, Ck(logs, {at(hour)}), std::vector{Set(logs, "msg", "tick")});
    });
  }
  const ReadView view = db.engine->NewReadView();
  SliceSpec slice;
  slice.lower = Bound(Ck(logs, {at(6)}), true);
  slice.upper = Bound(Ck(logs, {at(10)}), false);
  CHECK(Rows(view, logs, pk, slice) == std::vector<std::string>{at(9), at(8), at(7), at(6)});
  slice.reverse = true;
  CHECK(Rows(view, logs, pk, slice) == std::vector<std::string>{at(6), at(7), at(8), at(9)});
  slice.limit = 3;
  CHECK(Rows(view, logs, pk, slice) == std::vector<std::string>{at(6), at(7), at(8)});
  slice.reverse = false;
  slice.lower->inclusive = false;
  slice.upper->inclusive = true;
  CHECK(Rows(view, logs, pk, slice) == std::vector<std::string>{at(10), at(9), at(8)});
  slice.resume_after = List(view, logs, pk, slice).encoded[1];
  CHECK(Rows(view, logs, pk, slice) == std::vector<std::string>{at(8), at(7)});
  CHECK(Rows(view, logs, pk).size() == 24);
  CHECK(Rows(view, logs, pk).front() == at(23));
}

TEST_CASE("Every bound kind on mixed ASC/DESC columns selects what CQL's tuple order does",
          "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle events = db.Table("ks", "events");
  const Key pk = Pk(events, {"1"});
  std::vector<Key> rows;
  for (int a : {1, 2, 3}) {
    for (const char* b : {"", "x", "y"}) {
      rows.push_back({Int32(a), b});
      Write(*db.engine, [&](Mutation& m) { return m.Insert(events, pk, rows.back(), {}); });
    }
  }
  std::vector<std::optional<ClusteringBound>> bounds = {std::nullopt};
  for (bool inclusive : {true, false}) {
    for (int a : {0, 2, 4}) bounds.push_back(Bound({Int32(a)}, inclusive));
    for (int a : {1, 2}) {
      for (const char* b : {"", "x", "xa", "z"}) bounds.push_back(Bound({Int32(a), b}, inclusive));
    }
  }
  const TupleOrder order(*events);
  const ReadView view = db.engine->NewReadView();
  auto render = [&](const Key& row) { return Render(*events, 1, row); };
  for (const auto& lower : bounds) {
    for (const auto& upper : bounds) {
      for (bool reverse : {false, true}) {
        for (uint64_t limit : {uint64_t{0}, uint64_t{2}}) {
          SliceSpec slice;
          slice.lower = lower;
          slice.upper = upper;
          slice.reverse = reverse;
          slice.limit = limit;
          INFO(DescribeSlice(*events, slice));
          const Listing listing = List(view, events, pk, slice);
          CHECK(listing.rows == ExpectedSlice(order, rows, slice, std::nullopt, render));
          if (listing.rows.empty()) continue;
          // Resuming after the first row listed continues the same slice.
          slice.resume_after = listing.encoded.front();
          Key first;
          REQUIRE(storage::DecodeClustering(*events, listing.encoded.front(), &first).ok());
          CHECK(Rows(view, events, pk, slice) == ExpectedSlice(order, rows, slice, first, render));
        }
      }
    }
  }
}

// A row of the property test's model: what was last written, with expiries
// in seconds (0 = never).
struct ModelRow {
  bool marker = false;
  int64_t marker_expiry = 0;
  std::optional<int32_t> v;
  int64_t v_expiry = 0;

  static bool Alive(int64_t expiry, int64_t now_s) { return expiry == 0 || now_s < expiry; }
  bool Live(int64_t now_s) const {
    return (marker && Alive(marker_expiry, now_s)) || (v && Alive(v_expiry, now_s));
  }
};

class GridModel {
 public:
  GridModel(TestEngine* db, TableHandle table, uint64_t seed)
      : db_(db), table_(std::move(table)), order_(*table_), rows_(order_), rng_(seed) {}

  Key RandomKey() {
    static const std::vector<std::string> kTexts = {"", "a", "ab", "b", "\xC3\xA9"};
    static const std::vector<int64_t> kBigints = {-1, 0, 1, 5'000'000'000};
    return {Int32(static_cast<int32_t>(Below(5)) - 2), kTexts[Below(kTexts.size())],
            Int64(kBigints[Below(kBigints.size())])};
  }
  // A bound of 1..3 values, sometimes outside the written domain.
  ClusteringBound RandomBound() {
    Key key = RandomKey();
    if (Below(4) == 0) key[0] = Int32(static_cast<int32_t>(Below(9)) - 4);
    key.resize(1 + Below(3));
    return Bound(std::move(key), Below(2) == 0);
  }

  void RandomWrite(const Key& pk) {
    const size_t dice = Below(20);
    if (dice < 11) return Upsert(pk, dice < 8);
    if (dice < 14) return DeleteRow(pk);
    if (dice < 16) return DeleteRange(pk);
    db_->clock.AdvanceSeconds(static_cast<int64_t>(1 + Below(8)));
  }

  SliceSpec RandomSlice() {
    SliceSpec slice;
    if (Below(3) != 0) slice.lower = RandomBound();
    if (Below(3) != 0) slice.upper = RandomBound();
    slice.reverse = Below(2) == 0;
    slice.limit = Below(2) == 0 ? 0 : 1 + Below(4);
    return slice;
  }

  std::vector<Key> LiveRows(int64_t now_s) const {
    std::vector<Key> live;
    for (const auto& [key, row] : rows_) {
      if (row.Live(now_s)) live.push_back(key);
    }
    return live;
  }
  std::string RenderModelRow(const Key& key, int64_t now_s) const {
    const ModelRow& row = rows_.at(key);
    std::string out = Render(*table_, 1, key) + ":";
    out += row.marker && ModelRow::Alive(row.marker_expiry, now_s) ? "marker" : "-";
    if (row.v && ModelRow::Alive(row.v_expiry, now_s)) out += " v=" + std::to_string(*row.v);
    return out;
  }
  const TupleOrder& order() const { return order_; }
  size_t Below(size_t n) { return static_cast<size_t>(rng_() % n); }

 private:
  void Upsert(const Key& pk, bool insert) {
    const Key key = RandomKey();
    const auto value = static_cast<int32_t>(Below(1000));
    WriteAttributes attributes;
    if (Below(3) == 0) attributes.ttl = static_cast<int64_t>(1 + Below(20));
    Mutation m = db_->engine->NewMutation();
    const int64_t expiry = attributes.ttl ? FloorSeconds(m.now()) + *attributes.ttl : 0;
    const std::vector<ColumnValue> cells = {{Col(table_, "v"), Int32(value)}};
    REQUIRE((insert ? m.Insert(table_, pk, key, cells, attributes)
                    : m.Update(table_, pk, key, cells, attributes))
                .ok());
    REQUIRE(db_->engine->Apply(std::move(m)).ok());
    ModelRow& row = rows_[key];
    if (insert) {
      row.marker = true;
      row.marker_expiry = expiry;
    }
    row.v = value;
    row.v_expiry = expiry;
  }
  void DeleteRow(const Key& pk) {
    const Key key = RandomKey();
    Write(*db_->engine, [&](Mutation& m) { return m.DeleteRow(table_, pk, key); });
    rows_.erase(key);
  }
  void DeleteRange(const Key& pk) {
    SliceSpec range;
    range.lower = RandomBound();
    if (Below(2) == 0) range.upper = RandomBound();
    Write(*db_->engine, [&](Mutation& m) { return m.DeleteRange(table_, pk, range); });
    std::erase_if(rows_, [&](const auto& entry) { return InBounds(order_, entry.first, range); });
  }

  TestEngine* db_;
  TableHandle table_;
  TupleOrder order_;
  std::map<Key, ModelRow, TupleOrder> rows_;
  std::mt19937_64 rng_;
};

TEST_CASE("Random slices over random writes list what a sorted in-memory model lists",
          "[engine_read][property]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle grid = db.Table("ks", "grid");
  for (int32_t partition = 0; partition < 4; ++partition) {
    GridModel model(&db, grid, 0x5eed0000u + static_cast<uint64_t>(partition));
    const Key pk = {Int32(partition)};
    for (int step = 0; step < 120; ++step) model.RandomWrite(pk);
    const ReadView view = db.engine->NewReadView();
    const int64_t now_s = FloorSeconds(view.now());
    const std::vector<Key> live = model.LiveRows(now_s);
    auto render = [&](const Key& key) { return model.RenderModelRow(key, now_s); };
    for (int probe = 0; probe < 150; ++probe) {
      SliceSpec slice = model.RandomSlice();
      INFO("partition " << partition << " probe " << probe << ": " << DescribeSlice(*grid, slice));
      const Listing listing = List(view, grid, pk, slice, true);
      REQUIRE(listing.rows == ExpectedSlice(model.order(), live, slice, std::nullopt, render));
      if (listing.rows.empty()) continue;
      const size_t at = model.Below(listing.rows.size());
      slice.resume_after = listing.encoded[at];
      Key resume;
      REQUIRE(storage::DecodeClustering(*grid, listing.encoded[at], &resume).ok());
      INFO("resuming after row " << at);
      CHECK(List(view, grid, pk, slice, true).rows ==
            ExpectedSlice(model.order(), live, slice, resume, render));
    }
  }
}

// ---- Liveness.

TEST_CASE("Rows shadowed by row, range or partition deletions are skipped", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle events = db.Table("ks", "events");
  const Key pk = Pk(events, {"1"});
  for (const char* a : {"1", "2", "3"}) {
    for (const char* b : {"x", "y"}) {
      Write(*db.engine, [&](Mutation& m) {
        return m.Insert(events, pk, Ck(events, {a, b}), std::vector{Set(events, "v", "on")});
      });
    }
  }
  Write(*db.engine, [&](Mutation& m) { return m.DeleteRow(events, pk, Ck(events, {"1", "y"})); });
  SliceSpec two;
  two.lower = Bound(Ck(events, {"2"}), true);
  two.upper = Bound(Ck(events, {"2"}), true);
  Write(*db.engine, [&](Mutation& m) { return m.DeleteRange(events, pk, two); });
  CHECK(Rows(db.engine->NewReadView(), events, pk) ==
        std::vector<std::string>{"1,x", "3,y", "3,x"});

  SECTION("a limit counts live rows only") {
    SliceSpec slice;
    slice.limit = 2;
    slice.lower = Bound(Ck(events, {"1"}), true);
    CHECK(Rows(db.engine->NewReadView(), events, pk, slice) ==
          std::vector<std::string>{"1,x", "3,y"});
    slice.reverse = true;
    slice.lower.reset();
    slice.upper = Bound(Ck(events, {"2", "x"}), true);
    CHECK(Rows(db.engine->NewReadView(), events, pk, slice) == std::vector<std::string>{"1,x"});
  }
  SECTION("point reads agree") {
    const ReadView view = db.engine->NewReadView();
    CHECK(RenderGet(*events, view.GetRow(events, pk, Ck(events, {"1", "y"}))) == "absent");
    CHECK(RenderGet(*events, view.GetRow(events, pk, Ck(events, {"2", "x"}))) == "absent");
    CHECK(RenderGet(*events, view.GetRow(events, pk, Ck(events, {"3", "x"}))) == "marker v=on");
  }
  SECTION("writes newer than a deletion are live again; older ones stay shadowed") {
    Write(*db.engine, [&](Mutation& m) {
      return m.Insert(events, pk, Ck(events, {"2", "x"}), {});
    });
    WriteAttributes old;
    old.timestamp = 1;
    Write(*db.engine, [&](Mutation& m) {
      return m.Insert(events, pk, Ck(events, {"1", "y"}), std::vector{Set(events, "v", "replay")},
                      old);
    });
    Write(*db.engine, [&](Mutation& m) {
      return m.DeleteRow(events, pk, Ck(events, {"3", "x"}), old);
    });
    CHECK(Rows(db.engine->NewReadView(), events, pk) ==
          std::vector<std::string>{"1,x", "2,x", "3,y", "3,x"});
  }
  SECTION("a partition deletion shadows the rows and static cells before it") {
    Write(*db.engine, [&](Mutation& m) { return m.DeletePartition(events, pk); });
    ReadView view = db.engine->NewReadView();
    CHECK(Rows(view, events, pk).empty());
    CHECK(!view.IsPartitionLive(events, pk).value());
    CHECK(RenderGet(*events, view.GetRow(events, pk, Ck(events, {"3", "x"}))) == "absent");
    Write(*db.engine, [&](Mutation& m) {
      return m.Insert(events, pk, Ck(events, {"9", "z"}), {});
    });
    view = db.engine->NewReadView();
    CHECK(Rows(view, events, pk) == std::vector<std::string>{"9,z"});
    CHECK(view.IsPartitionLive(events, pk).value());
  }
  SECTION("a row whose only cell was deleted is gone") {
    const Key ck = Ck(events, {"5", "q"});
    Write(*db.engine, [&](Mutation& m) {
      return m.Update(events, pk, ck, std::vector{Set(events, "v", "tmp")});
    });
    const std::vector<size_t> columns = {Col(events, "v")};
    Write(*db.engine, [&](Mutation& m) { return m.DeleteCells(events, pk, ck, columns); });
    CHECK(RenderGet(*events, db.engine->NewReadView().GetRow(events, pk, ck)) == "absent");
    CHECK(Rows(db.engine->NewReadView(), events, pk).size() == 3);
  }
}

TEST_CASE("A row whose only cell expires disappears at the exact microsecond of expiry",
          "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle kv = db.Table("ks", "kv");
  const Key pk = Pk(kv, {"session"});
  db.clock.AdvanceMicros(123'456);  // expiry must not depend on a whole-second start
  WriteAttributes ttl;
  ttl.ttl = 60;
  Write(*db.engine,
        [&](Mutation& m) { return m.Update(kv, pk, Key{}, std::vector{Set(kv, "v", "1")}, ttl); });
  auto row = db.engine->NewReadView().GetRow(kv, pk, Key{});
  REQUIRE(row.ok());
  REQUIRE(row.value());
  REQUIRE(row.value()->cells.size() == 1);
  const int64_t expiry = row.value()->cells[0].cell.local_deletion_time;
  CHECK(row.value()->cells[0].cell.ttl == 60);
  CHECK(expiry * 1'000'000 > db.clock.NowMicros());

  auto listed = [&](const ReadView& view) {
    std::vector<std::string> keys;
    for (auto it = view.NewPartitionIterator(kv); it->Valid(); it->Next()) {
      Key values;
      REQUIRE(it->DecodePartitionKey(&values).ok());
      keys.push_back(values[0]);
    }
    return keys;
  };
  db.clock.Set(expiry * 1'000'000 - 1);
  ReadView view = db.engine->NewReadView();
  CHECK(RenderGet(*kv, view.GetRow(kv, pk, Key{})) == "- v=1");
  CHECK(Rows(view, kv, pk).size() == 1);
  CHECK(view.IsPartitionLive(kv, pk).value());
  CHECK(listed(view) == std::vector<std::string>{"session"});

  db.clock.Set(expiry * 1'000'000);
  const ReadView later = db.engine->NewReadView();
  CHECK(RenderGet(*kv, later.GetRow(kv, pk, Key{})) == "absent");
  CHECK(Rows(later, kv, pk).empty());
  CHECK(!later.IsPartitionLive(kv, pk).value());
  CHECK(listed(later).empty());
  // The earlier view keeps judging at its own time.
  CHECK(RenderGet(*kv, view.GetRow(kv, pk, Key{})) == "- v=1");
}

TEST_CASE("An expiring marker keeps a row alive until it expires", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle logs = db.Table("ks", "logs");
  const Key pk = Pk(logs, {"h", "1"});
  WriteAttributes ttl;
  ttl.ttl = 10;
  Write(*db.engine, [&](Mutation& m) { return m.Insert(logs, pk, Ck(logs, {"1"}), {}, ttl); });
  Write(*db.engine, [&](Mutation& m) {
    return m.Insert(logs, pk, Ck(logs, {"2"}), std::vector{Set(logs, "msg", "kept")});
  });
  Write(*db.engine, [&](Mutation& m) {
    return m.Update(logs, pk, Ck(logs, {"2"}), std::vector{Set(logs, "level", "X")}, ttl);
  });
  CHECK(List(db.engine->NewReadView(), logs, pk, {}, true).rows ==
        std::vector<std::string>{"1970-01-01T00:00:00.002Z:marker level=X msg=kept",
                                 "1970-01-01T00:00:00.001Z:marker"});
  db.clock.AdvanceSeconds(10);
  CHECK(List(db.engine->NewReadView(), logs, pk, {}, true).rows ==
        std::vector<std::string>{"1970-01-01T00:00:00.002Z:marker msg=kept"});
}

TEST_CASE("Cells of a dropped column are not read, even after the name is added again",
          "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  TableHandle logs = db.Table("ks", "logs");
  const Key pk = Pk(logs, {"h", "1"});
  Write(*db.engine, [&](Mutation& m) {
    return m.Insert(logs, pk, Ck(logs, {"1"}),
                    std::vector{Set(logs, "level", "A"), Set(logs, "msg", "m")});
  });
  Write(*db.engine, [&](Mutation& m) {
    return m.Update(logs, pk, Ck(logs, {"2"}), std::vector{Set(logs, "msg", "only")});
  });
  db.Ddl("ALTER TABLE ks.logs DROP msg;");
  logs = db.Table("ks", "logs");
  CHECK(List(db.engine->NewReadView(), logs, pk, {}, true).rows ==
        std::vector<std::string>{"1970-01-01T00:00:00.001Z:marker level=A"});
  db.Ddl("ALTER TABLE ks.logs ADD msg text;");
  logs = db.Table("ks", "logs");
  CHECK(List(db.engine->NewReadView(), logs, pk, {}, true).rows ==
        std::vector<std::string>{"1970-01-01T00:00:00.001Z:marker level=A"});
}

// ---- Partitions.

TEST_CASE("The partition iterator lists live partitions in token order and resumes",
          "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle kv = db.Table("ks", "kv");
  std::vector<std::pair<int64_t, std::string>> expected;  // (token, key) of live partitions
  std::vector<std::string> dead;
  WriteAttributes short_ttl;
  short_ttl.ttl = 5;
  for (int i = 0; i < 80; ++i) {
    const std::string name = "key" + std::to_string(i);
    const Key pk = Pk(kv, {name});
    const int fate = i % 4;
    Write(*db.engine, [&](Mutation& m) {
      return fate == 3 ? m.Update(kv, pk, Key{}, std::vector{Set(kv, "v", "1")}, short_ttl)
                       : m.Insert(kv, pk, Key{}, std::vector{Set(kv, "v", "1")});
    });
    if (fate == 1) Write(*db.engine, [&](Mutation& m) { return m.DeletePartition(kv, pk); });
    if (fate == 2 && i % 8 == 2) {
      Write(*db.engine, [&](Mutation& m) { return m.DeleteRow(kv, pk, Key{}); });
    }
    const bool live = fate == 0 || (fate == 2 && i % 8 != 2);
    if (live) expected.emplace_back(ComputeToken(SerializePartitionKey({name})), name);
    if (!live) dead.push_back(name);
  }
  db.clock.AdvanceSeconds(5);
  std::sort(expected.begin(), expected.end());

  const ReadView view = db.engine->NewReadView();
  std::vector<std::pair<int64_t, std::string>> listed;
  std::vector<std::string> positions;
  auto it = view.NewPartitionIterator(kv);
  for (; it->Valid(); it->Next()) {
    Key values;
    REQUIRE(it->DecodePartitionKey(&values).ok());
    listed.emplace_back(it->token(), values.at(0));
    positions.emplace_back(it->position());
    CHECK(it->static_row().empty());
    CHECK(view.Token(kv, values).value() == it->token());
  }
  REQUIRE(it->status().ok());
  CHECK(listed == expected);
  REQUIRE(positions.size() == 30);

  SECTION("resuming after any position lists the rest") {
    for (size_t at : {size_t{0}, size_t{7}, positions.size() - 1}) {
      std::vector<std::pair<int64_t, std::string>> rest;
      for (auto resumed = view.NewPartitionIterator(kv, positions[at]); resumed->Valid();
           resumed->Next()) {
        Key values;
        REQUIRE(resumed->DecodePartitionKey(&values).ok());
        rest.emplace_back(resumed->token(), values.at(0));
      }
      CHECK(rest ==
            std::vector(expected.begin() + static_cast<std::ptrdiff_t>(at) + 1, expected.end()));
    }
  }
  SECTION("a position is the token's bytes and the encoded key, also for a dead partition") {
    storage::PartitionKey key;
    REQUIRE(storage::EncodePartitionKey(*kv, Pk(kv, {dead[0]}), &key).ok());
    std::string position;
    EncodeToken(key.token, &position);
    position += key.encoded;
    std::vector<std::string> rest;
    for (auto resumed = view.NewPartitionIterator(kv, position); resumed->Valid();
         resumed->Next()) {
      Key values;
      REQUIRE(resumed->DecodePartitionKey(&values).ok());
      rest.push_back(values.at(0));
    }
    std::vector<std::string> after;
    for (const auto& [token, name] : expected) {
      if (token > key.token) after.push_back(name);
    }
    CHECK(rest == after);
  }
}

TEST_CASE("Composite partition keys list in token order and decode to their values",
          "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle logs = db.Table("ks", "logs");
  std::vector<std::pair<int64_t, std::string>> expected;
  for (const char* host : {"MPLS1", "MPLS2", "STL"}) {
    for (const char* day : {"20180722", "20180723"}) {
      const Key pk = Pk(logs, {host, day});
      Write(*db.engine, [&](Mutation& m) { return m.Insert(logs, pk, Ck(logs, {"0"}), {}); });
      expected.emplace_back(ComputeToken(SerializePartitionKey(pk)), std::string(host) + "," + day);
    }
  }
  std::sort(expected.begin(), expected.end());
  std::vector<std::pair<int64_t, std::string>> listed;
  const ReadView view = db.engine->NewReadView();
  for (auto it = view.NewPartitionIterator(logs); it->Valid(); it->Next()) {
    Key values;
    REQUIRE(it->DecodePartitionKey(&values).ok());
    listed.emplace_back(it->token(), Render(*logs, 0, values));
  }
  CHECK(listed == expected);
  // Another table's partitions never show up.
  CHECK(!db.engine->NewReadView().NewPartitionIterator(db.Table("ks", "kv"))->Valid());
}

TEST_CASE("A partition with only static cells is live; rows are not needed", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle accounts = db.Table("ks", "accounts");
  const Key zed = Pk(accounts, {"zed"});
  const Key amy = Pk(accounts, {"amy"});
  const Key bob = Pk(accounts, {"bob"});
  Write(*db.engine, [&](Mutation& m) {
    return m.Update(accounts, zed, Key{}, std::vector{Set(accounts, "balance", "10")});
  });
  Write(*db.engine, [&](Mutation& m) {
    return m.Insert(accounts, amy, Ck(accounts, {"1"}),
                    std::vector{Set(accounts, "balance", "5"), Set(accounts, "note", "first")});
  });
  Write(*db.engine, [&](Mutation& m) { return m.DeletePartition(accounts, amy); });
  Write(*db.engine, [&](Mutation& m) {
    return m.Update(accounts, amy, Key{}, std::vector{Set(accounts, "balance", "6")});
  });
  Write(*db.engine, [&](Mutation& m) {
    return m.Update(accounts, bob, Key{}, std::vector{Set(accounts, "balance", "1")});
  });
  const std::vector<size_t> balance = {Col(accounts, "balance")};
  Write(*db.engine, [&](Mutation& m) { return m.DeleteCells(accounts, bob, Key{}, balance); });

  const ReadView view = db.engine->NewReadView();
  CHECK(view.IsPartitionLive(accounts, zed).value());
  CHECK(view.IsPartitionLive(accounts, amy).value());
  CHECK(!view.IsPartitionLive(accounts, bob).value());
  CHECK(Rows(view, accounts, zed).empty());
  CHECK(Rows(view, accounts, amy).empty());
  CHECK(RenderGet(*accounts, view.GetStaticRow(accounts, zed)) == "- balance=10");
  CHECK(RenderGet(*accounts, view.GetStaticRow(accounts, amy)) == "- balance=6");
  CHECK(RenderGet(*accounts, view.GetStaticRow(accounts, bob)) == "absent");

  std::map<std::string, std::string> listed;
  for (auto it = view.NewPartitionIterator(accounts); it->Valid(); it->Next()) {
    Key values;
    REQUIRE(it->DecodePartitionKey(&values).ok());
    listed[values.at(0)] = RenderRow(*accounts, it->static_row());
  }
  CHECK(listed ==
        std::map<std::string, std::string>{{"amy", "- balance=6"}, {"zed", "- balance=10"}});
}

// ---- Snapshots.

TEST_CASE("A view taken before a write does not see it", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle events = db.Table("ks", "events");
  const Key pk = Pk(events, {"1"});
  Write(*db.engine, [&](Mutation& m) { return m.Insert(events, pk, Ck(events, {"1", "a"}), {}); });
  const ReadView before = db.engine->NewReadView();
  auto iterator = before.NewRowIterator(events, pk);
  REQUIRE(iterator.ok());
  std::unique_ptr<PartitionIterator> partitions = before.NewPartitionIterator(events);

  Write(*db.engine, [&](Mutation& m) { return m.Insert(events, pk, Ck(events, {"2", "a"}), {}); });
  Write(*db.engine, [&](Mutation& m) {
    return m.Insert(events, Pk(events, {"2"}), Ck(events, {"1", "a"}), {});
  });
  Write(*db.engine, [&](Mutation& m) { return m.DeleteRow(events, pk, Ck(events, {"1", "a"})); });

  CHECK(Rows(db.engine->NewReadView(), events, pk) == std::vector<std::string>{"2,a"});
  if (!db.engine->views_are_snapshots()) {
    // RADOS: a view reads each partition as it is now, like a new one.
    CHECK(Rows(before, events, pk) == std::vector<std::string>{"2,a"});
    CHECK(RenderGet(*events, before.GetRow(events, pk, Ck(events, {"1", "a"}))) == "absent");
    CHECK(before.IsPartitionLive(events, Pk(events, {"2"})).value());
    return;
  }
  CHECK(Rows(before, events, pk) == std::vector<std::string>{"1,a"});
  CHECK(RenderGet(*events, before.GetRow(events, pk, Ck(events, {"2", "a"}))) == "absent");
  CHECK(RenderGet(*events, before.GetRow(events, pk, Ck(events, {"1", "a"}))) == "marker");
  CHECK(!before.IsPartitionLive(events, Pk(events, {"2"})).value());

  // Iterators made before the writes stream the old state.
  std::vector<std::string> streamed;
  for (RowIterator& rows = **iterator; rows.Valid(); rows.Next())
    streamed.emplace_back(rows.clustering_key());
  CHECK(streamed.size() == 1);
  size_t partition_count = 0;
  for (; partitions->Valid(); partitions->Next()) ++partition_count;
  CHECK(partition_count == 1);
}

TEST_CASE("An iterator keeps its snapshot after its view is gone", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle events = db.Table("ks", "events");
  const Key pk = Pk(events, {"1"});
  for (const char* a : {"1", "2", "3"}) {
    Write(*db.engine, [&](Mutation& m) { return m.Insert(events, pk, Ck(events, {a, "b"}), {}); });
  }
  std::unique_ptr<RowIterator> rows;
  {
    auto made = db.engine->NewReadView().NewRowIterator(events, pk);
    REQUIRE(made.ok());
    rows = std::move(made).value();
  }
  Write(*db.engine, [&](Mutation& m) { return m.DeletePartition(events, pk); });
  size_t count = 0;
  for (; rows->Valid(); rows->Next()) ++count;
  CHECK(count == 3);
  CHECK(rows->status().ok());
}

TEST_CASE("Reads queue rows spread over many fragments for the sweeper to fold", "[engine_read]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle events = db.Table("ks", "events");
  const Key pk = Pk(events, {"1"});
  const Key wide = Ck(events, {"1", "w"});
  const Key narrow = Ck(events, {"2", "n"});
  for (int i = 0; i < 8; ++i) {
    const std::string text = "v" + std::to_string(i);
    Write(*db.engine, [&](Mutation& m) {
      return m.Update(events, pk, wide, std::vector{Set(events, "v", text)});
    });
    if (i == 7) break;  // `narrow` stays one fragment short of the threshold
    Write(*db.engine, [&](Mutation& m) {
      return m.Update(events, pk, narrow, std::vector{Set(events, "v", text)});
    });
  }
  auto sweep = [&] {
    SweepStats stats;
    REQUIRE(db.engine->Sweep(&stats).ok());
    return stats.rows_rewritten;
  };
  CHECK(sweep() == 0);
  const ReadView view = db.engine->NewReadView();
  SECTION("by GetRow") {
    CHECK(RenderGet(*events, view.GetRow(events, pk, wide)) == "- v=v7");
    CHECK(RenderGet(*events, view.GetRow(events, pk, narrow)) == "- v=v6");
  }
  SECTION("by a row iterator") { CHECK(Rows(view, events, pk).size() == 2); }
  SECTION("by the partition iterator") { CHECK(view.NewPartitionIterator(events)->Valid()); }
  CHECK(sweep() == 1);
  CHECK(sweep() == 0);
  CHECK(RenderGet(*events, db.engine->NewReadView().GetRow(events, pk, wide)) == "- v=v7");
}

// ---- The layers underneath: fragment reader and live-row rules.

class RawStore {
 public:
  RawStore() : env_(leveldb::NewMemEnv(leveldb::Env::Default())) {
    leveldb::Options options;
    options.env = env_.get();
    options.create_if_missing = true;
    leveldb::DB* db = nullptr;
    REQUIRE(leveldb::DB::Open(options, "/raw", &db).ok());
    db_.reset(db);
    storage_ = storage::LevelDbStorage::Wrap(db);
  }
  void Put(const std::string& key, const std::string& value) {
    REQUIRE(db_->Put(leveldb::WriteOptions(), key, value).ok());
  }
  void PutFragment(const std::string& group, uint64_t sequence, const RowFragment& fragment) {
    std::string value;
    EncodeRowFragment(fragment, &value);
    Put(Entry(group, sequence), value);
  }
  static std::string Entry(const std::string& group, uint64_t sequence) {
    std::string key = group;
    storage::AppendSequence(sequence, &key);
    return key;
  }
  // A cursor over the whole store (an empty space and shard), so keys are
  // whole LevelDB keys.
  std::unique_ptr<storage::Cursor> NewIterator() { return storage_->NewCursor(nullptr, {}, {}); }
  // A cursor over the partition `prefix` (as one shard), at its first entry.
  std::unique_ptr<storage::Cursor> PartitionCursor(const std::string& prefix) {
    auto it = storage_->NewCursor(nullptr, {"", prefix}, {});
    it->SeekToFirst();
    return it;
  }

 private:
  std::unique_ptr<leveldb::Env> env_;
  std::unique_ptr<leveldb::DB> db_;
  std::unique_ptr<storage::LevelDbStorage> storage_;
};

RowFragment CellFragment(uint32_t column, int64_t write_time, const std::string& value) {
  RowFragment fragment;
  fragment.cells.push_back({column, Cell::Live(write_time, value)});
  return fragment;
}
RowFragment DeletionFragment(int64_t write_time, int64_t local_deletion_time) {
  RowFragment fragment;
  fragment.deletion = RowDeletion{write_time, local_deletion_time};
  return fragment;
}

std::string Group(const std::string& partition, storage::EntryKind kind,
                  const std::string& rest = "") {
  std::string group = partition;
  storage::AppendEntryKind(kind, &group);
  return group + rest;
}

TEST_CASE("Reading a group merges exactly its fragments, forward and backward",
          "[engine_read][fragment_reader]") {
  RawStore store;
  const std::string row_a = Group("Dpart", storage::EntryKind::kRow, "a");
  const std::string row_ab = Group("Dpart", storage::EntryKind::kRow, "ab");
  store.PutFragment(row_a, 9, CellFragment(1, 10, "old"));
  store.PutFragment(row_a, 3, CellFragment(1, 20, "new"));
  store.PutFragment(row_a, 5, CellFragment(2, 10, "x"));
  store.PutFragment(row_ab, 1, CellFragment(1, 10, "other"));
  store.PutFragment(row_ab, 2, CellFragment(3, 10, "y"));
  RowFragment expected_a;
  expected_a.cells = {{1, Cell::Live(20, "new")}, {2, Cell::Live(10, "x")}};

  auto it = store.NewIterator();
  it->Seek(row_a);
  storage::FragmentGroup group;
  REQUIRE(storage::ReadGroupForward(it.get(), true, &group).ok());
  CHECK(group.group == row_a);
  CHECK(group.fragments == 3);
  CHECK(group.merged == expected_a);
  CHECK(group.keys == std::vector<std::string>{RawStore::Entry(row_a, 3), RawStore::Entry(row_a, 5),
                                               RawStore::Entry(row_a, 9)});
  REQUIRE(it->Valid());
  CHECK(std::string(it->key()) == RawStore::Entry(row_ab, 1));

  it->SeekToLast();
  REQUIRE(storage::ReadGroupBackward(it.get(), true, &group).ok());
  CHECK(group.group == row_ab);
  CHECK(group.fragments == 2);
  CHECK(group.keys ==
        std::vector<std::string>{RawStore::Entry(row_ab, 1), RawStore::Entry(row_ab, 2)});
  REQUIRE(it->Valid());
  CHECK(std::string(it->key()) == RawStore::Entry(row_a, 9));
  REQUIRE(storage::ReadGroupBackward(it.get(), false, &group).ok());
  CHECK(group.merged == expected_a);
  CHECK(group.keys.empty());
  CHECK(!it->Valid());
}

TEST_CASE("A partition's head holds its newest deletion, its ranges and its static row",
          "[engine_read][fragment_reader]") {
  RawStore store;
  const std::string partition = "Dp1";
  store.PutFragment(Group(partition, storage::EntryKind::kPartitionDeletion), 1,
                    DeletionFragment(50, 7));
  store.PutFragment(Group(partition, storage::EntryKind::kPartitionDeletion), 2,
                    DeletionFragment(40, 9));
  std::string range_value;
  storage::EncodeRangeDeletion({"b", "d", RowDeletion{60, 8}}, &range_value);
  store.Put(RawStore::Entry(Group(partition, storage::EntryKind::kRangeDeletion), 3), range_value);
  range_value.clear();
  storage::EncodeRangeDeletion({"c", "\xFF", RowDeletion{45, 8}}, &range_value);
  store.Put(RawStore::Entry(Group(partition, storage::EntryKind::kRangeDeletion), 4), range_value);
  store.PutFragment(Group(partition, storage::EntryKind::kStaticRow), 5, CellFragment(4, 70, "s"));
  store.PutFragment(Group(partition, storage::EntryKind::kStaticRow), 6, CellFragment(5, 70, "t"));
  const std::string first_row = RawStore::Entry(Group(partition, storage::EntryKind::kRow, "a"), 7);
  store.PutFragment(Group(partition, storage::EntryKind::kRow, "a"), 7, CellFragment(4, 70, "r"));
  store.PutFragment(Group("Dp2", storage::EntryKind::kPartitionDeletion), 8,
                    DeletionFragment(99, 1));

  auto it = store.PartitionCursor(partition);
  storage::PartitionHeader header;
  REQUIRE(storage::ReadPartitionHeader(it.get(), true, &header).ok());
  CHECK(header.deletion == RowDeletion{50, 7});
  REQUIRE(header.ranges.size() == 2);
  CHECK(header.ranges[0].start == "b");
  CHECK(header.ranges[1].deletion == RowDeletion{45, 8});
  RowFragment expected_static;
  expected_static.cells = {{4, Cell::Live(70, "s")}, {5, Cell::Live(70, "t")}};
  CHECK(header.static_row == expected_static);
  CHECK(header.entries == 6);
  CHECK(header.keys.size() == 6);
  REQUIRE(it->Valid());
  CHECK(partition + std::string(it->key()) == first_row);

  CHECK(storage::InheritedDeletion(header, "a") == RowDeletion{50, 7});
  CHECK(storage::InheritedDeletion(header, "b") == RowDeletion{60, 8});
  CHECK(storage::InheritedDeletion(header, "d") == RowDeletion{50, 7});
  storage::PartitionHeader bare;
  bare.ranges = header.ranges;
  CHECK(storage::InheritedDeletion(bare, "a") == std::nullopt);
  CHECK(storage::InheritedDeletion(bare, "e") == RowDeletion{45, 8});

  SECTION("a partition without a head leaves the iterator at its first row") {
    const std::string row_only = "Dp3";
    store.PutFragment(Group(row_only, storage::EntryKind::kRow, "z"), 9, CellFragment(4, 70, "r"));
    auto rows = store.PartitionCursor(row_only);
    REQUIRE(storage::ReadPartitionHeader(rows.get(), false, &header).ok());
    CHECK(!header.deletion);
    CHECK(header.entries == 0);
    REQUIRE(rows->Valid());
    CHECK(row_only + std::string(rows->key()) ==
          RawStore::Entry(Group(row_only, storage::EntryKind::kRow, "z"), 9));
  }
  SECTION("an empty partition leaves the cursor invalid, never in the next partition") {
    auto empty = store.PartitionCursor("Dp0");
    REQUIRE(storage::ReadPartitionHeader(empty.get(), false, &header).ok());
    CHECK(header.entries == 0);
    CHECK(!empty->Valid());
  }
}

TEST_CASE("An entry that does not decode is Corruption naming its key in hex",
          "[engine_read][fragment_reader]") {
  RawStore store;
  const std::string group = Group("Dbad", storage::EntryKind::kRow, "k");
  store.Put(RawStore::Entry(group, 1), "\xFF\xFF");
  auto it = store.NewIterator();
  it->SeekToFirst();
  storage::FragmentGroup read;
  Status status = storage::ReadGroupForward(it.get(), false, &read);
  CHECK(status.code() == StatusCode::kCorruption);
  CHECK_THAT(status.message(), Catch::Contains(ToHex(RawStore::Entry(group, 1))));

  store.Put(RawStore::Entry(Group("Dbad", storage::EntryKind::kRangeDeletion), 0), "\x05");
  storage::PartitionHeader header;
  status = storage::ReadPartitionHeader(store.PartitionCursor("Dbad").get(), false, &header);
  CHECK(status.code() == StatusCode::kCorruption);
  store.Put(RawStore::Entry("Dodd\x09", 0), "");
  status = storage::ReadPartitionHeader(store.PartitionCursor("Dodd").get(), false, &header);
  CHECK(status.code() == StatusCode::kCorruption);
  CHECK_THAT(status.message(), Catch::Contains("kind"));
}

TEST_CASE("KeepLive keeps only what is live, unshadowed and of a current column",
          "[engine_read][live_row]") {
  TestEngine db;
  db.Ddl(kSchema);
  const TableHandle logs = db.Table("ks", "logs");
  const uint32_t level = logs->column_ids[Col(logs, "level")];
  const uint32_t msg = logs->column_ids[Col(logs, "msg")];
  const int64_t now = 1'000'000'000;  // 1000 s
  RowFragment row;
  row.marker = RowMarker{100, 0, 0};
  row.cells = {
      {level, Cell::Live(200, "a")}, {msg, Cell::Live(100, "b")}, {999, Cell::Live(300, "gone")}};
  NormalizeRowFragment(&row);
  const auto keep_live = [&](const std::optional<RowDeletion>& inherited, int64_t at,
                             RowFragment* fragment) {
    bool live = false;
    REQUIRE(storage::KeepLive(*logs, inherited, at, fragment, &live).ok());
    return live;
  };

  SECTION("an inherited deletion shadows what was written at or before it") {
    RowFragment copy = row;
    CHECK(keep_live(RowDeletion{100, 1}, now, &copy));
    CHECK(!copy.marker);
    REQUIRE(copy.cells.size() == 1);
    CHECK(copy.cells[0].column_id == level);
    CHECK(!copy.deletion);
    copy = row;
    copy.deletion = RowDeletion{200, 1};
    CHECK(!keep_live(RowDeletion{99, 1}, now, &copy));
    CHECK(copy.empty());
  }
  SECTION("tombstones, expired cells and an expired marker are dropped at their second") {
    RowFragment base;
    base.marker = RowMarker{1, 1000, 5};
    base.cells = {{level, Cell::Tombstone(5, 900)}, {msg, Cell::Expiring(5, "t", 5, 1001)}};
    NormalizeRowFragment(&base);
    RowFragment copy = base;
    CHECK(keep_live(std::nullopt, now - 1, &copy));
    CHECK(copy.marker);
    REQUIRE(copy.cells.size() == 1);
    CHECK(copy.cells[0].column_id == msg);
    copy = base;
    CHECK(keep_live(std::nullopt, now, &copy));
    CHECK(!copy.marker);
    CHECK(copy.cells.size() == 1);
    copy = base;
    CHECK(!keep_live(std::nullopt, now + 1'000'000, &copy));
    CHECK(copy.empty());
  }
  SECTION("cells of columns the table no longer has are dropped") {
    RowFragment copy = row;
    CHECK(keep_live(std::nullopt, now, &copy));
    CHECK(copy.cells.size() == 2);
    CHECK(copy.marker);
  }
}

TEST_CASE("NextSweepSecond is the earliest second at which a purge changes the fragment",
          "[engine_read][live_row]") {
  RowFragment fragment;
  CHECK(storage::NextSweepSecond(fragment, 100) == std::nullopt);
  fragment.cells = {{1, Cell::Live(1, "v")}, {2, Cell::Counter(1, 5)}};
  fragment.marker = RowMarker{1, 0, 0};
  CHECK(storage::NextSweepSecond(fragment, 100) == std::nullopt);
  fragment.cells.push_back({3, Cell::Tombstone(1, 500)});
  CHECK(storage::NextSweepSecond(fragment, 100) == 600);
  fragment.deletion = RowDeletion{0, 450};
  CHECK(storage::NextSweepSecond(fragment, 100) == 550);
  fragment.cells.push_back({4, Cell::Expiring(1, "e", 10, 520)});
  CHECK(storage::NextSweepSecond(fragment, 100) == 520);
  fragment.marker = RowMarker{1, 300, 10};
  CHECK(storage::NextSweepSecond(fragment, 100) == 400);

  // A purge at exactly that second changes it; one second earlier does not.
  RowFragment purged = fragment;
  CHECK(PurgeRowFragment(&purged, 399'999'999, 100));
  CHECK(purged == fragment);
  CHECK(PurgeRowFragment(&purged, 400'000'000, 100));
  CHECK(purged != fragment);
}

}  // namespace
}  // namespace cellfs
