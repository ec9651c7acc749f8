// The output of a DESCRIBE statement, as cqlsh 4.x prints the rows that
// Cassandra's server-side DescribeStatement returns (docs/CQL.md "DESCRIBE").
#pragma once

#include <string>

#include "engine/cql/catalog.h"
#include "engine/cql/cql_statement.h"
#include "engine/status.h"

namespace cellfs {

// What cqlsh prints for `statement` over `catalog`, with `current_keyspace`
// the session's keyspace (empty when no USE). Listings (KEYSPACES, TABLES,
// TYPES, FUNCTIONS, AGGREGATES) are names in columns 80 characters wide
// (Python's cmd.Cmd.columnize), per keyspace under a "Keyspace ks" header
// when no keyspace is in use; the others are CREATE statements (describe.h),
// each after an empty line. Every output starts with "\n" and ends with
// "\n", except a listing with nothing to list, which is empty.
// On a missing object, InvalidArgument with Cassandra's message:
// "'ks' not found in keyspaces", "Table 't' not found in keyspace 'ks'",
// "User defined type 't' not found in 'ks'", "User defined function 'f' not
// found in 'ks'", "User defined aggregate 'a' not found in 'ks'",
// "'x' not found in keyspace 'ks'" (DESCRIBE x), "No keyspace specified and
// no current keyspace".
Result<std::string> DescribeOutput(const Catalog& catalog, const DescribeStatement& statement,
                                   const std::string& current_keyspace);

// Python's cmd.Cmd.columnize(names, 80): "<empty>\n" for none.
std::string Columnize(const std::vector<std::string>& names, size_t width = 80);

}  // namespace cellfs
