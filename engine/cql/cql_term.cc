// ParseValueTerm: a statement's value term typed for its column, through
// the term parser that collection literals and files use.
#include "engine/cql/cql_term.h"

#include "engine/cql/internal/cql_lexer.h"
#include "engine/cql/internal/term_parser.h"
#include "engine/cql/internal/time_functions.h"

namespace cellfs {
namespace {

// Cassandra's name for the kind of a constant token (Constants.Type), or
// empty for tokens that are no constant.
std::string_view ConstantKind(const Token& token) {
  switch (token.kind) {
    case TokenKind::kString:
      return "STRING";
    case TokenKind::kInteger:
      return "INTEGER";
    case TokenKind::kFloat:
      return "FLOAT";
    case TokenKind::kHexBlob:
      return "HEX";
    case TokenKind::kUuid:
      return "UUID";
    case TokenKind::kDuration:
      return "DURATION";
    case TokenKind::kIdentifier:
      if (token.text == "true" || token.text == "false") return "BOOLEAN";
      if (token.text == "nan" || token.text == "infinity") return "FLOAT";
      return {};
    default:
      return {};
  }
}

Status WithPosition(const SourcePosition& position, const Status& status) {
  if (status.ok()) return status;
  const std::string& message = status.message();
  if (message.starts_with("line ")) return status;
  return Status::InvalidArgument(position.ToString() + ": " + message);
}

}  // namespace

Status ParseValueTerm(const CqlType& type, const CqlTerm& term, std::string_view receiver,
                      std::string* out, bool* is_null) {
  *is_null = false;
  if (term.is_null()) {
    *is_null = true;
    out->clear();
    return Status::Ok();
  }
  CqlLexer lexer(term.text, term.position.line, term.position.column);
  const Token first = lexer.Peek();
  // now(), currentTimestamp(), minTimeuuid(...): evaluated for native
  // types; blobAsT(...) is the term parser's own.
  if (type.is_native() && first.kind == TokenKind::kIdentifier &&
      !first.text.starts_with("blobas") && LooksLikeTimeFunction(term.text)) {
    return WithPosition(term.position, ParseTimeFunction(type.kind(), term.text, out));
  }
  Status status = ParseTerm(type, lexer, out);
  if (status.ok() && lexer.Peek().kind != TokenKind::kEnd) {
    status = Status::InvalidArgument(lexer.Peek().position.ToString() + ": unexpected '" +
                                     lexer.Peek().text + "' after the value");
  }
  if (status.ok()) return status;
  // A lone constant of a kind the type cannot take: Cassandra's words.
  const std::string_view kind = ConstantKind(first);
  CqlLexer whole(term.text);
  whole.Next();
  const bool lone = whole.Peek().kind == TokenKind::kEnd;
  if (!kind.empty() && lone &&
      status.message().starts_with(first.position.ToString() + ": expected ")) {
    return Status::InvalidArgument(first.position.ToString() + ": Invalid " + std::string(kind) +
                                   " constant (" + first.text + ") for \"" + std::string(receiver) +
                                   "\" of type " + type.ToCql());
  }
  return WithPosition(term.position, status);
}

}  // namespace cellfs
