// Tests for CqlLexer: every token kind, case folding, literal decoding,
// comments, positions, lexical errors, and a property test over random scripts.
#include "engine/cql/internal/cql_lexer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

namespace cellfs {
namespace {

// All tokens of `input` up to and including the first kEnd.
std::vector<Token> Lex(std::string_view input) {
  CqlLexer lexer(input);
  std::vector<Token> tokens;
  while (true) {
    tokens.push_back(lexer.Next());
    if (tokens.back().kind == TokenKind::kEnd) return tokens;
  }
}

// The single token of `input` (asserting nothing follows it).
Token LexOne(std::string_view input) {
  std::vector<Token> tokens = Lex(input);
  REQUIRE(tokens.size() == 2);
  CHECK(tokens[1].kind == TokenKind::kEnd);
  return tokens[0];
}

std::string KindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd:
      return "end";
    case TokenKind::kIdentifier:
      return "ident";
    case TokenKind::kQuotedIdentifier:
      return "quoted";
    case TokenKind::kString:
      return "string";
    case TokenKind::kInteger:
      return "int";
    case TokenKind::kFloat:
      return "float";
    case TokenKind::kHexBlob:
      return "blob";
    case TokenKind::kUuid:
      return "uuid";
    case TokenKind::kDuration:
      return "duration";
    case TokenKind::kPunct:
      return "punct";
    case TokenKind::kError:
      return "error";
  }
  return "?";
}

// "kind:text" for each token except the final kEnd, space-separated.
std::string Render(std::string_view input) {
  std::string out;
  for (const Token& token : Lex(input)) {
    if (token.kind == TokenKind::kEnd) break;
    if (!out.empty()) out += ' ';
    out += KindName(token.kind) + ":" + token.text;
  }
  return out;
}

TEST_CASE("unquoted identifiers are lower-cased and may hold digits and underscores", "[lexer]") {
  CHECK(Render("CREATE Table my_Table2 _x") == "ident:create ident:table ident:my_table2 ident:_x");
}

TEST_CASE("quoted identifiers keep their case, spaces and undoubled quotes", "[lexer]") {
  SECTION("case and spaces") {
    Token token = LexOne("\"My Table\"");
    CHECK(token.kind == TokenKind::kQuotedIdentifier);
    CHECK(token.text == "My Table");
  }
  SECTION("a doubled quote is one quote") {
    CHECK(LexOne("\"say \"\"hi\"\"\"").text == "say \"hi\"");
  }
  SECTION("keywords in quotes are plain names") {
    Token token = LexOne("\"SELECT\"");
    CHECK(token.kind == TokenKind::kQuotedIdentifier);
    CHECK_FALSE(token.IsKeyword("select"));
  }
}

TEST_CASE("an empty quoted identifier is a lexical error", "[lexer]") {
  Token token = LexOne("\"\"");
  CHECK(token.kind == TokenKind::kError);
  CHECK(token.text == "empty quoted identifier");
}

TEST_CASE("string literals decode doubled single quotes", "[lexer]") {
  SECTION("escape") { CHECK(LexOne("'it''s'").text == "it's"); }
  SECTION("empty") {
    Token token = LexOne("''");
    CHECK(token.kind == TokenKind::kString);
    CHECK(token.text.empty());
  }
  SECTION("only a quote") { CHECK(LexOne("''''").text == "'"); }
  SECTION("keeps newlines, semicolons and comment markers") {
    CHECK(LexOne("'a;\n-- b /* c'").text == "a;\n-- b /* c");
  }
  SECTION("double quotes inside are literal") { CHECK(LexOne("'say \"x\"'").text == "say \"x\""); }
}

TEST_CASE("dollar-quoted strings are raw up to the closing $$", "[lexer]") {
  SECTION("quotes and semicolons are content") {
    Token token = LexOne("$$return 'a'; // not a comment$$");
    CHECK(token.kind == TokenKind::kString);
    CHECK(token.text == "return 'a'; // not a comment");
  }
  SECTION("empty") { CHECK(LexOne("$$$$").text.empty()); }
  SECTION("a lone $ is content") { CHECK(LexOne("$$a$b$$").text == "a$b"); }
}

