// Tokens: Cassandra's partition-key layout, xxHash64 known answers, the
// INT64_MIN exclusion, and EncodeToken's byte order.
#include "engine/store/token.h"

#include <xxhash.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace cellfs {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::string Encoded(int64_t token) {
  std::string out;
  EncodeToken(token, &out);
  return out;
}

TEST_CASE("a single-component partition key serializes as its bytes", "[token]") {
  CHECK(SerializePartitionKey({"MPLS2"}) == "MPLS2");
  CHECK(SerializePartitionKey({std::string("a\0b", 3)}) == std::string("a\0b", 3));
  CHECK(SerializePartitionKey({""}).empty());
}

TEST_CASE("a composite partition key is [u16 length][bytes][0x00] per component", "[token]") {
  CHECK(SerializePartitionKey({"ab", "c"}) == std::string("\x00\x02"
                                                          "ab\x00\x00\x01"
                                                          "c\x00",
                                                          9));
  SECTION("an empty component still has its length and terminator") {
    CHECK(SerializePartitionKey({"", "x"}) == std::string("\x00\x00\x00\x00\x01x\x00", 7));
  }
  SECTION("lengths are big-endian") {
    const std::string big(300, 'z');
    const std::string s = SerializePartitionKey({big, ""});
    REQUIRE(s.size() == 2 + 300 + 1 + 2 + 1);
    CHECK(s.substr(0, 2) == "\x01\x2C");
    CHECK(s[302] == '\0');
  }
}

TEST_CASE("composite keys that differ only in how bytes split get different layouts", "[token]") {
  CHECK(SerializePartitionKey({"ab", "c"}) != SerializePartitionKey({"a", "bc"}));
  CHECK(ComputeToken(SerializePartitionKey({"ab", "c"})) !=
        ComputeToken(SerializePartitionKey({"a", "bc"})));
}

TEST_CASE("tokens are xxHash64 with seed 0, read as signed", "[token]") {
  SECTION("published xxHash64 vectors") {
    CHECK(ComputeToken("") == static_cast<int64_t>(0xEF46DB3751D8E999));
    CHECK(ComputeToken("a") == static_cast<int64_t>(0xD24EC4F1A98C6E5B));
    CHECK(ComputeToken("abc") == static_cast<int64_t>(0x44BC2CF5AD770999));
  }
  SECTION("agrees with the library for random keys of every length up to 100") {
    std::mt19937_64 rng(1);
    for (size_t n = 0; n <= 100; ++n) {
      std::string key;
      for (size_t i = 0; i < n; ++i) key.push_back(static_cast<char>(rng() & 0xFF));
      CHECK(ComputeToken(key) == static_cast<int64_t>(XXH64(key.data(), key.size(), 0)));
    }
  }
  SECTION("of the serialized key, for composite keys") {
    const std::string s = SerializePartitionKey({"MPLS2", "20180723"});
    CHECK(ComputeToken(s) == static_cast<int64_t>(XXH64(s.data(), s.size(), 0)));
  }
}

TEST_CASE("INT64_MIN is never a token: the hash 2^63 maps to INT64_MAX", "[token]") {
  CHECK(TokenFromHash(uint64_t{1} << 63) == kMax);
  CHECK(TokenFromHash(0x7FFFFFFFFFFFFFFF) == kMax);
  CHECK(TokenFromHash(0x8000000000000001) == kMin + 1);
  CHECK(TokenFromHash(0xFFFFFFFFFFFFFFFF) == -1);
  CHECK(TokenFromHash(0) == 0);
}

TEST_CASE("ComputeToken is TokenFromHash of XXH64 and never INT64_MIN", "[token]") {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 10000; ++i) {
    const std::string key = std::to_string(rng());
    const int64_t token = ComputeToken(key);
    CHECK(token == TokenFromHash(XXH64(key.data(), key.size(), 0)));
    CHECK(token != kMin);
  }
}

TEST_CASE("encoded tokens memcmp in signed order", "[token]") {
  std::mt19937_64 rng(3);
  std::vector<int64_t> tokens = {kMin, kMin + 1, -256, -1, 0, 1, 255, 256, kMax - 1, kMax};
  for (int i = 0; i < 500; ++i) tokens.push_back(static_cast<int64_t>(rng()));
  size_t mismatches = 0;
  for (int64_t a : tokens) {
    for (int64_t b : tokens) {
      const int expected = (a > b) - (a < b);
      const int c = Encoded(a).compare(Encoded(b));
      if (((c > 0) - (c < 0)) != expected) ++mismatches;
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("EncodeToken writes 8 big-endian bytes with the sign bit flipped", "[token]") {
  CHECK(Encoded(0) == std::string("\x80\x00\x00\x00\x00\x00\x00\x00", 8));
  CHECK(Encoded(-1) == std::string("\x7F\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 8));
  CHECK(Encoded(kMin) == std::string(8, '\0'));
  CHECK(Encoded(kMax) == std::string(8, '\xFF'));
  SECTION("appending to what is already there") {
    std::string out = "pk";
    EncodeToken(0x0102030405060708, &out);
    CHECK(out == "pk\x81\x02\x03\x04\x05\x06\x07\x08");
  }
}

TEST_CASE("DecodeToken reads back what EncodeToken wrote and advances past it", "[token]") {
  std::mt19937_64 rng(4);
  for (int i = 0; i < 1000; ++i) {
    const auto token = static_cast<int64_t>(rng());
    const std::string bytes = Encoded(token) + "rest";
    std::string_view in = bytes;
    int64_t decoded = 0;
    REQUIRE(DecodeToken(&in, &decoded));
    CHECK(decoded == token);
    CHECK(in == "rest");
  }
}

TEST_CASE("DecodeToken refuses fewer than 8 bytes and leaves the input alone", "[token]") {
  const std::string seven(7, '\x80');
  std::string_view in = seven;
  int64_t token = 42;
  CHECK_FALSE(DecodeToken(&in, &token));
  CHECK(in.size() == 7);
  CHECK(token == 42);
}

}  // namespace
}  // namespace cellfs
