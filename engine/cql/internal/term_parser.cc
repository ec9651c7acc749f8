// ParseTerm: one CQL term of a known type, by recursive descent driven by
// the type, so nesting is bounded by the type's depth whatever the input.
#include "engine/cql/internal/term_parser.h"

#include <cctype>
#include <optional>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/internal/native_literal.h"

namespace cellfs {
namespace {

std::string Describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kString:
      return "string " + QuoteForMessage(token.text);
    case TokenKind::kError:
      return token.text;
    case TokenKind::kQuotedIdentifier:
      return "quoted identifier " + QuoteForMessage(token.text);
    default:
      return QuoteForMessage(token.text);
  }
}

Status ErrorAt(const SourcePosition& position, const std::string& message) {
  return Status::InvalidArgument(position.ToString() + ": " + message);
}

Status Unexpected(const Token& token, const std::string& expected) {
  return ErrorAt(token.position, "expected " + expected + ", got " + Describe(token));
}

std::string NativeName(TypeKind kind) { return std::string(NativeTypeName(kind)); }

// --- native terms ---

// Which token kinds spell a value of each native kind. Strings are what CQL
// quotes (text, inet, dates and times), plus uuids and durations, whose text
// form Cassandra also takes from a string.
bool AcceptsString(TypeKind kind) {
  switch (kind) {
    case TypeKind::kText:
    case TypeKind::kAscii:
    case TypeKind::kInet:
    case TypeKind::kTimestamp:
    case TypeKind::kDate:
    case TypeKind::kTime:
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
    case TypeKind::kDuration:
      return true;
    default:
      return false;
  }
}

bool AcceptsFloat(TypeKind kind) {
  return kind == TypeKind::kFloat || kind == TypeKind::kDouble || kind == TypeKind::kDecimal;
}

bool AcceptsInteger(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kVarint:
    case TypeKind::kTimestamp:
    case TypeKind::kDate:
    case TypeKind::kTime:
      return true;
    default:
      return AcceptsFloat(kind);
  }
}

bool AcceptsToken(TypeKind kind, const Token& token) {
  switch (token.kind) {
    case TokenKind::kString:
      return AcceptsString(kind);
    case TokenKind::kInteger:
      return AcceptsInteger(kind);
    case TokenKind::kFloat:
      return AcceptsFloat(kind);
    case TokenKind::kHexBlob:
      return kind == TypeKind::kBlob;
    case TokenKind::kUuid:
      return kind == TypeKind::kUuid || kind == TypeKind::kTimeuuid;
    case TokenKind::kDuration:
      return kind == TypeKind::kDuration;
    default:
      return false;
  }
}

// An ISO 8601 duration without quotes (P1DT2H, -P2W, P0001-02-03T04:05:06)
// lexes as several tokens (p0001, -02, -03t04, :, ...). Take the raw source
// run from `first` and consume the tokens inside it.
Status ParseIsoDuration(const Token& first, CqlLexer& lexer, std::string* out) {
  const std::string_view input = lexer.input();
  const size_t start = first.position.offset;
  size_t end = start + 1;
  while (end < input.size() && (std::isalnum(static_cast<unsigned char>(input[end])) ||
                                input[end] == ':' || input[end] == '-')) {
    ++end;
  }
  while (lexer.Peek().kind != TokenKind::kEnd && lexer.Peek().position.offset < end) {
    const Token inner = lexer.Next();
    if (inner.kind == TokenKind::kError) return ErrorAt(inner.position, inner.text);
  }
  if (lexer.position().offset != end) return Unexpected(lexer.Peek(), "a duration");
  Status status = ParseNativeLiteral(TypeKind::kDuration, input.substr(start, end - start), out);
  return status.ok() ? status : status.WithContext(first.position.ToString());
}

// blobasint(0x0000002a): the conversion call CQL offers for every native
// type; the only spelling of the empty value of most of them.
Status ParseConversionCall(TypeKind kind, const Token& name, CqlLexer& lexer, std::string* out) {
  const std::string_view target = std::string_view(name.text).substr(6);  // after "blobas"
  if (target != NativeTypeName(kind) && !(kind == TypeKind::kText && target == "varchar")) {
    return ErrorAt(name.position, "function " + name.text + " does not return " + NativeName(kind));
  }
  const Token open = lexer.Next();
  if (!open.IsPunct('(')) return Unexpected(open, "'(' after " + name.text);
  const Token argument = lexer.Next();
  if (argument.kind != TokenKind::kHexBlob) return Unexpected(argument, "a blob literal");
  std::string bytes;
  Status status = ParseNativeLiteral(TypeKind::kBlob, argument.text, &bytes);
  if (status.ok()) status = ValidateNativeValue(kind, bytes);
  if (!status.ok()) return status.WithContext(argument.position.ToString());
  const Token close = lexer.Next();
  if (!close.IsPunct(')')) return Unexpected(close, "')' closing " + name.text);
  *out = std::move(bytes);
  return Status::Ok();
}

