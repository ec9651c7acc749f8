// DESCRIBE: the canonical CQL text of schema objects. Parsing and applying
// the text yields an equal schema (tests/engine/describe_test.cc holds that).
#pragma once

#include <string>

#include "engine/cql/schema.h"

namespace cellfs {

// CREATE KEYSPACE ... ; followed by the keyspace's types (in dependency
// order), tables (by name, each with its indexes and views) and functions,
// each as in the functions below, separated by blank lines.
std::string DescribeKeyspace(const KeyspaceDef& keyspace);

// Only the CREATE KEYSPACE statement.
std::string DescribeKeyspaceStatement(const KeyspaceDef& keyspace);

// CREATE TYPE ks.name (field type, ...);
std::string DescribeType(const UserTypeDef& type);

// CREATE TABLE ks.name (...) WITH ...; with every option spelled out,
// then its indexes. For a view, DescribeView.
std::string DescribeTable(const TableDef& table);

// CREATE MATERIALIZED VIEW ks.v AS SELECT ... FROM ks.t WHERE ...
// PRIMARY KEY (...) WITH ...; in Cassandra 4.x's layout (docs/CQL.md
// "Materialized views"). REQUIRES: view.view is set.
std::string DescribeView(const TableDef& view);

// DescribeTable, then each view of the table (by name) after a blank
// line, as Cassandra's DESCRIBE TABLE and DESCRIBE KEYSPACE place them.
std::string DescribeTableAndViews(const KeyspaceDef& keyspace, const TableDef& table);

}  // namespace cellfs
