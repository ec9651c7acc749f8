// DESCRIBE: the canonical CQL text of schema objects. Parsing and applying
// the text yields an equal schema (tests/engine/describe_test.cc holds that).
#pragma once

#include <string>

#include "engine/cql/schema.h"

namespace cellfs {

// CREATE KEYSPACE ... ; followed by the keyspace's types (in dependency
// order), tables (by name) and functions, each as in the functions below,
// separated by blank lines.
std::string DescribeKeyspace(const KeyspaceDef& keyspace);

// Only the CREATE KEYSPACE statement.
std::string DescribeKeyspaceStatement(const KeyspaceDef& keyspace);

// CREATE TYPE ks.name (field type, ...);
std::string DescribeType(const UserTypeDef& type);

// CREATE TABLE ks.name (...) WITH ...; with every option spelled out.
std::string DescribeTable(const TableDef& table);

}  // namespace cellfs