TEST_CASE("unterminated literals and comments are errors at their start", "[lexer]") {
  struct Case {
    const char* input;
    const char* message;
  };
  const Case cases[] = {
      {"x 'abc", "unterminated string literal"},
      {"x \"abc", "unterminated quoted identifier"},
      {"x $$abc", "unterminated $$ string literal"},
      {"x /* abc", "unterminated /* comment"},
      {"x 'it''", "unterminated string literal"},
      {"x 'a\xff'", "invalid UTF-8 in string literal"},
      {"x \"v\xc0\xaf\"", "invalid UTF-8 in quoted identifier"},
      {"x $$\xed\xa0\x80$$", "invalid UTF-8 in string literal"},
  };
  for (const Case& c : cases) {
    INFO(c.input);
    std::vector<Token> tokens = Lex(c.input);
    REQUIRE(tokens.size() == 3);
    CHECK(tokens[1].kind == TokenKind::kError);
    CHECK(tokens[1].text == c.message);
    CHECK(tokens[1].position.column == 3);
    CHECK(tokens[1].position.offset == 2);
    CHECK(tokens[2].kind == TokenKind::kEnd);
  }
}

TEST_CASE("integers and floats, with an optional minus sign", "[lexer]") {
  CHECK(Render("0 42 -7 1.5 -0.25 1e10 2.5E-3 -1e+2 -.5") ==
        "int:0 int:42 int:-7 float:1.5 float:-0.25 float:1e10 float:2.5E-3 float:-1e+2 "
        "float:-.5");
}

TEST_CASE("a dot not followed by a digit ends the number", "[lexer]") {
  CHECK(Render("1.") == "int:1 punct:.");
  CHECK(Render("ks.t") == "ident:ks punct:. ident:t");
}

TEST_CASE("a minus sign not followed by a digit is punctuation", "[lexer]") {
  CHECK(Render("a - b") == "ident:a punct:- ident:b");
  CHECK(Render("a -b") == "ident:a punct:- ident:b");
}

TEST_CASE("uuids are recognised before numbers and identifiers", "[lexer]") {
  SECTION("starting with digits") {
    Token token = LexOne("123e4567-e89b-12d3-a456-426614174000");
    CHECK(token.kind == TokenKind::kUuid);
    CHECK(token.text == "123e4567-e89b-12d3-a456-426614174000");
  }
  SECTION("starting with letters, upper case kept raw") {
    Token token = LexOne("ABCDEF01-2345-6789-ABCD-EF0123456789");
    CHECK(token.kind == TokenKind::kUuid);
    CHECK(token.text == "ABCDEF01-2345-6789-ABCD-EF0123456789");
  }
  SECTION("a uuid followed by punctuation") {
    CHECK(Render("{00000000-0000-0000-0000-000000000000}") ==
          "punct:{ uuid:00000000-0000-0000-0000-000000000000 punct:}");
  }
  SECTION("too short a last group is not a uuid") {
    CHECK(Lex("12345678-1234-1234-1234-12345678901")[0].kind != TokenKind::kUuid);
  }
  SECTION("trailing identifier characters spoil it") {
    CHECK(Lex("12345678-1234-1234-1234-123456789012x")[0].kind != TokenKind::kUuid);
  }
}

TEST_CASE("durations are digits followed by unit letters", "[lexer]") {
  CHECK(Render("1h30m 12mo3d -5s 7us") ==
        "duration:1h30m duration:12mo3d duration:-5s duration:7us");
  Token micro = LexOne("3\xc2\xb5s");
  CHECK(micro.kind == TokenKind::kDuration);
  CHECK(micro.text == "3\xc2\xb5s");
}

TEST_CASE("hex blobs keep their raw spelling", "[lexer]") {
  CHECK(Render("0xCAFE 0x 0X01ab") == "blob:0xCAFE blob:0x blob:0X01ab");
}

