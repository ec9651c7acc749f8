// The materialized view statements applied to a keyspace's definition
// (CREATE / DROP / ALTER MATERIALIZED VIEW), and what views change for the
// table statements, validated with Cassandra's rules, order and words
// (CreateViewStatement, DropViewStatement, AlterViewStatement, and the view
// checks of DropTableStatement, AlterTableStatement, CreateIndexStatement
// and TruncateStatement). docs/CQL.md "Materialized views".
#pragma once

#include <string>
#include <vector>

#include "engine/cql/cql_statement.h"
#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

// The keyspace a CREATE MATERIALIZED VIEW names: the view's, else
// `current`. InvalidArgument when none is known or the base table is
// qualified with another keyspace.
Status ViewStatementKeyspace(const CreateView& statement, const std::string& current,
                             std::string* keyspace);

// Validates `statement` against `keyspace` and adds the view to its
// tables. *added is false when IF NOT EXISTS made it a no-op. On error
// `keyspace` is unchanged.
Status AddView(const CreateView& statement, KeyspaceDef* keyspace, bool* added);

// ALTER MATERIALIZED VIEW's options applied to `view`.
// REQUIRES: view->view is set.
Status AlterViewOptions(const AlterView& statement, TableDef* view);

// The names of the views whose base is `table`, sorted.
std::vector<std::string> ViewsOf(const KeyspaceDef& keyspace, const std::string& table);

// DROP TABLE of `table`: refused for a view, and for a base with views.
Status CheckDropTable(const KeyspaceDef& keyspace, const TableDef& table);

// ALTER TABLE of `table` (a view is refused), before the change is made:
// DROP of a column is refused while the table has views.
Status CheckAlterTable(const KeyspaceDef& keyspace, const TableDef& table,
                       const AlterTable& statement);

// ALTER TABLE ... DROP of `column` of `table`: refused while the table
// has views (checked after the key and index checks, as Cassandra does).
Status CheckDropColumnWithViews(const KeyspaceDef& keyspace, const TableDef& table,
                                const std::string& column);

// Carries an applied ALTER TABLE of base `before` (now `after`) into its
// views: ADD puts each new regular column in every SELECT * view, RENAME
// renames the key column in every view that has it (its restrictions and
// WHERE text included), as Cassandra does.
void PropagateAlterTable(const AlterTable& statement, const TableDef& before, const TableDef& after,
                         KeyspaceDef* keyspace);

// The refusals of CREATE INDEX and TRUNCATE on a view.
Status CheckIndexableTable(const TableDef& table);
Status CheckTruncatableTable(const TableDef& table);

}  // namespace cellfs
