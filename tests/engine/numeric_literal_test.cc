// Tests for the numeric literal codecs: integers, varint, float/double and
// decimal, text <-> Cassandra native-protocol bytes.
#include "engine/cql/internal/numeric_literal.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/cql/internal/big_integer.h"
#include "tests/engine/hex_test_util.h"

namespace cellfs {
namespace {

using testing::FromHex;
using testing::ToHex;

std::string RandomBytes(std::mt19937_64& rng, size_t size) {
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  return bytes;
}

// Parses text that must be accepted; the hex of the bytes.
std::string IntegerHex(TypeKind kind, std::string_view text) {
  std::string out;
  Status status = ParseIntegerLiteral(kind, text, &out);
  INFO(text << ": " << status.ToString());
  REQUIRE(status.ok());
  return ToHex(out);
}

Status IntegerError(TypeKind kind, std::string_view text) {
  std::string out = "untouched";
  Status status = ParseIntegerLiteral(kind, text, &out);
  CHECK(out == "untouched");
  return status;
}

std::string FloatHex(TypeKind kind, std::string_view text) {
  std::string out;
  Status status = ParseFloatingLiteral(kind, text, &out);
  INFO(text << ": " << status.ToString());
  REQUIRE(status.ok());
  return ToHex(out);
}

std::string DecimalHex(std::string_view text) {
  std::string out;
  Status status = ParseDecimalLiteral(text, &out);
  INFO(text << ": " << status.ToString());
  REQUIRE(status.ok());
  return ToHex(out);
}

// The serialized decimal unscaled * 10^-scale.
std::string DecimalBytes(std::string_view unscaled, int32_t scale) {
  std::string varint;
  REQUIRE(DecimalDigitsToVarint(unscaled, &varint).ok());
  const auto s = static_cast<uint32_t>(scale);
  std::string bytes = {static_cast<char>(s >> 24), static_cast<char>((s >> 16) & 0xff),
                       static_cast<char>((s >> 8) & 0xff), static_cast<char>(s & 0xff)};
  return bytes + varint;
}

// Minimal two's-complement form: no redundant leading sign byte.
bool IsMinimalVarint(std::string_view bytes) {
  if (bytes.size() < 2) return !bytes.empty();
  const auto b0 = static_cast<unsigned char>(bytes[0]);
  const auto b1 = static_cast<unsigned char>(bytes[1]);
  return !((b0 == 0x00 && (b1 & 0x80) == 0) || (b0 == 0xff && (b1 & 0x80) != 0));
}

const TypeKind kFixedIntegers[] = {TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
                                   TypeKind::kBigint, TypeKind::kCounter};

size_t WidthOf(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
      return 1;
    case TypeKind::kSmallint:
      return 2;
    case TypeKind::kInt:
      return 4;
    default:
      return 8;
  }
}

// ---- Integers ----------------------------------------------------------------

TEST_CASE("tinyint accepts its whole range as one two's-complement byte", "[numeric_literal]") {
  CHECK(IntegerHex(TypeKind::kTinyint, "0") == "00");
  CHECK(IntegerHex(TypeKind::kTinyint, "127") == "7f");
  CHECK(IntegerHex(TypeKind::kTinyint, "-128") == "80");
  CHECK(IntegerHex(TypeKind::kTinyint, "-1") == "ff");
  CHECK(IntegerHex(TypeKind::kTinyint, "+5") == "05");
}

TEST_CASE("smallint and int serialize big-endian two's complement", "[numeric_literal]") {
  CHECK(IntegerHex(TypeKind::kSmallint, "258") == "0102");
  CHECK(IntegerHex(TypeKind::kSmallint, "-32768") == "8000");
  CHECK(IntegerHex(TypeKind::kSmallint, "32767") == "7fff");
  CHECK(IntegerHex(TypeKind::kInt, "16909060") == "01020304");
  CHECK(IntegerHex(TypeKind::kInt, "-2147483648") == "80000000");
  CHECK(IntegerHex(TypeKind::kInt, "-2") == "fffffffe");
}

TEST_CASE("bigint and counter take eight bytes and the full int64 range", "[numeric_literal]") {
  for (TypeKind kind : {TypeKind::kBigint, TypeKind::kCounter}) {
    CHECK(IntegerHex(kind, "9223372036854775807") == "7fffffffffffffff");
    CHECK(IntegerHex(kind, "-9223372036854775808") == "8000000000000000");
    CHECK(IntegerHex(kind, "1") == "0000000000000001");
  }
}

TEST_CASE("integers accept leading zeros and a plus sign", "[numeric_literal]") {
  CHECK(IntegerHex(TypeKind::kInt, "007") == "00000007");
  CHECK(IntegerHex(TypeKind::kInt, "-0") == "00000000");
  CHECK(IntegerHex(TypeKind::kTinyint, "000000000000000000000000127") == "7f");
  CHECK(IntegerHex(TypeKind::kVarint, "+00042") == "2a");
}

TEST_CASE("an out-of-range integer names the value, the type and its range", "[numeric_literal]") {
  CHECK(IntegerError(TypeKind::kTinyint, "300").message() ==
        "value 300 is out of range for tinyint (-128..127)");
  CHECK(IntegerError(TypeKind::kTinyint, "-129").message() ==
        "value -129 is out of range for tinyint (-128..127)");
  CHECK(IntegerError(TypeKind::kSmallint, "32768").message() ==
        "value 32768 is out of range for smallint (-32768..32767)");
  CHECK(IntegerError(TypeKind::kInt, "2147483648").message() ==
        "value 2147483648 is out of range for int (-2147483648..2147483647)");
  CHECK(IntegerError(TypeKind::kBigint, "9223372036854775808").message() ==
        "value 9223372036854775808 is out of range for bigint "
        "(-9223372036854775808..9223372036854775807)");
  CHECK(IntegerError(TypeKind::kCounter, "-9223372036854775809").code() ==
        StatusCode::kInvalidArgument);
  CHECK(IntegerError(TypeKind::kBigint, "123456789012345678901234567890").code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("malformed integer text is rejected with the input quoted", "[numeric_literal]") {
  const char* bad[] = {"",    "+",   "-",   "1.0",   " 1",  "1 ", "0x10",
                       "1e3", "abc", "--1", "1_000", "+-1", "١٢"};
  for (TypeKind kind : {TypeKind::kTinyint, TypeKind::kInt, TypeKind::kBigint, TypeKind::kVarint}) {
    for (const char* text : bad) {
      Status status = IntegerError(kind, text);
      INFO(NativeTypeName(kind) << " '" << text << "'");
      CHECK(status.code() == StatusCode::kInvalidArgument);
      CHECK(status.message() == "'" + std::string(text) + "' is not a valid " +
                                    std::string(NativeTypeName(kind)) +
                                    ": expected an optional sign and decimal digits");
    }
  }
}

TEST_CASE("varint parses any size into minimal two's-complement bytes", "[numeric_literal]") {
  CHECK(IntegerHex(TypeKind::kVarint, "0") == "00");
  CHECK(IntegerHex(TypeKind::kVarint, "127") == "7f");
  CHECK(IntegerHex(TypeKind::kVarint, "128") == "0080");
  CHECK(IntegerHex(TypeKind::kVarint, "-128") == "80");
  CHECK(IntegerHex(TypeKind::kVarint, "-129") == "ff7f");
  CHECK(IntegerHex(TypeKind::kVarint, "18446744073709551616") == "010000000000000000");
  CHECK(IntegerHex(TypeKind::kVarint, "-9223372036854775809") == "ff7fffffffffffffff");
}

TEST_CASE("integer formatting reads big-endian two's complement", "[numeric_literal]") {
  CHECK(FormatIntegerLiteral(TypeKind::kTinyint, FromHex("ff")) == "-1");
  CHECK(FormatIntegerLiteral(TypeKind::kTinyint, FromHex("80")) == "-128");
  CHECK(FormatIntegerLiteral(TypeKind::kSmallint, FromHex("8000")) == "-32768");
  CHECK(FormatIntegerLiteral(TypeKind::kInt, FromHex("7fffffff")) == "2147483647");
  CHECK(FormatIntegerLiteral(TypeKind::kBigint, FromHex("8000000000000000")) ==
        "-9223372036854775808");
  CHECK(FormatIntegerLiteral(TypeKind::kCounter, FromHex("0000000000000000")) == "0");
  CHECK(FormatIntegerLiteral(TypeKind::kVarint, FromHex("ff7f")) == "-129");
  CHECK(FormatIntegerLiteral(TypeKind::kVarint, FromHex("0080")) == "128");
}

TEST_CASE("fixed-width integers round-trip exactly for random bytes", "[numeric_literal]") {
  std::mt19937_64 rng(20180723);
  for (TypeKind kind : kFixedIntegers) {
    for (int i = 0; i < 3000; ++i) {
      const std::string bytes = RandomBytes(rng, WidthOf(kind));
      const std::string text = FormatIntegerLiteral(kind, bytes);
      std::string parsed;
      INFO(NativeTypeName(kind) << " " << ToHex(bytes) << " -> " << text);
      REQUIRE(ParseIntegerLiteral(kind, text, &parsed).ok());
      CHECK(parsed == bytes);
      CHECK(FormatIntegerLiteral(kind, parsed) == text);
    }
  }
}

TEST_CASE("varint text round-trips for random byte strings", "[numeric_literal]") {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 3000; ++i) {
    const std::string bytes = RandomBytes(rng, 1 + rng() % 24);
    const std::string text = FormatIntegerLiteral(TypeKind::kVarint, bytes);
    std::string parsed;
    INFO(ToHex(bytes) << " -> " << text);
    REQUIRE(ParseIntegerLiteral(TypeKind::kVarint, text, &parsed).ok());
    CHECK(FormatIntegerLiteral(TypeKind::kVarint, parsed) == text);
    CHECK(IsMinimalVarint(parsed));
    if (IsMinimalVarint(bytes)) CHECK(parsed == bytes);
  }
}

// ---- Floating point ------------------------------------------------------------

TEST_CASE("float parses decimal and exponent forms to big-endian IEEE bits", "[numeric_literal]") {
  CHECK(FloatHex(TypeKind::kFloat, "1") == "3f800000");
  CHECK(FloatHex(TypeKind::kFloat, "-2.5") == "c0200000");
  CHECK(FloatHex(TypeKind::kFloat, "+1.5") == "3fc00000");
  CHECK(FloatHex(TypeKind::kFloat, "0.1") == "3dcccccd");
  CHECK(FloatHex(TypeKind::kFloat, "1e3") == "447a0000");
  CHECK(FloatHex(TypeKind::kFloat, "1E3") == "447a0000");
  CHECK(FloatHex(TypeKind::kFloat, "10E-1") == "3f800000");
  CHECK(FloatHex(TypeKind::kFloat, ".5") == "3f000000");
  CHECK(FloatHex(TypeKind::kFloat, "5.") == "40a00000");
  CHECK(FloatHex(TypeKind::kFloat, "-0") == "80000000");
  CHECK(FloatHex(TypeKind::kFloat, "3.4028235e38") == "7f7fffff");
}

TEST_CASE("double parses decimal and exponent forms to big-endian IEEE bits", "[numeric_literal]") {
  CHECK(FloatHex(TypeKind::kDouble, "0.1") == "3fb999999999999a");
  CHECK(FloatHex(TypeKind::kDouble, "1") == "3ff0000000000000");
  CHECK(FloatHex(TypeKind::kDouble, "-1e-2") == "bf847ae147ae147b");
  CHECK(FloatHex(TypeKind::kDouble, "1.7976931348623157e308") == "7fefffffffffffff");
  CHECK(FloatHex(TypeKind::kDouble, "5e-324") == "0000000000000001");
  CHECK(FloatHex(TypeKind::kDouble, "00000000000000000000000000000000000012.5e0") ==
        "4029000000000000");
}

TEST_CASE("NaN and Infinity are accepted in any letter case", "[numeric_literal]") {
  for (const char* text : {"NaN", "nan", "NAN"}) {
    CHECK(FloatHex(TypeKind::kFloat, text) == "7fc00000");
    CHECK(FloatHex(TypeKind::kDouble, text) == "7ff8000000000000");
  }
  for (const char* text : {"Infinity", "infinity", "+Infinity", "INFINITY"}) {
    CHECK(FloatHex(TypeKind::kFloat, text) == "7f800000");
    CHECK(FloatHex(TypeKind::kDouble, text) == "7ff0000000000000");
  }
  CHECK(FloatHex(TypeKind::kFloat, "-Infinity") == "ff800000");
  CHECK(FloatHex(TypeKind::kDouble, "-infinity") == "fff0000000000000");
}

TEST_CASE("a finite value too large for the type is an error, not Infinity", "[numeric_literal]") {
  struct Case {
    TypeKind kind;
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {TypeKind::kFloat, "1e40", "'1e40' is out of range for float"},
      {TypeKind::kFloat, "-1e39", "'-1e39' is out of range for float"},
      {TypeKind::kFloat, "3.5e38", "'3.5e38' is out of range for float"},
      {TypeKind::kDouble, "1e309", "'1e309' is out of range for double"},
      {TypeKind::kDouble, "0.001e312", "'0.001e312' is out of range for double"},
      {TypeKind::kDouble, "1e99999999999999999999",
       "'1e99999999999999999999' is out of range for double"},
  };
  for (const Case& c : cases) {
    std::string out = "untouched";
    Status status = ParseFloatingLiteral(c.kind, c.text, &out);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK(status.message() == c.message);
    CHECK(out == "untouched");
  }
}

TEST_CASE("a value too small for the type rounds to a signed zero, as Java does",
          "[numeric_literal]") {
  CHECK(FloatHex(TypeKind::kFloat, "1e-50") == "00000000");
  CHECK(FloatHex(TypeKind::kFloat, "-1e-50") == "80000000");
  CHECK(FloatHex(TypeKind::kFloat, "1e-45") == "00000001");  // smallest subnormal
  CHECK(FloatHex(TypeKind::kDouble, "1e-400") == "0000000000000000");
  CHECK(FloatHex(TypeKind::kDouble, "-0.0000001e-99999999999999999") == "8000000000000000");
}

TEST_CASE("malformed floating-point text is rejected", "[numeric_literal]") {
  const char* bad[] = {"",          " 1",    "1 ",  "0x1p3", "0x10", "1e",   "e5",
                       ".",         "1.2.3", "1f",  "1d",    "inf",  "-NaN", "+NaN",
                       "Infinityx", "1,5",   "--1", "1e+",   "+",    "Inf",  "NaN "};
  for (TypeKind kind : {TypeKind::kFloat, TypeKind::kDouble}) {
    for (const char* text : bad) {
      std::string out = "untouched";
      Status status = ParseFloatingLiteral(kind, text, &out);
      INFO(NativeTypeName(kind) << " '" << text << "'");
      CHECK(status.code() == StatusCode::kInvalidArgument);
      CHECK_THAT(status.message(), Catch::StartsWith("'" + std::string(text) + "' is not a valid " +
                                                     std::string(NativeTypeName(kind))));
      CHECK(out == "untouched");
    }
  }
  std::string out;
  CHECK(ParseFloatingLiteral(TypeKind::kFloat, "-NaN", &out).message() ==
        "'-NaN' is not a valid float: NaN takes no sign");
}

TEST_CASE("floating-point formatting is the shortest round-trip text", "[numeric_literal]") {
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("3dcccccd")) == "0.1");
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("3f800000")) == "1");
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("80000000")) == "-0");
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("7f7fffff")) == "3.4028235e+38");
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("00000001")) == "1e-45");
  CHECK(FormatFloatingLiteral(TypeKind::kDouble, FromHex("3fb999999999999a")) == "0.1");
  CHECK(FormatFloatingLiteral(TypeKind::kDouble, FromHex("4415af1d78b58c40")) == "1e+20");
  CHECK(FormatFloatingLiteral(TypeKind::kDouble, FromHex("c05ec00000000000")) == "-123");
}

