// Tests for ParseLiteral and FormatLiteral (engine/cql/literal.h): every accepted
// spelling of each type, canonical printing, collection order, and errors.
#include "engine/cql/literal.h"

#include <catch2/catch.hpp>

#include "tests/engine/literal_test_util.h"

namespace cellfs {
namespace {

using Catch::Matchers::Contains;
using namespace literal_test;  // NOLINT: test shorthands

// --- text, ascii, blob ---

TEST_CASE("text is taken as is, including CQL punctuation and quotes", "[literal]") {
  const auto text = N(TypeKind::kText);
  for (std::string_view s : {"hello", "it's", "a,b/c", "[1, 2]", "héllo wörld ✓ 🎉", " x "}) {
    CHECK(Parse(*text, s) == s);
    CHECK(FormatLiteral(*text, s) == s);
  }
}

TEST_CASE("text that is not valid UTF-8 is refused with the byte offset", "[literal]") {
  const auto text = N(TypeKind::kText);
  SECTION("a broken two-byte sequence") {
    CHECK_THAT(ParseError(*text, "ab\xc3\x28"),
               Contains("invalid UTF-8") && Contains("byte 2") && Contains("0xc3"));
  }
  SECTION("an overlong slash") { CHECK_THAT(ParseError(*text, "\xc0\xaf"), Contains("byte 0")); }
  SECTION("a UTF-16 surrogate") {
    CHECK_THAT(ParseError(*text, "\xed\xa0\x80"), Contains("UTF-8"));
  }
  SECTION("a code point above U+10FFFF") {
    CHECK_THAT(ParseError(*text, "\xf4\x90\x80\x80"), Contains("UTF-8"));
  }
  SECTION("a sequence cut short") {
    CHECK_THAT(ParseError(*text, "x\xe2\x82"), Contains("byte 1"));
  }
}

TEST_CASE("ascii takes bytes below 0x80 only", "[literal]") {
  const auto ascii = N(TypeKind::kAscii);
  CHECK(Parse(*ascii, "plain ~ text\x7f") == "plain ~ text\x7f");
  CHECK_THAT(ParseError(*ascii, "caf\xc3\xa9"),
             Contains("non-ASCII byte 0xc3") && Contains("byte 3"));
}

TEST_CASE("an empty text is the empty value for text and ascii only", "[literal]") {
  CHECK(Parse(*N(TypeKind::kText), "").empty());
  CHECK(Parse(*N(TypeKind::kAscii), "").empty());
  CHECK(ParseError(*N(TypeKind::kInt), "") == "empty value for int");
  CHECK(ParseError(*N(TypeKind::kBlob), "") == "empty value for blob");
  CHECK(ParseError(*N(TypeKind::kUuid), "") == "empty value for uuid");
  CHECK(ParseError(*ListOf(N(TypeKind::kInt)), "") == "empty value for frozen<list<int>>");
}

TEST_CASE("blob is 0x and an even number of hex digits in either case", "[literal]") {
  const auto blob = N(TypeKind::kBlob);
  CHECK(Parse(*blob, "0x").empty());
  CHECK(Parse(*blob, "0xDEADbeef") == FromHex("de ad be ef"));
  CHECK(Parse(*blob, "0X00ff") == FromHex("00 ff"));
  CHECK(FormatLiteral(*blob, FromHex("de ad be ef")) == "0xdeadbeef");
  CHECK(FormatLiteral(*blob, "") == "0x");
}

TEST_CASE("malformed blobs are refused", "[literal]") {
  const auto blob = N(TypeKind::kBlob);
  CHECK_THAT(ParseError(*blob, "0xabc"), Contains("odd number of hex digits") && Contains("0xabc"));
  CHECK_THAT(ParseError(*blob, "deadbeef"), Contains("expected 0x"));
  CHECK_THAT(ParseError(*blob, "0x0g"), Contains("'g' is not a hex digit"));
  CHECK_THAT(ParseError(*blob, "0"), Contains("expected 0x"));
}

// --- boolean, uuid, inet ---

TEST_CASE("boolean is true or false in any case", "[literal]") {
  const auto boolean = N(TypeKind::kBoolean);
  CHECK(Parse(*boolean, "true") == FromHex("01"));
  CHECK(Parse(*boolean, "TRUE") == FromHex("01"));
  CHECK(Parse(*boolean, "False") == FromHex("00"));
  CHECK(FormatLiteral(*boolean, FromHex("01")) == "true");
  CHECK(FormatLiteral(*boolean, FromHex("00")) == "false");
  CHECK_THAT(ParseError(*boolean, "yes"), Contains("expected true or false") && Contains("'yes'"));
  CHECK_THAT(ParseError(*boolean, "1"), Contains("invalid boolean"));
}

TEST_CASE("uuid takes 8-4-4-4-12 hex digits in either case and prints lower case", "[literal]") {
  const auto uuid = N(TypeKind::kUuid);
  const std::string bytes = FromHex("12345678 9abc 4def 8123 456789abcdef");
  CHECK(Parse(*uuid, "12345678-9abc-4def-8123-456789abcdef") == bytes);
  CHECK(Parse(*uuid, "12345678-9ABC-4DEF-8123-456789ABCDEF") == bytes);
  CHECK(FormatLiteral(*uuid, bytes) == "12345678-9abc-4def-8123-456789abcdef");
}

TEST_CASE("malformed uuids are refused", "[literal]") {
  const auto uuid = N(TypeKind::kUuid);
  for (std::string_view bad :
       {"12345678-9abc-4def-8123-456789abcde", "123456789abc4def8123456789abcdef",
        "12345678-9abc-4def-8123_456789abcdef", "1234567g-9abc-4def-8123-456789abcdef",
        "{12345678-9abc-4def-8123-456789abcdef}", "12345678-9abc-4def-8123-456789abcdef0"}) {
    CHECK_THAT(ParseError(*uuid, bad), Contains("invalid uuid") && Contains("8-4-4-4-12"));
  }
}

TEST_CASE("timeuuid must be a version 1 uuid", "[literal]") {
  const auto timeuuid = N(TypeKind::kTimeuuid);
  CHECK(Parse(*timeuuid, "50554d6e-29bb-11e5-b345-feff819cdc9f") ==
        FromHex("50554d6e 29bb 11e5 b345 feff819cdc9f"));
  CHECK_THAT(ParseError(*timeuuid, "12345678-9abc-4def-8123-456789abcdef"),
             Contains("invalid timeuuid") && Contains("version 1") && Contains("got version 4"));
  // A plain uuid column takes any version.
  CHECK(Parse(*N(TypeKind::kUuid), "50554d6e-29bb-11e5-b345-feff819cdc9f").size() == 16);
}

TEST_CASE("inet takes IPv4 and IPv6 and prints what inet_ntop prints", "[literal]") {
  const auto inet = N(TypeKind::kInet);
  CHECK(Parse(*inet, "127.0.0.1") == FromHex("7f000001"));
  CHECK(Parse(*inet, "::1") == FromHex("00000000000000000000000000000001"));
  CHECK(Canonical(*inet, "2001:DB8:0:0:0:0:0:1") == "2001:db8::1");
  CHECK(Canonical(*inet, "2001:0db8:0000:0000:0000:ff00:0042:8329") == "2001:db8::ff00:42:8329");
  SECTION("an IPv4-mapped IPv6 address stays IPv6") {
    const std::string bytes = Parse(*inet, "::ffff:192.0.2.1");
    CHECK(bytes.size() == 16);
    CHECK(FormatLiteral(*inet, bytes) == "::ffff:192.0.2.1");
  }
}

TEST_CASE("bad inet addresses are refused", "[literal]") {
  const auto inet = N(TypeKind::kInet);
  const std::string_view with_nul("1.2.3.4\0", 8);
  for (std::string_view bad :
       {std::string_view("1.2.3"), std::string_view("256.1.1.1"), std::string_view("localhost"),
        std::string_view("1.2.3.4 "), std::string_view("::g"),
        std::string_view("1:2:3:4:5:6:7:8:9"), with_nul}) {
    CHECK_THAT(ParseError(*inet, bad), Contains("invalid inet") && Contains("IPv4 or IPv6"));
  }
}

// --- delegated kinds ---

TEST_CASE("numeric and temporal literals go through their own codecs", "[literal]") {
  CHECK(Parse(*N(TypeKind::kInt), "42") == FromHex("0000002a"));
  CHECK(Parse(*N(TypeKind::kTinyint), "-1") == FromHex("ff"));
  CHECK(Canonical(*N(TypeKind::kVarint), "123456789012345678901234567890") ==
        "123456789012345678901234567890");
  CHECK(Canonical(*N(TypeKind::kDecimal), "1.50") == "1.50");
  CHECK(Canonical(*N(TypeKind::kDouble), "0.1") == "0.1");
  CHECK(Canonical(*N(TypeKind::kTimestamp), "2018-07-23 11:04:22.432+0000") ==
        "2018-07-23T11:04:22.432Z");
  CHECK(Canonical(*N(TypeKind::kDate), "2018-07-23") == "2018-07-23");
  CHECK(Canonical(*N(TypeKind::kTime), "11:04:22") == "11:04:22.000000000");
  CHECK(Canonical(*N(TypeKind::kDuration), "1h30m") == "1h30m");
  CHECK_THAT(ParseError(*N(TypeKind::kTinyint), "300"), Contains("300"));
}

// --- collections ---

TEST_CASE("lists keep their order and print text elements quoted", "[literal]") {
  const auto list = ListOf(N(TypeKind::kText));
  const std::string bytes = Parse(*list, "['b', 'it''s', 'a']");
  CHECK(ToHex(bytes) == ToHex(FromHex("00000003 00000001 62 00000004 69742773 00000001 61")));
  CHECK(FormatLiteral(*list, bytes) == "['b', 'it''s', 'a']");
  CHECK(Canonical(*list, "[ 'x' ,'y' ]") == "['x', 'y']");
  CHECK(Canonical(*list, "[]") == "[]");
  CHECK(Parse(*list, "[]") == FromHex("00000000"));
}

TEST_CASE("sets are sorted in the element type's order without duplicates", "[literal]") {
  SECTION("int: signed order, not byte order") {
    CHECK(Canonical(*SetOf(N(TypeKind::kInt)), "{3, -1, 2, 3, -1}") == "{-1, 2, 3}");
  }
  SECTION("text: byte order") {
    CHECK(Canonical(*SetOf(N(TypeKind::kText)), "{'b', 'ab', 'a', 'b'}") == "{'a', 'ab', 'b'}");
  }
  SECTION("varint: numeric order whatever the width") {
    CHECK(Canonical(*SetOf(N(TypeKind::kVarint)), "{1000, 9, -100000, 0}") ==
          "{-100000, 0, 9, 1000}");
  }
  SECTION("timeuuid: time order, not byte order") {
    // time_low ffffffff but time_mid 0000 is earlier than time_mid 0001.
    const std::string early = "ffffffff-0000-1000-8000-000000000000";
    const std::string late = "00000000-0001-1000-8000-000000000000";
    CHECK(Canonical(*SetOf(N(TypeKind::kTimeuuid)), "{" + late + ", " + early + "}") ==
          "{" + early + ", " + late + "}");
  }
  SECTION("equal decimals keep the first spelling") {
    CHECK(Canonical(*SetOf(N(TypeKind::kDecimal)), "{1.50, 1.5, 0.2}") == "{0.2, 1.50}");
  }
  SECTION("{} is the empty set") {
    CHECK(Parse(*SetOf(N(TypeKind::kInt)), "{}") == FromHex("00000000"));
  }
}

TEST_CASE("maps sort by key and a repeated key keeps the last value", "[literal]") {
  const auto map = MapOf(N(TypeKind::kText), N(TypeKind::kInt));
  CHECK(Canonical(*map, "{'b': 1, 'a': 2, 'b': 3}") == "{'a': 2, 'b': 3}");
  CHECK(Parse(*map, "{'a': 2, 'b': 3}") ==
        FromHex("00000002 00000001 61 00000004 00000002 00000001 62 00000004 00000003"));
  CHECK(Canonical(*map, "{}") == "{}");
  SECTION("of equal decimal keys the first key's spelling stays") {
    const auto decimals = MapOf(N(TypeKind::kDecimal), N(TypeKind::kText));
    CHECK(Canonical(*decimals, "{1.50: 'a', 1.5: 'b'}") == "{1.50: 'b'}");
  }
}

TEST_CASE("collections nest inside collections", "[literal]") {
  const auto type = MapOf(N(TypeKind::kText), ListOf(N(TypeKind::kInt)));
  CHECK(type->ToCql() == "frozen<map<text, frozen<list<int>>>>");
  CHECK(Canonical(*type, "{'b': [3, 1], 'a': [], 'c': [2]}") == "{'a': [], 'b': [3, 1], 'c': [2]}");
  const auto sets = SetOf(SetOf(N(TypeKind::kInt)));
  CHECK(Canonical(*sets, "{{2, 1}, {1}, {}, {1, 2}}") == "{{}, {1}, {1, 2}}");
}

TEST_CASE("collection elements print as CQL terms", "[literal]") {
  CHECK(Canonical(*ListOf(N(TypeKind::kTimestamp)), "['2018-07-23 11:04:22.432+0000', 0]") ==
        "['2018-07-23T11:04:22.432Z', '1970-01-01T00:00:00.000Z']");
  CHECK(Canonical(*ListOf(N(TypeKind::kInet)), "['::1', '10.0.0.1']") == "['::1', '10.0.0.1']");
  CHECK(Canonical(*ListOf(N(TypeKind::kBlob)), "[0xAB, 0x]") == "[0xab, 0x]");
  CHECK(Canonical(*ListOf(N(TypeKind::kBoolean)), "[TRUE, false]") == "[true, false]");
  CHECK(Canonical(*ListOf(N(TypeKind::kUuid)), "[12345678-9ABC-4DEF-8123-456789ABCDEF]") ==
        "[12345678-9abc-4def-8123-456789abcdef]");
  CHECK(Canonical(*ListOf(N(TypeKind::kDuration)), "[1h30m, P1D]") == "[1h30m, 1d]");
  CHECK(Canonical(*ListOf(N(TypeKind::kDouble)), "[1.5, NaN, -Infinity, 3]") ==
        "[1.5, NaN, -Infinity, 3]");
}

// --- tuples and UDTs ---

TEST_CASE("tuples print every component they hold, null included", "[literal]") {
  const auto tuple = TupleOf({N(TypeKind::kInt), N(TypeKind::kText), N(TypeKind::kBoolean)});
  const std::string bytes = Parse(*tuple, "(1, 'x', null)");
  CHECK(ToHex(bytes) == ToHex(FromHex("00000004 00000001 00000001 78 ffffffff")));
  CHECK(FormatLiteral(*tuple, bytes) == "(1, 'x', null)");
  SECTION("fewer components than the type stay fewer") {
    CHECK(Parse(*tuple, "(1)") == FromHex("00000004 00000001"));
    CHECK(Canonical(*tuple, "(1)") == "(1)");
  }
  SECTION("() is the tuple of no components, the empty value") {
    CHECK(Parse(*tuple, "()").empty());
    CHECK(FormatLiteral(*tuple, "") == "()");
  }
}

TEST_CASE("UDT fields parse by name in any order and print in field order", "[literal]") {
  const auto address = Address();
  CHECK(Canonical(*address, "{zip: 55401, city: 'Minneapolis', street: '1 Main St'}") ==
        "{street: '1 Main St', city: 'Minneapolis', zip: 55401}");
  SECTION("unquoted field names fold to lower case") {
    CHECK(Canonical(*address, "{ZIP: 1, Street: 'x', CITY: 'y'}") ==
          "{street: 'x', city: 'y', zip: 1}");
  }
  SECTION("fields not named are null; the value holds every field, as Cassandra's") {
    const std::string bytes = Parse(*address, "{city: 'x'}");
    CHECK(ToHex(bytes) == ToHex(FromHex("ffffffff 00000001 78 ffffffff")));
    CHECK(FormatLiteral(*address, bytes) == "{street: null, city: 'x', zip: null}");
    CHECK(Parse(*address, "{}").empty());
    CHECK(FormatLiteral(*address, "") == "{}");
  }
  SECTION("a value stored with fewer fields prints every field, nulls included") {
    CHECK(FormatLiteral(*address, FromHex("ffffffff 00000001 78")) ==
          "{street: null, city: 'x', zip: null}");
  }
}

TEST_CASE("UDT field names that need quotes are printed quoted", "[literal]") {
  const auto type = CqlType::Udt("ks", "odd", {"Mixed Case", "select", "plain"},
                                 {N(TypeKind::kInt), N(TypeKind::kInt), N(TypeKind::kInt)}, true);
  const std::string bytes = Parse(*type, R"({"select": 2, "Mixed Case": 1, plain: 3})");
  CHECK(FormatLiteral(*type, bytes) == R"({"Mixed Case": 1, "select": 2, plain: 3})");
  CHECK_THAT(ParseError(*type, "{mixed case: 1}"), Contains("unknown field 'mixed'"));
}

TEST_CASE("UDTs and tuples nest in collections and each other", "[literal]") {
  const auto type = ListOf(TupleOf({N(TypeKind::kText), Address()}));
  const std::string text = "[('home', {street: 'x', city: null, zip: 7}), ('none', null)]";
  CHECK(Canonical(*type, text) == text);
  const auto keyed = MapOf(Address(), N(TypeKind::kInt));
  // A null component sorts before any value, as in Cassandra's TupleType.
  CHECK(Canonical(*keyed, "{{street: 'a'}: 2, {zip: 2}: 1}") ==
        "{{street: null, city: null, zip: 2}: 1, {street: 'a', city: null, zip: null}: 2}");
}

// --- errors ---

TEST_CASE("a wrong element type is refused with its position", "[literal]") {
  const std::string message = ParseError(*ListOf(N(TypeKind::kInt)), "[1, 'a']");
  CHECK_THAT(message, Contains("invalid frozen<list<int>> literal '[1, 'a']'") &&
                          Contains("line 1:5") &&
                          Contains("expected a value of type int, got string 'a'"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "[1, 2.5]"), Contains("line 1:5"));
  CHECK_THAT(ParseError(*SetOf(N(TypeKind::kUuid)), "{0x01}"),
             Contains("expected a value of type uuid, got '0x01'"));
}

TEST_CASE("an unterminated collection is refused", "[literal]") {
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "[1, 2"),
             Contains("unterminated frozen<list<int>> literal") && Contains("line 1:6"));
  CHECK_THAT(ParseError(*MapOf(N(TypeKind::kInt), N(TypeKind::kInt)), "{1: 2"),
             Contains("unterminated"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kText)), "['abc"),
             Contains("unterminated string literal"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "[1,"), Contains("got end of input"));
}

