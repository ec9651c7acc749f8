// Tests for the temporal literal codecs (timestamp, date, time), the
// civil-calendar arithmetic beneath them, and temporal validation.
#include "engine/cql/internal/temporal_literal.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>

#include "engine/cql/internal/civil_time.h"
#include "tests/engine/hex_test_util.h"
#include "tests/engine/text_codec_test_util.h"

namespace cellfs {
namespace {

using testing::FromHex;
using testing::MustFail;
using testing::MustParse;
using testing::ToHex;

std::string BigEndian(uint64_t value, size_t width) {
  std::string bytes(width, '\0');
  for (size_t i = width; i > 0; --i, value >>= 8) bytes[i - 1] = static_cast<char>(value & 0xff);
  return bytes;
}

int64_t ReadInt64(std::string_view bytes) {
  uint64_t value = 0;
  for (char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
  return static_cast<int64_t>(value);
}

int64_t TimestampMillis(std::string_view text) {
  return ReadInt64(MustParse(ParseTimestampLiteral, text));
}

// ---- Civil calendar ----------------------------------------------------------

TEST_CASE("leap years follow the Gregorian rule, proleptically", "[temporal_literal]") {
  CHECK(IsLeapYear(2000));
  CHECK(IsLeapYear(2024));
  CHECK(IsLeapYear(0));
  CHECK(IsLeapYear(-4));
  CHECK(IsLeapYear(-400));
  CHECK_FALSE(IsLeapYear(1900));
  CHECK_FALSE(IsLeapYear(2019));
  CHECK_FALSE(IsLeapYear(-100));
  CHECK_FALSE(IsLeapYear(-1));
  CHECK(DaysInMonth(2020, 2) == 29);
  CHECK(DaysInMonth(2100, 2) == 28);
  CHECK(DaysInMonth(2019, 4) == 30);
  CHECK(DaysInMonth(2019, 12) == 31);
}

TEST_CASE("days from civil agree with known dates", "[temporal_literal]") {
  CHECK(DaysFromCivil({1970, 1, 1}) == 0);
  CHECK(DaysFromCivil({1969, 12, 31}) == -1);
  CHECK(DaysFromCivil({2018, 7, 23}) == 17735);
  CHECK(DaysFromCivil({2000, 3, 1}) == 11017);
  CHECK(DaysFromCivil({1900, 1, 1}) == -25567);
  CHECK(DaysFromCivil({1, 1, 1}) == -719162);
  CHECK(DaysFromCivil({0, 1, 1}) == -719528);
  CHECK(DaysFromCivil({9999, 12, 31}) == 2932896);
  static_assert(DaysFromCivil({1970, 1, 2}) == 1, "usable at compile time");
}

TEST_CASE("civil from days inverts days from civil across a wide range", "[temporal_literal]") {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 20000; ++i) {
    const int64_t span = int64_t{1} << (i % 41 + 1);
    const int64_t days = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * span)) - span;
    const CivilDate date = CivilFromDays(days);
    INFO(days << " -> " << date.year << "-" << date.month << "-" << date.day);
    CHECK(date.month >= 1);
    CHECK(date.month <= 12);
    CHECK(date.day >= 1);
    CHECK(date.day <= DaysInMonth(date.year, date.month));
    CHECK(DaysFromCivil(date) == days);
  }
}

TEST_CASE("consecutive day numbers walk the calendar one day at a time", "[temporal_literal]") {
  // Independent of the formulas: count days forward from 0000-01-01.
  CivilDate expected{0, 1, 1};
  for (int64_t days = DaysFromCivil({0, 1, 1}); days < DaysFromCivil({2401, 1, 1}); ++days) {
    const CivilDate got = CivilFromDays(days);
    if (got.year != expected.year || got.month != expected.month || got.day != expected.day) {
      FAIL("day " << days << " is " << got.year << "-" << got.month << "-" << got.day);
    }
    if (++expected.day > DaysInMonth(expected.year, expected.month)) {
      expected.day = 1;
      if (++expected.month > 12) {
        expected.month = 1;
        ++expected.year;
      }
    }
  }
  CHECK(expected.year == 2401);
}

// ---- Timestamp ----------------------------------------------------------------

