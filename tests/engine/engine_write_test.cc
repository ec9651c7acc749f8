// The engine's write rules, through its public API only: last write wins per
// cell, row markers and deletions, static columns, TTLs, counters, input
// validation, batches and write times, and survival across a reopen.
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "engine/store/mutation.h"
#include "engine/store/read_view.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::testing {
namespace {

using Key = std::vector<std::string>;
using Cells = std::vector<ColumnValue>;

constexpr char kKeyspace[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";
// Columns in canonical order: k, c, b, s, v, w.
constexpr char kTable[] =
    "CREATE TABLE ks.t (k text, c int, v text, w int, b blob, s text static, "
    "PRIMARY KEY (k, c));";

// The serialized int (4 bytes, big-endian).
std::string Int(int32_t value) {
  const auto bits = static_cast<uint32_t>(value);
  std::string bytes(4, '\0');
  for (size_t i = 0; i < 4; ++i) bytes[i] = static_cast<char>((bits >> (24 - 8 * i)) & 0xff);
  return bytes;
}

std::string At(int64_t write_time) { return "@" + std::to_string(write_time); }

size_t Col(const TableHandle& table, const std::string& name) {
  for (size_t i = 0; i < table->def.columns.size(); ++i) {
    if (table->column(i).name == name) return i;
  }
  FAIL("no column " << name);
  return 0;
}

ColumnValue Set(const TableHandle& table, const std::string& column,
                std::optional<std::string> value) {
  return ColumnValue{Col(table, column), std::move(value)};
}

std::string Describe(const Status& status) { return status.ToString(); }

// Makes a mutation, lets `ops` fill it (REQUIREing success), applies it and
// returns its write time.
int64_t Write(TestEngine& db, const std::function<Status(Mutation&)>& ops) {
  Mutation mutation = db.engine->NewMutation();
  const int64_t write_time = mutation.write_time();
  Status made = ops(mutation);
  INFO(Describe(made));
  REQUIRE(made.ok());
  Status applied = db.engine->Apply(std::move(mutation));
  INFO(Describe(applied));
  REQUIRE(applied.ok());
  return write_time;
}

// The row's live content as FormatRow text, or "<none>".
std::string RowText(const ReadView& view, const TableHandle& table, const Key& partition,
                    const Key& clustering, bool write_times = true) {
  auto row = view.GetRow(table, partition, clustering);
  INFO(Describe(row.status()));
  REQUIRE(row.ok());
  return row.value() ? FormatRow(*table, *row.value(), write_times) : "<none>";
}

std::string RowText(TestEngine& db, const TableHandle& table, const Key& partition,
                    const Key& clustering, bool write_times = true) {
  return RowText(db.engine->NewReadView(), table, partition, clustering, write_times);
}

std::string StaticText(TestEngine& db, const TableHandle& table, const Key& partition) {
  auto row = db.engine->NewReadView().GetStaticRow(table, partition);
  INFO(Describe(row.status()));
  REQUIRE(row.ok());
  return row.value() ? FormatRow(*table, *row.value()) : "<none>";
}

bool PartitionLive(TestEngine& db, const TableHandle& table, const Key& partition) {
  auto live = db.engine->NewReadView().IsPartitionLive(table, partition);
  INFO(Describe(live.status()));
  REQUIRE(live.ok());
  return live.value();
}

std::string Rows(TestEngine& db, const TableHandle& table, const Key& partition,
                 bool write_times = true) {
  return FormatPartition(db.engine->NewReadView(), table, partition, {}, write_times);
}

// The clustering keys of the partition's live rows, in the order returned.
std::string RowKeys(TestEngine& db, const TableHandle& table, const Key& partition) {
  auto made = db.engine->NewReadView().NewRowIterator(table, partition);
  REQUIRE(made.ok());
  std::unique_ptr<RowIterator> it = std::move(made).value();
  std::string keys;
  for (; it->Valid(); it->Next()) {
    Key clustering;
    REQUIRE(it->DecodeClustering(&clustering).ok());
    keys += (keys.empty() ? "" : " ") + FormatKey(*table, table->partition_key_count(), clustering);
  }
  REQUIRE(it->status().ok());
  return keys;
}

// The whole table: per live partition in token order, its key, static row
// and rows.
std::string TableText(const ReadView& view, const TableHandle& table) {
  std::unique_ptr<PartitionIterator> it = view.NewPartitionIterator(table);
  std::string text;
  for (; it->Valid(); it->Next()) {
    Key partition;
    REQUIRE(it->DecodePartitionKey(&partition).ok());
    text += FormatKey(*table, 0, partition) + " {" + FormatRow(*table, it->static_row()) + "} [" +
            FormatPartition(view, table, partition) + "]\n";
  }
  INFO(Describe(it->status()));
  REQUIRE(it->status().ok());
  return text;
}

// ---- Last write wins.

// One write to column `column` of row (partition, c = 1) of ks.t, or a
// deletion covering it.
struct CellWrite {
  enum class Kind {
    kSet,              // UPDATE SET column = value
    kSetNull,          // UPDATE SET column = null
    kInsert,           // INSERT (k, c, column) VALUES (..., value)
    kDeleteCell,       // DELETE column
    kDeleteRow,        // DELETE FROM ... WHERE k AND c = 1
    kDeleteRange,      // DELETE FROM ... WHERE k AND c >= 1 AND c <= 1
    kDeletePartition,  // DELETE FROM ... WHERE k
  };
  Kind kind = Kind::kSet;
  int64_t timestamp = 0;
  std::string value;
  std::optional<int64_t> ttl;
  std::string column = "v";
};

CellWrite SetV(int64_t timestamp, std::string value, std::optional<int64_t> ttl = std::nullopt) {
  return {CellWrite::Kind::kSet, timestamp, std::move(value), ttl, "v"};
}
CellWrite SetB(int64_t timestamp, std::string value) {
  return {CellWrite::Kind::kSet, timestamp, std::move(value), std::nullopt, "b"};
}
CellWrite InsertV(int64_t timestamp, std::string value) {
  return {CellWrite::Kind::kInsert, timestamp, std::move(value), std::nullopt, "v"};
}
CellWrite Deletion(CellWrite::Kind kind, int64_t timestamp) {
  return {kind, timestamp, "", std::nullopt, "v"};
}

Status AddWrite(Mutation& mutation, const TableHandle& table, const Key& partition,
                const CellWrite& write) {
  const Key clustering{Int(1)};
  const WriteAttributes attributes{write.timestamp, write.ttl};
  const std::vector<ColumnValue> cells{Set(table, write.column, write.value)};
  const std::vector<ColumnValue> null_cells{Set(table, write.column, std::nullopt)};
  const std::vector<size_t> columns{Col(table, write.column)};
  const WriteAttributes deletion{write.timestamp, std::nullopt};
  switch (write.kind) {
    case CellWrite::Kind::kSet:
      return mutation.Update(table, partition, clustering, cells, attributes);
    case CellWrite::Kind::kSetNull:
      return mutation.Update(table, partition, clustering, null_cells, attributes);
    case CellWrite::Kind::kInsert:
      return mutation.Insert(table, partition, clustering, cells, attributes);
    case CellWrite::Kind::kDeleteCell:
      return mutation.DeleteCells(table, partition, clustering, columns, deletion);
    case CellWrite::Kind::kDeleteRow:
      return mutation.DeleteRow(table, partition, clustering, deletion);
    case CellWrite::Kind::kDeleteRange: {
      SliceSpec range;
      range.lower = ClusteringBound{{Int(1)}, true};
      range.upper = ClusteringBound{{Int(1)}, true};
      return mutation.DeleteRange(table, partition, range, deletion);
    }
    case CellWrite::Kind::kDeletePartition:
      return mutation.DeletePartition(table, partition, deletion);
  }
  return Status::InvalidArgument("unknown write kind");
}

TEST_CASE("the last write wins per cell whatever the order writes are applied in", "[engine]") {
  using K = CellWrite::Kind;
  struct Case {
    const char* name;
    CellWrite a;
    CellWrite b;
    // Row c = 1 after a row marker at time 1 and both writes.
    const char* expected;
  };
  const Case cases[] = {
      {"the higher timestamp wins", SetV(100, "a"), SetV(200, "b"), "marker@1 v='b'@200"},
      {"the higher timestamp wins over a greater value", SetV(100, "z"), SetV(200, "a"),
       "marker@1 v='a'@200"},
      {"on a tie the greater value wins", SetV(100, "a"), SetV(100, "b"), "marker@1 v='b'@100"},
      {"on a tie a longer value with the same prefix wins", SetV(100, "a"), SetV(100, "ab"),
       "marker@1 v='ab'@100"},
      {"on a tie bytes compare unsigned (text)", SetV(100, "z"), SetV(100, "\xc3\xa9"),
       "marker@1 v='\xc3\xa9'@100"},
      {"on a tie bytes compare unsigned (blob)", SetB(100, "\x7f"), SetB(100, "\x80"),
       "marker@1 b=0x80@100"},
      {"on a tie the first differing byte decides, not the length",
       SetB(100, std::string("\x00\xff", 2)), SetB(100, "\x01"), "marker@1 b=0x01@100"},
      {"identical writes are one write", SetV(100, "a"), SetV(100, "a"), "marker@1 v='a'@100"},
      {"on a tie an expiring cell beats a live one with a greater value", SetV(100, "z"),
       SetV(100, "a", 600), "marker@1 v='a'@100/ttl=600"},
      {"on a tie between expiring cells the greater value wins", SetV(100, "a", 600),
       SetV(100, "b", 60), "marker@1 v='b'@100/ttl=60"},
      {"on a tie between equal expiring values the later expiry wins", SetV(100, "a", 60),
       SetV(100, "a", 600), "marker@1 v='a'@100/ttl=600"},
      {"on a tie a cell deletion beats a live cell", Deletion(K::kDeleteCell, 100), SetV(100, "z"),
       "marker@1"},
      {"on a tie a cell deletion beats an expiring cell", Deletion(K::kDeleteCell, 100),
       SetV(100, "z", 600), "marker@1"},
      {"on a tie a null write beats a live cell", Deletion(K::kSetNull, 100), SetV(100, "z"),
       "marker@1"},
      {"a cell deletion shadows an older write", Deletion(K::kDeleteCell, 200), SetV(100, "a"),
       "marker@1"},
      {"a cell deletion does not shadow a newer write", Deletion(K::kDeleteCell, 100),
       SetV(101, "a"), "marker@1 v='a'@101"},
      {"a row deletion shadows a write at its time", Deletion(K::kDeleteRow, 100), SetV(100, "a"),
       "<none>"},
      {"a row deletion does not shadow a newer write", Deletion(K::kDeleteRow, 100), SetV(101, "a"),
       "v='a'@101"},
      {"a row deletion shadows an INSERT at its time", Deletion(K::kDeleteRow, 100),
       InsertV(100, "a"), "<none>"},
      {"a row deletion does not shadow a newer INSERT", Deletion(K::kDeleteRow, 100),
       InsertV(101, "a"), "marker@101 v='a'@101"},
      {"a range deletion shadows a write at its time", Deletion(K::kDeleteRange, 100),
       SetV(100, "a"), "<none>"},
      {"a range deletion does not shadow a newer write", Deletion(K::kDeleteRange, 100),
       SetV(101, "a"), "v='a'@101"},
      {"a partition deletion shadows a write at its time", Deletion(K::kDeletePartition, 100),
       SetV(100, "a"), "<none>"},
      {"a partition deletion does not shadow a newer write", Deletion(K::kDeletePartition, 100),
       SetV(101, "a"), "v='a'@101"},
  };

  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  int number = 0;
  for (const Case& c : cases) {
    ++number;
    // Each order on its own partition: a, b in two mutations; b, a; both in
    // one mutation, either way round.
    for (int order = 0; order < 4; ++order) {
      INFO("case " << number << ": " << c.name << "; order " << order);
      const Key partition{"lww" + std::to_string(number) + "-" + std::to_string(order)};
      Write(db, [&](Mutation& m) {
        return m.Insert(t, partition, Key{Int(1)}, {}, WriteAttributes{1, std::nullopt});
      });
      const CellWrite& first = order % 2 == 0 ? c.a : c.b;
      const CellWrite& second = order % 2 == 0 ? c.b : c.a;
      if (order < 2) {
        Write(db, [&](Mutation& m) { return AddWrite(m, t, partition, first); });
        Write(db, [&](Mutation& m) { return AddWrite(m, t, partition, second); });
      } else {
        Write(db, [&](Mutation& m) {
          Status s = AddWrite(m, t, partition, first);
          return s.ok() ? AddWrite(m, t, partition, second) : s;
        });
      }
      CHECK(RowText(db, t, partition, Key{Int(1)}) == c.expected);
    }
  }
}

TEST_CASE("a write replayed with an older timestamp after a deletion stays shadowed", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  const Key c1{Int(1)};
  auto insert = [&](int64_t timestamp) {
    Write(db, [&](Mutation& m) {
      return m.Insert(t, p, c1, Cells{Set(t, "v", "a"), Set(t, "w", Int(1))},
                      WriteAttributes{timestamp, std::nullopt});
    });
  };
  insert(100);
  REQUIRE(RowText(db, t, p, c1) == "marker@100 v='a'@100 w=1@100");

  Write(db, [&](Mutation& m) { return m.DeleteRow(t, p, c1, WriteAttributes{200, {}}); });
  CHECK(RowText(db, t, p, c1) == "<none>");
  insert(100);
  CHECK(RowText(db, t, p, c1) == "<none>");
  insert(200);
  CHECK(RowText(db, t, p, c1) == "<none>");
  db.Reopen();
  CHECK(RowText(db, t, p, c1) == "<none>");
  insert(150);
  CHECK(RowText(db, t, p, c1) == "<none>");
  insert(201);
  CHECK(RowText(db, t, p, c1) == "marker@201 v='a'@201 w=1@201");

  // A cell deletion, then replays of that cell.
  const size_t w = Col(t, "w");
  Write(db, [&](Mutation& m) {
    return m.DeleteCells(t, p, c1, std::vector<size_t>{w}, WriteAttributes{300, {}});
  });
  for (int64_t replay : {250, 300}) {
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, c1, Cells{Set(t, "w", Int(2))}, WriteAttributes{replay, {}});
    });
    CHECK(RowText(db, t, p, c1) == "marker@201 v='a'@201");
  }

  // A partition deletion, then a replay under it.
  Write(db, [&](Mutation& m) { return m.DeletePartition(t, p, WriteAttributes{400, {}}); });
  insert(350);
  CHECK(RowText(db, t, p, c1) == "<none>");
  CHECK_FALSE(PartitionLive(db, t, p));
}