TEST_CASE("every NaN formats as NaN and infinities by name", "[numeric_literal]") {
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("7fc00000")) == "NaN");
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("ffffffff")) == "NaN");
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("7f800001")) == "NaN");
  CHECK(FormatFloatingLiteral(TypeKind::kDouble, FromHex("fff8000000000001")) == "NaN");
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("7f800000")) == "Infinity");
  CHECK(FormatFloatingLiteral(TypeKind::kFloat, FromHex("ff800000")) == "-Infinity");
  CHECK(FormatFloatingLiteral(TypeKind::kDouble, FromHex("fff0000000000000")) == "-Infinity");
}

template <typename Bits>
bool IsNanBits(std::string_view bytes) {
  uint64_t raw = 0;
  for (char c : bytes) raw = (raw << 8) | static_cast<unsigned char>(c);
  if constexpr (sizeof(Bits) == 4) {
    return (raw & 0x7f800000) == 0x7f800000 && (raw & 0x007fffff) != 0;
  } else {
    return (raw & 0x7ff0000000000000) == 0x7ff0000000000000 && (raw & 0x000fffffffffffff) != 0;
  }
}

template <typename Bits>
void CheckFloatingRoundTrip(TypeKind kind, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 5000; ++i) {
    const std::string bytes = RandomBytes(rng, sizeof(Bits));
    const std::string text = FormatFloatingLiteral(kind, bytes);
    std::string parsed;
    INFO(ToHex(bytes) << " -> " << text);
    REQUIRE(ParseFloatingLiteral(kind, text, &parsed).ok());
    CHECK(FormatFloatingLiteral(kind, parsed) == text);
    if (!IsNanBits<Bits>(bytes)) CHECK(parsed == bytes);  // bit-exact, -0 included
  }
}

