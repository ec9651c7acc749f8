// DdlParser's statement layer: dispatch on the leading keywords, keyspaces,
// USE, types, functions and aggregates, and the statements kept unsupported.
#include <string>

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {
namespace {

std::string Upper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

}  // namespace

Status DdlParser::ParseStatement(Statement* out) {
  const Token& first = Peek();
  out->position = first.position;
  statement_position_ = first.position;
  consumed_end_ = first.position.offset;
  CELLFS_RETURN_IF_ERROR(ParseBody(&out->body));
  const Token& end = Peek();
  if (!end.IsPunct(';') && end.kind != TokenKind::kEnd) return Expected("';'");
  // The text ends with the last token, so comments before the ';' stay out.
  const size_t start = statement_position_.offset;
  out->text = std::string(lexer_.input().substr(start, consumed_end_ - start));
  if (auto* routine = std::get_if<CreateRoutine>(&out->body)) routine->text = out->text;
  if (end.IsPunct(';')) Take();
  return Status::Ok();
}

Status DdlParser::ParseBody(StatementBody* body) {
  if (TakeKeyword("create")) return ParseCreate(body);
  if (TakeKeyword("drop")) return ParseDrop(body);
  if (TakeKeyword("alter")) return ParseAlter(body);
  if (TakeKeyword("describe") || TakeKeyword("desc")) return ParseDescribe(body);
  if (TakeKeyword("truncate")) return ParseTruncate(body);
  if (TakeKeyword("use")) {
    UseKeyspace use;
    CELLFS_RETURN_IF_ERROR(ParseName("keyspace name", &use.name));
    *body = std::move(use);
    return Status::Ok();
  }
  if (PeekDataStatement()) return ParseDataStatement(body);
  if (TakeKeyword("select")) {
    SelectStatement select;
    CELLFS_RETURN_IF_ERROR(ParseSelect(&select));
    *body = std::move(select);
    return Status::Ok();
  }
  return NotDdl(Peek());
}

// GRANT, LIST ROLES...: valid CQL, but not a schema or data statement
// cellfs takes.
Status DdlParser::NotDdl(const Token& first) {
  if (first.kind != TokenKind::kIdentifier) return Expected("a statement");
  return Status::NotSupported(first.position.ToString() + ": unsupported statement " +
                              Upper(first.text) + ": cellfs has no roles or permissions");
}

Status DdlParser::ParseCreate(StatementBody* body) {
  if (TakeKeyword("keyspace") || TakeKeyword("schema")) return ParseCreateKeyspace(body);
  if (TakeKeyword("table") || TakeKeyword("columnfamily")) return ParseCreateTable(body);
  if (TakeKeyword("type")) return ParseCreateType(body);
  if (TakeKeyword("or")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("replace"));
    if (!PeekKeyword("function") && !PeekKeyword("aggregate")) {
      return Expected("FUNCTION or AGGREGATE");
    }
    return ParseCreateRoutine(true, body);
  }
  if (PeekKeyword("function") || PeekKeyword("aggregate")) return ParseCreateRoutine(false, body);
  if (TakeKeyword("index")) return ParseCreateIndex(false, body);
  if (TakeKeyword("custom")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("index"));
    return ParseCreateIndex(true, body);
  }
  if (TakeKeyword("materialized")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("view"));
    return ParseCreateView(body);
  }
  if (TakeKeyword("trigger")) return ParseUnsupported("CREATE TRIGGER", body);
  if (PeekKeyword("role") || PeekKeyword("user")) {
    return Status::NotSupported(statement_position_.ToString() + ": unsupported statement CREATE " +
                                Upper(Peek().text) + ": cellfs has no roles or permissions");
  }
  return Expected("KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, FUNCTION or AGGREGATE");
}

