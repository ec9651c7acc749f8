// CqlParser: reads a script of CQL statements (DDL, the data statements
// INSERT, UPDATE, DELETE and BATCH, and SELECT) one at a time, so a caller
// can apply each as it completes (the @cql control file, `cellfs cql`).
#pragma once

#include <string_view>

#include "engine/cql/cql_statement.h"
#include "engine/cql/internal/cql_lexer.h"
#include "engine/status.h"

namespace cellfs {

// Parses statements from `input` in order. Statements are separated by ';'
// (the last one may omit it); empty statements are skipped. Keywords are
// case-insensitive; comments (--, //, /* */) are white space.
//
// Not thread-safe. `input` must outlive the parser.
class CqlParser {
 public:
  explicit CqlParser(std::string_view input) : lexer_(input) {}

  // Parses the next statement into `*statement`. Returns Ok with
  // `*done` = true (and `*statement` untouched) at the end of input.
  // On a syntax error returns InvalidArgument whose message starts with the
  // position ("line 3:14: expected ')', found ';'"), or the lexer's message
  // for a lexical error ("line 3:14: unterminated string literal"). Besides
  // DDL it reads DESCRIBE, TRUNCATE, the data statements (INSERT, UPDATE,
  // DELETE, BATCH) and SELECT. Valid CQL that cellfs does not take (CREATE
  // ROLE..., conditional data statements, IN relations in
  // them, GROUP BY) and custom types
  // given as class-name strings return NotSupported, also with the
  // position. On any error the parser then skips to just past the next ';'
  // (in a BATCH, past APPLY BATCH and the ';' after it) so later statements
  // can still be read, and `*statement` is left untouched.
  // DDL that cellfs recognises but does not implement (CREATE INDEX, ...)
  // is not an error here: it comes back as an UnsupportedStatement.
  Status Next(Statement* statement, bool* done);

  // The length of the longest prefix of `input` made of whole statements,
  // each ended by a ';' outside strings, quoted identifiers, comments and
  // BEGIN ... APPLY BATCH (whose inner statements may end with ';').
  // A streaming caller (the @cql file receives a script in write() chunks)
  // parses that prefix now and keeps the rest for the next chunk.
  static size_t CompleteStatementsLength(std::string_view input);

 private:
  CqlLexer lexer_;
};

}  // namespace cellfs