TEST_CASE("float text round-trips bit-exactly for random bits", "[numeric_literal]") {
  CheckFloatingRoundTrip<uint32_t>(TypeKind::kFloat, 7);
}

TEST_CASE("double text round-trips bit-exactly for random bits", "[numeric_literal]") {
  CheckFloatingRoundTrip<uint64_t>(TypeKind::kDouble, 11);
}

// ---- Decimal -------------------------------------------------------------------

TEST_CASE("decimal keeps the scale of its text", "[numeric_literal]") {
  CHECK(DecimalHex("1.50") ==
        "00000002"
        "0096");
  CHECK(DecimalHex("1E+3") ==
        "fffffffd"
        "01");
  CHECK(DecimalHex("-0.00") ==
        "00000002"
        "00");
  CHECK(DecimalHex("0") ==
        "00000000"
        "00");
  CHECK(DecimalHex("-1.5") ==
        "00000001"
        "f1");
  CHECK(DecimalHex("1.5e-7") ==
        "00000008"
        "0f");
  CHECK(DecimalHex(".5") ==
        "00000001"
        "05");
  CHECK(DecimalHex("5.") ==
        "00000000"
        "05");
  CHECK(DecimalHex("+12.345") ==
        "00000003"
        "3039");
  CHECK(DecimalHex("123456789012345678901234567890.5") ==
        "00000001" + ToHex(DecimalBytes("1234567890123456789012345678905", 0).substr(4)));
}