TEST_CASE("every punctuation character is its own token, and != is one", "[lexer]") {
  CHECK(Render("()<>,;.={}[]:?+-*/ !=") ==
        "punct:( punct:) punct:< punct:> punct:, punct:; punct:. punct:= punct:{ punct:} "
        "punct:[ punct:] punct:: punct:? punct:+ punct:- punct:* punct:/ punct:!=");
}

TEST_CASE("nested type closers arrive as separate '>' tokens", "[lexer]") {
  CHECK(Render("set<frozen<x>>") ==
        "ident:set punct:< ident:frozen punct:< ident:x punct:> punct:>");
}

TEST_CASE("comments of all three kinds are skipped", "[lexer]") {
  CHECK(Render("a -- one\nb // two\nc /* three\n four */ d/**/e") ==
        "ident:a ident:b ident:c ident:d ident:e");
  CHECK(Render("-- only a comment") == "");
  CHECK(Render("x--y\nz") == "ident:x ident:z");
}

TEST_CASE("a stray byte is an error token and lexing goes on", "[lexer]") {
  SECTION("printable") {
    CHECK(Render("a # b") == "ident:a error:unexpected character '#' ident:b");
  }
  SECTION("non-ASCII is shown as hex, never raw") {
    std::vector<Token> tokens = Lex("\xc3\xa9");
    REQUIRE(tokens.size() == 3);
    CHECK(tokens[0].text == "unexpected character byte 0xc3");
    CHECK(tokens[1].text == "unexpected character byte 0xa9");
  }
  SECTION("a lone $") { CHECK(Render("$x") == "error:unexpected character '$' ident:x"); }
}

TEST_CASE("positions count lines and byte columns from 1", "[lexer]") {
  std::vector<Token> tokens = Lex("a\n  bc /* x\ny */ 'p\nq' d\n");
  REQUIRE(tokens.size() == 5);
  CHECK(tokens[0].position.line == 1);
  CHECK(tokens[0].position.column == 1);
  CHECK(tokens[1].position.line == 2);
  CHECK(tokens[1].position.column == 3);
  CHECK(tokens[1].position.offset == 4);
  CHECK(tokens[2].position.line == 3);  // the string starts after the comment
  CHECK(tokens[2].position.column == 6);
  CHECK(tokens[3].position.line == 4);  // the string spanned a newline
  CHECK(tokens[3].position.column == 4);
  CHECK(tokens[4].kind == TokenKind::kEnd);
  CHECK(tokens[4].position.line == 5);
  CHECK(tokens[4].position.column == 1);
}

TEST_CASE("SourcePosition prints as line L:C", "[lexer]") {
  SourcePosition position;
  position.line = 3;
  position.column = 14;
  CHECK(position.ToString() == "line 3:14");
}

TEST_CASE("Peek returns the next token without consuming it", "[lexer]") {
  CqlLexer lexer("a b");
  CHECK(lexer.Peek().text == "a");
  CHECK(lexer.Peek().text == "a");
  CHECK(lexer.Next().text == "a");
  CHECK(lexer.Next().text == "b");
  CHECK(lexer.Next().kind == TokenKind::kEnd);
  CHECK(lexer.Next().kind == TokenKind::kEnd);
}

TEST_CASE("position() stays just past the last consumed token across a Peek", "[lexer]") {
  CqlLexer lexer("abc   /* c */ def");
  CHECK(lexer.position().offset == 0);
  lexer.Next();
  CHECK(lexer.position().offset == 3);
  CHECK(lexer.Peek().text == "def");
  CHECK(lexer.position().offset == 3);
  lexer.Next();
  CHECK(lexer.position().offset == 17);
  CHECK(lexer.position().column == 18);
}

TEST_CASE("IsKeyword matches unquoted identifiers only and IsPunct single characters", "[lexer]") {
  std::vector<Token> tokens = Lex("TABLE \"table\" ( !=");
  CHECK(tokens[0].IsKeyword("table"));
  CHECK_FALSE(tokens[1].IsKeyword("table"));
  CHECK(tokens[2].IsPunct('('));
  CHECK_FALSE(tokens[3].IsPunct('!'));
}

