// Tests for ParseTerm (engine/cql/internal/term_parser.h): which tokens spell a
// value of each type, null handling, positions, and consuming one term.
#include "engine/cql/internal/term_parser.h"

#include <catch2/catch.hpp>

#include "engine/cql/internal/cql_lexer.h"
#include "tests/engine/literal_test_util.h"

namespace cellfs {
namespace {

using Catch::Matchers::Contains;
using namespace literal_test;  // NOLINT: test shorthands

// The bytes of the single term `text`, which must parse and be all of it.
std::string Term(const CqlType& type, std::string_view text) {
  CqlLexer lexer(text);
  std::string out;
  Status status = ParseTerm(type, lexer, &out);
  INFO(type.ToCql() << " term: " << text << " -> " << status.ToString());
  REQUIRE(status.ok());
  CHECK(lexer.Next().kind == TokenKind::kEnd);
  return out;
}

std::string TermError(const CqlType& type, std::string_view text) {
  CqlLexer lexer(text);
  std::string out;
  Status status = ParseTerm(type, lexer, &out);
  INFO(type.ToCql() << " term: " << text);
  REQUIRE_FALSE(status.ok());
  CHECK(status.code() == StatusCode::kInvalidArgument);
  return status.message();
}

TEST_CASE("quoted strings are terms of text, ascii, inet and the temporal kinds", "[term_parser]") {
  CHECK(Term(*N(TypeKind::kText), "'it''s'") == "it's");
  CHECK(Term(*N(TypeKind::kText), "$$raw 'quoted'$$") == "raw 'quoted'");
  CHECK(Term(*N(TypeKind::kText), "''").empty());
  CHECK(Term(*N(TypeKind::kAscii), "'abc'") == "abc");
  CHECK(Term(*N(TypeKind::kInet), "'10.1.2.3'") == FromHex("0a010203"));
  CHECK(Term(*N(TypeKind::kTimestamp), "'1970-01-01T00:00:01Z'") == FromHex("00000000000003e8"));
  CHECK(Term(*N(TypeKind::kDate), "'1970-01-02'") == FromHex("80000001"));
  CHECK(Term(*N(TypeKind::kTime), "'00:00:01'") == FromHex("000000003b9aca00"));
}

TEST_CASE("strings are not terms of numbers, booleans or blobs", "[term_parser]") {
  CHECK_THAT(TermError(*N(TypeKind::kInt), "'1'"),
             Contains("line 1:1: expected a value of type int, got string '1'"));
  CHECK_THAT(TermError(*N(TypeKind::kBoolean), "'true'"), Contains("type boolean"));
  CHECK_THAT(TermError(*N(TypeKind::kBlob), "'0x00'"), Contains("type blob"));
  CHECK_THAT(TermError(*N(TypeKind::kText), "abc"), Contains("type text, got 'abc'"));
  CHECK_THAT(TermError(*N(TypeKind::kText), "42"), Contains("type text, got '42'"));
}

TEST_CASE("integer and float tokens are terms of the numeric kinds", "[term_parser]") {
  CHECK(Term(*N(TypeKind::kInt), "-42") == FromHex("ffffffd6"));
  CHECK(Term(*N(TypeKind::kBigint), "9223372036854775807") == FromHex("7fffffffffffffff"));
  CHECK(Term(*N(TypeKind::kCounter), "1") == FromHex("0000000000000001"));
  CHECK(FormatLiteral(*N(TypeKind::kDecimal), Term(*N(TypeKind::kDecimal), "-1.50")) == "-1.50");
  CHECK(FormatLiteral(*N(TypeKind::kDecimal), Term(*N(TypeKind::kDecimal), "7")) == "7");
  CHECK(Term(*N(TypeKind::kDouble), "1e3") == Term(*N(TypeKind::kDouble), "1000"));
  CHECK(Term(*N(TypeKind::kFloat), "0.5") == FromHex("3f000000"));
  CHECK_THAT(TermError(*N(TypeKind::kInt), "1.5"), Contains("type int, got '1.5'"));
  CHECK_THAT(TermError(*N(TypeKind::kVarint), "1e3"), Contains("type varint"));
}

TEST_CASE("timestamps, dates and times also take integer tokens", "[term_parser]") {
  CHECK(Term(*N(TypeKind::kTimestamp), "1000") == FromHex("00000000000003e8"));
  CHECK(Term(*N(TypeKind::kTimestamp), "-1") == FromHex("ffffffffffffffff"));
  CHECK(Term(*N(TypeKind::kDate), "2147483648") == FromHex("80000000"));
  CHECK(Term(*N(TypeKind::kTime), "1") == FromHex("0000000000000001"));
  CHECK_THAT(TermError(*N(TypeKind::kTime), "86400000000000"), Contains("line 1:1"));
}

TEST_CASE("uuid tokens and quoted uuids are both uuid terms", "[term_parser]") {
  const std::string bytes = FromHex("12345678 9abc 4def 8123 456789abcdef");
  CHECK(Term(*N(TypeKind::kUuid), "12345678-9abc-4def-8123-456789abcdef") == bytes);
  CHECK(Term(*N(TypeKind::kUuid), "12345678-9ABC-4DEF-8123-456789ABCDEF") == bytes);
  CHECK(Term(*N(TypeKind::kUuid), "'12345678-9abc-4def-8123-456789abcdef'") == bytes);
  CHECK_THAT(TermError(*N(TypeKind::kTimeuuid), "12345678-9abc-4def-8123-456789abcdef"),
             Contains("line 1:1") && Contains("version 4"));
  CHECK_THAT(TermError(*N(TypeKind::kUuid), "'nope'"), Contains("8-4-4-4-12"));
}

TEST_CASE("true and false are boolean terms in any case", "[term_parser]") {
  CHECK(Term(*N(TypeKind::kBoolean), "TRUE") == FromHex("01"));
  CHECK(Term(*N(TypeKind::kBoolean), "false") == FromHex("00"));
  CHECK_THAT(TermError(*N(TypeKind::kBoolean), "yes"), Contains("type boolean, got 'yes'"));
  CHECK_THAT(TermError(*N(TypeKind::kBoolean), "1"), Contains("type boolean"));
}

TEST_CASE("hex blob tokens are blob terms", "[term_parser]") {
  CHECK(Term(*N(TypeKind::kBlob), "0xCAFE") == FromHex("cafe"));
  CHECK(Term(*N(TypeKind::kBlob), "0x").empty());
  CHECK_THAT(TermError(*N(TypeKind::kBlob), "0xabc"), Contains("odd number of hex digits"));
  CHECK_THAT(TermError(*N(TypeKind::kInt), "0x01"), Contains("type int, got '0x01'"));
}

TEST_CASE("NaN and Infinity are float terms, with a minus sign for -Infinity", "[term_parser]") {
  const auto dbl = N(TypeKind::kDouble);
  CHECK(FormatLiteral(*dbl, Term(*dbl, "NaN")) == "NaN");
  CHECK(FormatLiteral(*dbl, Term(*dbl, "infinity")) == "Infinity");
  CHECK(FormatLiteral(*dbl, Term(*dbl, "-Infinity")) == "-Infinity");
  CHECK(FormatLiteral(*dbl, Term(*dbl, "- Infinity")) == "-Infinity");
  CHECK(FormatLiteral(*N(TypeKind::kFloat), Term(*N(TypeKind::kFloat), "-INFINITY")) ==
        "-Infinity");
  CHECK_THAT(TermError(*N(TypeKind::kDecimal), "NaN"), Contains("type decimal"));
  CHECK_THAT(TermError(*dbl, "-x"), Contains("type double, got '-'"));
}

TEST_CASE("durations are terms as unit tokens, ISO 8601 words or strings", "[term_parser]") {
  const auto duration = N(TypeKind::kDuration);
  auto canonical = [&](std::string_view text) {
    return FormatLiteral(*duration, Term(*duration, text));
  };
  CHECK(canonical("1h30m") == "1h30m");
  CHECK(canonical("-1h") == "-1h");
  CHECK(canonical("1Y2MO") == "1y2mo");
  CHECK(canonical("P1DT2H") == "1d2h");
  CHECK(canonical("p1dt2h") == "1d2h");
  CHECK(canonical("-P2W") == "-14d");
  CHECK(canonical("P0001-02-03T04:05:06") == "1y2mo3d4h5m6s");
  CHECK(canonical("'P1D'") == "1d");
  CHECK(canonical("'2h'") == "2h");
  CHECK_THAT(TermError(*duration, "P1X"), Contains("line 1:1"));
  CHECK_THAT(TermError(*duration, "5"), Contains("type duration, got '5'"));
}

TEST_CASE("an ISO duration is one term inside a collection", "[term_parser]") {
  const auto list = ListOf(N(TypeKind::kDuration));
  CHECK(FormatLiteral(*list, Term(*list, "[P1D, -P0001-02-03T04:05:06,PT1M]")) ==
        "[1d, -1y2mo3d4h5m6s, 1m]");
  const auto tuple = TupleOf({N(TypeKind::kDuration), N(TypeKind::kInt)});
  CHECK(FormatLiteral(*tuple, Term(*tuple, "(P1D, 2)")) == "(1d, 2)");
}

TEST_CASE("null sets is_null where the caller allows it and is refused otherwise",
          "[term_parser]") {
  for (const TypePtr& type :
       {N(TypeKind::kInt), N(TypeKind::kText), ListOf(N(TypeKind::kInt)), Address()}) {
    CqlLexer lexer("null");
    std::string out = "stale";
    bool is_null = false;
    REQUIRE(ParseTerm(*type, lexer, &out, &is_null).ok());
    CHECK(is_null);
    CHECK(out.empty());
    CHECK_THAT(TermError(*type, "NULL"), Contains("line 1:1: null is not a value of"));
  }
  SECTION("is_null is reset for a value") {
    CqlLexer lexer("1");
    std::string out;
    bool is_null = true;
    REQUIRE(ParseTerm(*N(TypeKind::kInt), lexer, &out, &is_null).ok());
    CHECK_FALSE(is_null);
  }
}

TEST_CASE("ParseTerm consumes exactly one term and leaves the rest", "[term_parser]") {
  CqlLexer lexer("[1, 2], 'next' ;");
  std::string out;
  REQUIRE(ParseTerm(*ListOf(N(TypeKind::kInt)), lexer, &out).ok());
  CHECK(lexer.Next().IsPunct(','));
  REQUIRE(ParseTerm(*N(TypeKind::kText), lexer, &out).ok());
  CHECK(out == "next");
  CHECK(lexer.Next().IsPunct(';'));
}

TEST_CASE("errors carry the position of the offending token", "[term_parser]") {
  const auto type = MapOf(N(TypeKind::kText), ListOf(N(TypeKind::kInt)));
  CHECK_THAT(TermError(*type, "{'a': [1, 2],\n  'b': [3, x]}"),
             Contains("line 2:12: expected a value of type int, got 'x'"));
  CHECK_THAT(TermError(*N(TypeKind::kText), "/* open"), Contains("unterminated /* comment"));
  CHECK_THAT(TermError(*N(TypeKind::kText), ""), Contains("line 1:1") && Contains("end of input"));
}

TEST_CASE("blobas conversion calls spell any native value, the empty one included",
          "[term_parser]") {
  CHECK(Term(*N(TypeKind::kInt), "blobAsInt(0x0000002a)") == FromHex("0000002a"));
  CHECK(Term(*N(TypeKind::kInt), "blobasint(0x)").empty());
  CHECK(Term(*N(TypeKind::kText), "blobasvarchar(0x6869)") == "hi");
  CHECK(Term(*N(TypeKind::kTimestamp), "blobastimestamp( 0x )").empty());
  CHECK_THAT(TermError(*N(TypeKind::kInt), "blobasint(0x01)"),
             Contains("line 1:11") && Contains("4 bytes, got 1"));
  CHECK_THAT(TermError(*N(TypeKind::kInt), "blobastext(0x)"),
             Contains("function blobastext does not return int"));
  CHECK_THAT(TermError(*N(TypeKind::kText), "blobastext(0xff)"), Contains("invalid UTF-8"));
  CHECK_THAT(TermError(*N(TypeKind::kInt), "blobasint 0x"),
             Contains("expected '(' after blobasint"));
  CHECK_THAT(TermError(*N(TypeKind::kInt), "blobasint('a')"), Contains("expected a blob literal"));
  CHECK_THAT(TermError(*N(TypeKind::kInt), "blobasint(0x"), Contains("expected ')'"));
}

TEST_CASE("tuple components and UDT fields may be null, collection elements may not",
          "[term_parser]") {
  const auto tuple = TupleOf({N(TypeKind::kInt), N(TypeKind::kInt)});
  CHECK(Term(*tuple, "(null, null)") == FromHex("ffffffff ffffffff"));
  CHECK(Term(*Address(), "{street: null}") == FromHex("ffffffff ffffffff ffffffff"));
  CHECK_THAT(TermError(*SetOf(N(TypeKind::kInt)), "{null}"),
             Contains("line 1:2: null is not supported inside collections"));
  CHECK_THAT(TermError(*MapOf(N(TypeKind::kInt), N(TypeKind::kInt)), "{null: 1}"),
             Contains("null is not supported"));
}

}  // namespace
}  // namespace cellfs