TEST_CASE("decimal formats as Java's BigDecimal.toPlainString, as Cassandra prints it",
          "[numeric_literal]") {
  struct Case {
    const char* unscaled;
    int32_t scale;
    std::string text;
  };
  const Case cases[] = {
      {"150", 2, "1.50"},
      {"1", -3, "1000"},
      {"15", 8, "0.00000015"},
      {"1", 6, "0.000001"},
      {"1", -1, "10"},
      {"1234500", 4, "123.4500"},
      {"-5", -100, "-5" + std::string(100, '0')},
      {"5", 101, "5E-101"},
      {"15", -399, "1.5E+400"},
      {"1", 7, "0.0000001"},
      {"0", 2, "0.00"},
      {"0", -2, "0"},
      {"0", 10, "0.0000000000"},
      {"-15", 1, "-1.5"},
      {"123", -1, "1230"},
      {"123", 0, "123"},
      {"12345", 3, "12.345"},
      {"1", 1, "0.1"},
      {"-1", 7, "-0.0000001"},
      {"123456", 8, "0.00123456"},
      {"12", 9, "0.000000012"},
      {"12", 7, "0.0000012"},
      {"-12", 8, "-0.00000012"},
      {"0", 0, "0"},
      {"7", 2147483647, "7E-2147483647"},
      {"-98765", -2147483648, "-9.8765E+2147483652"},
  };
  for (const Case& c : cases) {
    INFO(c.unscaled << " scale " << c.scale);
    CHECK(FormatDecimalLiteral(DecimalBytes(c.unscaled, c.scale)) == c.text);
  }
}