// Property: a script made of random tokens and random separators lexes back
// to exactly those tokens, each at an offset whose line and column agree
// with the text before it.
TEST_CASE("random token sequences lex back to their tokens with exact positions", "[lexer]") {
  struct Spelling {
    std::string source;
    TokenKind kind;
    std::string text;
  };
  const std::vector<Spelling> pool = {
      {"Name", TokenKind::kIdentifier, "name"},
      {"\"Mixed Case\"", TokenKind::kQuotedIdentifier, "Mixed Case"},
      {"\"a\"\"b\"", TokenKind::kQuotedIdentifier, "a\"b"},
      {"'it''s;'", TokenKind::kString, "it's;"},
      {"'multi\nline'", TokenKind::kString, "multi\nline"},
      {"$$x;'y'$$", TokenKind::kString, "x;'y'"},
      {"-12", TokenKind::kInteger, "-12"},
      {"3.25", TokenKind::kFloat, "3.25"},
      {"0xff", TokenKind::kHexBlob, "0xff"},
      {"01234567-89ab-cdef-0123-456789abcdef", TokenKind::kUuid,
       "01234567-89ab-cdef-0123-456789abcdef"},
      {"2h", TokenKind::kDuration, "2h"},
      {"(", TokenKind::kPunct, "("},
      {";", TokenKind::kPunct, ";"},
      {">", TokenKind::kPunct, ">"},
  };
  const std::vector<std::string> separators = {" ",       "\n",         "\t ", " -- c\n",
                                               " // c\n", "/* a\nb */", "\r\n"};
  std::mt19937 rng(20240611);
  for (int iteration = 0; iteration < 500; ++iteration) {
    std::string script;
    std::vector<size_t> chosen;
    const size_t count = 1 + rng() % 12;
    for (size_t i = 0; i < count; ++i) {
      script += separators[rng() % separators.size()];
      chosen.push_back(rng() % pool.size());
      script += pool[chosen.back()].source;
    }
    script += separators[rng() % separators.size()];
    INFO(script);
    std::vector<Token> tokens = Lex(script);
    REQUIRE(tokens.size() == chosen.size() + 1);
    for (size_t i = 0; i < chosen.size(); ++i) {
      const Spelling& expected = pool[chosen[i]];
      const Token& token = tokens[i];
      CHECK(token.kind == expected.kind);
      CHECK(token.text == expected.text);
      const std::string_view rest = std::string_view(script).substr(token.position.offset);
      CHECK(rest.substr(0, expected.source.size()) == expected.source);
      const std::string before = script.substr(0, token.position.offset);
      const size_t newline = before.rfind('\n');
      const auto lines = std::count(before.begin(), before.end(), '\n');
      CHECK(token.position.line == 1 + lines);
      const size_t line_start = newline == std::string::npos ? 0 : newline + 1;
      CHECK(static_cast<size_t>(token.position.column) == 1 + before.size() - line_start);
    }
  }
}

// Property: any bytes at all lex to a finite stream whose tokens start in
// order, inside the input, and whose positions agree with their offsets.
TEST_CASE("random bytes lex to ordered, in-bounds tokens and then end", "[lexer]") {
  const std::string alphabet = "'\"$-/*0123456789abcdefxXeE.+;(){}<>,:!= \n\t\xc2\xb5\xff";
  std::mt19937 rng(99);
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string input;
    const size_t size = rng() % 48;
    for (size_t i = 0; i < size; ++i) {
      input += rng() % 50 == 0 ? '\0' : alphabet[rng() % alphabet.size()];
    }
    INFO(input);
    CqlLexer lexer(input);
    size_t previous = 0;
    size_t count = 0;
    while (true) {
      Token token = lexer.Next();
      REQUIRE(++count <= input.size() + 1);
      CHECK(token.position.offset >= previous);
      CHECK(token.position.offset <= input.size());
      CHECK(lexer.position().offset <= input.size());
      const std::string before = input.substr(0, token.position.offset);
      CHECK(token.position.line == 1 + std::count(before.begin(), before.end(), '\n'));
      previous = token.position.offset;
      if (token.kind == TokenKind::kEnd) break;
      CHECK(lexer.position().offset > token.position.offset);  // progress
    }
  }
}

}  // namespace
}  // namespace cellfs