// ---- Row markers and deletions.

TEST_CASE("INSERT writes a row marker and UPDATE does not", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  const Key c1{Int(1)};
  const std::vector<size_t> v_and_w{Col(t, "v"), Col(t, "w")};

  SECTION("an INSERT with no regular cells keeps the row live") {
    const int64_t time = Write(db, [&](Mutation& m) { return m.Insert(t, p, c1, {}); });
    CHECK(RowText(db, t, p, c1) == "marker" + At(time));
    CHECK(Rows(db, t, p) == "1: marker" + At(time));
    CHECK(PartitionLive(db, t, p));
  }
  SECTION("deleting the cells of an INSERTed row leaves the row live by its marker") {
    const int64_t time = Write(db, [&](Mutation& m) {
      return m.Insert(t, p, c1, Cells{Set(t, "v", "a"), Set(t, "w", Int(3))});
    });
    CHECK(RowText(db, t, p, c1) == "marker" + At(time) + " v='a'" + At(time) + " w=3" + At(time));
    Write(db, [&](Mutation& m) { return m.DeleteCells(t, p, c1, v_and_w); });
    CHECK(RowText(db, t, p, c1) == "marker" + At(time));
    CHECK(PartitionLive(db, t, p));
  }
  SECTION("deleting the cells of an UPDATEd row makes the row disappear") {
    const int64_t time = Write(db, [&](Mutation& m) {
      return m.Update(t, p, c1, Cells{Set(t, "v", "a"), Set(t, "w", Int(3))});
    });
    CHECK(RowText(db, t, p, c1) == "v='a'" + At(time) + " w=3" + At(time));
    Write(db,
          [&](Mutation& m) { return m.DeleteCells(t, p, c1, std::vector<size_t>{Col(t, "v")}); });
    CHECK(RowText(db, t, p, c1) == "w=3" + At(time));
    Write(db,
          [&](Mutation& m) { return m.DeleteCells(t, p, c1, std::vector<size_t>{Col(t, "w")}); });
    CHECK(RowText(db, t, p, c1) == "<none>");
    CHECK(Rows(db, t, p).empty());
    CHECK_FALSE(PartitionLive(db, t, p));
  }
  SECTION("setting a cell to null deletes it") {
    Write(db, [&](Mutation& m) { return m.Update(t, p, c1, Cells{Set(t, "v", "a")}); });
    Write(db, [&](Mutation& m) { return m.Update(t, p, c1, Cells{Set(t, "v", std::nullopt)}); });
    CHECK(RowText(db, t, p, c1) == "<none>");
  }
  SECTION("an INSERT with a null value writes a tombstone") {
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, c1, Cells{Set(t, "v", "old"), Set(t, "w", Int(1))},
                      WriteAttributes{100, {}});
    });
    Write(db, [&](Mutation& m) {
      return m.Insert(t, p, c1, Cells{Set(t, "v", std::nullopt)}, WriteAttributes{200, {}});
    });
    CHECK(RowText(db, t, p, c1) == "marker@200 w=1@100");
    // An older INSERT of null shadows nothing newer.
    const Key c2{Int(2)};
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, c2, Cells{Set(t, "v", "old")}, WriteAttributes{100, {}});
    });
    Write(db, [&](Mutation& m) {
      return m.Insert(t, p, c2, Cells{Set(t, "v", std::nullopt)}, WriteAttributes{50, {}});
    });
    CHECK(RowText(db, t, p, c2) == "marker@50 v='old'@100");
  }
  SECTION("an INSERT of only nulls into a new row stores a live, empty row") {
    const int64_t time = Write(db, [&](Mutation& m) {
      return m.Insert(t, p, c1, Cells{Set(t, "v", std::nullopt), Set(t, "w", std::nullopt)});
    });
    CHECK(RowText(db, t, p, c1) == "marker" + At(time));
  }
}

