// Model-based random test of secondary indexes and materialized views:
// seeded walks of writes (TTLs; older, tied and newer timestamps),
// deletions of cells, rows, ranges and partitions, collection element
// changes, clock steps, sweeps, reopens and index and view drops and
// re-creations; after every step each index must answer exactly what a
// full scan filtered by Cassandra's rules returns
// (tests/engine/index_scan_model.h), and each view must hold exactly its
// definition applied to the base table (tests/engine/view_model.h).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tests/engine/engine_test_util.h"
#include "tests/engine/index_scan_model.h"
#include "tests/engine/view_model.h"

namespace cellfs {
namespace {

using testing::IntValue;

constexpr int64_t kSecond = 1'000'000;
constexpr int64_t kGcGraceSeconds = 60;
constexpr int kDefaultSeeds = 12;
constexpr int kDefaultSteps = 400;
constexpr size_t kLogLength = 25;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "USE ks;"
    "CREATE TABLE t (pk int, pk2 int, c int, v int, w text, s int static, tags set<int>,"
    " m map<int, int>, PRIMARY KEY ((pk, pk2), c)) WITH CLUSTERING ORDER BY (c DESC)"
    " AND gc_grace_seconds = 60;";  // kGcGraceSeconds

struct IndexSpec {
  const char* name;
  const char* target;
  bool at_start;  // created before any write; else over existing data mid-walk
};

constexpr IndexSpec kIndexes[] = {
    {"by_v", "v", true},
    {"by_w", "w", true},
    {"by_s", "s", true},
    {"by_tags", "values(tags)", true},
    {"by_m_keys", "keys(m)", true},
    {"by_c", "c", false},
    {"by_pk2", "pk2", false},
    {"by_m_entries", "entries(m)", false},
};

std::string Int(int32_t v) { return IntValue(v); }

int32_t IntOf(const std::string& bytes) {
  uint32_t v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return static_cast<int32_t>(v);
}

struct ViewCase {
  const char* name;
  const char* cql;  // CREATE MATERIALIZED VIEW <name> ...
  testing::ViewSpec spec;
  bool at_start;  // created before any write; else over existing data mid-walk
};

// A view keyed by a regular column, one re-keying the base key with a
// restriction and reversed order, and one keyed by a text column built over
// existing data.
const std::vector<ViewCase>& Views() {
  static const std::vector<ViewCase> views = {
      {"t_by_v",
       " AS SELECT v, pk, pk2, c, w, tags, m FROM t WHERE v IS NOT NULL AND pk IS NOT NULL AND pk2 "
       "IS NOT NULL"
       " AND c IS NOT NULL PRIMARY KEY (v, pk, pk2, c)",
       {{"v", "pk", "pk2", "c"}, {"w", "tags", "m"}, nullptr},
       true},
      {"t_by_c",
       " AS SELECT pk2, c, pk, w, tags FROM t WHERE pk IS NOT NULL AND pk2 IS NOT NULL"
       " AND c >= 0 PRIMARY KEY ((pk2, c), pk) WITH CLUSTERING ORDER BY (pk DESC)",
       {{"pk2", "c", "pk"},
        {"w", "tags"},
        // c >= 0 in Cassandra's int order: the empty value sorts first.
        [](const std::vector<std::string>& key) { return !key[1].empty() && IntOf(key[1]) >= 0; }},
       true},
      {"t_by_w",
       " AS SELECT w, c, pk, pk2, v, m FROM t WHERE w IS NOT NULL AND pk IS NOT NULL AND pk2 IS "
       "NOT NULL"
       " AND c IS NOT NULL PRIMARY KEY ((w), c, pk, pk2)",
       {{"w", "c", "pk", "pk2"}, {"v", "m"}, nullptr},
       false},
  };
  return views;
}

std::string Set(const std::vector<int32_t>& elements) {
  std::string out = Int(static_cast<int32_t>(elements.size()));
  for (int32_t e : elements) out += Int(4) + Int(e);
  return out;
}

std::string Map(const std::vector<std::pair<int32_t, int32_t>>& entries) {
  std::string out = Int(static_cast<int32_t>(entries.size()));
  for (auto [k, v] : entries) out += Int(4) + Int(k) + Int(4) + Int(v);
  return out;
}

std::optional<long long> EnvNumber(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  return std::atoll(text);
}

class IndexWalk {
 public:
  explicit IndexWalk(uint64_t seed) : seed_(seed), rng_(seed) {
    db_.Ddl(kSchema);
    for (const IndexSpec& spec : kIndexes) {
      if (spec.at_start) CreateIndex(spec);
    }
    for (const ViewCase& view : Views()) {
      if (view.at_start) CreateView(view);
    }
    Refresh();
    db_.clock.AdvanceMicros(1 + static_cast<int64_t>(Below(kSecond - 1)));
    tie_base_ = db_.clock.NowMicros();
  }
  ~IndexWalk() { db_.Close(); }
  IndexWalk(const IndexWalk&) = delete;
  IndexWalk& operator=(const IndexWalk&) = delete;

