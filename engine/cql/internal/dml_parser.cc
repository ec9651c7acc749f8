// DdlParser's data statements: INSERT (VALUES and JSON), UPDATE, DELETE and
// BATCH. Values stay terms as written (engine/cql/dml_statement.h); the
// clauses they share are in dml_parser_clauses.cc.
#include <string>

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {

bool DdlParser::PeekDataStatement() {
  return PeekKeyword("insert") || PeekKeyword("update") || PeekKeyword("delete") ||
         PeekKeyword("begin");
}

Status DdlParser::ParseDataStatement(StatementBody* body) {
  if (TakeKeyword("insert")) {
    InsertStatement insert;
    CELLFS_RETURN_IF_ERROR(ParseInsert(&insert));
    *body = std::move(insert);
  } else if (TakeKeyword("update")) {
    UpdateStatement update;
    CELLFS_RETURN_IF_ERROR(ParseUpdate(&update));
    *body = std::move(update);
  } else if (TakeKeyword("delete")) {
    DeleteStatement remove;
    CELLFS_RETURN_IF_ERROR(ParseDelete(&remove));
    *body = std::move(remove);
  } else {
    Take();  // BEGIN
    in_batch_ = true;
    BatchStatement batch;
    CELLFS_RETURN_IF_ERROR(ParseBatch(&batch));
    in_batch_ = false;
    *body = std::move(batch);
  }
  return Status::Ok();
}

namespace {

void SplitName(QualifiedName name, std::string* keyspace, std::string* table,
               SourcePosition* position) {
  *keyspace = std::move(name.keyspace);
  *table = std::move(name.name);
  *position = name.position;
}

}  // namespace

Status DdlParser::ParseInsert(InsertStatement* out) {
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("into"));
  QualifiedName name;
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &name));
  SplitName(std::move(name), &out->keyspace, &out->table, &out->table_position);
  if (TakeKeyword("json")) {
    CELLFS_RETURN_IF_ERROR(ParseInsertJson(out));
  } else {
    CELLFS_RETURN_IF_ERROR(ParseParenthesisedList("column name", [&]() -> Status {
      out->column_positions.push_back(Peek().position);
      out->columns.emplace_back();
      return ParseName("column name", &out->columns.back());
    }));
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("values"));
    CELLFS_RETURN_IF_ERROR(ParseParenthesisedList("a value", [&]() -> Status {
      out->values.emplace_back();
      return ParseTermText(&out->values.back());
    }));
  }
  // Cassandra's grammar puts IF NOT EXISTS before USING.
  if (PeekKeyword("if")) {
    out->conditions.position = Peek().position;
    Take();
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("not"));
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("exists"));
    out->conditions.kind = ConditionClause::Kind::kIfNotExists;
  }
  if (PeekKeyword("using")) CELLFS_RETURN_IF_ERROR(ParseUsing(true, &out->using_clause));
  return Status::Ok();
}

Status DdlParser::ParseInsertJson(InsertStatement* out) {
  out->json = true;
  if (Peek().kind != TokenKind::kString) return Expected("a JSON string");
  out->json_value.position = Peek().position;
  out->json_value.text = Take().text;  // decoded: the JSON itself
  if (TakeKeyword("default")) {
    if (TakeKeyword("unset")) {
      out->default_unset = true;
    } else if (!TakeKeyword("null")) {
      return Expected("NULL or UNSET");
    }
  }
  return Status::Ok();
}

Status DdlParser::ParseUpdate(UpdateStatement* out) {
  QualifiedName name;
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &name));
  SplitName(std::move(name), &out->keyspace, &out->table, &out->table_position);
  if (PeekKeyword("using")) CELLFS_RETURN_IF_ERROR(ParseUsing(true, &out->using_clause));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("set"));
  while (true) {
    out->assignments.emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseAssignment(&out->assignments.back()));
    if (!TakePunct(',')) break;
  }
  CELLFS_RETURN_IF_ERROR(ParseWhere(&out->where, &out->where_position));
  if (PeekKeyword("if")) return ParseConditions(&out->conditions);
  return Status::Ok();
}

Status DdlParser::ParseDelete(DeleteStatement* out) {
  if (!PeekKeyword("from")) {
    while (true) {
      out->columns.emplace_back();
      CELLFS_RETURN_IF_ERROR(ParseColumnRef(&out->columns.back()));
      if (!TakePunct(',')) break;
    }
  }
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("from"));
  QualifiedName name;
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &name));
  SplitName(std::move(name), &out->keyspace, &out->table, &out->table_position);
  if (PeekKeyword("using")) CELLFS_RETURN_IF_ERROR(ParseUsing(false, &out->using_clause));
  CELLFS_RETURN_IF_ERROR(ParseWhere(&out->where, &out->where_position));
  if (PeekKeyword("if")) return ParseConditions(&out->conditions);
  return Status::Ok();
}

Status DdlParser::ParseBatch(BatchStatement* out) {
  if (TakeKeyword("unlogged")) {
    out->type = BatchStatement::Type::kUnlogged;
  } else if (TakeKeyword("counter")) {
    out->type = BatchStatement::Type::kCounter;
  }
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("batch"));
  if (PeekKeyword("using")) CELLFS_RETURN_IF_ERROR(ParseUsing(true, &out->using_clause));
  while (true) {
    if (TakeKeyword("apply")) return ExpectKeyword("batch");
    if (!PeekKeyword("insert") && !PeekKeyword("update") && !PeekKeyword("delete")) {
      return Expected("INSERT, UPDATE, DELETE or APPLY BATCH");
    }
    out->statements.emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseBatchEntry(&out->statements.back()));
    TakePunct(';');  // optional between a batch's statements
  }
}

Status DdlParser::ParseBatchEntry(BatchEntry* out) {
  out->position = Peek().position;
  if (TakeKeyword("insert")) {
    out->kind = BatchEntry::Kind::kInsert;
    return ParseInsert(&out->insert);
  }
  if (TakeKeyword("update")) {
    out->kind = BatchEntry::Kind::kUpdate;
    return ParseUpdate(&out->update);
  }
  Take();  // DELETE, as the caller checked
  out->kind = BatchEntry::Kind::kDelete;
  return ParseDelete(&out->remove);
}

}  // namespace cellfs