TEST_CASE("a row deletion removes one row and shadows what it was written over", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  for (int32_t c = 1; c <= 3; ++c) {
    Write(db, [&](Mutation& m) {
      return m.Insert(t, p, Key{Int(c)}, Cells{Set(t, "v", "x"), Set(t, "w", Int(c))},
                      WriteAttributes{100, {}});
    });
  }
  Write(db, [&](Mutation& m) {
    return m.Update(t, p, {}, Cells{Set(t, "s", "st")}, WriteAttributes{100, {}});
  });
  Write(db, [&](Mutation& m) { return m.DeleteRow(t, p, Key{Int(2)}, WriteAttributes{200, {}}); });

  CHECK(RowText(db, t, p, Key{Int(2)}) == "<none>");
  CHECK(RowKeys(db, t, p) == "1 3");
  CHECK(StaticText(db, t, p) == "s='st'@100");

  // A newer write revives the row with only what is newer.
  Write(db, [&](Mutation& m) {
    return m.Update(t, p, Key{Int(2)}, Cells{Set(t, "v", "y")}, WriteAttributes{300, {}});
  });
  CHECK(RowText(db, t, p, Key{Int(2)}) == "v='y'@300");
  CHECK(RowKeys(db, t, p) == "1 2 3");
}

TEST_CASE("a partition deletion shadows every row and the static row", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  const Key other{"other"};
  for (const Key& partition : {p, other}) {
    Write(db, [&](Mutation& m) {
      Status s = m.Insert(t, partition, Key{Int(1)}, Cells{Set(t, "v", "a"), Set(t, "s", "st")},
                          WriteAttributes{100, {}});
      if (!s.ok()) return s;
      return m.Update(t, partition, Key{Int(2)}, Cells{Set(t, "w", Int(2))},
                      WriteAttributes{120, {}});
    });
  }
  Write(db, [&](Mutation& m) { return m.DeletePartition(t, p, WriteAttributes{150, {}}); });

  CHECK(RowText(db, t, p, Key{Int(1)}) == "<none>");
  CHECK(RowText(db, t, p, Key{Int(2)}) == "<none>");
  CHECK(StaticText(db, t, p) == "<none>");
  CHECK(Rows(db, t, p).empty());
  CHECK_FALSE(PartitionLive(db, t, p));
  CHECK(TableText(db.engine->NewReadView(), t) ==
        "other {s='st'@100} [1: marker@100 v='a'@100 | 2: w=2@120]\n");

  // Writes older than the deletion stay shadowed; newer ones show alone.
  Write(db, [&](Mutation& m) {
    return m.Update(t, p, Key{Int(1)}, Cells{Set(t, "v", "old"), Set(t, "s", "old")},
                    WriteAttributes{150, {}});
  });
  CHECK_FALSE(PartitionLive(db, t, p));
  Write(db, [&](Mutation& m) {
    return m.Update(t, p, {}, Cells{Set(t, "s", "new")}, WriteAttributes{151, {}});
  });
  CHECK(StaticText(db, t, p) == "s='new'@151");
  CHECK(PartitionLive(db, t, p));
  CHECK(Rows(db, t, p).empty());
  Write(db, [&](Mutation& m) {
    return m.Update(t, p, Key{Int(2)}, Cells{Set(t, "v", "new")}, WriteAttributes{160, {}});
  });
  CHECK(Rows(db, t, p) == "2: v='new'@160");
}

// ---- Range deletions.

struct RangeCase {
  const char* name;
  std::optional<ClusteringBound> lower;
  std::optional<ClusteringBound> upper;
  const char* remaining;  // the rows left, in the table's order
};

ClusteringBound Bound(std::vector<int32_t> values, bool inclusive) {
  ClusteringBound bound;
  for (int32_t value : values) bound.prefix.push_back(Int(value));
  bound.inclusive = inclusive;
  return bound;
}
ClusteringBound Incl(std::vector<int32_t> values) { return Bound(std::move(values), true); }
ClusteringBound Excl(std::vector<int32_t> values) { return Bound(std::move(values), false); }

// Writes rows (1..3, 1..3) and a static cell at time 100 in a partition of
// its own per case, deletes the case's range at time 100, and checks what
// is left; the static row is never touched.
void CheckRangeDeletions(TestEngine& db, const TableHandle& table,
                         const std::vector<RangeCase>& cases) {
  int number = 0;
  for (const RangeCase& c : cases) {
    INFO("case " << number << ": " << c.name);
    const Key partition{"range" + std::to_string(number++)};
    Write(db, [&](Mutation& m) {
      for (int32_t first = 1; first <= 3; ++first) {
        for (int32_t second = 1; second <= 3; ++second) {
          Status s = m.Insert(table, partition, Key{Int(first), Int(second)}, {},
                              WriteAttributes{100, {}});
          if (!s.ok()) return s;
        }
      }
      return m.Update(table, partition, {}, Cells{Set(table, "s", "st")}, WriteAttributes{100, {}});
    });
    SliceSpec range;
    range.lower = c.lower;
    range.upper = c.upper;
    Write(db, [&](Mutation& m) {
      return m.DeleteRange(table, partition, range, WriteAttributes{100, {}});
    });
    const std::string remaining = RowKeys(db, table, partition);
    CHECK(remaining == c.remaining);
    CHECK(StaticText(db, table, partition) == "s='st'@100");
    // Point reads agree with the listing.
    const std::string listed = " " + remaining + " ";
    for (int32_t first = 1; first <= 3; ++first) {
      for (int32_t second = 1; second <= 3; ++second) {
        const std::string key = std::to_string(first) + "," + std::to_string(second);
        INFO("row " << key);
        const bool kept = listed.find(" " + key + " ") != std::string::npos;
        CHECK(RowText(db, table, partition, Key{Int(first), Int(second)}) ==
              (kept ? "marker@100" : "<none>"));
      }
    }
  }
}

