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
  // always a real terminator. An unterminated one runs to the end of the
  // input, where its rest may arrive with the next chunk.
  for (Token token = lexer.Next(); token.kind != TokenKind::kEnd; token = lexer.Next()) {
    if (token.IsPunct(';')) complete = token.position.offset + 1;
  }
  return complete;
}

}  // namespace cellfs
