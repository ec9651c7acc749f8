// InsertBatcher: valid records land in batches, refused ones are reported
// by line, a row repeated in one batch keeps its later line.
#include "fs/formats/insert_batcher.h"

#include <catch2/catch.hpp>

#include "tests/engine/engine_test_util.h"

namespace cellfs::fs {
namespace {

using testing::TestEngine;
using testing::Value;

Result<InsertRow> Row(int32_t p, int32_t c, std::optional<std::string> v) {
  InsertRow row;
  row.partition_key = {Value(*CqlType::Native(TypeKind::kInt), std::to_string(p))};
  row.clustering = {Value(*CqlType::Native(TypeKind::kInt), std::to_string(c))};
  row.cells.push_back(ColumnValue{2, std::move(v)});
  return row;
}

std::string Cell(TestEngine& t, const TableHandle& table, int32_t p, int32_t c) {
  std::vector<std::string> pk = {Value(*CqlType::Native(TypeKind::kInt), std::to_string(p))};
  std::vector<std::string> ck = {Value(*CqlType::Native(TypeKind::kInt), std::to_string(c))};
  auto row = t.engine->NewReadView().GetRow(table, pk, ck);
  REQUIRE(row.ok());
  if (!row.value()) return "<no row>";
  for (const RowCell& cell : row.value()->cells) return cell.cell.value;
  return "<no cell>";
}

TEST_CASE("valid records land, refused ones are reported with their line", "[insert_batcher]") {
  TestEngine t;
  t.Ddl(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
      "CREATE TABLE ks.t (p int, c int, v text, PRIMARY KEY (p, c));");
  TableHandle table = t.Table("ks", "t");
  InsertBatcher batcher(t.engine.get(), table);
  batcher.Add(1, Row(1, 1, "a"));
  batcher.Add(2, Status::InvalidArgument("column 'c': bad"));
  batcher.Add(3, Row(1, 2, "b"));
  REQUIRE(batcher.Flush().ok());
  CHECK(batcher.rows_stored() == 2);
  CHECK(batcher.error_count() == 1);
  CHECK(batcher.errors() == "line 2: column 'c': bad\n");
  CHECK(Cell(t, table, 1, 1) == "a");
  CHECK(Cell(t, table, 1, 2) == "b");
  TouchedRows touched;
  batcher.TakeTouchedRows(&touched);
  REQUIRE(touched.size() == 2);  // rows 1/1 and 1/2, the refused line not
  TouchedRows::Reader row(touched);
  REQUIRE(row.Next());
  CHECK(row.new_partition());
  const std::vector<std::string> first_partition = row.partition_key();
  const std::vector<std::string> first_clustering = row.clustering();
  CHECK(row.columns() == std::vector<size_t>{2});  // v
  REQUIRE(row.Next());
  CHECK_FALSE(row.new_partition());
  CHECK(row.partition_key() == first_partition);
  CHECK(row.clustering() != first_clustering);
  CHECK_FALSE(row.Next());
  batcher.TakeTouchedRows(&touched);
  CHECK(touched.empty());
}

TEST_CASE("a row written twice in one load keeps its later line", "[insert_batcher]") {
  TestEngine t;
  t.Ddl(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
      "CREATE TABLE ks.t (p int, c int, v text, PRIMARY KEY (p, c));");
  TableHandle table = t.Table("ks", "t");
  InsertBatcher batcher(t.engine.get(), table);
  // "z" > "a": with one shared write time the greater value would win.
  batcher.Add(1, Row(1, 1, "z"));
  batcher.Add(2, Row(1, 1, "a"));
  batcher.Add(3, Row(1, 1, std::nullopt));  // then deleted
  batcher.Add(4, Row(1, 1, "m"));
  REQUIRE(batcher.Flush().ok());
  CHECK(batcher.rows_stored() == 4);
  CHECK(Cell(t, table, 1, 1) == "m");
}

TEST_CASE("a record the engine refuses is reported and nothing of it stored", "[insert_batcher]") {
  TestEngine t;
  t.Ddl(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
      "CREATE TABLE ks.t (p int, c int, v text, PRIMARY KEY (p, c));");
  TableHandle table = t.Table("ks", "t");
  InsertBatcher batcher(t.engine.get(), table);
  Result<InsertRow> bad = Row(1, 1, "x");
  bad.value().clustering.clear();  // a missing clustering value
  batcher.Add(7, std::move(bad));
  batcher.Add(8, Row(2, 1, "ok"));
  REQUIRE(batcher.Flush().ok());
  CHECK(batcher.error_count() == 1);
  CHECK(batcher.errors().rfind("line 7: ", 0) == 0);
  CHECK(batcher.rows_stored() == 1);
  CHECK(Cell(t, table, 1, 1) == "<no row>");
}

}  // namespace
}  // namespace cellfs::fs
