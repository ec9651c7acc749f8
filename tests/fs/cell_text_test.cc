// Tests for fs/formats/cell_text.h: file content <-> cell values (the text newline
// convention, raw blobs, literals), text prefixes, counter deltas and append.
#include "fs/formats/cell_text.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/cql/literal.h"
#include "tests/engine/literal_test_util.h"
#include "tests/engine/random_value.h"

namespace cellfs::fs {
namespace {

using literal_test::Address;
using literal_test::ListOf;
using literal_test::MapOf;
using literal_test::N;
using literal_test::Parse;
using literal_test::SetOf;
using literal_test::ToHex;
using literal_test::TupleOf;
using namespace std::string_literals;

const TypePtr kText = N(TypeKind::kText);
const TypePtr kAscii = N(TypeKind::kAscii);
const TypePtr kBlob = N(TypeKind::kBlob);
const TypePtr kInt = N(TypeKind::kInt);

// The stored value that writing `content` means; REQUIREs success.
std::string Stored(const CqlType& type, std::string_view content) {
  Result<std::string> parsed = ParseCellContent(type, content);
  INFO(type.ToCql() << " content '" << content << "': " << parsed.status().ToString());
  REQUIRE(parsed.ok());
  return *parsed;
}

// The error message of content that must be refused.
std::string Refusal(const CqlType& type, std::string_view content) {
  Result<std::string> parsed = ParseCellContent(type, content);
  INFO(type.ToCql() << " content '" << content << "'");
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().code() == StatusCode::kInvalidArgument);
  return parsed.status().message();
}

std::string Appended(const CqlType& type, std::string_view current, std::string_view appended) {
  Result<std::string> result = AppendCellValue(type, true, current, appended);
  INFO(type.ToCql() << ": " << result.status().ToString());
  REQUIRE(result.ok());
  return *result;
}

TEST_CASE("cell content is the literal and a newline, text as is, a blob raw", "[cell_text]") {
  CHECK(FormatCellContent(*kInt, Parse(*kInt, "42")) == "42\n");
  CHECK(FormatCellContent(*SetOf(kText), Parse(*SetOf(kText), "{'b', 'a'}")) == "{'a', 'b'}\n");
  const auto timestamp = N(TypeKind::kTimestamp);
  CHECK(FormatCellContent(*timestamp, Parse(*timestamp, "2018-07-23 11:04:22.432+0000")) ==
        "2018-07-23T11:04:22.432Z\n");
  CHECK(FormatCellContent(*kText, "it's") == "it's\n");
  CHECK(FormatCellContent(*kText, "") == "\n");
  CHECK(FormatCellContent(*kText, "a\n") == "a\n\n");
  CHECK(FormatCellContent(*kAscii, "x") == "x\n");
  CHECK(FormatCellContent(*kBlob, "\0\xff\n"s) == "\0\xff\n"s);
  CHECK(FormatCellContent(*kBlob, "") == "");
  SECTION("a counter's 8-byte total prints as a bigint does") {
    const auto counter = N(TypeKind::kCounter);
    CHECK(FormatCellContent(*counter, "\xff\xff\xff\xff\xff\xff\xff\xfb"s) == "-5\n");
    CHECK(FormatCellContent(*counter, "\0\0\0\0\0\0\x01\x00"s) == "256\n");
  }
}

TEST_CASE("writing text drops one trailing newline and no more", "[cell_text]") {
  for (const TypePtr& type : {kText, kAscii}) {
    CHECK(Stored(*type, "a\n\n") == "a\n");
    CHECK(Stored(*type, "a\n") == "a");
    CHECK(Stored(*type, "a") == "a");
    CHECK(Stored(*type, "\n") == "");
    CHECK(Stored(*type, "") == "");
    CHECK(Stored(*type, "a\r\n") == "a\r");
    CHECK(Stored(*type, "\na") == "\na");
  }
  CHECK(Stored(*kText, "h\xc3\xa9llo\n") == "h\xc3\xa9llo");
}

TEST_CASE("writing other types parses their CQL literal after one newline", "[cell_text]") {
  CHECK(Stored(*kInt, "42\n") == Parse(*kInt, "42"));
  CHECK(Stored(*kInt, "-7") == Parse(*kInt, "-7"));
  const auto timestamp = N(TypeKind::kTimestamp);
  CHECK(Stored(*timestamp, "2018-07-23 11:04:22+0000\n") ==
        Parse(*timestamp, "2018-07-23T11:04:22.000Z"));
  const auto uuid = N(TypeKind::kUuid);
  CHECK(Stored(*uuid, "F47AC10B-58CC-4372-A567-0E02B2C3D479\n") ==
        Parse(*uuid, "f47ac10b-58cc-4372-a567-0e02b2c3d479"));
  CHECK(Stored(*N(TypeKind::kBoolean), "TRUE\n") == "\x01");
  CHECK(Stored(*SetOf(kText), "{'b', 'a', 'b'}\n") == Parse(*SetOf(kText), "{'a', 'b'}"));
  CHECK(Stored(*Address(), "{city: 'Oslo'}\n") ==
        Parse(*Address(), "{street: null, city: 'Oslo'}"));
}

TEST_CASE("values that do not parse for their type are refused, never coerced", "[cell_text]") {
  CHECK(Refusal(*kInt, "0xff\n").find("int") != std::string::npos);
  Refusal(*kInt, "x");
  Refusal(*kInt, "1.5\n");
  Refusal(*kInt, "42\n\n");
  Refusal(*kInt, "\n");
  Refusal(*kInt, "");
  Refusal(*kInt, "2147483648");
  Refusal(*N(TypeKind::kTimestamp), "yesterday\n");
  Refusal(*SetOf(kInt), "{1, 2\n");
  Refusal(*N(TypeKind::kBoolean), "yes\n");
  SECTION("the message quotes only a prefix of a long content") {
    const std::string message = Refusal(*kInt, std::string(100000, '7') + "x");
    CHECK(message.find("int") != std::string::npos);
    CHECK(message.size() < 400);
  }
}

TEST_CASE("text that is not UTF-8 and ascii that is not ASCII are refused", "[cell_text]") {
  for (std::string bad : {"\xff"s, "a\xc3"s, "\xc0\xaf"s, "\xed\xa0\x80"s, "\xf4\x90\x80\x80"s,
                          "\x80"s, "ok\xc3\x28"s}) {
    INFO(ToHex(bad));
    CHECK(Refusal(*kText, bad + "\n").find("text") != std::string::npos);
  }
  CHECK(Refusal(*kAscii, "caf\xc3\xa9").find("ascii") != std::string::npos);
}

TEST_CASE("blob content is stored raw: NUL, 0xff and newlines kept", "[cell_text]") {
  const std::string raw = "\0\xff\n"s;
  CHECK(Stored(*kBlob, raw) == raw);
  CHECK(Stored(*kBlob, "0xff\n") == "0xff\n");  // not a literal for a blob file
  CHECK(Stored(*kBlob, "") == "");
}

TEST_CASE("a text prefix is valid unless a byte is already wrong", "[cell_text]") {
  SECTION("characters split across writes are accepted") {
    for (std::string prefix : {""s, "a"s, "a\xc3"s, "\xc3\xa9"s, "\xe2\x82"s, "\xe2"s,
                               "\xf0\x9f\x98"s, "x\xf4\x8f"s, "\xed\x9f"s}) {
      INFO(ToHex(prefix));
      CHECK(IsValidTextPrefix(*kText, prefix));
    }
  }
  SECTION("a byte no completion can fix is refused at once") {
    for (std::string bad :
         {"\xff"s, "\x80"s, "\xc0"s, "\xc1"s, "\xc3\x28"s, "\xe0\x80"s, "\xed\xa0"s, "\xf0\x80"s,
          "\xf4\x90"s, "\xf5"s, "\xc3\xa9\x80"s, "\xe2\x82x"s}) {
      INFO(ToHex(bad));
      CHECK_FALSE(IsValidTextPrefix(*kText, bad));
    }
  }
  SECTION("ascii takes no byte at or above 0x80") {
    CHECK(IsValidTextPrefix(*kAscii, "plain text\n"));
    CHECK_FALSE(IsValidTextPrefix(*kAscii, "\xc3"));
  }
  SECTION("property: agrees with the full UTF-8 check over random bytes") {
    RandomValues random(4242);
    for (int i = 0; i < 20000; ++i) {
      // Mostly valid text with a random tail, to reach every state.
      std::string s = random.Value(*kText).substr(0, 6) + random.Bytes(random.Below(4));
      INFO(ToHex(s));
      const bool valid = ParseLiteral(*kText, s).ok();
      if (valid) CHECK(IsValidTextPrefix(*kText, s));
      if (!IsValidTextPrefix(*kText, s)) {
        CHECK_FALSE(valid);
        // No continuation can repair it.
        CHECK_FALSE(ParseLiteral(*kText, s + "\xbf\xbf\xbf").ok());
        CHECK_FALSE(ParseLiteral(*kText, s + "\x80\x80\x80").ok());
      } else if (!valid) {
        // Only an unfinished character at the end: its continuation completes it.
        const bool completes = ParseLiteral(*kText, s + "\x80").ok() ||
                               ParseLiteral(*kText, s + "\x80\x80").ok() ||
                               ParseLiteral(*kText, s + "\x80\x80\x80").ok() ||
                               ParseLiteral(*kText, s + "\x90\x80\x80").ok() ||
                               ParseLiteral(*kText, s + "\xa0\x80").ok();
        CHECK(completes);
      }
    }
  }
}

TEST_CASE("text checked write by write parses as the whole value does", "[cell_text]") {
  // ParseCheckedTextContent checks only the last character of a value whose
  // bytes passed IsValidTextPrefix: the same value or the same refusal.
  RandomValues random(777);
  size_t refused = 0;
  for (int i = 0; i < 20000; ++i) {
    const CqlType& type = i % 5 == 0 ? *kAscii : *kText;
    std::string s = random.Value(type).substr(0, 8) + random.Bytes(random.Below(3));
    if (i % 3 == 0) s += "\n";
    if (!IsValidTextPrefix(type, s)) continue;
    INFO(ToHex(s));
    const Result<std::string> whole = ParseCellContent(type, s);
    const Result<std::string> checked = ParseCheckedTextContent(type, s);
    REQUIRE(whole.ok() == checked.ok());
    if (whole.ok()) {
      CHECK(checked.value() == whole.value());
    } else {
      CHECK(checked.status().message() == whole.status().message());
      ++refused;
    }
  }
  CHECK(refused > 100);  // unfinished last characters were reached
  CHECK(ParseCheckedTextContent(*kText, "").value().empty());
  CHECK(ParseCheckedTextContent(*kText, "\n").value().empty());
}

TEST_CASE("counter deltas are signed 64-bit decimal integers", "[cell_text]") {
  auto delta = [](std::string_view content) {
    Result<int64_t> parsed = ParseCounterDelta(content);
    INFO("'" << content << "': " << parsed.status().ToString());
    REQUIRE(parsed.ok());
    return *parsed;
  };
  CHECK(delta("1") == 1);
  CHECK(delta("-5\n") == -5);
  CHECK(delta("0\n") == 0);
  CHECK(delta("9223372036854775807") == INT64_MAX);
  CHECK(delta("-9223372036854775808\n") == INT64_MIN);
  for (std::string_view bad : {"", "\n", "+3", "1.5", "x", "9223372036854775808",
                               "-9223372036854775809", " 1", "1 ", "1\n\n", "-", "0x10"}) {
    Result<int64_t> parsed = ParseCounterDelta(bad);
    INFO("'" << bad << "'");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("append merges collections and concatenates text and blobs", "[cell_text]") {
  SECTION("set: union, sorted, duplicates dropped") {
    const auto type = CqlType::Set(kInt, false);
    CHECK(Appended(*type, Parse(*type, "{1, 3}"), Parse(*type, "{2, 3, -1}")) ==
          Parse(*type, "{-1, 1, 2, 3}"));
    CHECK(Appended(*type, Parse(*type, "{1}"), Parse(*type, "{}")) == Parse(*type, "{1}"));
  }
  SECTION("list: concatenation, duplicates kept") {
    const auto type = CqlType::List(kText, false);
    CHECK(Appended(*type, Parse(*type, "['a', 'b']"), Parse(*type, "['b']")) ==
          Parse(*type, "['a', 'b', 'b']"));
  }
  SECTION("map: entries put, equal keys replaced") {
    const auto type = CqlType::Map(kText, kInt, false);
    CHECK(Appended(*type, Parse(*type, "{'a': 1, 'c': 3}"), Parse(*type, "{'c': 4, 'b': 2}")) ==
          Parse(*type, "{'a': 1, 'b': 2, 'c': 4}"));
  }
  SECTION("text, ascii and blob: bytes concatenated") {
    CHECK(Appended(*kText, "ab\n", "c\xc3\xa9") == "ab\nc\xc3\xa9");
    CHECK(Appended(*kAscii, "a", "b") == "ab");
    CHECK(Appended(*kBlob, "\0\xff"s, "\n"s) == "\0\xff\n"s);
  }
  SECTION("without a current value the result is the appended value") {
    const auto type = CqlType::Set(kInt, false);
    Result<std::string> result = AppendCellValue(*type, false, "", Parse(*type, "{2, 1}"));
    REQUIRE(result.ok());
    CHECK(*result == Parse(*type, "{1, 2}"));
    Result<std::string> text = AppendCellValue(*kText, false, "ignored", "x");
    REQUIRE(text.ok());
    CHECK(*text == "x");
  }
}

TEST_CASE("append is refused for types without a merge", "[cell_text]") {
  for (const TypePtr& type : {kInt, N(TypeKind::kTimestamp), SetOf(kInt), ListOf(kInt),
                              MapOf(kText, kInt), TupleOf({kInt}), Address()}) {
    INFO(type->ToCql());
    Result<std::string> result = AppendCellValue(*type, false, "", "");
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().code() == StatusCode::kInvalidArgument);
    CHECK(result.status().message() == "append is not defined for " + type->ToCql());
  }
}

// Types for the property tests: every native kind and nested shapes.
std::vector<TypePtr> TypesUnderTest() {
  std::vector<TypePtr> types;
  for (int k = 0; k <= static_cast<int>(TypeKind::kVarint); ++k) {
    types.push_back(N(static_cast<TypeKind>(k)));
  }
  types.push_back(CqlType::Set(N(TypeKind::kDecimal), false));
  types.push_back(CqlType::List(kText, false));
  types.push_back(CqlType::Map(N(TypeKind::kTimestamp), SetOf(kInt), false));
  types.push_back(TupleOf({kInt, kText, kBlob}));
  types.push_back(Address());
  types.push_back(MapOf(TupleOf({kText, kInt}), Address()));
  return types;
}

TEST_CASE("property: parsing a cell's content gives its value back", "[cell_text][property]") {
  RandomValues random(20240917);
  for (const TypePtr& type : TypesUnderTest()) {
    for (int i = 0; i < 300; ++i) {
      const std::string value = random.Value(*type);
      const std::string content = FormatCellContent(*type, value);
      INFO(type->ToCql() << " value " << ToHex(value) << " content " << ToHex(content));
      Result<std::string> parsed = ParseCellContent(*type, content);
      INFO(parsed.status().ToString());
      REQUIRE(parsed.ok());
      // A UDT stored with fewer fields than its type comes back with every
      // field (engine/cql/literal.h): the same value, printed the same.
      if (type->ToCql().find("address") != std::string::npos) {
        CHECK(FormatCellContent(*type, *parsed) == content);
      } else {
        CHECK(ToHex(*parsed) == ToHex(value));
      }
    }
  }
}

// The inside of a collection literal: "{1, 2}" -> "1, 2".
std::string Inner(const CqlType& type, std::string_view value) {
  const std::string text = FormatLiteral(type, value);
  return text.substr(1, text.size() - 2);
}

TEST_CASE("property: append equals the CQL literal of both values' elements",
          "[cell_text][property]") {
  RandomValues random(99173);
  const std::vector<TypePtr> types = {
      CqlType::Set(kInt, false),
      CqlType::Set(kText, false),
      CqlType::Set(N(TypeKind::kDecimal), false),
      CqlType::Set(N(TypeKind::kDouble), false),
      CqlType::Set(Address(), false),
      CqlType::List(N(TypeKind::kUuid), false),
      CqlType::Map(kText, kInt, false),
      CqlType::Map(N(TypeKind::kVarint), ListOf(kText), false),
  };
  for (const TypePtr& type : types) {
    for (int i = 0; i < 300; ++i) {
      const std::string current = random.Value(*type);
      const std::string appended = random.Value(*type);
      std::string inner = Inner(*type, current);
      const std::string more = Inner(*type, appended);
      inner += inner.empty() || more.empty() ? more : ", " + more;
      const bool is_list = type->kind() == TypeKind::kList;
      const std::string literal = (is_list ? "[" : "{") + inner + (is_list ? "]" : "}");
      INFO(type->ToCql() << ": " << FormatLiteral(*type, current) << " + "
                         << FormatLiteral(*type, appended) << " = " << literal);
      // Decimals of negative scale and UDTs holding fewer fields than their
      // type parse back respelled (engine/cql/literal.h): compare the text.
      const std::string cql = type->ToCql();
      if (cql.find("decimal") != std::string::npos || cql.find("address") != std::string::npos) {
        CHECK(FormatLiteral(*type, Appended(*type, current, appended)) ==
              FormatLiteral(*type, Parse(*type, literal)));
      } else {
        CHECK(ToHex(Appended(*type, current, appended)) == ToHex(Parse(*type, literal)));
      }
    }
  }
}

TEST_CASE("a value still arriving in pieces may wait; one that cannot become valid may not",
          "[cell_text]") {
  const TypePtr tags = SetOf(kText);
  SECTION("every prefix of a valid value without its newline may wait") {
    for (const auto& [type, text] : std::vector<std::pair<TypePtr, std::string>>{
             {kInt, "-12345"},
             {tags, "{'alpha', 'beta'}"},
             {N(TypeKind::kTimestamp), "2018-07-23T11:04:22.432Z"},
             {N(TypeKind::kTimestamp), "2018-07-23 11:04 UTC"},
             {N(TypeKind::kTimestamp), "currentTimestamp()"},
             {N(TypeKind::kTimeuuid), "minTimeuuid('2018-07-23 06:00')"},
             {N(TypeKind::kUuid), "550e8400-e29b-41d4-a716-446655440000"},
             {N(TypeKind::kDouble), "-1.5e10"},
             {N(TypeKind::kBoolean), "false"}}) {
      for (size_t n = 1; n < text.size(); ++n) {
        std::string prefix = text.substr(0, n);
        INFO(type->ToCql() << " '" << prefix << "'");
        CHECK((ParseCellContent(*type, prefix).ok() || CouldBecomeValid(*type, prefix)));
      }
    }
  }
  SECTION("bytes outside the type's alphabet, or a final newline, end the wait") {
    CHECK_FALSE(CouldBecomeValid(*kInt, "12x"));
    CHECK_FALSE(CouldBecomeValid(*kInt, "-\n"));
    CHECK_FALSE(CouldBecomeValid(*tags, "{'a', 3\n"));
    CHECK_FALSE(CouldBecomeValid(*N(TypeKind::kBoolean), "yes"));
    CHECK(CouldBecomeValid(*tags, "{'a', 'it''s"));
    CHECK_FALSE(CouldBecomeValid(*tags, "{'a'}}"));
  }
}

}  // namespace
}  // namespace cellfs::fs