// Unquoted words: true, false, NaN, Infinity, ISO durations, blobasT(...).
Status ParseNativeWord(TypeKind kind, const Token& word, CqlLexer& lexer, std::string* out) {
  const std::string& w = word.text;  // lower-cased by the lexer
  const bool ok_word =
      (kind == TypeKind::kBoolean && (w == "true" || w == "false")) ||
      ((kind == TypeKind::kFloat || kind == TypeKind::kDouble) && (w == "nan" || w == "infinity"));
  if (ok_word) return ParseNativeLiteral(kind, w, out);
  if (w.rfind("blobas", 0) == 0) return ParseConversionCall(kind, word, lexer, out);
  if (kind == TypeKind::kDuration && w[0] == 'p') return ParseIsoDuration(word, lexer, out);
  return Unexpected(word, "a value of type " + NativeName(kind));
}

// A leading '-' outside a number token: -Infinity, -NaN, -P1D.
Status ParseNegatedWord(TypeKind kind, const Token& minus, CqlLexer& lexer, std::string* out) {
  const Token& next = lexer.Peek();
  if (kind == TypeKind::kDuration && next.kind == TokenKind::kIdentifier && next.text[0] == 'p' &&
      next.position.offset == minus.position.offset + 1) {
    return ParseIsoDuration(minus, lexer, out);
  }
  if ((kind == TypeKind::kFloat || kind == TypeKind::kDouble) &&
      (next.IsKeyword("infinity") || next.IsKeyword("nan"))) {
    const Token word = lexer.Next();
    Status status = ParseNativeLiteral(kind, "-" + word.text, out);
    return status.ok() ? status : status.WithContext(minus.position.ToString());
  }
  return Unexpected(minus, "a value of type " + NativeName(kind));
}

Status ParseNativeTerm(TypeKind kind, CqlLexer& lexer, std::string* out) {
  const Token token = lexer.Next();
  if (token.kind == TokenKind::kIdentifier) return ParseNativeWord(kind, token, lexer, out);
  if (token.IsPunct('-')) return ParseNegatedWord(kind, token, lexer, out);
  if (!AcceptsToken(kind, token)) return Unexpected(token, "a value of type " + NativeName(kind));
  Status status = ParseNativeLiteral(kind, token.text, out);
  return status.ok() ? status : status.WithContext(token.position.ToString());
}

// --- collections, tuples, UDTs ---

// Parses `item (',' item)*` up to `close`, the opening bracket consumed; a
// `close` straight away is an empty sequence.
template <typename ParseItem>
Status ParseDelimited(CqlLexer& lexer, char close, const CqlType& type, ParseItem parse_item) {
  if (lexer.Peek().IsPunct(close)) {
    lexer.Next();
    return Status::Ok();
  }
  const std::string expected = std::string("',' or '") + close + "'";
  while (true) {
    CELLFS_RETURN_IF_ERROR(parse_item());
    const Token next = lexer.Next();
    if (next.IsPunct(close)) return Status::Ok();
    if (next.kind == TokenKind::kEnd) {
      return ErrorAt(next.position,
                     "unterminated " + type.ToCql() + " literal: expected " + expected);
    }
    if (!next.IsPunct(',')) return Unexpected(next, expected + " in " + type.ToCql() + " literal");
  }
}

Status ExpectOpen(CqlLexer& lexer, char open, const CqlType& type) {
  const Token token = lexer.Next();
  if (token.IsPunct(open)) return Status::Ok();
  return Unexpected(token, std::string("'") + open + "' opening a " + type.ToCql() + " literal");
}

Status ExpectColon(CqlLexer& lexer) {
  const Token token = lexer.Next();
  return token.IsPunct(':') ? Status::Ok() : Unexpected(token, "':'");
}

// A collection element: any term but null.
Status ParseElement(const CqlType& type, CqlLexer& lexer, std::string* out) {
  const SourcePosition where = lexer.Peek().position;
  bool is_null = false;
  CELLFS_RETURN_IF_ERROR(ParseTerm(type, lexer, out, &is_null));
  if (is_null) return ErrorAt(where, "null is not supported inside collections");
  return Status::Ok();
}

Status ParseList(const CqlType& type, CqlLexer& lexer, std::string* out) {
  CELLFS_RETURN_IF_ERROR(ExpectOpen(lexer, '[', type));
  std::vector<std::string> items;
  CELLFS_RETURN_IF_ERROR(ParseDelimited(lexer, ']', type, [&] {
    items.emplace_back();
    return ParseElement(*type.params()[0], lexer, &items.back());
  }));
  *out = PackCollection(items, 1);
  return Status::Ok();
}

Status ParseSet(const CqlType& type, CqlLexer& lexer, std::string* out) {
  CELLFS_RETURN_IF_ERROR(ExpectOpen(lexer, '{', type));
  std::vector<std::string> items;
  CELLFS_RETURN_IF_ERROR(ParseDelimited(lexer, '}', type, [&] {
    items.emplace_back();
    return ParseElement(*type.params()[0], lexer, &items.back());
  }));
  CanonicalizeSet(*type.params()[0], &items);
  *out = PackCollection(items, 1);
  return Status::Ok();
}