TEST_CASE("trailing junk after a literal is refused", "[literal]") {
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "[1] x"),
             Contains("line 1:5: unexpected 'x' after the literal"));
  CHECK_THAT(ParseError(*TupleOf({N(TypeKind::kInt)}), "(1))"), Contains("unexpected ')'"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "[1] #"), Contains("unexpected character"));
}

TEST_CASE("a literal of the wrong shape is refused", "[literal]") {
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "{1}"),
             Contains("expected '[' opening a frozen<list<int>> literal, got '{'"));
  CHECK_THAT(ParseError(*SetOf(N(TypeKind::kInt)), "[1]"), Contains("expected '{'"));
  CHECK_THAT(ParseError(*MapOf(N(TypeKind::kInt), N(TypeKind::kInt)), "{1, 2}"),
             Contains("expected ':'"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "[1 2]"), Contains("expected ',' or ']'"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "[1,,2]"), Contains("got ','"));
}

TEST_CASE("an unknown or repeated UDT field is refused", "[literal]") {
  CHECK_THAT(ParseError(*Address(), "{street: 'x', country: 'y'}"),
             Contains("line 1:15: unknown field 'country' in type frozen<address>"));
  CHECK_THAT(ParseError(*Address(), "{zip: 1, zip: 2}"), Contains("duplicate field 'zip'"));
  CHECK_THAT(ParseError(*Address(), "{'zip': 1}"), Contains("expected a field name"));
}

