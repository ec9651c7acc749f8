// DdlParser: the recursive-descent grammar behind CqlParser, one statement
// at a time over a shared CqlLexer. Internal to engine/; split across the
// ddl_parser_*.cc files by grammar area.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_statement.h"
#include "engine/cql/internal/cql_lexer.h"
#include "engine/status.h"

namespace cellfs {

// Parses one statement from the lexer's current token. Every check looks at
// the next token before consuming it, so on an error the offending token is
// still unread and SkipPastSemicolon() resumes at the right place (an error
// found at a ';' does not swallow the following statement).
//
// Errors: InvalidArgument "line L:C: expected <what>, found <token>" for
// syntax, NotSupported for valid CQL that is not DDL or that cellfs rejects
// outright (custom types). Not thread-safe.
class DdlParser {
 public:
  explicit DdlParser(CqlLexer& lexer) : lexer_(lexer) {}

  // REQUIRES: the next token is neither ';' nor the end of input.
  // Parses a statement and its terminating ';' (or the end of input).
  Status ParseStatement(Statement* out);

  // Consumes tokens up to and including the next ';' (or to the end).
  void SkipPastSemicolon();

 private:
  // --- Tokens and errors (ddl_parser_tokens.cc) ---
  const Token& Peek() { return lexer_.Peek(); }
  Token Take();
  bool PeekKeyword(std::string_view keyword) { return Peek().IsKeyword(keyword); }
  bool TakeKeyword(std::string_view keyword);
  bool TakePunct(char c);
  // An error at the next token: "line L:C: expected <what>, found <token>",
  // or the lexer's own message when that token is a lexical error.
  Status Expected(std::string_view what);
  Status ErrorAt(const SourcePosition& position, std::string_view message) const;
  Status ExpectKeyword(std::string_view keyword);
  Status ExpectPunct(char c);
  // A name: an unquoted non-reserved identifier or a "quoted" one.
  Status ParseName(std::string_view what, std::string* out);
  Status ParseQualifiedName(std::string_view what, QualifiedName* out);
  Status ParseIfExists(bool* if_exists);
  Status ParseIfNotExists(bool* if_not_exists);
  // Consumes tokens up to (not including) the ';' or end that closes the
  // statement, failing on a lexical error on the way.
  Status SkipToStatementEnd();
  // '(' item (',' item)* [','] ')', calling parse_item for each item.
  template <typename ParseItem>
  Status ParseParenthesisedList(std::string_view item_what, ParseItem parse_item);

  // --- Statements (ddl_parser_statements.cc) ---
  Status ParseBody(StatementBody* body);
  Status ParseCreate(StatementBody* body);
  Status ParseDrop(StatementBody* body);
  Status ParseAlter(StatementBody* body);
  Status ParseCreateKeyspace(StatementBody* body);
  Status ParseAlterKeyspace(StatementBody* body);
  Status ParseCreateType(StatementBody* body);
  Status ParseCreateRoutine(bool or_replace, StatementBody* body);
  // Consumes the rest of a statement cellfs recognises but does not apply.
  Status ParseUnsupported(std::string what, StatementBody* body);
  Status NotDdl(const Token& first);

  // --- Data statements (dml_parser.cc, dml_parser_clauses.cc) ---
  bool PeekDataStatement();  // INSERT, UPDATE, DELETE or BEGIN (BATCH)
  Status ParseDataStatement(StatementBody* body);
  Status ParseInsert(InsertStatement* out);  // after INSERT
  Status ParseInsertJson(InsertStatement* out);
  Status ParseUpdate(UpdateStatement* out);  // after UPDATE
  Status ParseDelete(DeleteStatement* out);  // after DELETE
  Status ParseBatch(BatchStatement* out);    // after BEGIN
  Status ParseBatchEntry(BatchEntry* out);
  // USING TTL n / TIMESTAMP t joined by AND; `allow_ttl` false: TIMESTAMP only.
  Status ParseUsing(bool allow_ttl, UsingClause* out);
  Status ParseUsingInteger(std::string_view what, int64_t* out);
  Status ParseWhere(std::vector<Relation>* out, SourcePosition* where);
  Status ParseRelation(Relation* out);
  // The operator and term(s) of a relation, after its column.
  Status ParseRelationTail(Relation* out);
  Status ParseAssignment(Assignment* out);
  Status ParseColumnRef(ColumnRef* out);
  // IF EXISTS, or IF and conditions joined by AND (UPDATE, DELETE).
  Status ParseConditions(ConditionClause* out);
  Status ParseCondition(Condition* out);
  // One value term, kept as its source text (engine/cql/dml_statement.h).
  Status ParseTermText(CqlTerm* out);
  // A bracketed run ( ), [ ], { } from its opening token to its closing one.
  Status SkipBracketed();
  // --- SELECT (select_parser.cc) ---
  Status ParseSelect(SelectStatement* out);  // after SELECT
  Status ParseSelector(Selector* out);
  Status ParseSelectRelation(SelectRelation* out);
  // The operator and value(s) after a relation's column(s).
  Status ParseRelationOperator(SelectRelation* out);
  Status ParseLimit(CqlTerm* out);
  // --- DESCRIBE, TRUNCATE, DROP FUNCTION / AGGREGATE (ddl_parser_describe.cc) ---
  Status ParseDescribe(StatementBody* body);
  Status ParseTruncate(StatementBody* body);
  Status ParseDropRoutine(CreateRoutine::Kind kind, StatementBody* body);
  // A routine's argument list; `named`: each type follows an argument name.
  Status ParseRoutineArguments(bool named, std::vector<TypeExpr>* arguments);

