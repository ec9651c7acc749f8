// Builds and alters TableDefs from parsed statements with Cassandra's
// validation rules (keys, static columns, counters, clustering order).
// Internal to engine/: the catalog's CREATE/ALTER TABLE work.
#pragma once

#include "engine/cql/cql_statement.h"
#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

// The validated table `statement` declares in `keyspace` (whose name the
// caller has resolved). Errors name the problem and its position.
Result<TableDef> BuildTable(const CreateTable& statement, const KeyspaceDef& keyspace);

// `table` changed as `statement` says (ADD, DROP, RENAME or WITH).
Result<TableDef> AlterTableDef(const AlterTable& statement, const KeyspaceDef& keyspace,
                               const TableDef& table);

// Cassandra's rule for keyspace and table names: 1 to 48 characters of
// [A-Za-z0-9_] (they become directory names, so this also keeps them sane).
Status CheckSchemaObjectName(const std::string& kind, const std::string& name,
                             const SourcePosition& position);

}  // namespace cellfs
