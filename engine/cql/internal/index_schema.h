// The index statements applied to a keyspace's definition: CREATE INDEX
// (plain, SASI and SAI forms) and DROP INDEX, validated with Cassandra's
// rules and words (CreateIndexStatement, IndexTarget, DropIndexStatement).
#pragma once

#include <string>

#include "engine/cql/cql_statement.h"
#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

// The keyspace a CREATE INDEX names: the table's, else the index name's,
// else `current`. InvalidArgument when the two qualifications disagree or
// none is known.
Status IndexStatementKeyspace(const CreateIndex& statement, const std::string& current,
                              std::string* keyspace);

// Whether CREATE INDEX checks the index's WITH OPTIONS (a SASI or SAI
// index's own validateOptions, `class_name`/`target` as options): always
// for a user's statement; kSkip for stored text (Catalog::
// set_applying_stored_text), which an older build may have accepted.
enum class IndexOptionChecks { kCheck, kSkip };

// Validates `statement` against `keyspace` and adds the index to its table.
// *added is false when IF NOT EXISTS made it a no-op. *table_name is the
// indexed table. On error `keyspace` is unchanged.
Status AddIndex(const CreateIndex& statement, KeyspaceDef* keyspace, bool* added,
                std::string* table_name, IndexOptionChecks checks = IndexOptionChecks::kCheck);

// Removes index `name` from whichever table of `keyspace` has it; false
// when none has (the caller words the refusal).
bool RemoveIndex(const std::string& name, KeyspaceDef* keyspace, std::string* table_name);

// The refusal of ALTER TABLE ... DROP or RENAME of `column` while an index
// uses it (Ok when none does).
Status CheckNoDependentIndexes(const TableDef& table, const std::string& column,
                               const char* action);

// The index classes cellfs answers for: SASI and SAI by any of their
// spellings, and the plain index ("legacy_local_table").
bool IsKnownIndexClass(const std::string& name);

// Which family a USING class names (any case, short or long spelling).
enum class IndexFamily { kPlain, kSasi, kSai };
IndexFamily IndexFamilyOf(const std::string& custom_class);

}  // namespace cellfs