  // Runs `steps` steps, checking after each; false at the first failure.
  bool Run(int steps) {
    for (step_ = 1; step_ <= steps && !failed_; ++step_) {
      if (step_ == steps / 4 || step_ == steps / 2) CreateLateIndexes(step_ == steps / 2);
      Step();
      if (!failed_) CheckAll();
    }
    return !failed_;
  }

  uint64_t checks() const { return checks_; }
  uint64_t matches() const { return matches_; }
  uint64_t view_rows() const { return view_rows_; }

 private:
  uint64_t Below(uint64_t n) { return rng_() % n; }
  bool OneIn(uint64_t n) { return Below(n) == 0; }
  template <typename T>
  T Pick(const std::vector<T>& from) {
    return from[Below(from.size())];
  }

  // ---- Values. Small domains, so that values collide; the empty int now
  // and then (Cassandra's empty value, valid for every type).
  std::string IntFrom(const std::vector<int32_t>& domain, uint64_t empty_one_in) {
    if (OneIn(empty_one_in)) return std::string();
    return Int(Pick(domain));
  }
  std::vector<std::string> RandomPk() {
    return {Int(static_cast<int32_t>(Below(3))), IntFrom({0, 1, -1}, 25)};
  }
  std::vector<std::string> RandomClustering() { return {IntFrom({-1, 0, 1, 2, 300}, 30)}; }
  std::string RandomV() { return IntFrom({-2, -1, 0, 1, 255, 256}, 20); }
  std::string RandomW() { return Pick<std::string>({"", "a", "ab", "b", "\xc3\xa9"}); }
  std::string RandomS() { return Int(static_cast<int32_t>(Below(3))); }
  std::string RandomTags() {
    std::vector<int32_t> elements;
    for (int32_t e = 0; e < 4; ++e) {
      if (OneIn(2)) elements.push_back(e);
    }
    return Set(elements);
  }
  std::string RandomMap() {
    std::vector<std::pair<int32_t, int32_t>> entries;
    for (int32_t k = 0; k < 3; ++k) {
      if (OneIn(2)) entries.emplace_back(k, static_cast<int32_t>(Below(2)));
    }
    return Map(entries);
  }

  size_t Column(const char* name) { return testing::ColumnIndexOf(*table_, name); }

  std::optional<std::string> RandomCellValue(size_t column) {
    if (OneIn(8)) return std::nullopt;
    const std::string& name = table_->column(column).name;
    if (name == "v") return RandomV();
    if (name == "w") return RandomW();
    if (name == "s") return RandomS();
    if (name == "tags") return RandomTags();
    return RandomMap();
  }

