// DdlParser's statements that are not table or type definitions: DESCRIBE,
// TRUNCATE, DROP FUNCTION / AGGREGATE, and the argument lists of routines.
#include <string>

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {

// DESCRIBE | DESC, then what cqlsh accepts (docs/CQL.md "DESCRIBE"). The
// plural words are not reserved, so a keyspace or table named `tables` is
// written quoted, as in cqlsh.
Status DdlParser::ParseDescribe(StatementBody* body) {
  using Kind = DescribeStatement::Kind;
  DescribeStatement describe;
  struct Word {
    std::string_view keyword;
    Kind kind;
    bool named;  // takes a name (optional for KEYSPACE)
  };
  static constexpr Word kWords[] = {
      {"keyspaces", Kind::kKeyspaces, false},
      {"keyspace", Kind::kKeyspace, true},
      {"tables", Kind::kTables, false},
      {"columnfamilies", Kind::kTables, false},
      {"table", Kind::kTable, true},
      {"columnfamily", Kind::kTable, true},
      {"types", Kind::kTypes, false},
      {"type", Kind::kType, true},
      {"functions", Kind::kFunctions, false},
      {"function", Kind::kFunction, true},
      {"aggregates", Kind::kAggregates, false},
      {"aggregate", Kind::kAggregate, true},
      {"schema", Kind::kSchema, false},
  };
  if (TakeKeyword("full")) {
    if (!PeekKeyword("schema")) return Expected("SCHEMA");
    describe.full = true;
  }
  for (const Word& word : kWords) {
    if (!TakeKeyword(word.keyword)) continue;
    describe.kind = word.kind;
    if (word.named && !(word.kind == Kind::kKeyspace &&
                        (Peek().IsPunct(';') || Peek().kind == TokenKind::kEnd))) {
      describe.has_name = true;
      if (word.kind == Kind::kKeyspace) {
        describe.name.position = Peek().position;
        CELLFS_RETURN_IF_ERROR(ParseName("keyspace name", &describe.name.name));
      } else {
        CELLFS_RETURN_IF_ERROR(ParseQualifiedName("a name", &describe.name));
      }
    }
    *body = std::move(describe);
    return Status::Ok();
  }
  if (TakeKeyword("materialized")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("view"));
    describe.kind = Kind::kView;
    describe.has_name = true;
    CELLFS_RETURN_IF_ERROR(ParseQualifiedName("a name", &describe.name));
    *body = std::move(describe);
    return Status::Ok();
  }
  if (PeekKeyword("cluster") || PeekKeyword("index")) {
    std::string what = Peek().text;
    for (char& c : what) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return Status::NotSupported(Peek().position.ToString() + ": DESCRIBE " + what +
                                " is not supported by cellfs");
  }
  describe.kind = Kind::kName;
  describe.has_name = true;
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("a keyspace or table name", &describe.name));
  *body = std::move(describe);
  return Status::Ok();
}

Status DdlParser::ParseTruncate(StatementBody* body) {
  TruncateTable truncate;
  if (!TakeKeyword("table")) TakeKeyword("columnfamily");
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &truncate.table));
  *body = std::move(truncate);
  return Status::Ok();
}

Status DdlParser::ParseDropRoutine(CreateRoutine::Kind kind, StatementBody* body) {
  DropRoutine drop;
  drop.kind = kind;
  CELLFS_RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName(
      kind == CreateRoutine::Kind::kFunction ? "function name" : "aggregate name", &drop.routine));
  if (Peek().IsPunct('(')) {
    drop.arguments_given = true;
    CELLFS_RETURN_IF_ERROR(ParseRoutineArguments(false, &drop.arguments));
  }
  *body = std::move(drop);
  return Status::Ok();
}

// '(' [ [name] type (',' [name] type)* ] ')': a function names its
// arguments, an aggregate and DROP list types only. Empty is allowed.
Status DdlParser::ParseRoutineArguments(bool named, std::vector<TypeExpr>* arguments) {
  CELLFS_RETURN_IF_ERROR(ExpectPunct('('));
  if (TakePunct(')')) return Status::Ok();
  while (true) {
    if (named) {
      std::string ignored;
      CELLFS_RETURN_IF_ERROR(ParseName("argument name", &ignored));
    }
    TypeExpr type;
    CELLFS_RETURN_IF_ERROR(ParseType(&type));
    arguments->push_back(std::move(type));
    if (TakePunct(',')) continue;
    return ExpectPunct(')');
  }
}

}  // namespace cellfs
