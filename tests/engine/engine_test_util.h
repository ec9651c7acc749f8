// Test fixture for engine tests: an Engine over an in-memory LevelDB Env with
// a ManualClock and the background sweeper off, plus helpers to run DDL and
// render rows as text.
#pragma once

#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/cql_parser.h"
#include "engine/cql/literal.h"
#include "engine/cql/table_schema.h"
#include "engine/engine.h"
#include "engine/store/cell.h"
#include "engine/store/read_view.h"
#include "engine/store/row_fragment.h"
#include "engine/store/slice.h"

namespace cellfs::testing {

// An int column's serialized value (4 bytes, big-endian), and back.
// The index of column `name` in `table`; fails the test when it has none.
inline size_t ColumnIndexOf(const TableSchema& table, const std::string& name) {
  for (size_t i = 0; i < table.def.columns.size(); ++i) {
    if (table.column(i).name == name) return i;
  }
  FAIL("no column " << name);
  return 0;
}

inline std::string IntValue(int32_t v) {
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((static_cast<uint32_t>(v) >> shift) & 0xff));
  }
  return out;
}
inline int32_t IntOf(const std::string& bytes) {
  uint32_t v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return static_cast<int32_t>(v);
}

// Runs every statement of `cql` on `engine`; the first failure (for tests
// where DDL may fail, as on a failing device).
inline Status RunCql(Engine* engine, const std::string& cql) {
  CqlParser parser(cql);
  std::string keyspace;
  for (;;) {
    Statement statement;
    bool done = false;
    CELLFS_RETURN_IF_ERROR(parser.Next(&statement, &done));
    if (done) return Status::Ok();
    CELLFS_RETURN_IF_ERROR(engine->Execute(statement, &keyspace));
  }
}

// Runs every statement of `cql` on `engine`, starting in keyspace
// `*keyspace` (USE changes it); REQUIREs success.
inline void RunDdl(Engine* engine, const std::string& cql, std::string* keyspace) {
  CqlParser parser(cql);
  for (;;) {
    Statement statement;
    bool done = false;
    Status parsed = parser.Next(&statement, &done);
    INFO(parsed.ToString());
    REQUIRE(parsed.ok());
    if (done) return;
    Status applied = engine->Execute(statement, keyspace);
    INFO(applied.ToString());
    REQUIRE(applied.ok());
  }
}

class TestEngine {
 public:
  explicit TestEngine(EngineOptions options = {})
      : env_(leveldb::NewMemEnv(leveldb::Env::Default())), path_(StorePath()) {
    if (path_ == "/db") options.env = env_.get();
    options.clock = &clock;
    options.background_sweeper = false;
    options_ = options;
    Reopen();
  }
  // The engine goes first: it still uses env_, which is declared after it.
  ~TestEngine() { engine.reset(); }
  TestEngine(const TestEngine&) = delete;
  TestEngine& operator=(const TestEngine&) = delete;

  // Closes and opens the engine again over the same in-memory files.
  void Reopen() {
    engine.reset();
    auto opened = Engine::Open(path_, options_);
    INFO(opened.status().ToString());
    REQUIRE(opened.ok());
    engine = std::move(opened).value();
  }
  void Close() { engine.reset(); }

  // Runs every statement of `cql`; REQUIREs success.
  void Ddl(const std::string& cql) { RunDdl(engine.get(), cql, &current_keyspace); }

  TableHandle Table(const std::string& keyspace, const std::string& table) {
    auto found = engine->FindTable(keyspace, table);
    REQUIRE(found.ok());
    return found.value();
  }

  leveldb::Env* env() { return env_.get(); }
  // The store's spelling: "/db" in memory, or a fresh namespace of the
  // RADOS store $CELLFS_TEST_STORE names (the same tests over RADOS, on
  // the test cluster: tests/CMakeLists.txt).
  const std::string& path() const { return path_; }

  ManualClock clock;
  std::unique_ptr<Engine> engine;
  std::string current_keyspace;