  WriteAttributes RandomAttributes(const Mutation& m, bool ttl_allowed) {
    WriteAttributes a;
    switch (Below(10)) {
      case 0:
        a.timestamp = m.write_time() - 1 - static_cast<int64_t>(Below(20 * kSecond));
        break;
      case 1:
      case 2:
        a.timestamp = tie_base_ + static_cast<int64_t>(Below(3)) * kSecond;
        break;
      case 3:
        a.timestamp = m.write_time() + 1 + static_cast<int64_t>(Below(5 * kSecond));
        break;
      default:
        break;
    }
    if (ttl_allowed && OneIn(3)) a.ttl = 1 + static_cast<int64_t>(Below(6));
    return a;
  }

  // ---- Steps.

  void Step() {
    const uint64_t r = Below(100);
    if (r < 60) {
      WriteStep();
    } else if (r < 80) {
      const int64_t delta = static_cast<int64_t>(Below(4 * kSecond));
      db_.clock.AdvanceMicros(delta);
      Log("advance the clock " + std::to_string(delta) + " us");
    } else if (r < 88) {
      Sweep();
    } else if (r < 91) {
      db_.clock.AdvanceSeconds(kGcGraceSeconds + 1 + static_cast<int64_t>(Below(10)));
      tie_base_ = db_.clock.NowMicros();
      Log("jump past gc_grace_seconds");
      Sweep();
    } else if (r < 96) {
      Log("reopen");
      db_.Reopen();
      Refresh();
    } else if (r < 98) {
      RecreateIndex();
    } else {
      RecreateView();
    }
  }

  void Sweep() {
    Log("sweep");
    const Status swept = db_.engine->Sweep();
    Check("Sweep", "ok", swept.ok() ? "ok" : swept.ToString());
  }

  void WriteStep() {
    Mutation m = db_.engine->NewMutation();
    const int ops = OneIn(4) ? 2 : 1;
    for (int i = 0; i < ops && !failed_; ++i) {
      std::string what;
      const Status s = RandomOp(&m, &what);
      Log(what + (s.ok() ? "" : " -> " + s.ToString()));
      Check("acceptance of " + what, "ok", s.ok() ? "ok" : s.ToString());
    }
    const Status applied = db_.engine->Apply(std::move(m));
    Check("Apply", "ok", applied.ok() ? "ok" : applied.ToString());
  }

  static std::string Keys(const std::vector<std::string>& pk, const std::vector<std::string>& ck) {
    std::string out = "(" + testing::KeyText(pk[0]) + "," + testing::KeyText(pk[1]) + ")";
    if (!ck.empty()) out += "/" + testing::KeyText(ck[0]);
    return out;
  }

  static std::string Attrs(const WriteAttributes& a) {
    std::string out;
    if (a.timestamp) out += " ts=" + std::to_string(*a.timestamp);
    if (a.ttl) out += " ttl=" + std::to_string(*a.ttl);
    return out;
  }

