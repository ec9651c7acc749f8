// Shared by the fuzz targets that parse rows: a harness schema applied to a
// Catalog, and TableHandles made from it as the engine would make them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "engine/cql/catalog.h"
#include "engine/cql/cql_parser.h"
#include "engine/cql/table_schema.h"
#include "tests/fuzz/fuzz_util.h"

namespace cellfs::fuzz {

// Applies every statement of `script`; a harness schema that does not apply
// is a broken harness, reported like a failed property.
inline void ApplyDdl(Catalog* catalog, const std::string& script) {
  CqlParser parser(script);
  std::string keyspace;
  for (;;) {
    Statement statement;
    bool done = false;
    Status status = parser.Next(&statement, &done);
    if (status.ok() && done) return;
    if (status.ok()) status = catalog->Apply(statement, &keyspace);
    if (!status.ok()) Fail("the harness schema applies", status.ToString());
  }
}

// A TableHandle as the engine would make it: stable ids for non-key columns.
inline TableHandle MakeHandle(const TableDef& def, uint32_t id) {
  auto table = std::make_shared<TableSchema>();
  table->def = def;
  table->id = id;
  uint32_t next = 1;
  for (const ColumnDef& column : def.columns) {
    table->column_ids.push_back(column.is_primary_key() ? 0 : next++);
  }
  return table;
}

// The tables `names` of keyspace ks after applying `scripts` in order, with
// ids 1, 2, ... in the order named.
inline std::vector<TableHandle> MakeTables(std::initializer_list<std::string> scripts,
                                           std::initializer_list<const char*> names) {
  Catalog catalog;
  for (const std::string& script : scripts) ApplyDdl(&catalog, script);
  std::vector<TableHandle> out;
  for (const char* name : names) {
    const TableDef* def = catalog.FindTable("ks", name);
    if (def == nullptr) Fail("the harness tables exist", name);
    out.push_back(MakeHandle(*def, static_cast<uint32_t>(out.size() + 1)));
  }
  return out;
}

}  // namespace cellfs::fuzz