TEST_CASE("timestamp accepts the date-time spellings CQL accepts", "[temporal_literal]") {
  const int64_t t = 1532343862432;  // 2018-07-23T11:04:22.432Z
  const char* same[] = {
      "2018-07-23T11:04:22.432Z",   "2018-07-23 11:04:22.432+0000", "2018-07-23T11:04:22.432+00:00",
      "2018-07-23T13:04:22.432+02", "2018-07-23T06:04:22.432-0500", "2018-07-23T16:34:22.432+05:30",
      "2018-07-23T11:04:22.432",    "+2018-07-23T11:04:22.432Z",    "2018-07-23T11:04:22.432-00",
      "2018-7-23 11:4:22.432",      "2018-07-23 11:04:22.0432",
  };
  for (const char* text : same) CHECK(TimestampMillis(text) == t);
}

// Each of TimestampSerializer's dateStringPatterns, in its order.
TEST_CASE("timestamp accepts each of Cassandra's date patterns", "[temporal_literal]") {
  const int64_t midnight = 17735 * int64_t{86400000};  // 2018-07-23
  const int64_t hm = midnight + 6 * 3600000;           // 06:00
  const int64_t hms = hm + 59000;                      // 06:00:59
  const int64_t hmss = hms + 377;                      // 06:00:59.377
  const int64_t hour = 3600000;
  const std::pair<const char*, int64_t> cases[] = {
      {"2018-07-23 06:00", hm},
      {"2018-07-23 06:00:59", hms},
      {"2018-07-23 06:00 UTC", hm},
      {"2018-07-23 06:00 gmt", hm},
      {"2018-07-23 06:00 GMT+1:00", hm - hour},
      {"2018-07-23 06:00 GMT-10:30", hm + 10 * hour + 1800000},
      {"2018-07-23 06:00 +0100", hm - hour},
      {"2018-07-23 06:00 +01:00", hm - hour},
      {"2018-07-23 06:00Z", hm},
      {"2018-07-23 06:00+01", hm - hour},
      {"2018-07-23 06:00+0100", hm - hour},
      {"2018-07-23 06:00+01:00", hm - hour},
      {"2018-07-23 06:00:59 UTC", hms},
      {"2018-07-23 06:00:59 -0200", hms + 2 * hour},
      {"2018-07-23 06:00:59Z", hms},
      {"2018-07-23 06:00:59+01", hms - hour},
      {"2018-07-23 06:00:59+0100", hms - hour},
      {"2018-07-23 06:00:59+01:00", hms - hour},
      {"2018-07-23 06:00:59.377", hmss},
      {"2018-07-23 06:00:59.377 UTC", hmss},
      {"2018-07-23 06:00:59.377 GMT+01:00", hmss - hour},
      {"2018-07-23 06:00:59.377Z", hmss},
      {"2018-07-23 06:00:59.377+01", hmss - hour},
      {"2018-07-23 06:00:59.377+0100", hmss - hour},
      {"2018-07-23 06:00:59.377+01:00", hmss - hour},
      {"2018-07-23T06:00", hm},
      {"2018-07-23T06:00 UTC", hm},
      {"2018-07-23T06:00Z", hm},
      {"2018-07-23T06:00+01", hm - hour},
      {"2018-07-23T06:00+0100", hm - hour},
      {"2018-07-23T06:00+01:00", hm - hour},
      {"2018-07-23T06:00:59", hms},
      {"2018-07-23T06:00:59 +0100", hms - hour},
      {"2018-07-23T06:00:59Z", hms},
      {"2018-07-23T06:00:59.377", hmss},
      {"2018-07-23T06:00:59.377 UTC", hmss},
      {"2018-07-23T06:00:59.377Z", hmss},
      {"2018-07-23T06:00:59.377-01:00", hmss + hour},
      {"2018-07-23", midnight},
      {"2018-07-23 UTC", midnight},
      {"2018-07-23 +0100", midnight - hour},
      {"2018-07-23Z", midnight},
      {"2018-07-23+01", midnight - hour},
      {"2018-07-23+0100", midnight - hour},
      {"2018-07-23+01:00", midnight - hour},
  };
  for (const auto& [text, millis] : cases) {
    INFO(text);
    CHECK(TimestampMillis(text) == millis);
  }
}