  Status RandomOp(Mutation* m, std::string* what) {
    const std::vector<std::string> pk = RandomPk();
    std::vector<std::string> ck = RandomClustering();
    const uint64_t r = Below(100);
    const std::vector<size_t> regular = {Column("v"), Column("w"), Column("tags"), Column("m")};
    if (r < 35) {  // INSERT or UPDATE of some cells
      std::vector<ColumnValue> cells;
      std::vector<size_t> columns = regular;
      if (OneIn(4)) columns.push_back(Column("s"));
      std::shuffle(columns.begin(), columns.end(), rng_);
      columns.resize(1 + Below(columns.size()));
      *what = "";
      for (size_t c : columns) {
        cells.push_back({c, RandomCellValue(c)});
        *what += " " + table_->column(c).name + "=" +
                 (cells.back().value ? testing::Hex(*cells.back().value) : "null");
      }
      const WriteAttributes a = RandomAttributes(*m, true);
      const bool insert = OneIn(2);
      *what = (insert ? "INSERT " : "UPDATE ") + Keys(pk, ck) + *what + Attrs(a);
      return insert ? m->Insert(table_, pk, ck, cells, a) : m->Update(table_, pk, ck, cells, a);
    }
    if (r < 42) {  // static only, with or without the row
      const std::vector<ColumnValue> cells = {{Column("s"), RandomCellValue(Column("s"))}};
      if (OneIn(2)) ck.clear();
      const WriteAttributes a = RandomAttributes(*m, true);
      *what = "UPDATE static " + Keys(pk, ck) +
              " s=" + (cells[0].value ? testing::Hex(*cells[0].value) : "null") + Attrs(a);
      return m->Update(table_, pk, ck, cells, a);
    }
    if (r < 52) {  // DELETE cells
      std::vector<size_t> columns = {Pick(regular)};
      if (OneIn(3)) columns.push_back(Column("s"));
      if (OneIn(4)) {
        columns = {Column("s")};
        if (OneIn(2)) ck.clear();
      }
      const WriteAttributes a = RandomAttributes(*m, false);
      *what = "DELETE";
      for (size_t c : columns) *what += " " + table_->column(c).name;
      *what += " " + Keys(pk, ck) + Attrs(a);
      return m->DeleteCells(table_, pk, ck, columns, a);
    }
    if (r < 72) return RandomElementOp(m, pk, ck, what);
    const WriteAttributes a = RandomAttributes(*m, false);
    if (r < 82) {
      *what = "DELETE row " + Keys(pk, ck) + Attrs(a);
      return m->DeleteRow(table_, pk, ck, a);
    }
    if (r < 92) {
      SliceSpec range;
      if (!OneIn(3)) range.lower = ClusteringBound{RandomClustering(), OneIn(2)};
      if (!OneIn(3)) range.upper = ClusteringBound{RandomClustering(), OneIn(2)};
      *what = "DELETE range " + Keys(pk, {}) + " lower " +
              (range.lower ? testing::KeyText(range.lower->prefix[0]) +
                                 (range.lower->inclusive ? " incl" : " excl")
                           : "-") +
              " upper " +
              (range.upper ? testing::KeyText(range.upper->prefix[0]) +
                                 (range.upper->inclusive ? " incl" : " excl")
                           : "-") +
              Attrs(a);
      return m->DeleteRange(table_, pk, range, a);
    }
    *what = "DELETE partition " + Keys(pk, {}) + Attrs(a);
    return m->DeletePartition(table_, pk, a);
  }

  Status RandomElementOp(Mutation* m, const std::vector<std::string>& pk,
                         const std::vector<std::string>& ck, std::string* what) {
    const size_t tags = Column("tags"), map = Column("m");
    switch (Below(5)) {
      case 0: {
        const WriteAttributes a = RandomAttributes(*m, true);
        const std::string value = RandomTags();
        *what = "tags += " + testing::Hex(value) + " " + Keys(pk, ck) + Attrs(a);
        return m->AddElements(table_, pk, ck, tags, value, a);
      }
      case 1: {
        WriteAttributes a = RandomAttributes(*m, false);
        const std::string value = RandomTags();
        *what = "tags -= " + testing::Hex(value) + " " + Keys(pk, ck) + Attrs(a);
        return m->RemoveElements(table_, pk, ck, tags, value, a);
      }
      case 2: {
        const WriteAttributes a = RandomAttributes(*m, true);
        const std::string value = RandomMap();
        *what = "m += " + testing::Hex(value) + " " + Keys(pk, ck) + Attrs(a);
        return m->AddElements(table_, pk, ck, map, value, a);
      }
      case 3: {
        const WriteAttributes a = RandomAttributes(*m, false);
        const std::string keys = Set({static_cast<int32_t>(Below(3))});
        *what = "m -= keys " + testing::Hex(keys) + " " + Keys(pk, ck) + Attrs(a);
        return m->RemoveElements(table_, pk, ck, map, keys, a);
      }
      default: {
        const bool remove = OneIn(3);
        const WriteAttributes a = RandomAttributes(*m, !remove);
        const std::string key = Int(static_cast<int32_t>(Below(3)));
        std::optional<std::string> value;
        if (!remove) value = Int(static_cast<int32_t>(Below(2)));
        *what = "m[" + testing::KeyText(key) +
                "] = " + (value ? testing::KeyText(*value) : "null") + " " + Keys(pk, ck) +
                Attrs(a);
        return m->SetElement(table_, pk, ck, map, key, value, a);
      }
    }
  }

