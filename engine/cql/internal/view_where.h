// A materialized view's WHERE clause: each relation typed into a
// ViewRestriction, its text as Cassandra's DESCRIBE prints it, and the
// rename of a key column through both.
#pragma once

#include <map>
#include <string>

#include "engine/cql/cql_statement.h"
#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

// The relation as DESCRIBE prints it: `c IS NOT NULL`, `c = 1`,
// `c IN (1, 2)`. The column is quoted where CQL needs it; a string
// constant is single-quoted (quotes doubled, so the text parses back),
// any other term is kept as written, as Cassandra keeps it.
std::string ViewRelationText(const ViewRelation& relation);

// `relation` (not IS NOT NULL) on `column`, its terms typed and
// serialized. InvalidArgument with Cassandra's words for a null term or a
// term that does not fit the type.
Status TypeViewRelation(const ColumnDef& column, const Relation& relation, ViewRestriction* out);

// Cassandra's merge of the relations a WHERE clause puts on one column
// (StatementRestrictions' doMergeWith): IS NOT NULL, = and IN take no
// other relation on their column; ranges combine once per bound. Not
// thread-safe; one per WHERE clause.
class ViewRelationMerger {
 public:
  // Adds `relation`, on the column named `column`; InvalidArgument in
  // Cassandra's words when the column's earlier relations refuse it.
  Status Add(const ViewRelation& relation, const std::string& column);

 private:
  struct Seen {
    bool not_null = false;
    bool eq = false;
    bool in = false;
    bool start = false;  // > or >=
    bool end = false;    // < or <=
  };
  std::map<std::string, Seen> seen_;
};

// Renames `from` to `to` in `view`'s columns, restrictions and WHERE text.
// REQUIRES: view->view is set.
void RenameViewColumn(const std::string& from, const std::string& to, TableDef* view);

}  // namespace cellfs