Status DdlParser::ParseDrop(StatementBody* body) {
  if (TakeKeyword("keyspace") || TakeKeyword("schema")) {
    DropKeyspace drop;
    CELLFS_RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
    CELLFS_RETURN_IF_ERROR(ParseName("keyspace name", &drop.name));
    *body = std::move(drop);
    return Status::Ok();
  }
  if (TakeKeyword("table") || TakeKeyword("columnfamily")) {
    DropTable drop;
    CELLFS_RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
    CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &drop.table));
    *body = std::move(drop);
    return Status::Ok();
  }
  if (TakeKeyword("type")) {
    DropType drop;
    CELLFS_RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
    CELLFS_RETURN_IF_ERROR(ParseQualifiedName("type name", &drop.type));
    *body = std::move(drop);
    return Status::Ok();
  }
  if (TakeKeyword("index")) return ParseDropIndex(body);
  if (TakeKeyword("materialized")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("view"));
    return ParseDropView(body);
  }
  if (TakeKeyword("function")) return ParseDropRoutine(CreateRoutine::Kind::kFunction, body);
  if (TakeKeyword("aggregate")) return ParseDropRoutine(CreateRoutine::Kind::kAggregate, body);
  if (TakeKeyword("trigger")) return ParseUnsupported("DROP TRIGGER", body);
  return Expected("KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, FUNCTION or AGGREGATE");
}

Status DdlParser::ParseAlter(StatementBody* body) {
  if (TakeKeyword("keyspace") || TakeKeyword("schema")) return ParseAlterKeyspace(body);
  if (TakeKeyword("table") || TakeKeyword("columnfamily")) return ParseAlterTable(body);
  if (TakeKeyword("type")) return ParseUnsupported("ALTER TYPE", body);
  if (TakeKeyword("materialized")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("view"));
    return ParseAlterView(body);
  }
  return Expected("KEYSPACE, TABLE, TYPE or MATERIALIZED VIEW");
}

Status DdlParser::ParseCreateKeyspace(StatementBody* body) {
  CreateKeyspace create;
  CELLFS_RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  CELLFS_RETURN_IF_ERROR(ParseName("keyspace name", &create.name));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("with"));
  CELLFS_RETURN_IF_ERROR(ParseOptions(&create.options, nullptr));
  *body = std::move(create);
  return Status::Ok();
}

Status DdlParser::ParseAlterKeyspace(StatementBody* body) {
  AlterKeyspace alter;
  CELLFS_RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  CELLFS_RETURN_IF_ERROR(ParseName("keyspace name", &alter.name));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("with"));
  CELLFS_RETURN_IF_ERROR(ParseOptions(&alter.options, nullptr));
  *body = std::move(alter);
  return Status::Ok();
}

Status DdlParser::ParseCreateType(StatementBody* body) {
  CreateType create;
  CELLFS_RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("type name", &create.type));
  auto parse_field = [&]() -> Status {
    std::pair<std::string, TypeExpr> field;
    CELLFS_RETURN_IF_ERROR(ParseName("field name", &field.first));
    CELLFS_RETURN_IF_ERROR(ParseType(&field.second));
    create.fields.push_back(std::move(field));
    return Status::Ok();
  };
  CELLFS_RETURN_IF_ERROR(ParseParenthesisedList("field name", parse_field));
  *body = std::move(create);
  return Status::Ok();
}

// The header is parsed so the catalog can name the routine; the rest
// (arguments, language, body) is kept as text, never interpreted.
Status DdlParser::ParseCreateRoutine(bool or_replace, StatementBody* body) {
  CreateRoutine create;
  create.or_replace = or_replace;
  create.kind =
      PeekKeyword("aggregate") ? CreateRoutine::Kind::kAggregate : CreateRoutine::Kind::kFunction;
  Take();  // FUNCTION or AGGREGATE, as the caller checked
  CELLFS_RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName(
      create.kind == CreateRoutine::Kind::kFunction ? "function name" : "aggregate name",
      &create.routine));
  if (!Peek().IsPunct('(')) return Expected("'('");
  CELLFS_RETURN_IF_ERROR(
      ParseRoutineArguments(create.kind == CreateRoutine::Kind::kFunction, &create.arguments));
  CELLFS_RETURN_IF_ERROR(SkipToStatementEnd());
  *body = std::move(create);  // ParseStatement fills in the text
  return Status::Ok();
}

Status DdlParser::ParseUnsupported(std::string what, StatementBody* body) {
  CELLFS_RETURN_IF_ERROR(SkipToStatementEnd());
  *body = UnsupportedStatement{std::move(what)};
  return Status::Ok();
}

}  // namespace cellfs