  void CreateIndex(const IndexSpec& spec) {
    db_.Ddl(std::string("CREATE INDEX ") + spec.name + " ON t (" + spec.target + ");");
    Refresh();
    const IndexSchema* index = table_->FindIndex(spec.name);
    Check(std::string("index ") + spec.name + " exists and is built after CREATE INDEX", "yes",
          index != nullptr && index->built ? "yes" : "no");
  }

  // The first call creates by_c and by_pk2, the second by_m_entries: both
  // over data already written, so the build runs.
  void CreateLateIndexes(bool second) {
    for (const IndexSpec& spec : kIndexes) {
      if (spec.at_start || (std::string(spec.name) == "by_m_entries") != second) continue;
      if (table_->FindIndex(spec.name) != nullptr) continue;
      Log(std::string("CREATE INDEX ") + spec.name + " over existing data");
      CreateIndex(spec);
    }
    for (const ViewCase& view : Views()) {
      if (view.at_start || !second || HasView(view.name)) continue;
      Log(std::string("CREATE MATERIALIZED VIEW ") + view.name + " over existing data");
      CreateView(view);
    }
  }

  bool HasView(const std::string& name) { return db_.engine->FindTable("ks", name).ok(); }

  void CreateView(const ViewCase& view) {
    db_.Ddl(std::string("CREATE MATERIALIZED VIEW ") + view.name + view.cql + ";");
    auto handle = db_.engine->FindTable("ks", view.name);
    Check(std::string("view ") + view.name + " exists and is built after CREATE", "yes",
          handle.ok() && handle.value()->view && handle.value()->view->built ? "yes" : "no");
    Refresh();  // the base's handle changed with its views
  }

  void RecreateView() {
    const ViewCase& view = Views()[Below(Views().size())];
    if (!HasView(view.name)) return;
    Log(std::string("DROP and CREATE MATERIALIZED VIEW ") + view.name);
    db_.Ddl(std::string("DROP MATERIALIZED VIEW ") + view.name + ";");
    if (OneIn(2)) {
      Refresh();
      WriteStep();
      if (OneIn(2)) Sweep();
    }
    CreateView(view);
    Refresh();
  }

  void RecreateIndex() {
    const IndexSpec& spec = kIndexes[Below(std::size(kIndexes))];
    if (table_->FindIndex(spec.name) == nullptr) return;
    Log(std::string("DROP and CREATE INDEX ") + spec.name);
    db_.Ddl(std::string("DROP INDEX ") + spec.name + ";");
    if (OneIn(2)) {
      // Writes while it is gone, and maybe a sweep reclaiming its entries.
      Refresh();
      WriteStep();
      if (OneIn(2)) Sweep();
    }
    CreateIndex(spec);
  }

  void Refresh() { table_ = db_.Table("ks", "t"); }

  // ---- Checks.

  // The values each index is asked about: all that rows may hold, and some
  // that none can.
  std::vector<std::string> QueryValues(const IndexSchema& index) {
    const std::string& column = table_->column(index.column).name;
    std::vector<std::string> out;
    auto ints = [&](std::initializer_list<int32_t> values) {
      for (int32_t v : values) out.push_back(Int(v));
    };
    if (column == "v") {
      ints({-2, -1, 0, 1, 255, 256, 7, INT32_MIN});
      out.push_back(std::string());
    } else if (column == "w") {
      out = {"", "a", "ab", "b", "\xc3\xa9", "zz"};
    } else if (column == "c") {
      ints({-1, 0, 1, 2, 300, 5});
      out.push_back(std::string());
    } else if (column == "pk2") {
      ints({-1, 0, 1, 9});
      out.push_back(std::string());
    } else if (column == "s" || column == "tags") {
      ints({0, 1, 2, 3, 9});
    } else if (index.target == IndexTargetKind::kKeys) {
      ints({0, 1, 2, 5});
    } else {
      for (int32_t k : {0, 1, 2, 5}) {
        for (int32_t v : {0, 1}) out.push_back(Map({{k, v}}));
      }
    }
    return out;
  }

