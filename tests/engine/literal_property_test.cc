// Property tests for engine/cql/literal.h: over random values of many types,
// printing then parsing gives the same bytes back, as a literal and as a
// term; and random or damaged bytes never crash validation.
#include <catch2/catch.hpp>

#include "engine/cql/internal/cql_lexer.h"
#include "engine/cql/internal/term_parser.h"
#include "engine/cql/literal.h"
#include "tests/engine/literal_test_util.h"
#include "tests/engine/random_value.h"

namespace cellfs {
namespace {

using namespace literal_test;  // NOLINT: test shorthands

// Every native type, then collections, tuples and UDTs nesting them.
std::vector<TypePtr> TypesUnderTest() {
  std::vector<TypePtr> types;
  for (int k = 0; k <= static_cast<int>(TypeKind::kVarint); ++k) {
    types.push_back(N(static_cast<TypeKind>(k)));
  }
  const auto text = N(TypeKind::kText);
  const auto integer = N(TypeKind::kInt);
  types.push_back(ListOf(text));
  types.push_back(ListOf(N(TypeKind::kDuration)));
  types.push_back(SetOf(N(TypeKind::kDouble)));
  types.push_back(SetOf(N(TypeKind::kVarint)));
  types.push_back(SetOf(N(TypeKind::kTimeuuid)));
  types.push_back(SetOf(N(TypeKind::kDecimal)));
  types.push_back(SetOf(text));
  types.push_back(MapOf(text, ListOf(integer)));
  types.push_back(MapOf(N(TypeKind::kTimestamp), N(TypeKind::kInet)));
  types.push_back(MapOf(N(TypeKind::kDate), N(TypeKind::kTime)));
  types.push_back(TupleOf({integer, text, N(TypeKind::kBoolean)}));
  types.push_back(
      TupleOf({N(TypeKind::kBlob), TupleOf({N(TypeKind::kUuid), N(TypeKind::kAscii)})}));
  types.push_back(Address());
  types.push_back(SetOf(Address()));
  types.push_back(ListOf(MapOf(N(TypeKind::kBigint), SetOf(N(TypeKind::kFloat)))));
  types.push_back(MapOf(TupleOf({text, integer}), Address()));
  types.push_back(CqlType::List(SetOf(N(TypeKind::kSmallint)), false));  // non-frozen outer
  return types;
}

// Whether a value of `type` may print to text that parses back to an equal
// value in other bytes (literal.h): a decimal of negative scale, a UDT
// stored with fewer fields than its type. For those, the text must be
// stable instead: printing the parsed value gives the same text.
bool HasRespelledValues(const CqlType& type) {
  if (type.kind() == TypeKind::kDecimal || type.kind() == TypeKind::kUdt) return true;
  for (const auto& param : type.params()) {
    if (HasRespelledValues(*param)) return true;
  }
  return false;
}

TEST_CASE("every valid value prints to a literal that parses back to it", "[literal][property]") {
  RandomValues random(20240601);
  for (const TypePtr& type : TypesUnderTest()) {
    for (int iteration = 0; iteration < 400; ++iteration) {
      const std::string value = random.Value(*type);
      INFO(type->ToCql() << " value " << ToHex(value));
      REQUIRE(ValidateValue(*type, value).ok());
      const std::string text = FormatLiteral(*type, value);
      INFO("literal: " << text);
      Result<std::string> parsed = ParseLiteral(*type, text);
      INFO(parsed.status().ToString());
      REQUIRE(parsed.ok());
      if (HasRespelledValues(*type)) {
        CHECK(FormatLiteral(*type, *parsed) == text);
      } else {
        CHECK(ToHex(*parsed) == ToHex(value));
      }
    }
  }
}

TEST_CASE("every valid value prints to a term that ParseTerm reads back", "[literal][property]") {
  RandomValues random(77);
  for (const TypePtr& type : TypesUnderTest()) {
    for (int iteration = 0; iteration < 400; ++iteration) {
      // Nested-style values: empty ones too, spelled as conversion calls.
      const std::string value = random.Value(*type, !type->is_collection());
      const std::string term = FormatTerm(*type, value);
      INFO(type->ToCql() << " value " << ToHex(value) << " term: " << term);
      CqlLexer lexer(term);
      std::string parsed;
      Status status = ParseTerm(*type, lexer, &parsed);
      INFO(status.ToString());
      REQUIRE(status.ok());
      CHECK(lexer.Next().kind == TokenKind::kEnd);
      if (HasRespelledValues(*type)) {
        CHECK(FormatTerm(*type, parsed) == term);
      } else {
        CHECK(ToHex(parsed) == ToHex(value));
      }
    }
  }
}

TEST_CASE("whatever ParseLiteral accepts validates and prints canonically", "[literal][property]") {
  // Respelling each canonical literal in a non-canonical but accepted way
  // must give the same bytes: case changes and extra white space.
  RandomValues random(5);
  for (const TypePtr& type : TypesUnderTest()) {
    if (type->is_native()) continue;
    for (int iteration = 0; iteration < 200; ++iteration) {
      const std::string value = random.Value(*type);
      const std::string text = FormatLiteral(*type, value);
      std::string spaced;
      bool in_string = false;
      for (char c : text) {
        if (c == '\'') in_string = !in_string;
        spaced += c;
        if (!in_string && (c == ',' || c == '[' || c == '{' || c == '(' || c == ':'))
          spaced += "  ";
      }
      INFO(type->ToCql() << " literal: " << text << " respelled: " << spaced);
      Result<std::string> parsed = ParseLiteral(*type, spaced);
      INFO(parsed.status().ToString());
      REQUIRE(parsed.ok());
      CHECK(ValidateValue(*type, *parsed).ok());
      CHECK(FormatLiteral(*type, *parsed) == text);
    }
  }
}

TEST_CASE("random and damaged bytes never crash validation, and what validates round-trips",
          "[literal][property]") {
  RandomValues random(99);
  size_t accepted = 0;
  for (const TypePtr& type : TypesUnderTest()) {
    for (int iteration = 0; iteration < 600; ++iteration) {
      std::string value = random.Value(*type);
      switch (random.Below(4)) {
        case 0:
          value = random.Bytes(random.Below(24));
          break;
        case 1:
          if (!value.empty())
            value[random.Below(value.size())] ^= static_cast<char>(1 + random.Below(255));
          break;
        case 2:
          value.resize(random.Below(value.size() + 1));
          break;
        default:
          value += random.Bytes(1 + random.Below(4));
      }
      if (!ValidateValue(*type, value).ok()) continue;
      if (value.empty()) continue;  // the empty value's spelling is covered elsewhere
      ++accepted;
      const std::string text = FormatLiteral(*type, value);
      INFO(type->ToCql() << " value " << ToHex(value) << " literal: " << text);
      Result<std::string> parsed = ParseLiteral(*type, text);
      INFO(parsed.status().ToString());
      REQUIRE(parsed.ok());
      if (HasRespelledValues(*type)) {
        CHECK(FormatLiteral(*type, *parsed) == text);
      } else {
        CHECK(ToHex(*parsed) == ToHex(value));
      }
    }
  }
  CHECK(accepted > 1000);  // the property was exercised, not vacuous
}

TEST_CASE("random text never crashes the parsers", "[literal][property]") {
  RandomValues random(123);
  static constexpr char kAlphabet[] = "[]{}(),:'\"$-0123456789abcdefxXpPtTnNuLl.eE+ \n/*";
  for (const TypePtr& type : TypesUnderTest()) {
    for (int iteration = 0; iteration < 300; ++iteration) {
      std::string text(random.Below(16), ' ');
      for (char& c : text) c = kAlphabet[random.Below(sizeof kAlphabet - 1)];
      Result<std::string> parsed = ParseLiteral(*type, text);
      if (parsed.ok()) {
        INFO(type->ToCql() << " literal: " << text);
        CHECK(ValidateValue(*type, *parsed).ok());
      } else {
        CHECK(parsed.status().code() == StatusCode::kInvalidArgument);
      }
    }
  }
}

}  // namespace
}  // namespace cellfs
