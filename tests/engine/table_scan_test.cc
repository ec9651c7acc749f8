// TableScan: every live row of a table in token order, then clustering order;
// static-only partitions once; dead partitions never.
#include "engine/store/table_scan.h"

#include <algorithm>
#include <map>

#include "engine/store/token.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using testing::FormatKey;
using testing::FormatRow;
using testing::TestEngine;
using testing::Value;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.t (p text, c int, s text static, v text, PRIMARY KEY (p, c));";

// Renders the scan as "p/c: row" entries ("p/-: static s" for static-only).
std::string Render(const ReadView& view, const TableHandle& table) {
  TableScan scan(view, table);
  std::string text;
  for (; scan.Valid(); scan.Next()) {
    std::vector<std::string> pk, ck;
    REQUIRE(scan.partition().DecodePartitionKey(&pk).ok());
    std::string entry = FormatKey(*table, 0, pk) + "/";
    if (scan.has_row()) {
      REQUIRE(scan.row().DecodeClustering(&ck).ok());
      entry += FormatKey(*table, 1, ck) + ": " + FormatRow(*table, scan.row().row(), false);
    } else {
      entry += "-: static " + FormatRow(*table, scan.partition().static_row(), false);
    }
    text += (text.empty() ? "" : " | ") + entry;
  }
  REQUIRE(scan.status().ok());
  return text;
}

TEST_CASE("a table scan yields live rows by token, then clustering order", "[scan]") {
  TestEngine t;
  t.Ddl(kSchema);
  TableHandle table = t.Table("ks", "t");
  const CqlType& text = *table->column(0).type;
  const CqlType& integer = *table->column(1).type;
  const size_t v = 3, s = 2;  // canonical order: p, c, s, v

  std::vector<std::string> names = {"alpha", "bravo", "charlie", "delta", "echo"};
  Mutation m = t.engine->NewMutation();
  for (const std::string& name : names) {
    for (int c : {3, 1, 2}) {
      const std::string pk[] = {Value(text, name)};
      const std::string ck[] = {Value(integer, std::to_string(c))};
      const ColumnValue cells[] = {{v, Value(text, name + std::to_string(c))}};
      REQUIRE(m.Insert(table, pk, ck, cells).ok());
    }
  }
  // A static-only partition, and a partition whose only row is deleted.
  const std::string lone[] = {Value(text, "lone")};
  const ColumnValue static_cell[] = {{s, Value(text, "only static")}};
  REQUIRE(m.Update(table, lone, {}, static_cell).ok());
  REQUIRE(t.engine->Apply(std::move(m)).ok());
  t.clock.AdvanceMicros(10);
  Mutation del = t.engine->NewMutation();
  const std::string gone_pk[] = {Value(text, "gone")};
  const std::string one[] = {Value(integer, "1")};
  const ColumnValue gone_cell[] = {{v, Value(text, "x")}};
  REQUIRE(del.Update(table, gone_pk, one, gone_cell).ok());
  REQUIRE(t.engine->Apply(std::move(del)).ok());
  Mutation del2 = t.engine->NewMutation();
  REQUIRE(del2.DeleteRow(table, gone_pk, one).ok());
  REQUIRE(t.engine->Apply(std::move(del2)).ok());

  // Expected: partitions sorted by token, rows 1, 2, 3 in each.
  std::vector<std::string> partitions = names;
  partitions.push_back("lone");
  std::sort(partitions.begin(), partitions.end(),
            [](const auto& a, const auto& b) { return ComputeToken(a) < ComputeToken(b); });
  std::string expected;
  for (const std::string& p : partitions) {
    auto add = [&](const std::string& entry) {
      expected += (expected.empty() ? "" : " | ") + entry;
    };
    if (p == "lone") {
      add("lone/-: static s='only static'");
      continue;
    }
    for (int c = 1; c <= 3; ++c) {
      add(p + "/" + std::to_string(c) + ": marker v='" + p + std::to_string(c) + "'");
    }
  }
  CHECK(Render(t.engine->NewReadView(), table) == expected);
  // A scan view (no block-cache fill) reads the same snapshot.
  CHECK(Render(t.engine->NewReadView().ForScan(), table) == expected);
}

TEST_CASE("an empty table scans to nothing", "[scan]") {
  TestEngine t;
  t.Ddl(kSchema);
  CHECK(Render(t.engine->NewReadView(), t.Table("ks", "t")).empty());
}

}  // namespace
}  // namespace cellfs