  void CheckAll() {
    const ReadView view = db_.engine->NewReadView();
    std::string error;
    const std::vector<testing::ScannedPartition> scan =
        testing::ScanWholeTable(view, table_, &error);
    Check("the full scan", "", error);
    for (size_t i = 0; i < table_->indexes.size() && !failed_; ++i) {
      const IndexSchema& index = table_->indexes[i];
      const std::string& name = table_->def.indexes[i].name;
      Check("index " + name + " is built", "yes", index.built ? "yes" : "no");
      for (const std::string& value : QueryValues(index)) {
        const IndexBounds bounds = IndexBounds::Equal(value);
        const std::string expected = testing::ExpectedMatches(*table_, index, scan, bounds);
        matches_ += static_cast<uint64_t>(std::count(expected.begin(), expected.end(), '\n'));
        Check("index " + name + " = " + testing::Hex(value), expected,
              testing::ActualMatches(view, table_, i, bounds));
      }
    }
    CheckRange(view, scan);
    for (const ViewCase& spec : Views()) {
      if (failed_) break;
      auto handle = db_.engine->FindTable("ks", spec.name);
      if (!handle.ok()) continue;
      const std::string expected = testing::ExpectedView(*table_, spec.spec, scan);
      view_rows_ += static_cast<uint64_t>(std::count(expected.begin(), expected.end(), '\n'));
      Check(std::string("view ") + spec.name, expected,
            testing::ActualView(view, handle.value(), spec.spec));
    }
  }

  // A random range on by_v: bounds from the domain or outside it,
  // inclusive or exclusive, or open.
  void CheckRange(const ReadView& view, const std::vector<testing::ScannedPartition>& scan) {
    const std::optional<size_t> number = testing::IndexNumberOf(*table_, "by_v");
    if (!number) return;
    for (int round = 0; round < 2; ++round) {
      IndexBounds bounds;
      const std::vector<int32_t> domain = {-3, -2, -1, 0, 1, 2, 255, 256, 1000};
      if (!OneIn(4)) bounds.lower = OneIn(10) ? std::string() : Int(Pick(domain));
      if (!OneIn(4)) bounds.upper = OneIn(10) ? std::string() : Int(Pick(domain));
      bounds.lower_inclusive = OneIn(2);
      bounds.upper_inclusive = OneIn(2);
      const std::string what = "range on by_v " + std::string(bounds.lower_inclusive ? "[" : "(") +
                               (bounds.lower ? testing::KeyText(*bounds.lower) : "-inf") + ", " +
                               (bounds.upper ? testing::KeyText(*bounds.upper) : "+inf") +
                               (bounds.upper_inclusive ? "]" : ")");
      const IndexSchema& index = table_->indexes[*number];
      Check(what, testing::ExpectedMatches(*table_, index, scan, bounds),
            testing::ActualMatches(view, table_, *number, bounds));
    }
  }

  void Check(const std::string& what, const std::string& expected, const std::string& actual) {
    ++checks_;
    if (failed_ || expected == actual) return;
    failed_ = true;
    std::string report = "index or view and scan disagree: seed " + std::to_string(seed_) +
                         ", step " + std::to_string(step_) +
                         " (re-run: CELLFS_MODEL_SEED=" + std::to_string(seed_) + ")\n" + what +
                         "\nexpected (scan):\n" + expected + "actual (index or view):\n" + actual +
                         "last operations:\n";
    for (const std::string& line : log_) report += "  " + line + "\n";
    FAIL_CHECK(report);
  }

