// Contracts between the key codec and literals (engine/cql/key_codec.h,
// engine/cql/literal.h): what the codec decodes validates, prints and parses
// back, and the two modules agree on which set elements are equal.
#include <catch2/catch.hpp>

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "tests/engine/literal_test_util.h"
#include "tests/engine/random_value.h"

namespace cellfs {
namespace {

using namespace literal_test;  // NOLINT: test shorthands

// Every key-capable native type, then frozen collections, tuples and UDTs.
std::vector<TypePtr> KeyTypesUnderTest() {
  std::vector<TypePtr> types;
  for (int k = 0; k <= static_cast<int>(TypeKind::kVarint); ++k) {
    const TypePtr type = N(static_cast<TypeKind>(k));
    if (type->CheckKeyCapable().ok()) types.push_back(type);
  }
  const auto text = N(TypeKind::kText);
  const auto integer = N(TypeKind::kInt);
  const auto decimal = N(TypeKind::kDecimal);
  types.push_back(SetOf(decimal));
  types.push_back(SetOf(TupleOf({integer, integer})));
  types.push_back(SetOf(TupleOf({decimal, N(TypeKind::kDouble)})));
  types.push_back(MapOf(decimal, ListOf(decimal)));
  types.push_back(MapOf(TupleOf({text, integer}), Address()));
  types.push_back(ListOf(SetOf(N(TypeKind::kVarint))));
  types.push_back(TupleOf({decimal, TupleOf({integer, decimal}), integer}));
  types.push_back(TupleOf({integer, integer}));
  types.push_back(Address());
  types.push_back(SetOf(Address()));
  types.push_back(ListOf(MapOf(N(TypeKind::kTimeuuid), SetOf(N(TypeKind::kFloat)))));
  return types;
}

TEST_CASE("every decoded key component validates, prints, and parses back to the same key",
          "[key_codec][literal][property]") {
  RandomValues random(31337);
  for (const TypePtr& type : KeyTypesUnderTest()) {
    for (SortOrder order : {SortOrder::kAsc, SortOrder::kDesc}) {
      for (int iteration = 0; iteration < 300; ++iteration) {
        const std::string value = random.Value(*type);
        INFO(type->ToCql() << " value " << ToHex(value));
        REQUIRE(ValidateValue(*type, value).ok());
        std::string encoded;
        EncodeKeyComponent(*type, value, order, &encoded);
        std::string_view in = encoded;
        std::string decoded;
        Status status = DecodeKeyComponent(*type, order, &in, &decoded);
        INFO("decoded " << ToHex(decoded) << ": " << status.ToString());
        REQUIRE(status.ok());
        CHECK(in.empty());
        Status valid = ValidateValue(*type, decoded);
        INFO(valid.ToString());
        REQUIRE(valid.ok());
        std::string reencoded;
        EncodeKeyComponent(*type, decoded, order, &reencoded);
        CHECK(ToHex(reencoded) == ToHex(encoded));
        if (decoded.empty()) continue;
        const std::string text = FormatLiteral(*type, decoded);
        INFO("literal " << text);
        Result<std::string> parsed = ParseLiteral(*type, text);
        INFO(parsed.status().ToString());
        REQUIRE(parsed.ok());
        // The text may come back in other bytes of the same key (a decimal
        // of negative scale, a UDT without its trailing nulls: literal.h);
        // the codec's encoding is the key's identity.
        std::string from_text;
        EncodeKeyComponent(*type, *parsed, order, &from_text);
        CHECK(ToHex(from_text) == ToHex(encoded));
        CHECK(FormatLiteral(*type, *parsed) == text);
      }
    }
  }
}

TEST_CASE("a tuple with a trailing null and the same tuple without it are one set element",
          "[key_codec][literal]") {
  // Cassandra ranks (1, null) equal to (1); the key codec encodes them alike,
  // so sets keep one of them and a serialized set holding both is invalid.
  const auto set = SetOf(TupleOf({N(TypeKind::kInt), N(TypeKind::kInt)}));
  const std::string one = Parse(*set, "{(1)}");
  CHECK(ToHex(Parse(*set, "{(1), (1, null)}")) == ToHex(one));
  CHECK(FormatLiteral(*set, Parse(*set, "{(1, null), (1)}")) == "{(1, null)}");
  const std::string both =
      FromHex("00000002 00000008 00000004 00000001 0000000c 00000004 00000001 ffffffff");
  CHECK(ValidateValue(*set, both).message() ==
        "invalid frozen<set<tuple<int, int>>> value: element 1 duplicates element 0");
  // A key made from either spelling decodes to the same valid value.
  std::string a;
  std::string b;
  EncodeKeyComponent(*set, one, SortOrder::kAsc, &a);
  EncodeKeyComponent(*set, Parse(*set, "{(1, null)}"), SortOrder::kAsc, &b);
  CHECK(ToHex(a) == ToHex(b));
  std::string_view in = a;
  std::string decoded;
  REQUIRE(DecodeKeyComponent(*set, SortOrder::kAsc, &in, &decoded).ok());
  CHECK(ValidateValue(*set, decoded).ok());
  CHECK(FormatLiteral(*set, decoded) == "{(1)}");
}

TEST_CASE("a tuple of nulls only decodes to a single null that prints and parses back",
          "[key_codec][literal]") {
  const auto tuple = TupleOf({N(TypeKind::kInt), N(TypeKind::kText)});
  std::string key;
  EncodeKeyComponent(*tuple, Parse(*tuple, "(null, null)"), SortOrder::kDesc, &key);
  std::string_view in = key;
  std::string decoded;
  REQUIRE(DecodeKeyComponent(*tuple, SortOrder::kDesc, &in, &decoded).ok());
  CHECK(ToHex(decoded) == "ff ff ff ff");
  CHECK(FormatLiteral(*tuple, decoded) == "(null)");
  CHECK(ToHex(Parse(*tuple, "(null)")) == ToHex(decoded));
}

TEST_CASE("an inet of the wrong width prints as nothing instead of reading past its end",
          "[literal]") {
  // The key codec decodes any byte string for an inet (its encoder takes
  // invalid values too); printing one must stay memory-safe.
  CHECK(FormatLiteral(*N(TypeKind::kInet), FromHex("0a0001")).empty());
  CHECK(FormatLiteral(*N(TypeKind::kInet), std::string(15, '\x01')).empty());
  CHECK(FormatLiteral(*N(TypeKind::kInet), FromHex("0a000001")) == "10.0.0.1");
}

TEST_CASE("collection counts far beyond the value's size are refused before allocating",
          "[literal][key_codec]") {
  // 2^31 - 1 elements claimed in 12 bytes.
  const std::string bomb = FromHex("7fffffff 00000004 00000001");
  const auto list = ListOf(N(TypeKind::kInt));
  CHECK(ValidateValue(*list, bomb).message() ==
        "invalid frozen<list<int>> value: element count 2147483647 does not fit in 12 bytes");
  CHECK(FormatLiteral(*list, bomb).empty());
  const auto map = MapOf(N(TypeKind::kInt), N(TypeKind::kInt));
  CHECK_FALSE(ValidateValue(*map, FromHex("40000000 00000004 00000001 00000004 00000001")).ok());
  std::string key;  // encoding an invalid value stops at the end of the bytes
  EncodeKeyComponent(*list, bomb, SortOrder::kAsc, &key);
  CHECK(ToHex(key) == "03 03 80 00 00 01 00");
}

}  // namespace
}  // namespace cellfs
