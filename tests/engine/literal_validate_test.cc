// Tests for ValidateValue (engine/cql/literal.h) and the UTF-8 and collection
// framing helpers beneath it: widths, encodings, framing, order, nesting.
#include <catch2/catch.hpp>
#include <random>

#include "engine/cql/collection_codec.h"
#include "engine/cql/internal/utf8.h"
#include "engine/cql/literal.h"
#include "tests/engine/literal_test_util.h"

namespace cellfs {
namespace {

using Catch::Matchers::Contains;
using namespace literal_test;  // NOLINT: test shorthands

std::string Invalid(const CqlType& type, std::string_view value) {
  Status status = ValidateValue(type, value);
  INFO(type.ToCql() << " value: " << ToHex(value));
  REQUIRE_FALSE(status.ok());
  CHECK(status.code() == StatusCode::kInvalidArgument);
  return status.message();
}

bool Valid(const CqlType& type, std::string_view value) { return ValidateValue(type, value).ok(); }

std::vector<TypePtr> EveryNativeType() {
  std::vector<TypePtr> types;
  for (int k = 0; k <= static_cast<int>(TypeKind::kVarint); ++k) {
    types.push_back(N(static_cast<TypeKind>(k)));
  }
  return types;
}

// --- UTF-8 ---

TEST_CASE("FindInvalidUtf8 accepts every boundary code point", "[literal][utf8]") {
  for (std::string_view ok :
       {"", "\x7f", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80",
        "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"}) {
    CHECK(FindInvalidUtf8(ok) == std::string_view::npos);
  }
}

TEST_CASE("FindInvalidUtf8 finds the first ill-formed sequence", "[literal][utf8]") {
  CHECK(FindInvalidUtf8("\x80") == 0);              // stray continuation
  CHECK(FindInvalidUtf8("ab\xc1\xbf") == 2);        // overlong 2-byte
  CHECK(FindInvalidUtf8("\xe0\x9f\xbf") == 0);      // overlong 3-byte
  CHECK(FindInvalidUtf8("\xf0\x8f\xbf\xbf") == 0);  // overlong 4-byte
  CHECK(FindInvalidUtf8("x\xed\xa0\x80") == 1);     // high surrogate
  CHECK(FindInvalidUtf8("\xed\xbf\xbf") == 0);      // low surrogate
  CHECK(FindInvalidUtf8("\xf4\x90\x80\x80") == 0);  // U+110000
  CHECK(FindInvalidUtf8("\xf5\x80\x80\x80") == 0);  // beyond any plane
  CHECK(FindInvalidUtf8("\xff") == 0);
  CHECK(FindInvalidUtf8("ok\xe2\x82") == 2);    // truncated at the end
  CHECK(FindInvalidUtf8("\xe2\x28\xa1") == 0);  // bad continuation
  CHECK(FindInvalidUtf8("\xc3\xa9\xc3") == 2);
}

// A deliberately different decoder: computes each code point, then rejects
// overlong, surrogate and out-of-range results.
bool ReferenceIsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto lead = static_cast<unsigned char>(s[i]);
    size_t extra = 0;
    uint32_t cp = 0;
    if (lead < 0x80) {
      cp = lead;
    } else if ((lead & 0xE0) == 0xC0) {
      extra = 1;
      cp = lead & 0x1Fu;
    } else if ((lead & 0xF0) == 0xE0) {
      extra = 2;
      cp = lead & 0x0Fu;
    } else if ((lead & 0xF8) == 0xF0) {
      extra = 3;
      cp = lead & 0x07u;
    } else {
      return false;
    }
    if (s.size() - i <= extra) return false;  // cut short
    for (size_t k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    static constexpr uint32_t kMinimum[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMinimum[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

TEST_CASE("FindInvalidUtf8 finds a bad byte anywhere in long ASCII runs", "[literal][utf8]") {
  // The scan takes eight ASCII bytes at a time: bad bytes at every offset
  // around and across those words must still be found where they are.
  for (size_t length = 0; length < 40; ++length) {
    std::string ascii(length, 'a');
    CHECK(FindInvalidUtf8(ascii) == std::string_view::npos);
    for (size_t at = 0; at <= length; ++at) {
      std::string bad = ascii;
      bad.insert(at, "\xff");
      CHECK(FindInvalidUtf8(bad) == at);
      std::string good = ascii;
      good.insert(at, "\xc3\xa9");
      CHECK(FindInvalidUtf8(good) == std::string_view::npos);
    }
  }
}

TEST_CASE("FindInvalidUtf8 agrees with a reference decoder on random bytes", "[literal][utf8]") {
  std::mt19937_64 rng(7);
  // Bytes drawn from the interesting lead and continuation values.
  static constexpr unsigned char kPool[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0,
                                            0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed,
                                            0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff};
  for (int iteration = 0; iteration < 200000; ++iteration) {
    std::string s(rng() % 6, '\0');
    for (char& c : s) c = static_cast<char>(kPool[rng() % sizeof kPool]);
    INFO(ToHex(s));
    CHECK((FindInvalidUtf8(s) == std::string_view::npos) == ReferenceIsValidUtf8(s));
  }
}

// --- native values ---

TEST_CASE("the empty value is valid for every type", "[literal][validate]") {
  for (const TypePtr& type : EveryNativeType()) CHECK(Valid(*type, ""));
  CHECK(Valid(*ListOf(N(TypeKind::kInt)), ""));
  CHECK(Valid(*MapOf(N(TypeKind::kInt), N(TypeKind::kInt)), ""));
  CHECK(Valid(*Address(), ""));
  CHECK(Valid(*TupleOf({N(TypeKind::kInt)}), ""));
}

TEST_CASE("fixed-width types need exactly their width", "[literal][validate]") {
  CHECK(Valid(*N(TypeKind::kInt), FromHex("00000001")));
  CHECK_THAT(Invalid(*N(TypeKind::kInt), FromHex("000001")), Contains("4 bytes, got 3"));
  CHECK_THAT(Invalid(*N(TypeKind::kBigint), FromHex("00")), Contains("8 bytes, got 1"));
  CHECK_THAT(Invalid(*N(TypeKind::kUuid), FromHex("00")), Contains("uuid value is 16 bytes"));
  CHECK_THAT(Invalid(*N(TypeKind::kDouble), FromHex("0000")), Contains("double"));
  CHECK_THAT(Invalid(*N(TypeKind::kTimestamp), FromHex("0000")), Contains("timestamp"));
  CHECK_THAT(Invalid(*N(TypeKind::kDate), FromHex("00")), Contains("date"));
}

TEST_CASE("a boolean is one byte, 0 or 1", "[literal][validate]") {
  CHECK(Valid(*N(TypeKind::kBoolean), FromHex("01")));
  CHECK_THAT(Invalid(*N(TypeKind::kBoolean), FromHex("02")), Contains("invalid boolean byte 0x02"));
  CHECK_THAT(Invalid(*N(TypeKind::kBoolean), FromHex("0000")), Contains("1 byte, got 2"));
}

TEST_CASE("text must be UTF-8 and ascii below 0x80", "[literal][validate]") {
  CHECK(Valid(*N(TypeKind::kText), "\xe2\x9c\x93"));
  CHECK_THAT(Invalid(*N(TypeKind::kText), "a\xed\xa0\x80"),
             Contains("invalid UTF-8") && Contains("byte 1"));
  CHECK_THAT(Invalid(*N(TypeKind::kAscii), "\x80"), Contains("non-ASCII byte 0x80"));
  CHECK(Valid(*N(TypeKind::kBlob), "\xff\x00\x80"));
}

TEST_CASE("a timeuuid must carry version 1", "[literal][validate]") {
  CHECK(Valid(*N(TypeKind::kTimeuuid), FromHex("00000000 0000 1000 0000 000000000000")));
  CHECK_THAT(Invalid(*N(TypeKind::kTimeuuid), FromHex("00000000 0000 4000 8000 000000000000")),
             Contains("version 1") && Contains("got version 4"));
  CHECK(Valid(*N(TypeKind::kUuid), FromHex("00000000 0000 4000 8000 000000000000")));
}

TEST_CASE("an inet is 4 or 16 bytes", "[literal][validate]") {
  CHECK(Valid(*N(TypeKind::kInet), FromHex("7f000001")));
  CHECK(Valid(*N(TypeKind::kInet), std::string(16, '\0')));
  CHECK_THAT(Invalid(*N(TypeKind::kInet), FromHex("7f0000")), Contains("4 or 16 bytes, got 3"));
}

TEST_CASE("varints and decimal unscaled values must be minimal", "[literal][validate]") {
  const auto varint = N(TypeKind::kVarint);
  CHECK(Valid(*varint, FromHex("00")));
  CHECK(Valid(*varint, FromHex("0080")));
  CHECK(Valid(*varint, FromHex("ff7f")));
  CHECK_THAT(Invalid(*varint, FromHex("0001")), Contains("minimal"));
  CHECK_THAT(Invalid(*varint, FromHex("ff80")), Contains("minimal"));
  const auto decimal = N(TypeKind::kDecimal);
  CHECK(Valid(*decimal, FromHex("00000002 96")));
  CHECK_THAT(Invalid(*decimal, FromHex("00000002")), Contains("unscaled part is empty"));
  CHECK_THAT(Invalid(*decimal, FromHex("00000002 0001")), Contains("not minimal"));
  CHECK_THAT(Invalid(*decimal, FromHex("000002")), Contains("decimal"));
}

TEST_CASE("a NaN must be the canonical quiet NaN", "[literal][validate]") {
  CHECK(Valid(*N(TypeKind::kFloat), FromHex("7fc00000")));
  CHECK(Valid(*N(TypeKind::kFloat), FromHex("7f800000")));  // Infinity
  CHECK_THAT(Invalid(*N(TypeKind::kFloat), FromHex("7fc00001")), Contains("canonical quiet NaN"));
  CHECK_THAT(Invalid(*N(TypeKind::kFloat), FromHex("ffc00000")), Contains("NaN"));
  CHECK(Valid(*N(TypeKind::kDouble), FromHex("7ff8000000000000")));
  CHECK_THAT(Invalid(*N(TypeKind::kDouble), FromHex("7ff0000000000001")), Contains("NaN"));
}

TEST_CASE("times stay within a day and durations are well-formed vints", "[literal][validate]") {
  CHECK(Valid(*N(TypeKind::kTime), FromHex("00004e94914effff")));  // 86399999999999
  CHECK_FALSE(Valid(*N(TypeKind::kTime), FromHex("00004e94914f0000")));
  CHECK_FALSE(Valid(*N(TypeKind::kTime), FromHex("ffffffffffffffff")));
  CHECK(Valid(*N(TypeKind::kDuration), FromHex("02 04 06")));  // 1mo2d3ns
  CHECK_FALSE(Valid(*N(TypeKind::kDuration), FromHex("02 04")));
  CHECK_FALSE(Valid(*N(TypeKind::kDuration), FromHex("02 03 06")));  // mixed signs
  CHECK_FALSE(Valid(*N(TypeKind::kDuration), FromHex("02 04 06 00")));
}

// --- framing ---

TEST_CASE("collection framing errors are reported", "[literal][validate]") {
  const auto list = ListOf(N(TypeKind::kInt));
  CHECK(Valid(*list, FromHex("00000000")));
  CHECK_THAT(Invalid(*list, FromHex("000000")), Contains("truncated element count"));
  CHECK_THAT(Invalid(*list, FromHex("ffffffff")), Contains("negative element count -1"));
  CHECK_THAT(Invalid(*list, FromHex("7fffffff 00000004 00000001")),
             Contains("element count 2147483647 does not fit in 12 bytes"));
  CHECK_THAT(Invalid(*list, FromHex("00000001 ffffffff")), Contains("null element 0"));
  CHECK_THAT(Invalid(*list, FromHex("00000001 00000004 0000")),
             Contains("element 0 of 4 bytes is truncated to 2"));
  CHECK_THAT(Invalid(*list, FromHex("00000001 00000004 00000001 00")),
             Contains("1 unexpected bytes after the last element"));
  CHECK_THAT(Invalid(*list, FromHex("00000002 00000004 00000001 0000")),
             Contains("truncated length of element 1"));
  CHECK_THAT(Invalid(*MapOf(N(TypeKind::kInt), N(TypeKind::kInt)),
                     FromHex("00000001 00000004 00000001 ffffffff")),
             Contains("null value 0"));
}

TEST_CASE("elements are validated recursively, with their path in the message",
          "[literal][validate]") {
  CHECK(
      Invalid(*ListOf(N(TypeKind::kInt)), FromHex("00000002 00000004 00000001 00000003 000001")) ==
      "invalid frozen<list<int>> value: element 1: a int value is 4 bytes, got 3");
  const auto nested = MapOf(N(TypeKind::kText), ListOf(N(TypeKind::kBoolean)));
  CHECK_THAT(Invalid(*nested, FromHex("00000001 00000001 61 00000009 00000001 00000001 07")),
             Contains("value 0: element 0: invalid boolean byte 0x07"));
  CHECK_THAT(Invalid(*Address(), FromHex("ffffffff 00000001 ff")),
             Contains("field city: invalid UTF-8"));
  CHECK_THAT(Invalid(*TupleOf({N(TypeKind::kInt)}), FromHex("00000001 00")),
             Contains("component 0: a int value is 4 bytes, got 1"));
}

TEST_CASE("sets and map keys must be strictly increasing in the type's order",
          "[literal][validate]") {
  const auto set = SetOf(N(TypeKind::kInt));
  CHECK(Valid(*set, FromHex("00000002 00000004 ffffffff 00000004 00000001")));
  CHECK_THAT(Invalid(*set, FromHex("00000002 00000004 00000001 00000004 ffffffff")),
             Contains("element 1 sorts before element 0"));
  CHECK_THAT(Invalid(*set, FromHex("00000002 00000004 00000001 00000004 00000001")),
             Contains("element 1 duplicates element 0"));
  const auto map = MapOf(N(TypeKind::kText), N(TypeKind::kInt));
  CHECK_THAT(Invalid(*map, FromHex("00000002 00000001 62 00000004 00000001 00000001 61 "
                                   "00000004 00000001")),
             Contains("key 1 sorts before key 0"));
  // Lists keep any order.
  CHECK(Valid(*ListOf(N(TypeKind::kInt)), FromHex("00000002 00000004 00000001 00000004 ffffffff")));
}

TEST_CASE("tuples and UDTs may hold fewer components than the type, never more",
          "[literal][validate]") {
  const auto tuple = TupleOf({N(TypeKind::kInt), N(TypeKind::kText)});
  CHECK(Valid(*tuple, FromHex("00000004 00000001")));
  CHECK(Valid(*tuple, FromHex("ffffffff ffffffff")));
  CHECK_THAT(Invalid(*tuple, FromHex("ffffffff ffffffff ffffffff")),
             Contains("more than 2 components"));
  CHECK_THAT(Invalid(*tuple, FromHex("fffffffe")), Contains("invalid length -2 of component 0"));
  CHECK_THAT(Invalid(*tuple, FromHex("000000")), Contains("truncated length of component 0"));
  CHECK_THAT(Invalid(*tuple, FromHex("00000008 00")), Contains("component 0 of 8 bytes"));
  CHECK_THAT(Invalid(*Address(), FromHex("ffffffff ffffffff ffffffff ffffffff")),
             Contains("more than 3 components"));
}

TEST_CASE("an empty element is valid unless it is a collection", "[literal][validate]") {
  CHECK(Valid(*ListOf(N(TypeKind::kInt)), FromHex("00000001 00000000")));
  CHECK(Valid(*ListOf(Address()), FromHex("00000001 00000000")));
  CHECK_THAT(Invalid(*ListOf(ListOf(N(TypeKind::kInt))), FromHex("00000001 00000000")),
             Contains("element 0: empty (0-byte) frozen<list<int>> value"));
  CHECK(Valid(*ListOf(ListOf(N(TypeKind::kInt))), FromHex("00000001 00000004 00000000")));
}

TEST_CASE("collection codec packing and unpacking are inverse", "[literal][validate]") {
  std::mt19937_64 rng(11);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::vector<std::string> items(2 * (rng() % 5));
    for (auto& item : items) item = std::string(rng() % 6, static_cast<char>(rng()));
    for (size_t per : {size_t{1}, size_t{2}}) {
      const std::string packed = PackCollection(items, per);
      std::vector<std::string_view> views;
      REQUIRE(UnpackCollection(packed, per, &views).ok());
      CHECK(std::vector<std::string>(views.begin(), views.end()) == items);
    }
    std::vector<std::optional<std::string>> components;
    for (const auto& item : items) {
      components.push_back(rng() % 3 == 0 ? std::nullopt : std::optional<std::string>(item));
    }
    std::vector<std::optional<std::string_view>> unpacked;
    const std::string packed = PackComponents(components);
    REQUIRE(UnpackComponents(packed, components.size(), &unpacked).ok());
    REQUIRE(unpacked.size() == components.size());
    for (size_t i = 0; i < components.size(); ++i) {
      CHECK(unpacked[i].has_value() == components[i].has_value());
      if (components[i] && unpacked[i]) CHECK(*unpacked[i] == *components[i]);
    }
  }
}

}  // namespace
}  // namespace cellfs
