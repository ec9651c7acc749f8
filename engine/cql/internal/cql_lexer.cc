// CqlLexer: CQL tokens, comments and positions.
#include "engine/cql/internal/cql_lexer.h"

#include <cctype>

#include "engine/cql/internal/utf8.h"

namespace cellfs {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// A stray byte as an error message shows it: 'c' when printable, else 0xNN,
// so a message never carries control bytes or broken UTF-8.
std::string DescribeByte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return std::string("'") + c + "'";
  static constexpr char kDigits[] = "0123456789abcdef";
  return std::string("byte 0x") + kDigits[byte >> 4] + kDigits[byte & 0xf];
}

// CQL text is UTF-8: a string or quoted identifier that is not would be
// stored under a name that cannot be written back out faithfully.
void RefuseInvalidUtf8(Token* tok) {
  if (tok->kind != TokenKind::kString && tok->kind != TokenKind::kQuotedIdentifier) return;
  if (FindInvalidUtf8(tok->text) == std::string_view::npos) return;
  tok->text = tok->kind == TokenKind::kString ? "invalid UTF-8 in string literal"
                                              : "invalid UTF-8 in quoted identifier";
  tok->kind = TokenKind::kError;
}

}  // namespace

std::string SourcePosition::ToString() const {
  return "line " + std::to_string(line) + ":" + std::to_string(column);
}

void CqlLexer::Advance(size_t n) {
  for (size_t i = 0; i < n && pos_.offset < input_.size(); ++i) {
    if (input_[pos_.offset] == '\n') {
      ++pos_.line;
      pos_.column = 1;
    } else {
      ++pos_.column;
    }
    ++pos_.offset;
  }
}

void CqlLexer::SkipSpaceAndComments(Token* error) {
  while (pos_.offset < input_.size()) {
    char c = At(0);
    if (std::isspace(static_cast<unsigned char>(c))) {
      Advance(1);
    } else if ((c == '-' && At(1) == '-') || (c == '/' && At(1) == '/')) {
      while (pos_.offset < input_.size() && At(0) != '\n') Advance(1);
    } else if (c == '/' && At(1) == '*') {
      SourcePosition start = pos_;
      Advance(2);
      while (pos_.offset < input_.size() && !(At(0) == '*' && At(1) == '/')) Advance(1);
      if (pos_.offset >= input_.size()) {
        error->kind = TokenKind::kError;
        error->text = "unterminated /* comment";
        error->position = start;
        return;
      }
      Advance(2);
    } else {
      return;
    }
  }
}

bool CqlLexer::MatchUuid() const {
  static constexpr int kGroups[] = {8, 4, 4, 4, 12};
  size_t i = 0;
  for (int g = 0; g < 5; ++g) {
    if (g > 0) {
      if (At(i) != '-') return false;
      ++i;
    }
    for (int k = 0; k < kGroups[g]; ++k, ++i) {
      if (!IsHex(At(i))) return false;
    }
  }
  return !IsIdentChar(At(i)) && At(i) != '-';
}

const Token& CqlLexer::Peek() {
  if (!has_peeked_) {
    peeked_ = Scan();
    peeked_end_ = pos_;
    has_peeked_ = true;
  }
  return peeked_;
}

Token CqlLexer::Next() {
  if (has_peeked_) {
    has_peeked_ = false;
    consumed_end_ = peeked_end_;
    return std::move(peeked_);
  }
  Token tok = Scan();
  consumed_end_ = pos_;
  return tok;
}