TEST_CASE("a range deletion removes exactly the rows its bounds select", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) +
         "CREATE TABLE ks.r (k text, c1 int, c2 int, v text, s text static, "
         "PRIMARY KEY (k, c1, c2));");
  const TableHandle r = db.Table("ks", "r");
  const std::optional<ClusteringBound> none;
  CheckRangeDeletions(
      db, r,
      {
          {"c1 >= 2", Incl({2}), none, "1,1 1,2 1,3"},
          {"c1 > 2", Excl({2}), none, "1,1 1,2 1,3 2,1 2,2 2,3"},
          {"c1 < 2", none, Excl({2}), "2,1 2,2 2,3 3,1 3,2 3,3"},
          {"c1 <= 2", none, Incl({2}), "3,1 3,2 3,3"},
          {"c1 >= 2 and c1 <= 2", Incl({2}), Incl({2}), "1,1 1,2 1,3 3,1 3,2 3,3"},
          {"(c1, c2) >= (2, 2) and (c1, c2) <= (2, 2)", Incl({2, 2}), Incl({2, 2}),
           "1,1 1,2 1,3 2,1 2,3 3,1 3,2 3,3"},
          {"(c1, c2) >= (1, 2) and (c1, c2) < (3, 2)", Incl({1, 2}), Excl({3, 2}), "1,1 3,2 3,3"},
          {"(c1, c2) > (1, 2) and (c1, c2) <= (3, 2)", Excl({1, 2}), Incl({3, 2}), "1,1 1,2 3,3"},
          {"(c1, c2) > (2, 2)", Excl({2, 2}), none, "1,1 1,2 1,3 2,1 2,2"},
          {"(c1, c2) >= (2, 2) and c1 <= 2 (prefix upper)", Incl({2, 2}), Incl({2}),
           "1,1 1,2 1,3 2,1 3,1 3,2 3,3"},
          {"c1 > 1 and (c1, c2) < (2, 3) (prefix lower)", Excl({1}), Excl({2, 3}),
           "1,1 1,2 1,3 2,3 3,1 3,2 3,3"},
          {"(c1, c2) >= (2, 2) and c1 < 2: empty", Incl({2, 2}), Excl({2}),
           "1,1 1,2 1,3 2,1 2,2 2,3 3,1 3,2 3,3"},
          {"(c1, c2) > (2, 2) and (c1, c2) < (2, 2): empty", Excl({2, 2}), Excl({2, 2}),
           "1,1 1,2 1,3 2,1 2,2 2,3 3,1 3,2 3,3"},
          {"c1 > 3 and c1 < 1: empty", Excl({3}), Excl({1}), "1,1 1,2 1,3 2,1 2,2 2,3 3,1 3,2 3,3"},
          {"no bounds: every row, not the static row", none, none, ""},
      });
}

TEST_CASE("a range deletion on a mixed ASC/DESC table compares values, not stored order",
          "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) +
         "CREATE TABLE ks.d (k text, a int, b int, v text, s text static, "
         "PRIMARY KEY (k, a, b)) WITH CLUSTERING ORDER BY (a DESC, b ASC);");
  const TableHandle d = db.Table("ks", "d");
  const std::optional<ClusteringBound> none;
  CheckRangeDeletions(
      db, d,
      {
          {"nothing", Excl({3}), none, "3,1 3,2 3,3 2,1 2,2 2,3 1,1 1,2 1,3"},
          {"a >= 2", Incl({2}), none, "1,1 1,2 1,3"},
          {"a < 2", none, Excl({2}), "3,1 3,2 3,3 2,1 2,2 2,3"},
          {"(a, b) > (2, 1)", Excl({2, 1}), none, "2,1 1,1 1,2 1,3"},
          {"(a, b) >= (1, 3) and (a, b) < (3, 2)", Incl({1, 3}), Excl({3, 2}), "3,2 3,3 1,1 1,2"},
          {"(a, b) <= (2, 2)", none, Incl({2, 2}), "3,1 3,2 3,3 2,3"},
          {"a >= 2 and (a, b) < (2, 3)", Incl({2}), Excl({2, 3}), "3,1 3,2 3,3 2,3 1,1 1,2 1,3"},
      });
}

TEST_CASE("a range deletion shadows rows by time, including rows written after it", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  auto update = [&](int32_t c, int64_t timestamp) {
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, Key{Int(c)}, Cells{Set(t, "w", Int(c))},
                      WriteAttributes{timestamp, {}});
    });
  };
  update(1, 100);
  update(2, 100);
  update(3, 101);
  update(4, 100);
  SliceSpec range;
  range.lower = Incl({2});
  range.upper = Excl({4});
  Write(db, [&](Mutation& m) { return m.DeleteRange(t, p, range, WriteAttributes{100, {}}); });
  CHECK(Rows(db, t, p) == "1: w=1@100 | 3: w=3@101 | 4: w=4@100");
  // Arriving later with an older or equal time does not help.
  update(2, 99);
  update(3, 50);
  CHECK(Rows(db, t, p) == "1: w=1@100 | 3: w=3@101 | 4: w=4@100");
  update(2, 101);
  CHECK(Rows(db, t, p) == "1: w=1@100 | 2: w=2@101 | 3: w=3@101 | 4: w=4@100");
}

// ---- Static columns.

TEST_CASE("static columns live in the partition's static row", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};

  SECTION("an UPDATE of only static columns needs no clustering and writes no row") {
    const int64_t time =
        Write(db, [&](Mutation& m) { return m.Update(t, p, {}, Cells{Set(t, "s", "x")}); });
    CHECK(StaticText(db, t, p) == "s='x'" + At(time));
    CHECK(Rows(db, t, p).empty());
    CHECK(RowText(db, t, p, Key{Int(1)}) == "<none>");
    CHECK(PartitionLive(db, t, p));
    CHECK(TableText(db.engine->NewReadView(), t) == "p {s='x'" + At(time) + "} []\n");
  }
  SECTION("an INSERT of only static columns without clustering writes no row") {
    const int64_t time =
        Write(db, [&](Mutation& m) { return m.Insert(t, p, {}, Cells{Set(t, "s", "x")}); });
    CHECK(StaticText(db, t, p) == "s='x'" + At(time));
    CHECK(Rows(db, t, p).empty());
    CHECK(PartitionLive(db, t, p));
  }
  SECTION("an INSERT with clustering writes the row and the static cells apart") {
    const int64_t time = Write(db, [&](Mutation& m) {
      return m.Insert(t, p, Key{Int(1)}, Cells{Set(t, "s", "x"), Set(t, "v", "a")});
    });
    CHECK(StaticText(db, t, p) == "s='x'" + At(time));
    CHECK(RowText(db, t, p, Key{Int(1)}) == "marker" + At(time) + " v='a'" + At(time));
  }
  SECTION("an INSERT of a static column with clustering writes the row marker too") {
    const int64_t time = Write(
        db, [&](Mutation& m) { return m.Insert(t, p, Key{Int(1)}, Cells{Set(t, "s", "x")}); });
    CHECK(Rows(db, t, p) == "1: marker" + At(time));
    CHECK(StaticText(db, t, p) == "s='x'" + At(time));
  }
  SECTION("one static cell is shared by every row of the partition") {
    Write(db, [&](Mutation& m) {
      Status s = m.Insert(t, p, Key{Int(1)}, Cells{Set(t, "s", "x")}, WriteAttributes{100, {}});
      if (!s.ok()) return s;
      return m.Insert(t, p, Key{Int(2)}, Cells{Set(t, "s", "y")}, WriteAttributes{100, {}});
    });
    CHECK(StaticText(db, t, p) == "s='y'@100");
    CHECK(Rows(db, t, p) == "1: marker@100 | 2: marker@100");
  }
  SECTION("deleting the only static cell makes the partition dead") {
    Write(db, [&](Mutation& m) { return m.Update(t, p, {}, Cells{Set(t, "s", "x")}); });
    REQUIRE(PartitionLive(db, t, p));
    Write(db,
          [&](Mutation& m) { return m.DeleteCells(t, p, {}, std::vector<size_t>{Col(t, "s")}); });
    CHECK(StaticText(db, t, p) == "<none>");
    CHECK_FALSE(PartitionLive(db, t, p));
    CHECK(TableText(db.engine->NewReadView(), t).empty());
  }
  SECTION("a partition is live while its only static cell is") {
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, {}, Cells{Set(t, "s", "x")}, WriteAttributes{{}, 10});
    });
    CHECK(PartitionLive(db, t, p));
    db.clock.AdvanceSeconds(10);
    CHECK_FALSE(PartitionLive(db, t, p));
    CHECK(StaticText(db, t, p) == "<none>");
  }
  SECTION("a row deletion leaves the static row alone") {
    Write(db, [&](Mutation& m) {
      return m.Insert(t, p, Key{Int(1)}, Cells{Set(t, "s", "x"), Set(t, "v", "a")},
                      WriteAttributes{100, {}});
    });
    Write(db, [&](Mutation& m) {
      return m.DeleteRow(t, p, Key{Int(1)}, WriteAttributes{200, {}});
    });
    CHECK(Rows(db, t, p).empty());
    CHECK(StaticText(db, t, p) == "s='x'@100");
    CHECK(PartitionLive(db, t, p));
  }
}

