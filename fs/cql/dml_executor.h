// ExecuteDataStatement: runs a parsed CQL data statement (INSERT, UPDATE,
// DELETE, BATCH: engine/cql/dml_statement.h) as one engine Mutation, with
// Cassandra's validation and wording (docs/CQL.md "Data statements").
// Used by the @cql session (fs/formats/cql_session.h) and so by `cellfs cql`.
#pragma once

#include <string>
#include <vector>

#include "engine/cql/cql_statement.h"
#include "engine/engine.h"
#include "engine/status.h"

namespace cellfs::fs {

// What a statement changed, for the caller's kernel invalidations.
struct DmlTouched {
  enum class Scope {
    kCells,      // `columns` of the row `clustering` (or of the static row)
    kRow,        // the row `clustering` as a whole (deleted)
    kPartition,  // the partition as a whole (deleted, or a range of it)
  };
  TableHandle table;
  Scope scope = Scope::kCells;
  std::vector<std::string> partition_key;  // serialized, key order
  std::vector<std::string> clustering;     // empty for static cells and kPartition
  std::vector<size_t> columns;             // indexes in def.columns (kCells)
};

struct DmlResult {
  // The transcript summary: "INSERT ks.t", "UPDATE ks.t", "DELETE ks.t",
  // "BATCH (3 statements)"; names through QuoteIdentifier.
  std::string summary;
  // A conditional statement's result (IF ...), as cqlsh prints it: an
  // empty line, then the "[applied]" table, each line ended by "\n"
  // (dml_conditions.h). Empty for other statements.
  std::string output;
  std::vector<DmlTouched> touched;
};

// Runs `statement` (REQUIRES: IsDataStatement(statement.body)) against
// `engine`; unqualified table names resolve in `keyspace` (the session's
// USE; may be empty). Every write of the statement, and of every
// statement of a BATCH, goes into one Mutation applied once, so all of it
// lands or none (atomic also across tables and partitions, and under
// kill -9). Reads happen only where Cassandra reads before writing (list
// l[i] = v, DELETE l[i], l = l - [...]), from a snapshot taken before the
// write.
// A conditional statement or batch (IF NOT EXISTS, IF EXISTS, IF c = v...)
// runs as a lightweight transaction (dml_conditions.h): on one table and
// partition, its conditions checked and its writes applied under the
// partition's lock; whether it applied is in result->output, and a
// condition that does not hold is not an error.
//
// Errors: InvalidArgument with Cassandra's message prefixed by a position
// ("line 3:12: Undefined column name x"), NotSupported for what cellfs
// does not implement; nothing is written then. Errors of the engine's
// Apply (IOError, NoSpace...) pass through.
// Thread-safe as far as `engine` is.
Status ExecuteDataStatement(Engine* engine, const Statement& statement, const std::string& keyspace,
                            DmlResult* result);

}  // namespace cellfs::fs