TEST_CASE("timestamp fields take any number of digits, as Java's lenient widths do",
          "[temporal_literal]") {
  const int64_t midnight = 17735 * int64_t{86400000};
  CHECK(TimestampMillis("2018-07-23 9:04:59.377") == midnight + 32699377);
  CHECK(TimestampMillis("2018-07-23 6:00") == midnight + 21600000);
  CHECK(TimestampMillis("2018-7-3") == midnight - 20 * int64_t{86400000});
  CHECK(TimestampMillis("2018-07-23 06:00:00.5") == midnight + 21600005);  // 5 ms, as Java
  CHECK(TimestampMillis("2018-07-23 06:00:00.50") == midnight + 21600050);
  CHECK(TimestampMillis("18-07-23") == DaysFromCivil({18, 7, 23}) * int64_t{86400000});
  // A number field skips white space before it, as FastDateParser's does.
  CHECK(TimestampMillis(" 2018-07-23") == midnight);
  CHECK(TimestampMillis("2018-07-23  9:04:59.377") == midnight + 32699377);
  CHECK(TimestampMillis("2018-07-23T\t9:04") == midnight + 32640000);
}

TEST_CASE("timestamp accepts an integer of milliseconds", "[temporal_literal]") {
  CHECK(TimestampMillis("0") == 0);
  CHECK(TimestampMillis("-1") == -1);
  CHECK(TimestampMillis("1532343862432") == 1532343862432);
  CHECK(TimestampMillis("9223372036854775807") == INT64_MAX);
  CHECK(TimestampMillis("-9223372036854775808") == INT64_MIN);
  CHECK(TimestampMillis("0002018") == 2018);  // all digits: milliseconds, not a year
}

TEST_CASE("timestamps before 1970 and before year 1 work", "[temporal_literal]") {
  CHECK(TimestampMillis("1969-12-31T23:59:59.999Z") == -1);
  CHECK(TimestampMillis("1900-01-01T00:00:00Z") == -2208988800000);
  CHECK(TimestampMillis("0000-01-01T00:00:00.000Z") == -62167219200000);
  CHECK(TimestampMillis("-0001-12-31T23:59:59.999Z") == -62167219200001);
  CHECK(TimestampMillis("-292275055-05-16T16:47:04.192Z") == INT64_MIN);
  CHECK(TimestampMillis("+292278994-08-17T07:12:55.807Z") == INT64_MAX);
}

TEST_CASE("timestamp formats as UTC ISO 8601 with milliseconds", "[temporal_literal]") {
  const std::pair<int64_t, const char*> cases[] = {
      {0, "1970-01-01T00:00:00.000Z"},
      {-1, "1969-12-31T23:59:59.999Z"},
      {1532343862432, "2018-07-23T11:04:22.432Z"},
      {253402300800000, "+10000-01-01T00:00:00.000Z"},
      {253402300799999, "9999-12-31T23:59:59.999Z"},
      {-62167219200000, "0000-01-01T00:00:00.000Z"},
      {-62167219200001, "-0001-12-31T23:59:59.999Z"},
      {INT64_MIN, "-292275055-05-16T16:47:04.192Z"},
      {INT64_MAX, "+292278994-08-17T07:12:55.807Z"},
  };
  for (const auto& [millis, text] : cases) {
    CHECK(FormatTimestampLiteral(BigEndian(static_cast<uint64_t>(millis), 8)) == text);
  }
}

std::string CoerceMessage(std::string_view text) {
  return "Unable to coerce '" + std::string(text) + "' to a formatted date (long)";
}

TEST_CASE("timestamp refuses a millisecond field above 999", "[temporal_literal]") {
  CHECK(MustFail(ParseTimestampLiteral, "2018-07-23T11:04:22.4321Z").message() ==
        CoerceMessage("2018-07-23T11:04:22.4321Z"));
  CHECK(MustFail(ParseTimestampLiteral, "2018-07-23T11:04:22.1000").message() ==
        CoerceMessage("2018-07-23T11:04:22.1000"));
  // Leading zeros do not count: nine digits of value 1 are 1 ms, as in Java.
  CHECK(TimestampMillis("2018-07-23T11:04:22.000000001") == 1532343862001);
}

TEST_CASE("timestamp validates every calendar and clock field", "[temporal_literal]") {
  const char* bad[] = {"2019-02-29",
                       "1900-02-29T00:00Z",
                       "2018-04-31",
                       "2018-01-00",
                       "2018-13-01",
                       "2018-00-01",
                       "2018-07-23T24:00",
                       "2018-07-23T23:60",
                       "2018-07-23T23:59:60",
                       "2018-07-23T00:00+24:00",
                       "2018-07-23T00:00+05:60"};
  for (const char* text : bad) {
    CHECK(MustFail(ParseTimestampLiteral, text).message() == CoerceMessage(text));
  }
  CHECK(TimestampMillis("2020-02-29") == 18321 * int64_t{86400000});
  CHECK(TimestampMillis("2000-02-29") == 11016 * int64_t{86400000});
  CHECK(TimestampMillis("-0004-02-29") == (DaysFromCivil({-4, 2, 29}) * int64_t{86400000}));
  CHECK(TimestampMillis("2018-07-23T00:00-23:59") ==
        (17735 * int64_t{86400000}) + 23 * 3600000 + 59 * 60000);
}