TEST_CASE("decimal accepts the other spellings of a number", "[numeric_literal]") {
  const std::pair<const char*, const char*> cases[] = {
      {"1e2", "100"},        {"1.5e-3", "0.0015"}, {"007.50", "7.50"},         {"-0", "0"},
      {"1E-7", "0.0000001"}, {"1E+1", "10"},       {"0.0000001", "0.0000001"}, {"12.5E+1", "125"},
      {"12.50e1", "125.0"},  {"+.25", "0.25"},     {"-12E-00", "-12"},
  };
  for (const auto& [text, canonical] : cases) {
    std::string bytes;
    INFO(text);
    REQUIRE(ParseDecimalLiteral(text, &bytes).ok());
    CHECK(FormatDecimalLiteral(bytes) == canonical);
  }
}

TEST_CASE("malformed decimal text is rejected", "[numeric_literal]") {
  const char* bad[] = {"",     "1.2.3", "NaN", "Infinity", "1e",  " 1",    "1 ",
                       "0x10", ".",     "e3",  "1,5",      "--1", "1e+-2", "1E3.5"};
  for (const char* text : bad) {
    std::string out = "untouched";
    Status status = ParseDecimalLiteral(text, &out);
    INFO("'" << text << "'");
    CHECK(status.message() ==
          "'" + std::string(text) +
              "' is not a valid decimal: expected decimal digits with an optional fraction and "
              "exponent");
    CHECK(out == "untouched");
  }
}

