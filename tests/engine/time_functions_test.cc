// Time functions where a value is parsed: minTimeuuid/maxTimeuuid give
// Cassandra's bounds, now() and current*() read the real clock.
#include "engine/cql/internal/time_functions.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "engine/cql/cql_type.h"
#include "engine/cql/literal.h"

namespace cellfs {
namespace {

std::string Text(TypeKind kind, std::string_view literal) {
  Result<std::string> parsed = ParseLiteral(*CqlType::Native(kind), literal);
  INFO(literal << ": " << parsed.status().ToString());
  REQUIRE(parsed.ok());
  return FormatLiteral(*CqlType::Native(kind), *parsed);
}

std::string Error(TypeKind kind, std::string_view literal) {
  Result<std::string> parsed = ParseLiteral(*CqlType::Native(kind), literal);
  REQUIRE_FALSE(parsed.ok());
  return parsed.status().message();
}

TEST_CASE("minTimeuuid and maxTimeuuid give Cassandra's bounds of a millisecond",
          "[time_functions]") {
  const std::string min = "a22ff000-8e3d-11e8-8080-808080808080";
  const std::string max = "a230170f-8e3d-11e8-7f7f-7f7f7f7f7f7f";
  for (const char* text : {"minTimeuuid('2018-07-23 06:00')", "minTimeuuid(2018-07-23 06:00)",
                           "MINTIMEUUID( '2018-07-23 06:00' )",
                           "mintimeuuid(2018-07-23T06:00:00.000Z)", "minTimeuuid(1532325600000)"}) {
    CHECK(Text(TypeKind::kTimeuuid, text) == min);
  }
  CHECK(Text(TypeKind::kTimeuuid, "maxTimeuuid('2018-07-23 06:00+0000')") == max);
  CHECK(Text(TypeKind::kTimeuuid, "maxTimeuuid(2018-07-23 6:00)") == max);
}

TEST_CASE("a timeuuid bound orders around every timeuuid of its millisecond", "[time_functions]") {
  // The timestamp fields of 06:00:00.000 and .001 bracket the min and max.
  CHECK(TimeuuidBound(1532325600000, false) < TimeuuidBound(1532325600000, true));
  CHECK(TimeuuidBound(1532325600000, true) < TimeuuidBound(1532325600001, false));
}

TEST_CASE("time functions refuse bad arguments and the wrong type", "[time_functions]") {
  CHECK(Error(TypeKind::kTimeuuid, "minTimeuuid('2018-07-23 25:00')") ==
        "Unable to coerce '2018-07-23 25:00' to a formatted date (long)");
  CHECK(Error(TypeKind::kTimeuuid, "minTimeuuid()") ==
        "invalid number of arguments in call to function system.mintimeuuid: 1 required");
  CHECK(Error(TypeKind::kTimeuuid, "now(1)") ==
        "invalid number of arguments in call to function system.now: 0 required");
  CHECK(Error(TypeKind::kTimestamp, "now()") ==
        "cannot assign result of function system.now (type timeuuid) to a timestamp");
  CHECK(Error(TypeKind::kTimeuuid, "later()") == "unknown function later in a timeuuid value");
  CHECK(Error(TypeKind::kTimeuuid, "minTimeuuid('2018-07-23 06:00)") ==
        "unterminated or malformed string '2018-07-23 06:00");
}

int64_t WallMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST_CASE("now and the current functions read the clock", "[time_functions]") {
  const int64_t before = WallMillis();
  Result<std::string> stamp =
      ParseLiteral(*CqlType::Native(TypeKind::kTimestamp), "currentTimestamp()");
  Result<std::string> word = ParseLiteral(*CqlType::Native(TypeKind::kTimestamp), "NOW");
  const int64_t after = WallMillis();
  REQUIRE(stamp.ok());
  REQUIRE(word.ok());
  for (const std::string* bytes : {&*stamp, &*word}) {
    int64_t millis = 0;
    for (char c : *bytes) millis = (millis << 8) | static_cast<unsigned char>(c);
    CHECK(millis >= before);
    CHECK(millis <= after);
  }
  const std::string a = Text(TypeKind::kTimeuuid, "now()");
  const std::string b = Text(TypeKind::kTimeuuid, "currentTimeUUID()");
  CHECK(a != b);
  CHECK(a.substr(14, 1) == "1");  // version 1
  CHECK(Text(TypeKind::kDate, "currentDate()").size() == 10);
  CHECK(Text(TypeKind::kTime, "currentTime()").size() == 18);
}

}  // namespace
}  // namespace cellfs