TEST_CASE("timestamp refuses what Cassandra's patterns refuse", "[temporal_literal]") {
  const char* bad[] = {"",
                       "2018-07-23 ",
                       "2018-07-23\t",
                       "2018/07/23",
                       "2018-07-23T",
                       "2018-07-23T11",
                       "2018-07-23 11",
                       "2018-07-23T11:04:22.",
                       "2018-07-23X",
                       "+018-01-01",
                       "2018-07-23T11:04:22.432ZZ",
                       "2018-07-23T11:04:22.432+1",
                       "2018-07-23T11:04:22.432+01:0",
                       "2018-07-23t11:04:22.432Z",   // the 'T' is upper case only
                       "2018-07-23T11:04:22.432z",   // so is an ISO zone's Z
                       "2018-07-23T11:04:22.432 Z",  // Z is no zone name
                       "2018-07-23 11:04 +01",       // after a space: +HHMM or +HH:MM
                       "2018-07-23 11:04  UTC",
                       "2018-07-23 11:04 UTC+01:00",
                       "2018-07-23 11:04 GMT+001:00",
                       "2018-07-23 11:04 PST",  // zone names beyond UTC and GMT: docs/CQL.md
                       "+5",
                       "0x10",
                       "1.5"};
  for (const char* text : bad) {
    CHECK(MustFail(ParseTimestampLiteral, text).message() == CoerceMessage(text));
  }
}

