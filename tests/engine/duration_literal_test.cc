// Tests for the duration literal codec: the standard and ISO 8601
// spellings, Cassandra's canonical text, and the zigzag VIntCoding bytes.
#include "engine/cql/internal/duration_literal.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include "engine/cql/internal/varint_codec.h"
#include "tests/engine/hex_test_util.h"
#include "tests/engine/text_codec_test_util.h"

namespace cellfs {
namespace {

using testing::FromHex;
using testing::MustFail;
using testing::MustParse;
using testing::ToHex;

std::string DurationHex(std::string_view text) {
  return ToHex(MustParse(ParseDurationLiteral, text));
}

std::string DurationHex(int32_t months, int32_t days, int64_t nanos) {
  return ToHex(EncodeDuration({months, days, nanos}));
}

TEST_CASE("duration parts are zigzag vints in Cassandra's VIntCoding", "[duration_literal]") {
  CHECK(DurationHex(0, 0, 0) == "000000");
  CHECK(DurationHex(1, 0, 0) == "020000");
  CHECK(DurationHex(-1, 0, 0) == "010000");
  CHECK(DurationHex(0, 63, 0) == "007e00");
  CHECK(DurationHex(0, 0, 64) == "00008080");  // 128 needs a second byte
  CHECK(DurationHex(0, 0, -65) == "00008081");
  CHECK(DurationHex(0, 0, 8191) == "0000bffe");  // 14 bits: the most two bytes hold
  CHECK(DurationHex(0, 0, 8192) == "0000c04000");
  CHECK(DurationHex(INT32_MAX, 0, 0) == "f0fffffffe0000");
  CHECK(DurationHex(INT32_MIN, 0, 0) == "f0ffffffff0000");
  CHECK(DurationHex(0, 0, INT64_MAX) == "0000fffffffffffffffffe");
  CHECK(DurationHex(0, 0, INT64_MIN) == "0000ffffffffffffffffff");
  CHECK(DurationHex(0, 0, int64_t{1} << 55) == "0000ff0100000000000000");  // 57 bits: nine bytes
  CHECK(DurationHex(0, 0, (int64_t{1} << 55) - 1) == "0000fefffffffffffffe");  // 56 bits: eight
}

TEST_CASE("vints take one byte per 7 bits, up to nine bytes", "[duration_literal]") {
  // Walk the zigzag codes of every bit length, at both ends of the length.
  for (int bits = 1; bits <= 64; ++bits) {
    const uint64_t top = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    for (uint64_t zigzag : {top, uint64_t{1} << (bits - 1)}) {
      const int64_t nanos = ZigZagDecode(zigzag);
      const std::string bytes = EncodeDuration({0, 0, nanos});
      DurationValue decoded;
      INFO(nanos);
      REQUIRE(DecodeDuration(bytes, &decoded).ok());
      CHECK(decoded.nanoseconds == nanos);
      const size_t expected = bits > 56 ? 9 : static_cast<size_t>((bits + 6) / 7);
      CHECK(bytes.size() == 2 + expected);
    }
  }
}

TEST_CASE("duration decoding rejects malformed bytes", "[duration_literal]") {
  const std::pair<const char*, const char*> cases[] = {
      {"", "truncated duration: a part is missing"},
      {"0200", "truncated duration: a part is missing"},
      {"0000c040", "truncated duration vint"},
      {"00000000", "duration has 1 trailing bytes"},
      {"80020000", "non-minimal duration vint"},
      {"020100", "duration parts differ in sign"},
      {"000201", "duration parts differ in sign"},
      {"f1000000000000", "duration months or days overflow a 32-bit integer"},
      {"f8010000000000", "non-minimal duration vint"},
  };
  for (const auto& [hex, message] : cases) {
    DurationValue value;
    INFO(hex);
    CHECK(DecodeDuration(FromHex(hex), &value).message() == message);
  }
}

TEST_CASE("standard duration units each land in their part", "[duration_literal]") {
  const std::pair<const char*, std::string> cases[] = {
      {"1y", DurationHex(12, 0, 0)},
      {"2mo", DurationHex(2, 0, 0)},
      {"3w", DurationHex(0, 21, 0)},
      {"4d", DurationHex(0, 4, 0)},
      {"5h", DurationHex(0, 0, 18000000000000)},
      {"6m", DurationHex(0, 0, 360000000000)},
      {"7s", DurationHex(0, 0, 7000000000)},
      {"8ms", DurationHex(0, 0, 8000000)},
      {"9us", DurationHex(0, 0, 9000)},
      {"9\xc2\xb5s", DurationHex(0, 0, 9000)},
      {"9\xce\xbcs", DurationHex(0, 0, 9000)},
      {"10ns", DurationHex(0, 0, 10)},
      {"0s", DurationHex(0, 0, 0)},
  };
  for (const auto& [text, hex] : cases) {
    INFO(text);
    CHECK(DurationHex(text) == hex);
  }
}

TEST_CASE("standard durations combine units, any letter case, optional minus",
          "[duration_literal]") {
  CHECK(DurationHex("1y2mo3w4d5h6m7s8ms9us10ns") == DurationHex(14, 25, 18367008009010));
  CHECK(DurationHex("1Y2MO3W4D5H6M7S8MS9US10NS") == DurationHex(14, 25, 18367008009010));
  CHECK(DurationHex("1h30m") == DurationHex(0, 0, 5400000000000));
  CHECK(DurationHex("-1h30m") == DurationHex(0, 0, -5400000000000));
  CHECK(DurationHex("-2d") == DurationHex(0, -2, 0));
  CHECK(DurationHex("1w2d") == DurationHex(0, 9, 0));
  CHECK(DurationHex("1mo1m") == DurationHex(1, 0, 60000000000));
  CHECK(DurationHex("1Mo1Ms") == DurationHex(1, 0, 1000000));
  CHECK(DurationHex("007h") == DurationHex(0, 0, 25200000000000));
}

TEST_CASE("ISO 8601 durations parse in all three forms", "[duration_literal]") {
  CHECK(DurationHex("P1Y2M3DT4H5M6S") == DurationHex(14, 3, 14706000000000));
  CHECK(DurationHex("P4W") == DurationHex(0, 28, 0));
  CHECK(DurationHex("PT1H") == DurationHex(0, 0, 3600000000000));
  CHECK(DurationHex("P1M") == DurationHex(1, 0, 0));
  CHECK(DurationHex("PT1M") == DurationHex(0, 0, 60000000000));
  CHECK(DurationHex("P1D") == DurationHex(0, 1, 0));
  CHECK(DurationHex("P1YT1S") == DurationHex(12, 0, 1000000000));
  CHECK(DurationHex("PT0S") == DurationHex(0, 0, 0));
  CHECK(DurationHex("-P1D") == DurationHex(0, -1, 0));
  CHECK(DurationHex("p1y2m3dt4h5m6s") == DurationHex(14, 3, 14706000000000));
  CHECK(DurationHex("P0001-02-03T04:05:06") == DurationHex(14, 3, 14706000000000));
  CHECK(DurationHex("-P0000-00-00T00:00:01") == DurationHex(0, 0, -1000000000));
}

TEST_CASE("malformed durations are rejected with a reason", "[duration_literal]") {
  const std::pair<const char*, const char*> cases[] = {
      {"", "expected a duration such as 1h30m or PT1H30M"},
      {"-", "expected a duration such as 1h30m or PT1H30M"},
      {"1", "expected a unit (y, mo, w, d, h, m, s, ms, us, ns) at ''"},
      {"1x", "expected a unit (y, mo, w, d, h, m, s, ms, us, ns) at 'x'"},
      {"h", "expected a number at 'h'"},
      {"1h2h", "hours given more than once"},
      {"1m1h", "hours must come before minutes"},
      {"1ns1y", "years must come before nanoseconds"},
      {"1h 30m", "expected a number at ' 30m'"},
      {"+1h", "expected a number at '+1h'"},
      {"--1h", "expected a number at '-1h'"},
      {"1.5h", "expected a unit (y, mo, w, d, h, m, s, ms, us, ns) at '.5h'"},
      {" 1h", "expected a number at ' 1h'"},
      {"P", "expected the form P1Y2M3DT4H5M6S"},
      {"PT", "expected the form P1Y2M3DT4H5M6S"},
      {"P1DT", "expected the form P1Y2M3DT4H5M6S"},
      {"P1H", "expected the form P1Y2M3DT4H5M6S"},
      {"P1S", "expected the form P1Y2M3DT4H5M6S"},
      {"PT1Y", "expected the form P1Y2M3DT4H5M6S"},
      {"P1D1Y", "expected the form P1Y2M3DT4H5M6S"},
      {"P1Y1Y", "expected the form P1Y2M3DT4H5M6S"},
      {"PY", "expected the form P1Y2M3DT4H5M6S"},
      {"P1Y2W", "expected the form PnW"},
      {"PW", "expected the form PnW"},
      {"P0001-02-03", "expected the form P0001-02-03T04:05:06"},
      {"P1-02-03T04:05:06", "expected the form P0001-02-03T04:05:06"},
      {"P0001-02-03T04:05:06Z", "expected the form P0001-02-03T04:05:06"},
  };
  for (const auto& [text, problem] : cases) {
    CHECK(MustFail(ParseDurationLiteral, text).message() ==
          "invalid duration '" + std::string(text) + "': " + problem);
  }
}

TEST_CASE("a duration part that overflows its integer is an error", "[duration_literal]") {
  CHECK(DurationHex("2147483647mo") == DurationHex(INT32_MAX, 0, 0));
  CHECK(DurationHex("-2147483648mo") == DurationHex(INT32_MIN, 0, 0));
  CHECK(DurationHex("-2147483648d") == DurationHex(0, INT32_MIN, 0));
  CHECK(DurationHex("9223372036854775807ns") == DurationHex(0, 0, INT64_MAX));
  CHECK(DurationHex("-9223372036854775808ns") == DurationHex(0, 0, INT64_MIN));
  CHECK(DurationHex("2562047h") == DurationHex(0, 0, 2562047 * int64_t{3600000000000}));
  const std::pair<const char*, const char*> cases[] = {
      {"2147483648mo", "months overflow a 32-bit integer"},
      {"178956971y", "months overflow a 32-bit integer"},
      {"178956970y8mo", "months overflow a 32-bit integer"},
      {"2147483648d", "days overflow a 32-bit integer"},
      {"306783379w", "days overflow a 32-bit integer"},
      {"9223372036854775808ns", "nanoseconds overflow a 64-bit integer"},
      {"2562048h", "nanoseconds overflow a 64-bit integer"},
      {"99999999999999999999ns", "nanoseconds overflow"},
      {"5124095576030431h", "hours overflow"},
      {"P2147483648M", "months overflow a 32-bit integer"},
  };
  for (const auto& [text, problem] : cases) {
    CHECK(MustFail(ParseDurationLiteral, text).message() ==
          "invalid duration '" + std::string(text) + "': " + problem);
  }
}

TEST_CASE("duration formats like Cassandra with zero parts omitted", "[duration_literal]") {
  CHECK(FormatDurationLiteral(EncodeDuration({14, 25, 18367008009010})) ==
        "1y2mo25d5h6m7s8ms9us10ns");
  CHECK(FormatDurationLiteral(EncodeDuration({0, 0, 0})) == "0s");
  CHECK(FormatDurationLiteral(EncodeDuration({12, 0, 0})) == "1y");
  CHECK(FormatDurationLiteral(EncodeDuration({0, 7, 0})) == "7d");
  CHECK(FormatDurationLiteral(EncodeDuration({0, 0, 5400000000000})) == "1h30m");
  CHECK(FormatDurationLiteral(EncodeDuration({-1, -2, -3})) == "-1mo2d3ns");
  CHECK(FormatDurationLiteral(EncodeDuration({0, 0, 1001})) == "1us1ns");
  CHECK(FormatDurationLiteral(EncodeDuration({INT32_MIN, INT32_MIN, INT64_MIN})) ==
        "-178956970y8mo2147483648d2562047h47m16s854ms775us808ns");
}

TEST_CASE("duration text round-trips exactly for random valid durations", "[duration_literal]") {
  std::mt19937_64 rng(2024);
  // Magnitudes of every size, so all vint lengths and units appear.
  const auto random_part = [&rng](int max_bits) {
    const int bits = static_cast<int>(rng() % static_cast<uint64_t>(max_bits + 1));
    return bits == 0 ? uint64_t{0} : rng() >> (64 - bits);
  };
  for (int i = 0; i < 5000; ++i) {
    const bool negative = i % 2 == 1;
    const uint64_t months = random_part(31) + (negative ? rng() % 2 : 0);  // up to 2^31 if negative
    const uint64_t days = random_part(31) * (rng() % 4 == 0 ? 0 : 1);
    const uint64_t nanos = random_part(63) + (negative ? rng() % 2 : 0);
    const auto sign = [negative](uint64_t m) { return negative ? 0 - m : m; };
    const DurationValue value{static_cast<int32_t>(static_cast<int64_t>(sign(months))),
                              static_cast<int32_t>(static_cast<int64_t>(sign(days))),
                              static_cast<int64_t>(sign(nanos))};
    const std::string bytes = EncodeDuration(value);
    DurationValue decoded;
    REQUIRE(DecodeDuration(bytes, &decoded).ok());
    CHECK(decoded.months == value.months);
    CHECK(decoded.days == value.days);
    CHECK(decoded.nanoseconds == value.nanoseconds);
    const std::string text = FormatDurationLiteral(bytes);
    INFO(ToHex(bytes) << " -> " << text);
    CHECK(MustParse(ParseDurationLiteral, text) == bytes);
  }
}

}  // namespace
}  // namespace cellfs