  void Log(const std::string& line) {
    log_.push_back("step " + std::to_string(step_) + ": " + line);
    if (log_.size() > kLogLength) log_.pop_front();
  }

  uint64_t seed_;
  std::mt19937_64 rng_;
  testing::TestEngine db_;
  TableHandle table_;
  int64_t tie_base_ = 0;
  int step_ = 0;
  bool failed_ = false;
  uint64_t checks_ = 0;
  uint64_t matches_ = 0;
  uint64_t view_rows_ = 0;
  std::deque<std::string> log_;
};

// Found by the walk below (every seed, at its first range with an exclusive
// lower bound): such a bound must leave out the rows holding it. Fails at
// 09def4d: partition (2, -1), whose token's first stored byte is 0xFF, keeps
// its v = -2 row (the seek target lower || 0xFF does not pass entries whose
// token bytes start with 0xFF).
TEST_CASE("a range on an index leaves out the value of an exclusive lower bound",
          "[index][model]") {
  testing::TestEngine db;
  db.Ddl(kSchema);
  db.Ddl("CREATE INDEX by_v ON t (v);");
  TableHandle t = db.Table("ks", "t");
  const size_t v = testing::ColumnIndexOf(*t, "v");
  for (int32_t pk = 0; pk < 9; ++pk) {
    Mutation m = db.engine->NewMutation();
    const std::string key[] = {Int(pk / 3), Int(pk % 3 - 1)};
    const std::string ck[] = {Int(0)};
    const ColumnValue cells[] = {{v, Int(pk < 8 ? -2 : 5)}};
    REQUIRE(m.Insert(t, key, ck, cells).ok());
    REQUIRE(db.engine->Apply(std::move(m)).ok());
  }
  const ReadView view = db.engine->NewReadView();
  std::string error;
  const auto scan = testing::ScanWholeTable(view, t, &error);
  REQUIRE(error.empty());
  IndexBounds bounds;
  bounds.lower = Int(-2);
  bounds.lower_inclusive = false;
  const std::string expected = testing::ExpectedMatches(*t, t->indexes[0], scan, bounds);
  CHECK(std::count(expected.begin(), expected.end(), '\n') == 1);
  const std::string excluded[] = {Int(2), Int(-1)};
  auto token = view.Token(t, excluded);
  REQUIRE(token.ok());
  INFO("token of partition (2, -1): " << token.value());
  CHECK(testing::ActualMatches(view, t, 0, bounds) == expected);
}

TEST_CASE(
    "every index answers exactly what a filtered full scan returns and every view holds its "
    "definition applied to the base table, after every step",
    "[index][model]") {
  std::vector<uint64_t> seeds;
  if (auto one = EnvNumber("CELLFS_MODEL_SEED")) {
    seeds.push_back(static_cast<uint64_t>(*one));
  } else {
    const auto count = EnvNumber("CELLFS_MODEL_SEEDS").value_or(kDefaultSeeds);
    for (long long s = 1; s <= count; ++s) seeds.push_back(static_cast<uint64_t>(s));
  }
  const int steps = static_cast<int>(EnvNumber("CELLFS_MODEL_STEPS").value_or(kDefaultSteps));
  REQUIRE(steps > 0);
  uint64_t checks = 0, matches = 0, view_rows = 0;
  int failures = 0;
  for (uint64_t seed : seeds) {
    IndexWalk walk(seed);
    if (!walk.Run(steps)) ++failures;
    checks += walk.checks();
    matches += walk.matches();
    view_rows += walk.view_rows();
  }
  std::cout << "index and view model: " << seeds.size() << " seeds x " << steps << " steps, "
            << checks << " checks, " << matches << " expected index matches, " << view_rows
            << " expected view rows" << (failures ? "; FAILED" : "") << "\n";
  CHECK(failures == 0);
}

}  // namespace
}  // namespace cellfs