// ---- TTL.

TEST_CASE("USING TTL makes the cells and the marker expire at now + ttl", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  const Key c1{Int(1)};
  // Not on a second boundary: expiry counts from the second the clock is in.
  db.clock.Set(1'700'000'000'250'000);
  constexpr int64_t kExpiry = 1'700'000'060;
  const int64_t time = Write(db, [&](Mutation& m) {
    return m.Insert(t, p, c1, Cells{Set(t, "v", "a"), Set(t, "w", Int(3))},
                    WriteAttributes{{}, 60});
  });

  auto row = db.engine->NewReadView().GetRow(t, p, c1);
  REQUIRE(row.ok());
  REQUIRE(row.value().has_value());
  const RowFragment& fragment = *row.value();
  CHECK(FormatRow(*t, fragment) ==
        "marker" + At(time) + "/ttl=60 v='a'" + At(time) + "/ttl=60 w=3" + At(time) + "/ttl=60");
  REQUIRE(fragment.marker.has_value());
  CHECK(fragment.marker->expiry == kExpiry);
  CHECK(fragment.marker->ttl == 60u);
  REQUIRE(fragment.cells.size() == 2);
  for (const RowCell& cell : fragment.cells) {
    CHECK(cell.cell.kind == CellKind::kRegular);
    CHECK(cell.cell.ttl == 60u);
    CHECK(cell.cell.local_deletion_time == kExpiry);
    CHECK(cell.cell.write_time == time);
  }

  db.clock.Set(kExpiry * 1'000'000 - 1);
  CHECK(RowText(db, t, p, c1, false) == "marker/ttl=60 v='a'/ttl=60 w=3/ttl=60");
  CHECK(PartitionLive(db, t, p));
  db.clock.Set(kExpiry * 1'000'000);
  CHECK(RowText(db, t, p, c1) == "<none>");
  CHECK(Rows(db, t, p).empty());
  CHECK_FALSE(PartitionLive(db, t, p));
}

TEST_CASE("a read view judges expiry at the time it was made", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  Write(db, [&](Mutation& m) {
    return m.Update(t, p, Key{Int(1)}, Cells{Set(t, "v", "a")}, WriteAttributes{{}, 5});
  });
  const ReadView before = db.engine->NewReadView();
  db.clock.AdvanceSeconds(5);
  CHECK(RowText(before, t, p, Key{Int(1)}, false) == "v='a'/ttl=5");
  CHECK(RowText(db, t, p, Key{Int(1)}) == "<none>");
}

TEST_CASE("cells of one row expire independently", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  const Key c1{Int(1)};

  SECTION("an UPDATE USING TTL on a row INSERTed without one leaves the marker") {
    Write(db, [&](Mutation& m) { return m.Insert(t, p, c1, Cells{Set(t, "v", "a")}); });
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, c1, Cells{Set(t, "w", Int(1))}, WriteAttributes{{}, 10});
    });
    db.clock.AdvanceSeconds(10);
    CHECK(RowText(db, t, p, c1, false) == "marker v='a'");
  }
  SECTION("a later UPDATE without TTL outlives an INSERT's marker") {
    Write(db, [&](Mutation& m) {
      return m.Insert(t, p, c1, Cells{Set(t, "v", "a")}, WriteAttributes{{}, 10});
    });
    Write(db, [&](Mutation& m) { return m.Update(t, p, c1, Cells{Set(t, "w", Int(1))}); });
    db.clock.AdvanceSeconds(10);
    CHECK(RowText(db, t, p, c1, false) == "w=1");
  }
  SECTION("rewriting a cell with a longer TTL extends its life") {
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, c1, Cells{Set(t, "v", "a")}, WriteAttributes{{}, 10});
    });
    db.clock.AdvanceSeconds(5);
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, c1, Cells{Set(t, "v", "a")}, WriteAttributes{{}, 100});
    });
    db.clock.AdvanceSeconds(50);
    CHECK(RowText(db, t, p, c1, false) == "v='a'/ttl=100");
  }
  SECTION("a newer write without TTL makes an expiring cell permanent") {
    Write(db, [&](Mutation& m) {
      return m.Update(t, p, c1, Cells{Set(t, "v", "a")}, WriteAttributes{{}, 10});
    });
    Write(db, [&](Mutation& m) { return m.Update(t, p, c1, Cells{Set(t, "v", "b")}); });
    db.clock.AdvanceSeconds(1'000'000);
    CHECK(RowText(db, t, p, c1, false) == "v='b'");
  }
}

TEST_CASE("the TTL is USING TTL, else the table's default_time_to_live", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable +
         "CREATE TABLE ks.dttl (k text, c int, v text, PRIMARY KEY (k, c)) "
         "WITH default_time_to_live = 100;");
  const TableHandle plain = db.Table("ks", "t");
  const TableHandle with_default = db.Table("ks", "dttl");
  REQUIRE(with_default->def.options.default_time_to_live == 100);
  const int64_t now_s = db.clock.NowMicros() / 1'000'000;

  struct Case {
    const TableHandle* table;
    std::optional<int64_t> ttl;  // USING TTL
    uint32_t expected;           // the cell's ttl; 0 = none
  };
  const Case cases[] = {
      {&plain, std::nullopt, 0},
      {&plain, 0, 0},
      {&plain, 30, 30},
      {&plain, 1, 1},
      {&plain, 630'720'000, 630'720'000},
      {&with_default, std::nullopt, 100},
      {&with_default, 0, 0},
      {&with_default, 30, 30},
      {&with_default, 630'720'000, 630'720'000},
  };
  int number = 0;
  for (const Case& c : cases) {
    for (bool insert : {true, false}) {
      INFO("case " << number << (insert ? " INSERT" : " UPDATE"));
      const TableHandle& table = *c.table;
      const Key p{"p" + std::to_string(number++)};
      const Key c1{Int(1)};
      const std::vector<ColumnValue> cells{Set(table, "v", "a")};
      Write(db, [&](Mutation& m) {
        const WriteAttributes attributes{std::nullopt, c.ttl};
        return insert ? m.Insert(table, p, c1, cells, attributes)
                      : m.Update(table, p, c1, cells, attributes);
      });
      auto row = db.engine->NewReadView().GetRow(table, p, c1);
      REQUIRE(row.ok());
      REQUIRE(row.value().has_value());
      const RowFragment& fragment = *row.value();
      REQUIRE(fragment.cells.size() == 1);
      const Cell& cell = fragment.cells[0].cell;
      CHECK(cell.ttl == c.expected);
      CHECK(cell.local_deletion_time == (c.expected == 0 ? 0 : now_s + c.expected));
      CHECK(fragment.marker.has_value() == insert);
      if (fragment.marker) {
        CHECK(fragment.marker->ttl == c.expected);
        if (c.expected != 0) CHECK(fragment.marker->expiry == now_s + c.expected);
      }
    }
  }
}