Token CqlLexer::Scan() {
  Token tok;
  SkipSpaceAndComments(&tok);
  if (tok.kind == TokenKind::kError) return tok;
  tok.position = pos_;
  if (pos_.offset >= input_.size()) return tok;  // kEnd

  const size_t start = pos_.offset;
  auto take = [&](size_t n, TokenKind kind) {
    tok.kind = kind;
    tok.text = std::string(input_.substr(start, n));
    Advance(n);
    return tok;
  };

  char c = At(0);
  if (IsHex(c) && MatchUuid()) return take(36, TokenKind::kUuid);

  if (c == '0' && (At(1) == 'x' || At(1) == 'X')) {
    size_t n = 2;
    while (IsHex(At(n))) ++n;
    if (!IsIdentChar(At(n))) return take(n, TokenKind::kHexBlob);
  }

  if (IsDigit(c) || (c == '-' && (IsDigit(At(1)) || (At(1) == '.' && IsDigit(At(2)))))) {
    size_t n = c == '-' ? 1 : 0;
    while (IsDigit(At(n))) ++n;
    bool is_float = false;
    if (At(n) == '.' && IsDigit(At(n + 1))) {
      is_float = true;
      ++n;
      while (IsDigit(At(n))) ++n;
    }
    if ((At(n) == 'e' || At(n) == 'E') &&
        (IsDigit(At(n + 1)) || ((At(n + 1) == '+' || At(n + 1) == '-') && IsDigit(At(n + 2))))) {
      is_float = true;
      n += 2;
      while (IsDigit(At(n))) ++n;
    }
    const bool micro_sign = At(n) == '\xc2' && At(n + 1) == '\xb5';  // µ of µs, in UTF-8
    if (!is_float && (IsIdentStart(At(n)) || micro_sign)) {
      // A duration such as 1h30m or 12mo3d: digits and unit letters.
      while (true) {
        if (IsIdentChar(At(n))) {
          ++n;
        } else if (At(n) == '\xc2' && At(n + 1) == '\xb5') {
          n += 2;
        } else {
          break;
        }
      }
      return take(n, TokenKind::kDuration);
    }
    return take(n, is_float ? TokenKind::kFloat : TokenKind::kInteger);
  }

  if (IsIdentStart(c)) {
    size_t n = 1;
    while (IsIdentChar(At(n))) ++n;
    take(n, TokenKind::kIdentifier);
    for (char& ch : tok.text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return tok;
  }

  if (c == '"' || c == '\'') {
    const char quote = c;
    std::string value;
    size_t n = 1;
    while (true) {
      if (pos_.offset + n >= input_.size()) {
        tok.kind = TokenKind::kError;
        tok.text = quote == '"' ? "unterminated quoted identifier" : "unterminated string literal";
        Advance(n);
        return tok;
      }
      char ch = At(n);
      if (ch == quote) {
        if (At(n + 1) == quote) {
          value += quote;
          n += 2;
          continue;
        }
        ++n;
        break;
      }
      value += ch;
      ++n;
    }
    Advance(n);
    tok.kind = quote == '"' ? TokenKind::kQuotedIdentifier : TokenKind::kString;
    tok.text = std::move(value);
    if (tok.kind == TokenKind::kQuotedIdentifier && tok.text.empty()) {
      tok.kind = TokenKind::kError;
      tok.text = "empty quoted identifier";
    }
    RefuseInvalidUtf8(&tok);
    return tok;
  }

  if (c == '$' && At(1) == '$') {
    size_t end = input_.find("$$", start + 2);
    if (end == std::string_view::npos) {
      tok.kind = TokenKind::kError;
      tok.text = "unterminated $$ string literal";
      Advance(input_.size() - start);
      return tok;
    }
    tok.kind = TokenKind::kString;
    tok.text = std::string(input_.substr(start + 2, end - start - 2));
    Advance(end + 2 - start);
    RefuseInvalidUtf8(&tok);
    return tok;
  }

  if (c == '!' && At(1) == '=') return take(2, TokenKind::kPunct);
  static constexpr std::string_view kPunct = "()<>,;.={}[]:?+-*/";
  if (kPunct.find(c) != std::string_view::npos) return take(1, TokenKind::kPunct);

  tok.kind = TokenKind::kError;
  tok.text = "unexpected character " + DescribeByte(c);
  Advance(1);
  return tok;
}

}  // namespace cellfs
