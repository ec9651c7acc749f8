// DdlParser's table grammar: CREATE TABLE (column definitions and every
// PRIMARY KEY form) and ALTER TABLE's ADD, DROP, RENAME and WITH actions.
#include <string>

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {

Status DdlParser::ParseCreateTable(StatementBody* body) {
  CreateTable create;
  CELLFS_RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &create.table));
  CELLFS_RETURN_IF_ERROR(ParseParenthesisedList(
      "column definition", [&]() -> Status { return ParseTableElement(&create); }));
  if (TakeKeyword("with")) CELLFS_RETURN_IF_ERROR(ParseOptions(&create.options, &create));
  *body = std::move(create);
  return Status::Ok();
}

// Column definitions and the PRIMARY KEY clause come in any order.
// PRIMARY is reserved, so it cannot start a column definition.
Status DdlParser::ParseTableElement(CreateTable* table) {
  if (PeekKeyword("primary")) return ParsePrimaryKeyClause(table);
  ColumnExpr column;
  CELLFS_RETURN_IF_ERROR(ParseColumnDefinition(true, &column));
  table->columns.push_back(std::move(column));
  return Status::Ok();
}

// PRIMARY KEY (a), (a, b, c), ((a, b), c), ((a)), (a,): the first element
// is the partition key, the others are clustering columns.
Status DdlParser::ParsePrimaryKeyClause(CreateTable* table) {
  const SourcePosition position = Take().position;  // PRIMARY
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("key"));
  if (table->has_primary_key_clause) {
    return ErrorAt(position, "duplicate PRIMARY KEY clause (the first is at " +
                                 table->primary_key_position.ToString() + ")");
  }
  table->has_primary_key_clause = true;
  table->primary_key_position = position;
  bool first = true;
  return ParseParenthesisedList("primary key column name", [&]() -> Status {
    if (first) {
      first = false;
      return ParsePartitionKey(table);
    }
    std::string column;
    CELLFS_RETURN_IF_ERROR(ParseName("clustering column name", &column));
    table->clustering.push_back(std::move(column));
    return Status::Ok();
  });
}

Status DdlParser::ParsePartitionKey(CreateTable* table) {
  auto parse_column = [&]() -> Status {
    std::string column;
    CELLFS_RETURN_IF_ERROR(ParseName("partition key column name", &column));
    table->partition_key.push_back(std::move(column));
    return Status::Ok();
  };
  if (Peek().IsPunct('(')) return ParseParenthesisedList("partition key column name", parse_column);
  return parse_column();
}

// name type, then STATIC and (in CREATE TABLE) PRIMARY KEY, each at most
// once and in either order.
Status DdlParser::ParseColumnDefinition(bool allow_primary_key, ColumnExpr* column) {
  column->position = Peek().position;
  CELLFS_RETURN_IF_ERROR(ParseName("column name", &column->name));
  CELLFS_RETURN_IF_ERROR(ParseType(&column->type));
  while (true) {
    if (!column->is_static && TakeKeyword("static")) {
      column->is_static = true;
    } else if (allow_primary_key && !column->inline_primary_key && TakeKeyword("primary")) {
      CELLFS_RETURN_IF_ERROR(ExpectKeyword("key"));
      column->inline_primary_key = true;
    } else {
      return Status::Ok();
    }
  }
}

Status DdlParser::ParseAlterTable(StatementBody* body) {
  AlterTable alter;
  CELLFS_RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &alter.table));
  alter.action_position = Peek().position;
  if (TakeKeyword("add")) {
    CELLFS_RETURN_IF_ERROR(ParseAlterAdd(&alter));
  } else if (TakeKeyword("drop")) {
    bool drops_compact_storage = false;
    CELLFS_RETURN_IF_ERROR(ParseAlterDrop(&alter, &drops_compact_storage));
    if (drops_compact_storage) {
      return ParseUnsupported("ALTER TABLE ... DROP COMPACT STORAGE", body);
    }
  } else if (TakeKeyword("rename")) {
    CELLFS_RETURN_IF_ERROR(ParseAlterRename(&alter));
  } else if (TakeKeyword("with")) {
    alter.action = AlterTable::Action::kWith;
    CELLFS_RETURN_IF_ERROR(ParseOptions(&alter.options, nullptr));
  } else if (TakeKeyword("alter")) {
    return ParseUnsupported("ALTER TABLE ... ALTER TYPE", body);
  } else {
    return Expected("ADD, DROP, RENAME, WITH or ALTER");
  }
  *body = std::move(alter);
  return Status::Ok();
}

// ADD [IF NOT EXISTS] c type [STATIC] | ADD (c1 t1 [STATIC], c2 t2, ...)
Status DdlParser::ParseAlterAdd(AlterTable* alter) {
  alter->action = AlterTable::Action::kAdd;
  CELLFS_RETURN_IF_ERROR(ParseIfNotExists(&alter->if_column_not_exists));
  auto parse_column = [&]() -> Status {
    ColumnExpr column;
    CELLFS_RETURN_IF_ERROR(ParseColumnDefinition(false, &column));
    alter->added.push_back(std::move(column));
    return Status::Ok();
  };
  if (Peek().IsPunct('(')) return ParseParenthesisedList("column definition", parse_column);
  return parse_column();
}

// DROP [IF EXISTS] c | DROP (c1, c2, ...). COMPACT is not reserved, so
// "DROP compact" drops a column and only "DROP COMPACT STORAGE" is the
// (unsupported) table conversion.
Status DdlParser::ParseAlterDrop(AlterTable* alter, bool* drops_compact_storage) {
  alter->action = AlterTable::Action::kDrop;
  CELLFS_RETURN_IF_ERROR(ParseIfExists(&alter->if_column_exists));
  auto parse_column = [&]() -> Status {
    std::string column;
    CELLFS_RETURN_IF_ERROR(ParseName("column name", &column));
    alter->dropped.push_back(std::move(column));
    return Status::Ok();
  };
  if (Peek().IsPunct('(')) return ParseParenthesisedList("column name", parse_column);
  const bool maybe_compact = PeekKeyword("compact") && !alter->if_column_exists;
  CELLFS_RETURN_IF_ERROR(parse_column());
  *drops_compact_storage = maybe_compact && TakeKeyword("storage");
  return Status::Ok();
}

// RENAME [IF EXISTS] a TO b [AND c TO d ...]
Status DdlParser::ParseAlterRename(AlterTable* alter) {
  alter->action = AlterTable::Action::kRename;
  CELLFS_RETURN_IF_ERROR(ParseIfExists(&alter->if_column_exists));
  do {
    std::pair<std::string, std::string> rename;
    CELLFS_RETURN_IF_ERROR(ParseName("column name", &rename.first));
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("to"));
    CELLFS_RETURN_IF_ERROR(ParseName("new column name", &rename.second));
    alter->renamed.push_back(std::move(rename));
  } while (TakeKeyword("and"));
  return Status::Ok();
}

}  // namespace cellfs