TEST_CASE("a TTL outside 0..630720000 is refused", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  const TableHandle t = db.Table("ks", "t");
  const Key p{"p"};
  const Key c1{Int(1)};
  const std::vector<ColumnValue> cells{Set(t, "v", "a")};
  const std::vector<size_t> columns{Col(t, "v")};
  Mutation m = db.engine->NewMutation();
  for (int64_t ttl : {int64_t{-1}, int64_t{630'720'001}, std::numeric_limits<int64_t>::min(),
                      std::numeric_limits<int64_t>::max()}) {
    INFO("ttl " << ttl);
    const WriteAttributes attributes{std::nullopt, ttl};
    CHECK(m.Insert(t, p, c1, cells, attributes).code() == StatusCode::kInvalidArgument);
    CHECK(m.Update(t, p, c1, cells, attributes).code() == StatusCode::kInvalidArgument);
    CHECK(m.operation_count() == 0);
  }
  SECTION("and deletions take no TTL at all") {
    const WriteAttributes attributes{std::nullopt, 60};
    SliceSpec range;
    range.lower = Incl({1});
    CHECK(m.DeleteCells(t, p, c1, columns, attributes).code() == StatusCode::kInvalidArgument);
    CHECK(m.DeleteRow(t, p, c1, attributes).code() == StatusCode::kInvalidArgument);
    CHECK(m.DeleteRange(t, p, range, attributes).code() == StatusCode::kInvalidArgument);
    CHECK(m.DeletePartition(t, p, attributes).code() == StatusCode::kInvalidArgument);
    CHECK(m.operation_count() == 0);
  }
}

// ---- Counters.

TEST_CASE("counter columns add up their deltas", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) +
         "CREATE TABLE ks.counts (k text PRIMARY KEY, hits counter, misses counter);");
  const TableHandle counts = db.Table("ks", "counts");
  const size_t hits = Col(counts, "hits");

  struct Case {
    const char* name;
    std::vector<std::vector<int64_t>> mutations;  // the deltas of each mutation
    const char* expected;
  };
  const Case cases[] = {
      {"one increment", {{1}}, "hits=1"},
      {"increments across mutations add", {{1}, {2}}, "hits=3"},
      {"a negative delta subtracts", {{5}, {-7}}, "hits=-2"},
      {"increments in one mutation add", {{1, 1, 1, 1, 1}}, "hits=5"},
      {"a total of zero is a live counter", {{3, -1}, {10}, {-12}}, "hits=0"},
      {"the sum wraps like Java's long",
       {{std::numeric_limits<int64_t>::max()}, {1}},
       "hits=-9223372036854775808"},
  };
  int number = 0;
  for (const Case& c : cases) {
    INFO(c.name);
    const Key p{"p" + std::to_string(number++)};
    for (const std::vector<int64_t>& deltas : c.mutations) {
      Write(db, [&](Mutation& m) {
        for (int64_t delta : deltas) {
          Status s = m.AddToCounter(counts, p, {}, hits, delta);
          if (!s.ok()) return s;
        }
        return Status::Ok();
      });
    }
    CHECK(RowText(db, counts, p, {}, false) == c.expected);
  }
}

TEST_CASE("a deleted counter stays deleted", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) +
         "CREATE TABLE ks.counts (k text PRIMARY KEY, hits counter, misses counter);");
  const TableHandle counts = db.Table("ks", "counts");
  const size_t hits = Col(counts, "hits");
  const size_t misses = Col(counts, "misses");
  const Key p{"p"};
  Write(db, [&](Mutation& m) {
    Status s = m.AddToCounter(counts, p, {}, hits, 5);
    return s.ok() ? m.AddToCounter(counts, p, {}, misses, 2) : s;
  });
  REQUIRE(RowText(db, counts, p, {}, false) == "hits=5 misses=2");
  Write(db, [&](Mutation& m) { return m.DeleteCells(counts, p, {}, std::vector<size_t>{hits}); });
  CHECK(RowText(db, counts, p, {}, false) == "misses=2");
  // A tombstone beats a counter whatever the times (cell.h, CASSANDRA-7346).
  Write(db, [&](Mutation& m) { return m.AddToCounter(counts, p, {}, hits, 1); });
  CHECK(RowText(db, counts, p, {}, false) == "misses=2");
  Write(db, [&](Mutation& m) { return m.DeleteCells(counts, p, {}, std::vector<size_t>{misses}); });
  CHECK(RowText(db, counts, p, {}, false) == "<none>");
  CHECK_FALSE(PartitionLive(db, counts, p));
}

TEST_CASE("counters are only added to, never set, inserted or given a TTL", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable +
         "CREATE TABLE ks.counts (k text PRIMARY KEY, hits counter, misses counter);");
  const TableHandle counts = db.Table("ks", "counts");
  const TableHandle t = db.Table("ks", "t");
  const size_t hits = Col(counts, "hits");
  const Key p{"p"};
  const std::string eight_bytes(8, '\0');
  Mutation m = db.engine->NewMutation();
  REQUIRE(m.AddToCounter(counts, p, {}, hits, 1).ok());

  struct Case {
    const char* name;
    std::function<Status()> op;
  };
  const Case cases[] = {
      {"USING TTL on a counter",
       [&] {
         return m.AddToCounter(counts, p, {}, hits, 1, WriteAttributes{{}, 60});
       }},
      {"USING TIMESTAMP on a counter",
       [&] {
         return m.AddToCounter(counts, p, {}, hits, 1, WriteAttributes{int64_t{5}, {}});
       }},
      {"INSERT into a counter table", [&] { return m.Insert(counts, p, {}, {}); }},
      {"INSERT of a counter value",
       [&] { return m.Insert(counts, p, {}, Cells{Set(counts, "hits", eight_bytes)}); }},
      {"UPDATE setting a counter",
       [&] { return m.Update(counts, p, {}, Cells{Set(counts, "hits", eight_bytes)}); }},
      {"UPDATE setting a counter to null",
       [&] { return m.Update(counts, p, {}, Cells{Set(counts, "hits", std::nullopt)}); }},
      {"adding to a column that is not a counter",
       [&] { return m.AddToCounter(t, p, Key{Int(1)}, Col(t, "w"), 1); }},
      {"adding to a key column", [&] { return m.AddToCounter(counts, p, {}, 0, 1); }},
      {"adding to a column out of range",
       [&] { return m.AddToCounter(counts, p, {}, counts->def.columns.size(), 1); }},
  };
  const size_t size = m.byte_size();
  for (const Case& c : cases) {
    INFO(c.name);
    Status s = c.op();
    INFO(Describe(s));
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(m.operation_count() == 1);
    CHECK(m.byte_size() == size);
  }
  REQUIRE(db.engine->Apply(std::move(m)).ok());
  CHECK(RowText(db, counts, p, {}, false) == "hits=1");
}

// ---- Validation.