TEST_CASE("a decimal scale outside int32 is an error", "[numeric_literal]") {
  std::string out;
  CHECK(ParseDecimalLiteral("1e2147483648", &out).ok());  // scale -2^31 fits
  CHECK(ParseDecimalLiteral("1e-2147483647", &out).ok());
  CHECK(ParseDecimalLiteral("1e2147483649", &out).message() ==
        "'1e2147483649' is not a valid decimal: its scale -2147483649 does not fit in 32 bits");
  CHECK(ParseDecimalLiteral("1e-2147483648", &out).message() ==
        "'1e-2147483648' is not a valid decimal: its scale 2147483648 does not fit in 32 bits");
  CHECK(ParseDecimalLiteral("0.5e-2147483647", &out).code() == StatusCode::kInvalidArgument);
  CHECK(ParseDecimalLiteral("1e99999999999999999999999", &out).code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("decimal text round-trips for random scales and unscaled values", "[numeric_literal]") {
  std::mt19937_64 rng(1234);
  for (int i = 0; i < 4000; ++i) {
    // Small scales exercise plain notation; any int32 the scientific form.
    const auto scale = static_cast<int32_t>(i % 2 == 0 ? static_cast<int64_t>(rng() % 41) - 20
                                                       : static_cast<int32_t>(rng()));
    std::string bytes = DecimalBytes("0", scale).substr(0, 4) + RandomBytes(rng, 1 + rng() % 20);
    const std::string text = FormatDecimalLiteral(bytes);
    std::string parsed;
    INFO(ToHex(bytes) << " -> " << text);
    REQUIRE(ParseDecimalLiteral(text, &parsed).ok());
    CHECK(FormatDecimalLiteral(parsed) == text);
    // A negative scale within the plain range prints as an integer, which
    // parses back with scale 0: the same number in other bytes.
    const bool plain_integer = scale < 0 && scale >= -kMaxPlainScale;
    if (IsMinimalVarint(std::string_view(bytes).substr(4)) && !plain_integer) {
      CHECK(parsed == bytes);
    }
  }
}

TEST_CASE("numeric validation checks each type's serialized width", "[numeric_literal]") {
  CHECK(ValidateNumericValue(TypeKind::kTinyint, FromHex("01")).ok());
  CHECK(ValidateNumericValue(TypeKind::kInt, FromHex("01020304")).ok());
  CHECK(ValidateNumericValue(TypeKind::kCounter, std::string(8, '\0')).ok());
  CHECK(ValidateNumericValue(TypeKind::kDouble, std::string(8, '\0')).ok());
  CHECK(ValidateNumericValue(TypeKind::kVarint, FromHex("000001")).ok());
  CHECK(ValidateNumericValue(TypeKind::kDecimal, FromHex("00000000")).ok());
  CHECK(ValidateNumericValue(TypeKind::kInt, FromHex("010203")).message() ==
        "a int value is 4 bytes, got 3");
  CHECK(ValidateNumericValue(TypeKind::kFloat, std::string(8, '\0')).message() ==
        "a float value is 4 bytes, got 8");
  CHECK(ValidateNumericValue(TypeKind::kVarint, "").message() ==
        "a varint value needs at least 1 byte, got 0");
  CHECK(ValidateNumericValue(TypeKind::kDecimal, FromHex("000000")).message() ==
        "a decimal value needs at least 4 bytes, got 3");
  CHECK(ValidateNumericValue(TypeKind::kText, "x").code() == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cellfs