TEST_CASE("timestamp rejects moments beyond int64 milliseconds", "[temporal_literal]") {
  const char* bad[] = {"+292278994-08-17T07:12:55.808Z", "-292275055-05-16T16:47:04.191Z",
                       "+999999999999-01-01", "-999999999999-01-01", "+1000000000001-01-01"};
  for (const char* text : bad) {
    CHECK(MustFail(ParseTimestampLiteral, text).message() == CoerceMessage(text));
  }
  CHECK(MustFail(ParseTimestampLiteral, "9223372036854775808").message() ==
        "Unable to make long (for date) from: '9223372036854775808'");
  CHECK(MustFail(ParseTimestampLiteral, "-9223372036854775809").code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("timestamp text round-trips exactly for random milliseconds", "[temporal_literal]") {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 5000; ++i) {
    // Alternate the full int64 range with the years people use.
    const uint64_t raw = i % 2 == 0 ? rng() : static_cast<uint64_t>(rng() % 8'000'000'000'000);
    const std::string bytes = BigEndian(raw, 8);
    const std::string text = FormatTimestampLiteral(bytes);
    INFO(static_cast<int64_t>(raw) << " -> " << text);
    CHECK(MustParse(ParseTimestampLiteral, text) == bytes);
  }
}

TEST_CASE("timestamp parsing agrees with timegm for random zoned date-times",
          "[temporal_literal]") {
  std::mt19937_64 rng(1970);
  const auto pick = [&rng](int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  for (int i = 0; i < 3000; ++i) {
    const int64_t year = pick(1, 9999);
    const int month = static_cast<int>(pick(1, 12));
    const int day = static_cast<int>(pick(1, DaysInMonth(year, month)));
    const int hour = static_cast<int>(pick(0, 23));
    const int minute = static_cast<int>(pick(0, 59));
    const int second = static_cast<int>(pick(0, 59));
    const int millis = static_cast<int>(pick(0, 999));
    const int offset = static_cast<int>(pick(-18 * 60, 18 * 60));  // minutes east
    char text[64];
    const char* separator = i % 2 == 0 ? "T" : " ";
    snprintf(text, sizeof(text), "%04d-%02d-%02d%s%02d:%02d:%02d.%03d%c%02d%s%02d",
             static_cast<int>(year), month, day, separator, hour, minute, second, millis,
             offset < 0 ? '-' : '+', std::abs(offset) / 60, i % 3 == 0 ? ":" : "",
             std::abs(offset) % 60);
    std::tm tm{};
    tm.tm_year = static_cast<int>(year - 1900);
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    const int64_t expected =
        static_cast<int64_t>(timegm(&tm)) * 1000 + millis - int64_t{offset} * 60000;
    INFO(text);
    CHECK(TimestampMillis(text) == expected);
  }
}

// ---- Date ------------------------------------------------------------------------

TEST_CASE("date parses yyyy-mm-dd into days since the epoch plus 2^31", "[temporal_literal]") {
  CHECK(ToHex(MustParse(ParseDateLiteral, "1970-01-01")) == "80000000");
  CHECK(ToHex(MustParse(ParseDateLiteral, "1969-12-31")) == "7fffffff");
  CHECK(ToHex(MustParse(ParseDateLiteral, "2018-07-23")) == "80004547");
  CHECK(ToHex(MustParse(ParseDateLiteral, "-5877641-06-23")) == "00000000");
  CHECK(ToHex(MustParse(ParseDateLiteral, "+5881580-07-11")) == "ffffffff");
  CHECK(ToHex(MustParse(ParseDateLiteral, "+2018-07-23")) == "80004547");
}

TEST_CASE("date accepts the raw unsigned day number", "[temporal_literal]") {
  CHECK(ToHex(MustParse(ParseDateLiteral, "0")) == "00000000");
  CHECK(ToHex(MustParse(ParseDateLiteral, "2147483648")) == "80000000");
  CHECK(ToHex(MustParse(ParseDateLiteral, "4294967295")) == "ffffffff");
  CHECK(ToHex(MustParse(ParseDateLiteral, "-0")) == "00000000");
}

TEST_CASE("date rejects days outside the uint32 range", "[temporal_literal]") {
  const char* raw_message = "a day number must be within 0..4294967295 (2^31 is 1970-01-01)";
  CHECK(MustFail(ParseDateLiteral, "-1").message() ==
        "invalid date '-1': " + std::string(raw_message));
  CHECK(MustFail(ParseDateLiteral, "4294967296").message() ==
        "invalid date '4294967296': " + std::string(raw_message));
  CHECK(MustFail(ParseDateLiteral, "99999999999999999999999").code() ==
        StatusCode::kInvalidArgument);
  CHECK(MustFail(ParseDateLiteral, "+5881580-07-12").message() ==
        "invalid date '+5881580-07-12': out of range (-5877641-06-23..+5881580-07-11)");
  CHECK(MustFail(ParseDateLiteral, "-5877641-06-22").message() ==
        "invalid date '-5877641-06-22': out of range (-5877641-06-23..+5881580-07-11)");
}

TEST_CASE("date rejects malformed text", "[temporal_literal]") {
  const std::pair<const char*, const char*> cases[] = {
      {"", "expected a 4-digit year"},
      {"2018-02-30", "day 30 is out of range for 2018-02 (01..28)"},
      {"2018-07-23T00:00", "unexpected 'T00:00' at the end"},
      {"2018-07-23 ", "unexpected ' ' at the end"},
      {"2018-7-3", "expected '-' and a 2-digit month after the year"},
      {"2018-07", "expected '-' and a 2-digit day after the month"},
      {"+201-01-01", "expected at least 4 digits after the year's sign"},
      {"today", "expected a 4-digit year"},
  };
  for (const auto& [text, problem] : cases) {
    CHECK(MustFail(ParseDateLiteral, text).message() ==
          "invalid date '" + std::string(text) + "': " + problem);
  }
}

TEST_CASE("date formats yyyy-mm-dd with signed years outside 0000..9999", "[temporal_literal]") {
  CHECK(FormatDateLiteral(FromHex("80000000")) == "1970-01-01");
  CHECK(FormatDateLiteral(FromHex("7fffffff")) == "1969-12-31");
  CHECK(FormatDateLiteral(FromHex("80004547")) == "2018-07-23");
  CHECK(FormatDateLiteral(FromHex("00000000")) == "-5877641-06-23");
  CHECK(FormatDateLiteral(FromHex("ffffffff")) == "+5881580-07-11");
  CHECK(FormatDateLiteral(
            BigEndian(static_cast<uint64_t>(DaysFromCivil({-1, 1, 1}) + (int64_t{1} << 31)), 4)) ==
        "-0001-01-01");
}

TEST_CASE("date text round-trips exactly for random day numbers", "[temporal_literal]") {
  std::mt19937_64 rng(31);
  for (int i = 0; i < 5000; ++i) {
    const std::string bytes = BigEndian(rng() & 0xffffffff, 4);
    const std::string text = FormatDateLiteral(bytes);
    INFO(ToHex(bytes) << " -> " << text);
    CHECK(MustParse(ParseDateLiteral, text) == bytes);
  }
}

// ---- Time ------------------------------------------------------------------------

TEST_CASE("time parses HH:MM:SS with a right-padded fraction", "[temporal_literal]") {
  const std::pair<const char*, int64_t> cases[] = {
      {"00:00:00", 0},
      {"23:59:59.999999999", 86399999999999},
      {"12:34:56.5", 45296500000000},
      {"01:02:03.000000001", 3723000000001},
      {"00:00:01.25", 1250000000},
      {"0", 0},
      {"86399999999999", 86399999999999},
      {"+1000", 1000},
  };
  for (const auto& [text, nanos] : cases) {
    CHECK(ReadInt64(MustParse(ParseTimeLiteral, text)) == nanos);
  }
}

TEST_CASE("time rejects out-of-range and malformed text", "[temporal_literal]") {
  const std::pair<const char*, const char*> cases[] = {
      {"24:00:00", "hour 24 is out of range (00..23)"},
      {"12:60:00", "minute 60 is out of range (00..59)"},
      {"12:00:60", "second 60 is out of range (00..59)"},
      {"12:00", "expected HH:MM:SS"},
      {"1:02:03", "expected HH:MM:SS"},
      {"12:00:00.", "expected 1 to 9 digits of fraction of a second"},
      {"12:00:00.1234567890", "expected 1 to 9 digits of fraction of a second"},
      {"12:00:00Z", "unexpected 'Z' at the end"},
      {"86400000000000", "nanoseconds must be within 0..86399999999999"},
      {"-1", "nanoseconds must be within 0..86399999999999"},
      {"", "expected HH:MM:SS"},
      {" 12:00:00", "expected HH:MM:SS"},
  };
  for (const auto& [text, problem] : cases) {
    CHECK(MustFail(ParseTimeLiteral, text).message() ==
          "invalid time '" + std::string(text) + "': " + problem);
  }
}

TEST_CASE("time formats with nine fraction digits", "[temporal_literal]") {
  CHECK(FormatTimeLiteral(BigEndian(0, 8)) == "00:00:00.000000000");
  CHECK(FormatTimeLiteral(BigEndian(45296500000000, 8)) == "12:34:56.500000000");
  CHECK(FormatTimeLiteral(BigEndian(86399999999999, 8)) == "23:59:59.999999999");
  CHECK(FormatTimeLiteral(BigEndian(1, 8)) == "00:00:00.000000001");
}

TEST_CASE("time text round-trips exactly for random nanoseconds of a day", "[temporal_literal]") {
  std::mt19937_64 rng(86400);
  for (int i = 0; i < 5000; ++i) {
    const std::string bytes = BigEndian(rng() % 86400000000000, 8);
    const std::string text = FormatTimeLiteral(bytes);
    INFO(ToHex(bytes) << " -> " << text);
    CHECK(MustParse(ParseTimeLiteral, text) == bytes);
  }
}

// ---- Validation -------------------------------------------------------------------

TEST_CASE("temporal validation checks widths, the time range and duration framing",
          "[temporal_literal]") {
  CHECK(ValidateTemporalValue(TypeKind::kTimestamp, BigEndian(0, 8)).ok());
  CHECK(ValidateTemporalValue(TypeKind::kDate, BigEndian(0, 4)).ok());
  CHECK(ValidateTemporalValue(TypeKind::kTime, BigEndian(86399999999999, 8)).ok());
  CHECK(ValidateTemporalValue(TypeKind::kDuration, FromHex("020000")).ok());
  CHECK(ValidateTemporalValue(TypeKind::kTimestamp, BigEndian(0, 4)).message() ==
        "a timestamp value is 8 bytes, got 4");
  CHECK(ValidateTemporalValue(TypeKind::kDate, BigEndian(0, 8)).message() ==
        "a date value is 4 bytes, got 8");
  CHECK(ValidateTemporalValue(TypeKind::kTime, BigEndian(86400000000000, 8)).message() ==
        "time 86400000000000 ns is outside a day (0..86399999999999)");
  CHECK(ValidateTemporalValue(TypeKind::kTime, BigEndian(~uint64_t{0}, 8)).message() ==
        "time -1 ns is outside a day (0..86399999999999)");
  CHECK(ValidateTemporalValue(TypeKind::kDuration, FromHex("0201")).code() ==
        StatusCode::kInvalidArgument);
  CHECK(ValidateTemporalValue(TypeKind::kInt, BigEndian(0, 4)).code() ==
        StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cellfs
