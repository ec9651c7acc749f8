// CqlLexer: splits CQL text into tokens with source positions. Shared by the
// DDL parser and the literal parser (collection and tuple terms).
// Internal to engine/.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cellfs {

// A place in the source: 1-based line and column (in bytes), and the byte
// offset from the start.
struct SourcePosition {
  int line = 1;
  int column = 1;
  size_t offset = 0;

  // "line 3:14"
  std::string ToString() const;
};

enum class TokenKind {
  kEnd,               // end of input
  kIdentifier,        // unquoted; text() is lower-cased (CQL case folding)
  kQuotedIdentifier,  // "Like This"; text() has the quotes removed, "" undoubled
  kString,            // 'it''s' or $$raw$$; text() is the decoded content
  kInteger,           // -?[0-9]+
  kFloat,             // -?digits with a fraction and/or exponent
  kHexBlob,           // 0x[0-9a-fA-F]*; text() is the raw spelling
  kUuid,              // 8-4-4-4-12 hex digits; text() is the raw spelling
  kDuration,          // -?digits followed by unit letters (1h30m); raw spelling
  kPunct,             // one of ( ) < > , ; . = { } [ ] : ? + - * / or the pair !=
  kError,             // unterminated string/comment, stray byte; text() says why
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  SourcePosition position;

  bool IsPunct(char c) const {
    return kind == TokenKind::kPunct && text.size() == 1 && text[0] == c;
  }
  // True for an unquoted identifier equal to `keyword` (given lower-case).
  bool IsKeyword(std::string_view keyword) const {
    return kind == TokenKind::kIdentifier && text == keyword;
  }
};

// Tokenises `input`, skipping white space and comments (--, //, /* */).
// Not thread-safe; the input must outlive the lexer.
class CqlLexer {
 public:
  explicit CqlLexer(std::string_view input) : input_(input) {}
  // As above for text that starts at `line`:`column` of a larger script
  // (a statement's term typed after parsing), so positions in tokens and
  // errors are the script's; offsets stay relative to `input`.
  CqlLexer(std::string_view input, int line, int column) : input_(input) {
    pos_.line = consumed_end_.line = line;
    pos_.column = consumed_end_.column = column;
  }

  // The next token; kEnd forever once the input is exhausted.
  Token Next();
  // The token Next() would return, without consuming it.
  const Token& Peek();

  // Where the lexer stands: just past the last consumed token (a Peek()
  // looks ahead without moving it).
  SourcePosition position() const { return consumed_end_; }
  std::string_view input() const { return input_; }

 private:
  Token Scan();
  void SkipSpaceAndComments(Token* error);
  void Advance(size_t n);
  char At(size_t i) const {
    return pos_.offset + i < input_.size() ? input_[pos_.offset + i] : '\0';
  }
  bool MatchUuid() const;

  std::string_view input_;
  SourcePosition pos_;           // where scanning resumes (past any peeked token)
  SourcePosition consumed_end_;  // just past the token Next() last returned
  SourcePosition peeked_end_;    // just past peeked_, while has_peeked_
  bool has_peeked_ = false;
  Token peeked_;
};

}  // namespace cellfs