TEST_CASE("too many tuple components are refused", "[literal]") {
  const auto tuple = TupleOf({N(TypeKind::kInt), N(TypeKind::kText)});
  CHECK_THAT(ParseError(*tuple, "(1, 'a', 3)"),
             Contains("line 1:10: too many components for tuple<int, text> (at most 2)"));
}

TEST_CASE("null is refused as a collection element and as a whole value", "[literal]") {
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "[1, null]"),
             Contains("line 1:5: null is not supported inside collections"));
  CHECK_THAT(ParseError(*MapOf(N(TypeKind::kInt), N(TypeKind::kInt)), "{1: null}"),
             Contains("null is not supported inside collections"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInt)), "null"), Contains("null is not a value"));
  CHECK_THAT(ParseError(*Address(), "NULL"), Contains("null is not a value"));
}

TEST_CASE("a bad nested value reports the inner problem", "[literal]") {
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kTimeuuid)), "[12345678-9abc-4def-8123-456789abcdef]"),
             Contains("line 1:2") && Contains("version 1"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kInet)), "['1.2.3']"), Contains("invalid inet"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kBlob)), "[0xabc]"),
             Contains("odd number of hex digits"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kTinyint)), "[1, 300]"), Contains("line 1:5"));
  CHECK_THAT(ParseError(*ListOf(N(TypeKind::kText)), "['\xff']"), Contains("invalid UTF-8"));
}