TEST_CASE("an invalid operation is refused and leaves the mutation as it was", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable + "CREATE TABLE ks.single (k text PRIMARY KEY, v text);");
  const TableHandle t = db.Table("ks", "t");
  const TableHandle single = db.Table("ks", "single");
  const Key good{"good"};
  const Key bad{"bad"};
  const Key c3{Int(3)};
  const std::vector<ColumnValue> v{Set(t, "v", "x")};
  Mutation m = db.engine->NewMutation();
  const int64_t time = m.write_time();
  REQUIRE(m.Insert(t, good, Key{Int(1)}, v).ok());

  auto range_with = [](auto&& change) {
    SliceSpec range;
    range.lower = Incl({1});
    change(range);
    return range;
  };
  struct Case {
    const char* name;
    std::function<Status()> op;
  };
  const std::string three_byte_int("\0\0\1", 3);
  const Case cases[] = {
      {"no partition key component", [&] { return m.Insert(t, Key{}, c3, v); }},
      {"two partition key components for one",
       [&] {
         return m.Insert(t, Key{"a", "b"}, c3, v);
       }},
      {"an empty single-column partition key", [&] { return m.Insert(t, Key{""}, c3, v); }},
      {"an empty partition key, table without clustering",
       [&] { return m.Insert(single, Key{""}, {}, Cells{Set(single, "v", "x")}); }},
      {"an empty partition key in an UPDATE",
       [&] { return m.Update(single, Key{""}, {}, Cells{Set(single, "v", "x")}); }},
      {"an empty partition key in a partition deletion",
       [&] { return m.DeletePartition(single, Key{""}); }},
      {"two clustering components for one",
       [&] {
         return m.Insert(t, good, Key{Int(3), Int(4)}, v);
       }},
      {"no clustering for a regular cell (INSERT)", [&] { return m.Insert(t, good, {}, v); }},
      {"no clustering and no cells (INSERT)", [&] { return m.Insert(t, good, {}, {}); }},
      {"no clustering for a regular cell (UPDATE)", [&] { return m.Update(t, good, {}, v); }},
      {"clustering given to a table without clustering",
       [&] { return m.Insert(single, good, Key{Int(1)}, Cells{Set(single, "v", "x")}); }},
      {"a clustering value of the wrong width",
       [&] { return m.Insert(t, good, Key{three_byte_int}, v); }},
      {"a 3-byte int", [&] { return m.Update(t, good, c3, Cells{Set(t, "w", three_byte_int)}); }},
      {"a 5-byte int",
       [&] { return m.Update(t, good, c3, Cells{Set(t, "w", std::string(5, '\1'))}); }},
      {"invalid UTF-8 in text", [&] { return m.Update(t, good, c3, Cells{Set(t, "v", "\xff")}); }},
      {"truncated UTF-8 in text",
       [&] { return m.Update(t, good, c3, Cells{Set(t, "v", "a\xc3")}); }},
      {"invalid UTF-8 in a text partition key", [&] { return m.Insert(t, Key{"\xff"}, c3, v); }},
      {"a bad value among good ones",
       [&] {
         return m.Insert(t, bad, c3, Cells{Set(t, "v", "ok"), Set(t, "w", three_byte_int)});
       }},
      {"a column index out of range",
       [&] {
         return m.Update(t, good, c3, Cells{ColumnValue{t->def.columns.size(), "x"}});
       }},
      {"the partition key column among the cells",
       [&] {
         return m.Update(t, good, c3, Cells{ColumnValue{Col(t, "k"), "x"}});
       }},
      {"the clustering column among the cells",
       [&] {
         return m.Insert(t, good, c3, Cells{ColumnValue{Col(t, "c"), Int(3)}});
       }},
      {"a column given twice",
       [&] {
         return m.Update(t, good, c3, Cells{Set(t, "v", "x"), Set(t, "v", "y")});
       }},
      {"a column given twice, once null",
       [&] {
         return m.Insert(t, good, c3, Cells{Set(t, "v", "x"), Set(t, "v", std::nullopt)});
       }},
      {"an UPDATE of nothing", [&] { return m.Update(t, good, c3, {}); }},
      {"deleting a key column",
       [&] { return m.DeleteCells(t, good, c3, std::vector<size_t>{Col(t, "c")}); }},
      {"deleting a column out of range",
       [&] { return m.DeleteCells(t, good, c3, std::vector<size_t>{99}); }},
      {"deleting a column twice",
       [&] {
         return m.DeleteCells(t, good, c3, std::vector<size_t>{Col(t, "v"), Col(t, "v")});
       }},
      {"a row deletion without clustering", [&] { return m.DeleteRow(t, good, {}); }},
      {"a row deletion with too many clustering values",
       [&] {
         return m.DeleteRow(t, good, Key{Int(1), Int(2)});
       }},
      {"a row deletion with a bad partition key", [&] { return m.DeleteRow(t, Key{}, c3); }},
      {"a range deletion with a limit",
       [&] { return m.DeleteRange(t, good, range_with([](SliceSpec& r) { r.limit = 1; })); }},
      {"a range deletion reversed",
       [&] { return m.DeleteRange(t, good, range_with([](SliceSpec& r) { r.reverse = true; })); }},
      {"a range deletion with a resume point",
       [&] {
         return m.DeleteRange(t, good, range_with([](SliceSpec& r) { r.resume_after = ""; }));
       }},
      {"a range bound with too many values",
       [&] {
         return m.DeleteRange(t, good, range_with([](SliceSpec& r) { r.lower = Incl({1, 2}); }));
       }},
      {"a range bound with no values",
       [&] {
         return m.DeleteRange(t, good, range_with([](SliceSpec& r) { r.upper = Incl({}); }));
       }},
      {"a range bound with a bad value",
       [&] {
         return m.DeleteRange(t, good, range_with([&](SliceSpec& r) {
                                r.upper = ClusteringBound{{three_byte_int}, true};
                              }));
       }},
      {"a range deletion on a table without clustering",
       [&] { return m.DeleteRange(single, good, SliceSpec{}); }},
      {"a partition deletion with two components",
       [&] {
         return m.DeletePartition(t, Key{"a", "b"});
       }},
  };
  const size_t size = m.byte_size();
  for (const Case& c : cases) {
    INFO(c.name);
    Status s = c.op();
    INFO(Describe(s));
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(m.operation_count() == 1);
    CHECK(m.byte_size() == size);
  }
  REQUIRE(m.Update(t, good, Key{Int(2)}, Cells{Set(t, "w", Int(2))}).ok());
  REQUIRE(m.operation_count() == 2);
  Status applied = db.engine->Apply(std::move(m));
  INFO(Describe(applied));
  REQUIRE(applied.ok());

  const ReadView view = db.engine->NewReadView();
  CHECK(TableText(view, t) ==
        "good {} [1: marker" + At(time) + " v='x'" + At(time) + " | 2: w=2" + At(time) + "]\n");
  CHECK(TableText(view, single).empty());
}

// ---- Batches and write times.

TEST_CASE("a mutation over several partitions and tables is applied as one", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable +
         "CREATE TABLE ks.u (id int PRIMARY KEY, name text);"
         "CREATE KEYSPACE ks2 WITH replication = {'class': 'SimpleStrategy', "
         "'replication_factor': 1};"
         "CREATE TABLE ks2.x (k text, c int, v text, PRIMARY KEY (k, c));");
  const TableHandle t = db.Table("ks", "t");
  const TableHandle u = db.Table("ks", "u");
  const TableHandle x = db.Table("ks2", "x");
  Write(db, [&](Mutation& m) {
    return m.Insert(t, Key{"gone"}, Key{Int(1)}, Cells{Set(t, "v", "old")}, WriteAttributes{1, {}});
  });

  Mutation m = db.engine->NewMutation();
  const int64_t time = m.write_time();
  REQUIRE(m.Insert(t, Key{"a"}, Key{Int(1)}, Cells{Set(t, "v", "a1"), Set(t, "s", "sa")}).ok());
  REQUIRE(m.Update(t, Key{"b"}, Key{Int(2)}, Cells{Set(t, "w", Int(7))}).ok());
  REQUIRE(
      m.Update(t, Key{"b"}, Key{Int(3)}, Cells{Set(t, "v", "b3")}, WriteAttributes{42, {}}).ok());
  REQUIRE(m.DeletePartition(t, Key{"gone"}).ok());
  REQUIRE(m.Insert(u, Key{Int(5)}, {}, Cells{Set(u, "name", "five")}).ok());
  REQUIRE(m.Update(x, Key{"q"}, Key{Int(9)}, Cells{Set(x, "v", "nine")}).ok());
  REQUIRE(m.operation_count() == 6);

  const ReadView before = db.engine->NewReadView();
  const std::string t_before = TableText(before, t);
  REQUIRE(t_before == "gone {} [1: marker@1 v='old'@1]\n");
  Status applied = db.engine->Apply(std::move(m));
  INFO(Describe(applied));
  REQUIRE(applied.ok());

  // A view made before sees none of it; a view made after sees all of it,
  // every cell at the mutation's write time unless it gave its own.
  const ReadView after = db.engine->NewReadView();
  if (db.engine->views_are_snapshots()) {
    CHECK(TableText(before, t) == t_before);
    CHECK(TableText(before, u).empty());
    CHECK(TableText(before, x).empty());
  } else {
    // RADOS: an older view reads the latest state too, all of the mutation.
    CHECK(TableText(before, t) == TableText(after, t));
    CHECK(TableText(before, u) == TableText(after, u));
    CHECK(TableText(before, x) == TableText(after, x));
  }
  const std::string at = At(time);
  const std::string t_after = TableText(after, t);
  CHECK(t_after.find("a {s='sa'" + at + "} [1: marker" + at + " v='a1'" + at + "]\n") !=
        std::string::npos);
  CHECK(t_after.find("b {} [2: w=7" + at + " | 3: v='b3'@42]\n") != std::string::npos);
  CHECK(t_after.find("gone") == std::string::npos);
  CHECK(TableText(after, u) == "5 {} [marker" + at + " name='five'" + at + "]\n");
  CHECK(TableText(after, x) == "q {} [9: v='nine'" + at + "]\n");
}

