// CqlParser: statement-at-a-time driver over DdlParser (the grammar, in
// engine/cql/internal/ddl_parser_*.cc), with error recovery at ';'.
#include "engine/cql/cql_parser.h"

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {

Status CqlParser::Next(Statement* statement, bool* done) {
  *done = false;
  while (lexer_.Peek().IsPunct(';')) lexer_.Next();  // empty statements
  if (lexer_.Peek().kind == TokenKind::kEnd) {
    *done = true;
    return Status::Ok();
  }
  DdlParser parser(lexer_);
  Statement parsed;
  Status status = parser.ParseStatement(&parsed);
  if (!status.ok()) {
    parser.SkipPastSemicolon();
    return status;
  }
  *statement = std::move(parsed);
  return Status::Ok();
}

size_t CqlParser::CompleteStatementsLength(std::string_view input) {
  CqlLexer lexer(input);
  size_t complete = 0;
  // Strings, quoted names and comments are single tokens, so a ';' token is
  // always a real terminator, except inside BEGIN ... APPLY BATCH, whose
  // statements may end with ';' too. An unterminated one runs to the end of
  // the input, where its rest may arrive with the next chunk.
  bool at_start = true;      // the next token starts a statement
  bool in_batch = false;     // inside BEGIN ... before APPLY BATCH
  bool after_apply = false;  // the last token was APPLY, in a batch
  for (Token token = lexer.Next(); token.kind != TokenKind::kEnd; token = lexer.Next()) {
    if (at_start && token.IsKeyword("begin")) in_batch = true;
    at_start = false;
    if (in_batch) {
      if (after_apply && token.IsKeyword("batch")) in_batch = false;
      after_apply = token.IsKeyword("apply");
      continue;
    }
    if (token.IsPunct(';')) {
      complete = token.position.offset + 1;
      at_start = true;
    }
  }
  return complete;
}

}  // namespace cellfs