  // --- Indexes (ddl_parser_index.cc) ---
  Status ParseCreateIndex(bool custom, StatementBody* body);  // after CREATE [CUSTOM] INDEX
  Status ParseDropIndex(StatementBody* body);                 // after DROP INDEX

  // --- Materialized views (ddl_parser_view.cc) ---
  Status ParseCreateView(StatementBody* body);  // after CREATE MATERIALIZED VIEW
  Status ParseViewSelection(CreateView* view);  // after SELECT
  Status ParseViewRelation(ViewRelation* out);
  Status ParseDropView(StatementBody* body);   // after DROP MATERIALIZED VIEW
  Status ParseAlterView(StatementBody* body);  // after ALTER MATERIALIZED VIEW

  // --- Tables (ddl_parser_table.cc) ---
  Status ParseCreateTable(StatementBody* body);
  Status ParseTableElement(CreateTable* table);
  Status ParsePrimaryKeyClause(CreateTable* table);
  Status ParsePartitionKey(CreateTable* table);
  Status ParseColumnDefinition(bool allow_primary_key, ColumnExpr* column);
  Status ParseAlterTable(StatementBody* body);
  Status ParseAlterAdd(AlterTable* alter);
  Status ParseAlterDrop(AlterTable* alter, bool* drops_compact_storage);
  Status ParseAlterRename(AlterTable* alter);

  // --- Types and options (ddl_parser_options.cc) ---
  Status ParseType(TypeExpr* out);
  Status ParseTypeParams(const Token& name, TypeExpr* out);
  Status ParseTypeParamList(const Token& name, TypeExpr* out);
  // `name = value` pairs joined by AND; with `table`, also CLUSTERING ORDER BY
  // and COMPACT STORAGE.
  Status ParseOptions(std::vector<TableOption>* options, CreateTable* table);
  Status ParseOption(std::vector<TableOption>* options);
  Status ParseClusteringOrder(CreateTable* table);
  Status ParseOptionValue(OptionValue* out);
  Status ParseOptionMap(OptionValue* out);
  // A constant inside an option map, as text.
  Status ParseMapConstant(std::string_view what, std::string* out);

  // Types are the one recursive rule; the cap keeps hostile input from
  // exhausting the stack.
  static constexpr int kMaxTypeDepth = 32;

  CqlLexer& lexer_;
  int type_depth_ = 0;
  bool in_batch_ = false;              // error recovery skips to past APPLY BATCH
  SourcePosition statement_position_;  // of the statement's first token
  size_t consumed_end_ = 0;            // offset just past the last consumed token
};

template <typename ParseItem>
Status DdlParser::ParseParenthesisedList(std::string_view item_what, ParseItem parse_item) {
  CELLFS_RETURN_IF_ERROR(ExpectPunct('('));
  if (Peek().IsPunct(')')) return Expected(item_what);  // an empty list
  while (true) {
    CELLFS_RETURN_IF_ERROR(parse_item());
    if (TakePunct(',')) {
      if (Peek().IsPunct(')')) break;  // a trailing comma, as Cassandra tolerates
      continue;
    }
    if (!Peek().IsPunct(')')) return Expected("',' or ')'");
    break;
  }
  Take();  // ')'
  return Status::Ok();
}

}  // namespace cellfs