TEST_CASE("a mutation whose table was dropped since is refused whole", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable + "CREATE TABLE ks.u (id int PRIMARY KEY, name text);");
  const TableHandle t = db.Table("ks", "t");
  const TableHandle u = db.Table("ks", "u");
  Mutation m = db.engine->NewMutation();
  REQUIRE(m.Insert(t, Key{"a"}, Key{Int(1)}, Cells{Set(t, "v", "a")}).ok());
  REQUIRE(m.Insert(u, Key{Int(1)}, {}, Cells{Set(u, "name", "one")}).ok());

  SECTION("dropped") { db.Ddl("DROP TABLE ks.u;"); }
  SECTION("dropped and created again with the same definition") {
    db.Ddl("DROP TABLE ks.u; CREATE TABLE ks.u (id int PRIMARY KEY, name text);");
  }
  Status applied = db.engine->Apply(std::move(m));
  INFO(Describe(applied));
  CHECK(applied.code() == StatusCode::kNotFound);
  const ReadView view = db.engine->NewReadView();
  CHECK(TableText(view, t).empty());
  CHECK(TableText(view, db.Table("ks", "t")).empty());
  if (auto found = db.engine->FindTable("ks", "u"); found.ok()) {
    CHECK(TableText(view, found.value()).empty());
  }
}

TEST_CASE("an empty mutation applies as a no-op", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable);
  CHECK(db.engine->Apply(db.engine->NewMutation()).ok());
  CHECK(TableText(db.engine->NewReadView(), db.Table("ks", "t")).empty());
}

TEST_CASE("server write times strictly increase, across clock steps and reopens", "[engine]") {
  TestEngine db;
  auto next = [&] { return db.engine->NewMutation().write_time(); };
  const int64_t start = db.clock.NowMicros();

  const int64_t first = next();
  CHECK(first == start);
  int64_t last = first;
  for (int i = 0; i < 100; ++i) {  // the clock stands still
    const int64_t time = next();
    CHECK(time > last);
    last = time;
  }
  db.clock.Set(start - 3'600'000'000);  // steps back an hour
  const int64_t after_step = next();
  CHECK(after_step > last);
  last = after_step;
  db.Reopen();
  const int64_t after_reopen = next();
  CHECK(after_reopen > last);
  last = after_reopen;
  db.Reopen();
  db.Reopen();
  CHECK(next() > last);

  // Once the clock is ahead again, write times are the clock's.
  db.clock.Set(start + 3'600'000'000);
  CHECK(next() == start + 3'600'000'000);
  Mutation m = db.engine->NewMutation();
  CHECK(m.now() == db.clock.NowMicros());
}

// ---- Reopen.

TEST_CASE("everything written survives a reopen, the schema included", "[engine]") {
  TestEngine db;
  db.Ddl(std::string(kKeyspace) + kTable +
         "CREATE TABLE ks.dttl (k text, c int, v text, PRIMARY KEY (k, c)) "
         "WITH default_time_to_live = 100;"
         "CREATE TABLE ks.counts (k text PRIMARY KEY, hits counter, misses counter);");
  const std::vector<std::string> names{"t", "dttl", "counts"};
  TableHandle t = db.Table("ks", "t");
  const TableHandle dttl = db.Table("ks", "dttl");
  const TableHandle counts = db.Table("ks", "counts");

  Write(db, [&](Mutation& m) {
    for (int32_t c = 1; c <= 5; ++c) {
      Status s = m.Insert(t, Key{"p"}, Key{Int(c)}, Cells{Set(t, "v", "v" + std::to_string(c))},
                          WriteAttributes{100, {}});
      if (!s.ok()) return s;
    }
    return m.Update(t, Key{"p"}, {}, Cells{Set(t, "s", "st")}, WriteAttributes{100, {}});
  });
  Write(db, [&](Mutation& m) {
    SliceSpec range;
    range.lower = Incl({4});
    Status s = m.DeleteRange(t, Key{"p"}, range, WriteAttributes{200, {}});
    if (s.ok()) s = m.DeleteRow(t, Key{"p"}, Key{Int(2)}, WriteAttributes{200, {}});
    if (s.ok()) s = m.Insert(t, Key{"q"}, Key{Int(1)}, Cells{Set(t, "w", Int(1))});
    if (s.ok()) s = m.DeletePartition(t, Key{"q"}, WriteAttributes{1, {}});
    if (s.ok())
      s = m.Update(t, Key{"r"}, Key{Int(1)}, Cells{Set(t, "b", "\x80")}, WriteAttributes{{}, 50});
    if (s.ok()) s = m.Insert(dttl, Key{"d"}, Key{Int(1)}, Cells{Set(dttl, "v", "short")});
    if (s.ok()) s = m.AddToCounter(counts, Key{"n"}, {}, Col(counts, "hits"), 3);
    return s;
  });
  Write(db,
        [&](Mutation& m) { return m.AddToCounter(counts, Key{"n"}, {}, Col(counts, "hits"), 4); });

  auto dump = [&] {
    std::string text;
    const ReadView view = db.engine->NewReadView();
    for (const std::string& name : names)
      text += name + ":\n" + TableText(view, db.Table("ks", name));
    return text;
  };
  const std::string before = dump();
  REQUIRE(before.find("1: marker@100 v='v1'@100 | 3: marker@100 v='v3'@100") != std::string::npos);
  REQUIRE(before.find("hits=7") != std::string::npos);
  const TableDef t_def = t->def;
  const uint32_t t_id = t->id;
  const std::vector<uint32_t> t_column_ids = t->column_ids;

  db.Reopen();
  CHECK(dump() == before);
  t = db.Table("ks", "t");
  CHECK(SameTable(t->def, t_def));
  CHECK(t->id == t_id);
  CHECK(t->column_ids == t_column_ids);
  CHECK(db.Table("ks", "dttl")->def.options.default_time_to_live == 100);
  CHECK(db.Table("ks", "counts")->def.has_counters());

  SECTION("writes after a reopen add to what is there") {
    Write(db, [&](Mutation& m) {
      return m.Update(t, Key{"p"}, Key{Int(1)}, Cells{Set(t, "w", Int(9))},
                      WriteAttributes{100, {}});
    });
    Write(db, [&](Mutation& m) {
      return m.AddToCounter(counts, Key{"n"}, {}, Col(counts, "hits"), 1);
    });
    CHECK(RowText(db, t, Key{"p"}, Key{Int(1)}) == "marker@100 v='v1'@100 w=9@100");
    CHECK(RowText(db, db.Table("ks", "counts"), Key{"n"}, {}, false) == "hits=8");
  }
  SECTION("TTLs keep counting after a reopen") {
    db.clock.AdvanceSeconds(50);
    db.Reopen();
    CHECK(RowText(db, t, Key{"r"}, Key{Int(1)}) == "<none>");
    CHECK(RowText(db, db.Table("ks", "dttl"), Key{"d"}, Key{Int(1)}, false) ==
          "marker/ttl=100 v='short'/ttl=100");
    db.clock.AdvanceSeconds(50);
    CHECK(RowText(db, db.Table("ks", "dttl"), Key{"d"}, Key{Int(1)}) == "<none>");
  }
}

}  // namespace
}  // namespace cellfs::testing
