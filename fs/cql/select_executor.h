// StartSelect: runs a CQL SELECT through @cql. The statement is resolved,
// planned with Cassandra's restriction rules (engine/cql/select_plan.h) and
// typed (select_query.h) when it arrives; its rows are read from one
// snapshot taken then, and printed as cqlsh prints them (cqlsh_table.h),
// a page of 100 rows at a time as the reader of the transcript reaches
// them (transcript.h), so a result of any size costs the daemon one page.
#pragma once

#include <memory>
#include <string>

#include "engine/cql/cql_statement.h"
#include "engine/engine.h"
#include "engine/status.h"
#include "fs/formats/transcript.h"

namespace cellfs::fs {

// REQUIRES: statement.body holds a SelectStatement. Unqualified tables
// resolve in `keyspace` (the session's USE). On success *out is the
// result's stream: "OUTPUT n" blocks of cqlsh's text, a page each, then the
// "(N rows)" block; an error met while reading (an I/O error) ends it with
// an "ERROR ..." line. Errors found before reading (an unknown table or
// column, a restriction Cassandra refuses, a bad value) are returned
// instead, as InvalidArgument with a "line L:C: " position and Cassandra's
// message, or NotSupported for what cellfs does not run yet.
Status StartSelect(Engine* engine, const Statement& statement, const std::string& keyspace,
                   std::unique_ptr<ResultStream>* out);

}  // namespace cellfs::fs
