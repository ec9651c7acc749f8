// Varints: LEB128 known answers, zig-zag mapping, round trips, and the
// rejection of truncated and overflowing input.
#include "engine/cql/internal/varint_codec.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace cellfs {
namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::string Unsigned(uint64_t v) {
  std::string out;
  AppendVarint64(v, &out);
  return out;
}

TEST_CASE("unsigned varints are LEB128, low group first", "[varint]") {
  CHECK(Unsigned(0) == std::string("\x00", 1));
  CHECK(Unsigned(1) == "\x01");
  CHECK(Unsigned(127) == "\x7f");
  CHECK(Unsigned(128) == "\x80\x01");
  CHECK(Unsigned(300) == "\xac\x02");
  CHECK(Unsigned(kU64Max) == "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
  CHECK(Unsigned(kU64Max).size() == kMaxVarint64Bytes);
}

TEST_CASE("zig-zag maps small magnitudes of either sign to small numbers", "[varint]") {
  CHECK(ZigZagEncode(0) == 0);
  CHECK(ZigZagEncode(-1) == 1);
  CHECK(ZigZagEncode(1) == 2);
  CHECK(ZigZagEncode(-2) == 3);
  CHECK(ZigZagEncode(kMax) == kU64Max - 1);
  CHECK(ZigZagEncode(kMin) == kU64Max);
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, kMin, kMax, int64_t{-12345}}) {
    CHECK(ZigZagDecode(ZigZagEncode(v)) == v);
  }
}

TEST_CASE("varints round-trip and leave the rest of the input", "[varint]") {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 10'000; ++i) {
    const uint64_t u = rng() >> (rng() % 64);
    const auto s = static_cast<int64_t>(rng() >> (rng() % 64)) * ((i % 2) != 0 ? -1 : 1);
    std::string bytes;
    AppendVarint64(u, &bytes);
    AppendSignedVarint64(s, &bytes);
    bytes += "rest";
    std::string_view in = bytes;
    uint64_t u2 = 0;
    int64_t s2 = 0;
    REQUIRE(ReadVarint64(&in, &u2));
    REQUIRE(ReadSignedVarint64(&in, &s2));
    CHECK(u2 == u);
    CHECK(s2 == s);
    CHECK(in == "rest");
  }
}

TEST_CASE("reading a varint rejects truncation and overflow", "[varint]") {
  uint64_t v = 0;
  SECTION("empty input") {
    std::string_view in;
    CHECK_FALSE(ReadVarint64(&in, &v));
  }
  SECTION("a continuation bit on the last byte") {
    std::string_view in = "\x80\x80";
    CHECK_FALSE(ReadVarint64(&in, &v));
  }
  SECTION("a tenth byte above 1 overflows 64 bits") {
    std::string_view in = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02";
    CHECK_FALSE(ReadVarint64(&in, &v));
  }
  SECTION("an eleventh byte") {
    std::string_view in = "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x81\x00";
    CHECK_FALSE(ReadVarint64(&in, &v));
  }
  SECTION("signed reads fail the same way") {
    std::string_view in = "\xff";
    int64_t s = 0;
    CHECK_FALSE(ReadSignedVarint64(&in, &s));
  }
}

}  // namespace
}  // namespace cellfs
