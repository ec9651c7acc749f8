// DdlParser's token layer: consuming tokens, names, IF [NOT] EXISTS, and the
// "line L:C: expected X, found Y" error messages.
#include <string>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {
namespace {

// Long literals are cut in messages so one bad token cannot flood a log.
constexpr size_t kMaxShownChars = 40;

std::string Shorten(const std::string& text) {
  if (text.size() <= kMaxShownChars) return text;
  return text.substr(0, kMaxShownChars) + "...";
}

// How a message names a token: quoted the way it was written.
std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kIdentifier:
      if (IsReservedKeyword(token.text)) return "reserved keyword '" + token.text + "'";
      return "'" + Shorten(token.text) + "'";
    case TokenKind::kQuotedIdentifier: {
      std::string quoted = "\"";
      for (char c : Shorten(token.text)) quoted += c == '"' ? std::string(2, c) : std::string(1, c);
      return quoted + "\"";
    }
    case TokenKind::kString:
      return "string '" + Shorten(token.text) + "'";
    case TokenKind::kError:
      return token.text;
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kHexBlob:
    case TokenKind::kUuid:
    case TokenKind::kDuration:
    case TokenKind::kPunct:
      break;
  }
  return "'" + Shorten(token.text) + "'";
}

}  // namespace

Token DdlParser::Take() {
  Token token = lexer_.Next();
  consumed_end_ = lexer_.position().offset;
  return token;
}

bool DdlParser::TakeKeyword(std::string_view keyword) {
  if (!PeekKeyword(keyword)) return false;
  Take();
  return true;
}

bool DdlParser::TakePunct(char c) {
  if (!Peek().IsPunct(c)) return false;
  Take();
  return true;
}

Status DdlParser::ErrorAt(const SourcePosition& position, std::string_view message) const {
  return Status::InvalidArgument(position.ToString() + ": " + std::string(message));
}

Status DdlParser::Expected(std::string_view what) {
  const Token& token = Peek();
  // A lexical error (unterminated string, stray byte) is the real problem;
  // "expected X" would only hide it.
  if (token.kind == TokenKind::kError) return ErrorAt(token.position, token.text);
  return ErrorAt(token.position,
                 "expected " + std::string(what) + ", found " + DescribeToken(token));
}

Status DdlParser::ExpectKeyword(std::string_view keyword) {
  if (TakeKeyword(keyword)) return Status::Ok();
  std::string upper(keyword);
  for (char& c : upper) c = static_cast<char>(c - 'a' + 'A');
  return Expected(upper);
}

Status DdlParser::ExpectPunct(char c) {
  if (TakePunct(c)) return Status::Ok();
  return Expected(std::string("'") + c + "'");
}

Status DdlParser::ParseName(std::string_view what, std::string* out) {
  const Token& token = Peek();
  const bool usable = token.kind == TokenKind::kQuotedIdentifier ||
                      (token.kind == TokenKind::kIdentifier && !IsReservedKeyword(token.text));
  if (!usable) return Expected(what);
  *out = Take().text;
  return Status::Ok();
}

Status DdlParser::ParseQualifiedName(std::string_view what, QualifiedName* out) {
  out->position = Peek().position;
  std::string first;
  CELLFS_RETURN_IF_ERROR(ParseName(what, &first));
  if (TakePunct('.')) {
    out->keyspace = std::move(first);
    return ParseName(what, &out->name);
  }
  out->keyspace.clear();
  out->name = std::move(first);
  return Status::Ok();
}

Status DdlParser::ParseIfExists(bool* if_exists) {
  *if_exists = false;
  if (!TakeKeyword("if")) return Status::Ok();
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("exists"));
  *if_exists = true;
  return Status::Ok();
}

Status DdlParser::ParseIfNotExists(bool* if_not_exists) {
  *if_not_exists = false;
  if (!TakeKeyword("if")) return Status::Ok();
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("not"));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("exists"));
  *if_not_exists = true;
  return Status::Ok();
}

Status DdlParser::SkipToStatementEnd() {
  while (true) {
    const Token& token = Peek();
    if (token.kind == TokenKind::kEnd || token.IsPunct(';')) return Status::Ok();
    if (token.kind == TokenKind::kError) return ErrorAt(token.position, token.text);
    Take();
  }
}

void DdlParser::SkipPastSemicolon() {
  if (in_batch_) {  // a BATCH ends at APPLY BATCH, past the ';' inside it
    in_batch_ = false;
    while (true) {
      const Token token = Take();
      if (token.kind == TokenKind::kEnd) return;
      if (token.IsKeyword("apply") && PeekKeyword("batch")) {
        Take();
        break;
      }
    }
  }
  while (true) {
    Token token = Take();
    if (token.kind == TokenKind::kEnd || token.IsPunct(';')) return;
  }
}

}  // namespace cellfs