Status ParseMap(const CqlType& type, CqlLexer& lexer, std::string* out) {
  CELLFS_RETURN_IF_ERROR(ExpectOpen(lexer, '{', type));
  std::vector<std::string> items;
  CELLFS_RETURN_IF_ERROR(ParseDelimited(lexer, '}', type, [&] {
    items.emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseElement(*type.params()[0], lexer, &items.back()));
    CELLFS_RETURN_IF_ERROR(ExpectColon(lexer));
    items.emplace_back();
    return ParseElement(*type.params()[1], lexer, &items.back());
  }));
  CanonicalizeMap(*type.params()[0], &items);
  *out = PackCollection(items, 2);
  return Status::Ok();
}

// A tuple component or UDT field: any term, null included.
Status ParseComponent(const CqlType& type, CqlLexer& lexer, std::optional<std::string>* out) {
  std::string value;
  bool is_null = false;
  CELLFS_RETURN_IF_ERROR(ParseTerm(type, lexer, &value, &is_null));
  if (is_null) {
    out->reset();
  } else {
    *out = std::move(value);
  }
  return Status::Ok();
}

// (a, b, ...): fewer components than the type is fine, and stays fewer.
Status ParseTuple(const CqlType& type, CqlLexer& lexer, std::string* out) {
  CELLFS_RETURN_IF_ERROR(ExpectOpen(lexer, '(', type));
  const auto& params = type.params();
  std::vector<std::optional<std::string>> components;
  CELLFS_RETURN_IF_ERROR(ParseDelimited(lexer, ')', type, [&] {
    if (components.size() == params.size()) {
      return ErrorAt(lexer.Peek().position, "too many components for " + type.ToCql() +
                                                " (at most " + std::to_string(params.size()) + ")");
    }
    components.emplace_back();
    return ParseComponent(*params[components.size() - 1], lexer, &components.back());
  }));
  *out = PackComponents(components);
  return Status::Ok();
}

// The index of the field `name` names, or an error.
Status FindField(const CqlType& type, const Token& name, size_t* index) {
  if (name.kind != TokenKind::kIdentifier && name.kind != TokenKind::kQuotedIdentifier) {
    return Unexpected(name, "a field name of " + type.ToCql());
  }
  const auto& names = type.field_names();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name.text) {
      *index = i;
      return Status::Ok();
    }
  }
  return ErrorAt(name.position,
                 "unknown field " + QuoteForMessage(name.text) + " in type " + type.ToCql());
}

// {field: value, ...} in any order. The value holds every field of the
// type, those not named being null, as Cassandra serializes a UDT literal;
// so one value has one spelling. "{}" is the empty (0-byte) value.
Status ParseUdt(const CqlType& type, CqlLexer& lexer, std::string* out) {
  CELLFS_RETURN_IF_ERROR(ExpectOpen(lexer, '{', type));
  std::vector<std::optional<std::string>> fields(type.params().size());
  std::vector<bool> seen(fields.size(), false);
  size_t count = 0;
  CELLFS_RETURN_IF_ERROR(ParseDelimited(lexer, '}', type, [&] {
    const Token name = lexer.Next();
    size_t index = 0;
    CELLFS_RETURN_IF_ERROR(FindField(type, name, &index));
    if (seen[index]) {
      return ErrorAt(name.position, "duplicate field " + QuoteForMessage(name.text) + " in " +
                                        type.ToCql() + " literal");
    }
    seen[index] = true;
    ++count;
    CELLFS_RETURN_IF_ERROR(ExpectColon(lexer));
    return ParseComponent(*type.params()[index], lexer, &fields[index]);
  }));
  if (count == 0) fields.clear();
  *out = PackComponents(fields);
  return Status::Ok();
}

}  // namespace

Status ParseTerm(const CqlType& type, CqlLexer& lexer, std::string* out, bool* is_null) {
  if (is_null != nullptr) *is_null = false;
  const Token& next = lexer.Peek();
  if (next.kind == TokenKind::kError) return ErrorAt(next.position, next.text);
  if (next.IsKeyword("null")) {
    const Token token = lexer.Next();
    if (is_null == nullptr) {
      return ErrorAt(token.position, "null is not a value of " + type.ToCql() + " here");
    }
    *is_null = true;
    out->clear();
    return Status::Ok();
  }
  switch (type.kind()) {
    case TypeKind::kList:
      return ParseList(type, lexer, out);
    case TypeKind::kSet:
      return ParseSet(type, lexer, out);
    case TypeKind::kMap:
      return ParseMap(type, lexer, out);
    case TypeKind::kTuple:
      return ParseTuple(type, lexer, out);
    case TypeKind::kUdt:
      return ParseUdt(type, lexer, out);
    default:
      return ParseNativeTerm(type.kind(), lexer, out);
  }
}

}  // namespace cellfs