 private:
  static std::string StorePath() {
    const char* store = std::getenv("CELLFS_TEST_STORE");
    if (store == nullptr || *store == '\0') return "/db";
    static std::atomic<int> made{0};
    const std::string spelling(store);
    return spelling + (spelling.find('?') == std::string::npos ? "?" : "&") + "ns=test-" +
           std::to_string(getpid()) + "-" +
           std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" +
           std::to_string(made++);
  }

  std::unique_ptr<leveldb::Env> env_;
  std::string path_;
  EngineOptions options_;
};

// The serialized value of CQL literal `text` for `type`; REQUIREs it parses.
inline std::string Value(const CqlType& type, const std::string& text) {
  auto parsed = ParseLiteral(type, text);
  REQUIRE(parsed.ok());
  return parsed.value();
}

// One cell as text: "v='a'@100", "v='a'@100/ttl=60" (expiring), "hits=3@100"
// (a counter's total), "v=<deleted>@100" (a tombstone); without the "@time"
// part when !write_times. Values print as CQL terms (FormatTerm).
inline std::string FormatCell(const TableSchema& table, const RowCell& row_cell,
                              bool write_times = true) {
  std::optional<size_t> index = table.ColumnIndexById(row_cell.column_id);
  const Cell& cell = row_cell.cell;
  std::string text = index ? table.column(*index).name : "#" + std::to_string(row_cell.column_id);
  text += '=';
  if (cell.is_tombstone()) {
    text += "<deleted>";
  } else if (cell.is_counter()) {
    text += std::to_string(CounterDelta(cell));
  } else if (index) {
    text += FormatTerm(*table.column(*index).type, cell.value);
  } else {
    text += "<" + std::to_string(cell.value.size()) + " bytes>";
  }
  if (write_times) text += "@" + std::to_string(cell.write_time);
  if (cell.ttl != 0) text += "/ttl=" + std::to_string(cell.ttl);
  return text;
}

// A row as text, space-separated: "marker@100" (or "marker@100/ttl=60"),
// "deleted@100" for a row deletion, then each cell by FormatCell, e.g.
// "marker@100 v='a'@100 w=3@100/ttl=60"; "" for an empty fragment.
inline std::string FormatRow(const TableSchema& table, const RowFragment& row,
                             bool write_times = true) {
  std::vector<std::string> parts;
  auto at = [&](int64_t write_time) {
    return write_times ? "@" + std::to_string(write_time) : std::string();
  };
  if (row.deletion) parts.push_back("deleted" + at(row.deletion->write_time));
  if (row.marker) {
    std::string marker = "marker" + at(row.marker->write_time);
    if (row.marker->ttl != 0) marker += "/ttl=" + std::to_string(row.marker->ttl);
    parts.push_back(marker);
  }
  for (const RowCell& cell : row.cells) parts.push_back(FormatCell(table, cell, write_times));
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : " ") + part;
  return text;
}

// The canonical text of key values, comma-joined ("a,1").
inline std::string FormatKey(const TableSchema& table, size_t first_column,
                             const std::vector<std::string>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i != 0) text += ',';
    text += FormatLiteral(*table.column(first_column + i).type, values[i]);
  }
  return text;
}

// Every row `slice` selects in partition `partition_key`, in the order the
// iterator returns them: "1: marker@5 v='a'@5 | 2: ..." (without the "key: "
// part in a table without clustering columns); "" when none.
// REQUIREs the iterator to be made and to end without error.
inline std::string FormatPartition(const ReadView& view, const TableHandle& table,
                                   const std::vector<std::string>& partition_key,
                                   const SliceSpec& slice = {}, bool write_times = true) {
  auto made = view.NewRowIterator(table, partition_key, slice);
  INFO(made.status().ToString());
  REQUIRE(made.ok());
  std::unique_ptr<RowIterator> it = std::move(made).value();
  std::string text;
  for (; it->Valid(); it->Next()) {
    std::vector<std::string> clustering;
    REQUIRE(it->DecodeClustering(&clustering).ok());
    if (!text.empty()) text += " | ";
    if (!clustering.empty()) {
      text += FormatKey(*table, table->partition_key_count(), clustering) + ": ";
    }
    text += FormatRow(*table, it->row(), write_times);
  }
  INFO(it->status().ToString());
  REQUIRE(it->status().ok());
  return text;
}

}  // namespace cellfs::testing