// --- empty values ---

TEST_CASE("empty values print as documented", "[literal]") {
  CHECK(FormatLiteral(*N(TypeKind::kText), "").empty());
  CHECK(FormatLiteral(*N(TypeKind::kInt), "").empty());
  CHECK(FormatLiteral(*N(TypeKind::kBlob), "") == "0x");
  CHECK(FormatLiteral(*ListOf(N(TypeKind::kInt)), "").empty());
  CHECK(FormatTerm(*N(TypeKind::kText), "") == "''");
  CHECK(FormatTerm(*N(TypeKind::kInt), "") == "blobasint(0x)");
  CHECK(FormatTerm(*N(TypeKind::kTimestamp), "") == "blobastimestamp(0x)");
  SECTION("an empty int inside a list round-trips through its conversion call") {
    const auto list = ListOf(N(TypeKind::kInt));
    const std::string bytes = Parse(*list, "[1, blobAsInt(0x)]");
    CHECK(bytes == FromHex("00000002 00000004 00000001 00000000"));
    CHECK(FormatLiteral(*list, bytes) == "[1, blobasint(0x)]");
  }
}

TEST_CASE("FormatTerm quotes exactly the kinds CQL quotes", "[literal]") {
  CHECK(FormatTerm(*N(TypeKind::kText), "it's") == "'it''s'");
  CHECK(FormatTerm(*N(TypeKind::kAscii), "''") == "''''''");
  CHECK(FormatTerm(*N(TypeKind::kInet), FromHex("7f000001")) == "'127.0.0.1'");
  CHECK(FormatTerm(*N(TypeKind::kDate), FromHex("80000000")) == "'1970-01-01'");
  CHECK(FormatTerm(*N(TypeKind::kTime), FromHex("0000000000000001")) == "'00:00:00.000000001'");
  CHECK(FormatTerm(*N(TypeKind::kTimestamp), FromHex("0000000000000000")) ==
        "'1970-01-01T00:00:00.000Z'");
  CHECK(FormatTerm(*N(TypeKind::kInt), FromHex("ffffffff")) == "-1");
  CHECK(FormatTerm(*N(TypeKind::kBlob), FromHex("0a")) == "0x0a");
  CHECK(FormatTerm(*N(TypeKind::kBoolean), FromHex("01")) == "true");
  CHECK(FormatTerm(*SetOf(N(TypeKind::kText)), Parse(*SetOf(N(TypeKind::kText)), "{'a'}")) ==
        "{'a'}");
}

}  // namespace
}  // namespace cellfs
