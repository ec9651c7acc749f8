// CREATE / DROP / ALTER MATERIALIZED VIEW: the grammar of Cassandra's view
// statements. Meaning (which columns, which relations) is the catalog's
// (engine/cql/internal/view_schema.h).
#include <string>

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {

// After CREATE MATERIALIZED VIEW: [IF NOT EXISTS] [ks.]v AS SELECT ...
// FROM [ks.]t [WHERE ...] PRIMARY KEY (...) [WITH ...].
Status DdlParser::ParseCreateView(StatementBody* body) {
  CreateView create;
  CELLFS_RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("view name", &create.view));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("as"));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("select"));
  CELLFS_RETURN_IF_ERROR(ParseViewSelection(&create));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("from"));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &create.base));
  if (TakeKeyword("where")) {
    do {
      create.where.emplace_back();
      CELLFS_RETURN_IF_ERROR(ParseViewRelation(&create.where.back()));
    } while (TakeKeyword("and"));
  }
  if (!PeekKeyword("primary")) return Expected("PRIMARY KEY");
  CELLFS_RETURN_IF_ERROR(ParsePrimaryKeyClause(&create.layout));
  // CLUSTERING ORDER BY is among the options; COMPACT STORAGE too, so
  // that the catalog refuses it in words.
  if (TakeKeyword("with"))
    CELLFS_RETURN_IF_ERROR(ParseOptions(&create.layout.options, &create.layout));
  *body = std::move(create);
  return Status::Ok();
}

// `*`, or selectors joined by ',' (each kept with its source text, so the
// catalog can quote one it refuses).
Status DdlParser::ParseViewSelection(CreateView* view) {
  if (TakePunct('*')) {
    view->select_all = true;
    return Status::Ok();
  }
  do {
    const size_t start = Peek().position.offset;
    view->selected.emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseSelector(&view->selected.back()));
    if (TakeKeyword("as")) {
      CELLFS_RETURN_IF_ERROR(ParseName("an alias", &view->selected.back().alias));
    }
    view->written.emplace_back(lexer_.input().substr(start, consumed_end_ - start));
  } while (TakePunct(','));
  return Status::Ok();
}

// `col IS NOT NULL`, or `col op term` / `col IN (terms)`.
Status DdlParser::ParseViewRelation(ViewRelation* out) {
  Relation& relation = out->relation;
  relation.position = Peek().position;
  if (PeekKeyword("token")) {
    return ErrorAt(relation.position,
                   "Cannot use token relation when defining a materialized view");
  }
  if (Peek().IsPunct('(')) {
    return Status::NotSupported(Peek().position.ToString() +
                                ": multi-column relations are not supported by cellfs");
  }
  CELLFS_RETURN_IF_ERROR(ParseName("column name", &relation.column));
  if (TakeKeyword("is")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("not"));
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("null"));
    out->is_not_null = true;
    return Status::Ok();
  }
  return ParseRelationTail(&relation);
}

// After DROP MATERIALIZED VIEW.
Status DdlParser::ParseDropView(StatementBody* body) {
  DropView drop;
  CELLFS_RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("view name", &drop.view));
  *body = std::move(drop);
  return Status::Ok();
}

// After ALTER MATERIALIZED VIEW: [IF EXISTS] [ks.]v WITH options.
Status DdlParser::ParseAlterView(StatementBody* body) {
  AlterView alter;
  CELLFS_RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("view name", &alter.view));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("with"));
  CELLFS_RETURN_IF_ERROR(ParseOptions(&alter.options, nullptr));
  *body = std::move(alter);
  return Status::Ok();
}

}  // namespace cellfs
