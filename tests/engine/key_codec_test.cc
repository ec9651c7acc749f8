// Key codec: the memcmp order of encodings equals Cassandra's comparison (as
// transcribed independently in key_reference_order.h) for every key type in
// both directions; decoding round-trips; composite keys sort as tuples;
// prefix bounds hold; corrupt input is Corruption, never a crash.
#include "engine/cql/key_codec.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/engine/key_reference_order.h"
#include "tests/engine/key_value_generator.h"

namespace cellfs {
namespace {

using testing::Canonical;
using testing::KeyValueGenerator;
using testing::ReferenceCompare;

constexpr SortOrder kAsc = SortOrder::kAsc;
constexpr SortOrder kDesc = SortOrder::kDesc;

TypePtr Native(TypeKind kind) { return CqlType::Native(kind); }

std::string Enc(const CqlType& type, std::string_view value, SortOrder order = kAsc) {
  std::string out;
  EncodeKeyComponent(type, value, order, &out);
  return out;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out.push_back(kDigits[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kDigits[static_cast<uint8_t>(c) & 0xF]);
  }
  return out.empty() ? "(empty)" : out;
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

std::string BigEndian(uint64_t v, size_t width) {
  std::string out(width, '\0');
  for (size_t i = width; i-- > 0; v >>= 8) out[i] = static_cast<char>(v & 0xFF);
  return out;
}

std::string Int(int32_t v) { return BigEndian(static_cast<uint32_t>(v), 4); }

std::string Varint(int64_t v) {
  testing::Mpz m;
  mpz_set_si(m.get(), v);
  return testing::ExportTwosComplement(m.get());
}

std::string Decimal(int64_t unscaled, int32_t scale) {
  return BigEndian(static_cast<uint32_t>(scale), 4) + Varint(unscaled);
}

std::string Double(double d) {
  uint64_t bits = 0;
  std::memcpy(&bits, &d, 8);
  return BigEndian(bits, 8);
}

// "00112233-4455-1677-8899-aabbccddeeff" -> 16 bytes.
std::string Uuid(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '-') continue;
    out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i, 2)), nullptr, 16)));
    ++i;
  }
  return out;
}

std::string Framed(const std::vector<std::optional<std::string>>& pieces, bool with_count) {
  std::string out;
  if (with_count) testing::AppendBigEndian32(static_cast<uint32_t>(pieces.size()), &out);
  for (const auto& p : pieces) testing::AppendFramed(p, &out);
  return out;
}

int MemcmpSign(const std::string& a, const std::string& b) {
  const int c = a.compare(b);
  return (c > 0) - (c < 0);
}

std::vector<std::string> Pool(const CqlType& type, uint64_t seed, size_t n, bool sorted = true) {
  KeyValueGenerator generator(seed, sorted);
  std::vector<std::string> pool = {""};
  while (pool.size() < n) pool.push_back(generator.Generate(type));
  return pool;
}

// sign(memcmp(enc(a), enc(b))) == sign(compare(a, b)) for every pair of a
// pool of values, and the reverse for DESC.
void CheckOrderMatchesCassandra(const TypePtr& type, uint64_t seed, size_t pool_size = 300) {
  const std::vector<std::string> pool = Pool(*type, seed, pool_size);
  std::vector<std::string> asc;
  std::vector<std::string> desc;
  for (const std::string& v : pool) {
    asc.push_back(Enc(*type, v, kAsc));
    desc.push_back(Enc(*type, v, kDesc));
  }
  size_t pairs = 0;
  size_t ties = 0;
  size_t mismatches = 0;
  std::string first_mismatch;
  for (size_t i = 0; i < pool.size(); ++i) {
    for (size_t j = i + 1; j < pool.size(); ++j) {
      const int expected = ReferenceCompare(*type, pool[i], pool[j]);
      ++pairs;
      if (expected == 0) ++ties;
      if (MemcmpSign(asc[i], asc[j]) == expected && MemcmpSign(desc[i], desc[j]) == -expected) {
        continue;
      }
      if (mismatches++ == 0) {
        first_mismatch = Hex(pool[i]) + " vs " + Hex(pool[j]) + ": Cassandra says " +
                         std::to_string(expected) + ", encodings " + Hex(asc[i]) + " vs " +
                         Hex(asc[j]);
      }
    }
  }
  INFO(type->ToCql() << ": " << pairs << " pairs, " << ties
                     << " ties; first mismatch: " << first_mismatch);
  CHECK(mismatches == 0);
  CHECK(pairs == pool_size * (pool_size - 1) / 2);
}

// decode(enc(v)) == Canonical(v), consuming exactly the encoding, and the
// canonical value encodes to the same bytes; in both directions.
void CheckRoundTrip(const TypePtr& type, uint64_t seed, size_t count = 2000) {
  // Unsorted sets and maps too: the codec sorts them.
  const std::vector<std::string> pool = Pool(*type, seed, count, /*sorted=*/false);
  size_t failures = 0;
  std::string first_failure;
  for (const std::string& v : pool) {
    for (SortOrder order : {kAsc, kDesc}) {
      const std::string encoded = Enc(*type, v, order);
      const std::string input = encoded + "tail";
      std::string_view in = input;
      std::string decoded;
      const Status s = DecodeKeyComponent(*type, order, &in, &decoded);
      const std::string canonical = Canonical(*type, v);
      if (s.ok() && decoded == canonical && in == "tail" && Enc(*type, decoded, order) == encoded) {
        continue;
      }
      if (failures++ == 0) {
        first_failure = Hex(v) + " -> " + Hex(encoded) + " -> " + s.ToString() + " " +
                        Hex(decoded) + ", want " + Hex(canonical);
      }
    }
  }
  INFO(type->ToCql() << ": first failure: " << first_failure);
  CHECK(failures == 0);
}

TypePtr Udt() {
  return CqlType::Udt("ks", "address", {"zip", "where", "tags"},
                      {Native(TypeKind::kInt),
                       CqlType::Tuple({Native(TypeKind::kDouble), Native(TypeKind::kDouble)}),
                       CqlType::Set(Native(TypeKind::kText), true)},
                      true);
}

// ---------------------------------------------------------------------------
// Order: every key type against the reference comparator, ASC and DESC.

TEST_CASE("tinyint and smallint keys sort as signed integers", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kTinyint), 1);
  CheckOrderMatchesCassandra(Native(TypeKind::kSmallint), 2);
}

TEST_CASE("int keys sort as signed 32-bit integers", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kInt), 3);
}

TEST_CASE("bigint keys sort as signed 64-bit integers", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kBigint), 4);
}

TEST_CASE("varint keys sort numerically across lengths, non-minimal input included",
          "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kVarint), 5, 400);
}

TEST_CASE("decimal keys sort numerically whatever their scales", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kDecimal), 6, 400);
}

TEST_CASE("float keys sort as Java's Float.compare", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kFloat), 7);
}

TEST_CASE("double keys sort as Java's Double.compare", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kDouble), 8);
}

TEST_CASE("boolean keys sort false before true, any non-zero byte being true", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kBoolean), 9, 60);
}

TEST_CASE("timestamp keys sort as signed milliseconds, before 1970 first", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kTimestamp), 10);
}

TEST_CASE("date keys sort as unsigned day numbers", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kDate), 11);
}

TEST_CASE("time keys sort as Cassandra's TimeType bytes", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kTime), 12);
}

TEST_CASE("text and ascii keys sort as unsigned bytes, a prefix first", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kText), 13);
  CheckOrderMatchesCassandra(Native(TypeKind::kAscii), 14);
}

TEST_CASE("blob keys with embedded 0x00 and 0xFF sort as unsigned bytes", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kBlob), 15);
}

TEST_CASE("inet keys sort by raw bytes, IPv4 and IPv6 mixed", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kInet), 16);
}

TEST_CASE("uuid keys sort as Cassandra's UUIDType", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kUuid), 17, 400);
}

TEST_CASE("timeuuid keys sort as Cassandra's TimeUUIDType", "[key_codec]") {
  CheckOrderMatchesCassandra(Native(TypeKind::kTimeuuid), 18, 400);
}

TEST_CASE("frozen list keys sort element-wise, shorter first", "[key_codec]") {
  CheckOrderMatchesCassandra(CqlType::List(Native(TypeKind::kInt), true), 19);
  CheckOrderMatchesCassandra(CqlType::List(CqlType::List(Native(TypeKind::kVarint), true), true),
                             20);
}

TEST_CASE("frozen set keys sort element-wise over sorted elements", "[key_codec]") {
  CheckOrderMatchesCassandra(CqlType::Set(Native(TypeKind::kText), true), 21);
  CheckOrderMatchesCassandra(CqlType::Set(Native(TypeKind::kDecimal), true), 22);
}

TEST_CASE("frozen map keys sort entry-wise, key then value", "[key_codec]") {
  CheckOrderMatchesCassandra(CqlType::Map(Native(TypeKind::kInt), Native(TypeKind::kText), true),
                             23);
  CheckOrderMatchesCassandra(
      CqlType::Map(CqlType::Tuple({Native(TypeKind::kInt), Native(TypeKind::kText)}),
                   Native(TypeKind::kBlob), true),
      24);
}

TEST_CASE("tuple keys sort component-wise, null first, fewer components first", "[key_codec]") {
  CheckOrderMatchesCassandra(
      CqlType::Tuple({Native(TypeKind::kInt), Native(TypeKind::kText), Native(TypeKind::kDecimal)}),
      25);
  CheckOrderMatchesCassandra(
      CqlType::Tuple({CqlType::Tuple({Native(TypeKind::kInt), Native(TypeKind::kBoolean)}),
                      Native(TypeKind::kTimeuuid)}),
      26);
}

TEST_CASE("user-defined type keys sort field by field", "[key_codec]") {
  CheckOrderMatchesCassandra(Udt(), 27);
  CheckOrderMatchesCassandra(CqlType::List(Udt(), true), 28);
}

// ---------------------------------------------------------------------------
// Hand-sorted sequences: independent of both the codec and the reference.

// Every adjacent pair of `sorted` strictly increases in ASC, decreases in DESC.
void CheckStrictlyIncreasing(const CqlType& type, const std::vector<std::string>& sorted) {
  for (size_t i = 0; i + 1 < sorted.size(); ++i) {
    INFO(type.ToCql() << " #" << i << ": " << Hex(sorted[i]) << " < " << Hex(sorted[i + 1]));
    CHECK(Enc(type, sorted[i], kAsc) < Enc(type, sorted[i + 1], kAsc));
    CHECK(Enc(type, sorted[i], kDesc) > Enc(type, sorted[i + 1], kDesc));
  }
}

TEST_CASE("doubles order -inf < -max < -1 < -0.0 < 0.0 < min < 1 < inf < NaN", "[key_codec]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double max = std::numeric_limits<double>::max();
  const double tiny = std::numeric_limits<double>::denorm_min();
  CheckStrictlyIncreasing(*Native(TypeKind::kDouble),
                          {"", Double(-inf), Double(-max), Double(-1), Double(-tiny), Double(-0.0),
                           Double(0.0), Double(tiny), Double(1), Double(max), Double(inf),
                           Double(std::numeric_limits<double>::quiet_NaN())});
}

TEST_CASE("every NaN encodes as Java's canonical NaN", "[key_codec]") {
  const auto& type = *Native(TypeKind::kDouble);
  const std::string canonical = Enc(type, BigEndian(0x7FF8000000000000, 8));
  CHECK(Enc(type, BigEndian(0xFFF8000000000000, 8)) == canonical);
  CHECK(Enc(type, BigEndian(0x7FF0000000000001, 8)) == canonical);
  CHECK(Enc(type, BigEndian(0xFFFFFFFFFFFFFFFF, 8)) == canonical);
  const auto& f = *Native(TypeKind::kFloat);
  CHECK(Enc(f, BigEndian(0xFFC00001, 4)) == Enc(f, BigEndian(0x7FC00000, 4)));
}

TEST_CASE("varints order numerically across lengths", "[key_codec]") {
  std::string big_positive(200, '\x11');
  std::string big_negative = "\x80" + std::string(199, '\x11');
  CheckStrictlyIncreasing(
      *Native(TypeKind::kVarint),
      {"", big_negative, Varint(std::numeric_limits<int64_t>::min()), Varint(-65536), Varint(-129),
       Varint(-128), Varint(-1), Varint(0), Varint(1), Varint(127), Varint(128), Varint(255),
       Varint(256), Varint(std::numeric_limits<int64_t>::max()), big_positive});
}

TEST_CASE("non-minimal varints encode like their minimal form", "[key_codec]") {
  const auto& type = *Native(TypeKind::kVarint);
  CHECK(Enc(type, Bytes({0x00, 0x00, 0x05})) == Enc(type, Bytes({0x05})));
  CHECK(Enc(type, Bytes({0xFF, 0xFF, 0x80})) == Enc(type, Bytes({0x80})));
  CHECK(Enc(type, Bytes({0x00, 0x00})) == Enc(type, Bytes({0x00})));
}

TEST_CASE("decimals order numerically: -10 < -1.5 < -0.01 < 0 < 0.001 < 1 < 1.01 < 10.5",
          "[key_codec]") {
  CheckStrictlyIncreasing(
      *Native(TypeKind::kDecimal),
      {"", Decimal(-10, 0), Decimal(-15, 1), Decimal(-1, 2), Decimal(0, 0), Decimal(1, 3),
       Decimal(1, 0), Decimal(101, 2), Decimal(105, 1), Decimal(1, -9)});
}

TEST_CASE("equal decimals encode identically: 1 == 1.0 == 1.00 == 0.1E1 == 10E-1", "[key_codec]") {
  const auto& type = *Native(TypeKind::kDecimal);
  const std::string one = Enc(type, Decimal(1, 0));
  CHECK(Enc(type, Decimal(10, 1)) == one);
  CHECK(Enc(type, Decimal(100, 2)) == one);
  CHECK(Enc(type, BigEndian(1, 4) + Bytes({0x00, 0x0A})) == one);  // non-minimal unscaled
  CHECK(Enc(type, Decimal(0, 5)) == Enc(type, Decimal(0, -7)));
  CHECK(Enc(type, Decimal(-150, 2), kDesc) == Enc(type, Decimal(-15, 1), kDesc));
}

TEST_CASE("timestamps before 1970 sort first", "[key_codec]") {
  CheckStrictlyIncreasing(
      *Native(TypeKind::kTimestamp),
      {"", BigEndian(static_cast<uint64_t>(std::numeric_limits<int64_t>::min()), 8),
       BigEndian(static_cast<uint64_t>(int64_t{-86400000}), 8),
       BigEndian(static_cast<uint64_t>(int64_t{-1}), 8), BigEndian(0, 8), BigEndian(1, 8),
       BigEndian(1532343862432, 8)});
}

TEST_CASE("dates sort unsigned, the epoch (2^31) in the middle", "[key_codec]") {
  CheckStrictlyIncreasing(*Native(TypeKind::kDate),
                          {"", BigEndian(0, 4), BigEndian(0x7FFFFFFF, 4), BigEndian(0x80000000, 4),
                           BigEndian(0x80000001, 4), BigEndian(0xFFFFFFFF, 4)});
}

TEST_CASE("text sorts by bytes: a prefix, then 0x00, then higher bytes", "[key_codec]") {
  CheckStrictlyIncreasing(
      *Native(TypeKind::kText),
      {"", std::string(1, '\0'), std::string(2, '\0'), "\x01", "a", std::string("a\0", 2),
       std::string("a\0\xFF", 3), "a\x01", "ab", "\xFF", "\xFF\xFF"});
}

TEST_CASE("an IPv4 address sorts before an IPv6 address with the same first bytes", "[key_codec]") {
  CheckStrictlyIncreasing(
      *Native(TypeKind::kInet),
      {"", Bytes({10, 0, 0, 1}), Bytes({10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}),
       Bytes({10, 0, 0, 2}), Bytes({192, 168, 0, 1}),
       Bytes({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})});
}

TEST_CASE("uuids sort by version, then time (v1) or high bytes, then low bytes unsigned",
          "[key_codec]") {
  CheckStrictlyIncreasing(
      *Native(TypeKind::kUuid),
      {"",
       // version 1: time_hi decides before time_low
       Uuid("ffffffff-0000-1000-0000-000000000000"), Uuid("00000000-0000-1001-0000-000000000000"),
       // same time: low bytes unsigned (0x7f < 0x80)
       Uuid("00000000-0000-1001-7f00-000000000000"), Uuid("00000000-0000-1001-8000-000000000000"),
       // version 4 after every version 1, then high bytes unsigned
       Uuid("00000000-0000-4000-0000-000000000000"), Uuid("80000000-0000-4000-0000-000000000000")});
}

TEST_CASE("timeuuids sort by time, then low bytes as signed bytes", "[key_codec]") {
  CheckStrictlyIncreasing(
      *Native(TypeKind::kTimeuuid),
      {"", Uuid("ffffffff-ffff-1000-0000-000000000000"),
       Uuid("00000000-0000-1001-8000-000000000000"), Uuid("00000000-0000-1001-ff00-000000000000"),
       Uuid("00000000-0000-1001-0080-000000000000"), Uuid("00000000-0000-1001-0000-000000000000"),
       Uuid("00000000-0000-1001-007f-000000000000"), Uuid("00000000-0000-1001-7f00-000000000000")});
}

TEST_CASE("tuples: null < empty < value, and missing components sort first", "[key_codec]") {
  const TypePtr type = CqlType::Tuple({Native(TypeKind::kInt), Native(TypeKind::kText)});
  CheckStrictlyIncreasing(
      *type, {"", Framed({std::nullopt, std::string("z")}, false), Framed({std::string()}, false),
              Framed({Int(-1)}, false), Framed({Int(-1), std::string()}, false),
              Framed({Int(-1), std::string("a")}, false), Framed({Int(0)}, false)});
}

TEST_CASE("trailing null components encode as if absent, as Cassandra 5 compares them",
          "[key_codec]") {
  const TypePtr type = CqlType::Tuple({Native(TypeKind::kInt), Native(TypeKind::kText)});
  CHECK(Enc(*type, Framed({Int(1), std::nullopt}, false)) == Enc(*type, Framed({Int(1)}, false)));
  CHECK(Enc(*type, Framed({std::nullopt, std::nullopt}, false)) ==
        Enc(*type, Framed({std::nullopt}, false)));
  CHECK(Enc(*type, Framed({std::nullopt}, false)) != Enc(*type, ""));
}

TEST_CASE("a set's encoding does not depend on its serialized element order", "[key_codec]") {
  const TypePtr type = CqlType::Set(Native(TypeKind::kInt), true);
  const std::string sorted = Framed({Int(-5), Int(2), Int(7)}, true);
  const std::string shuffled = Framed({Int(7), Int(-5), Int(2), Int(7)}, true);
  CHECK(Enc(*type, shuffled) == Enc(*type, sorted));
  const TypePtr map = CqlType::Map(Native(TypeKind::kText), Native(TypeKind::kInt), true);
  CHECK(Enc(*map, Framed({std::string("b"), Int(1), std::string("a"), Int(2)}, true)) ==
        Enc(*map, Framed({std::string("a"), Int(2), std::string("b"), Int(1)}, true)));
}

TEST_CASE("collections: empty value < empty collection < [empty] < [1] < [1, 1] < [2]",
          "[key_codec]") {
  const TypePtr type = CqlType::List(Native(TypeKind::kInt), true);
  CheckStrictlyIncreasing(
      *type, {"", Framed({}, true), Framed({std::string()}, true), Framed({Int(1)}, true),
              Framed({Int(1), Int(1)}, true), Framed({Int(2)}, true)});
}

// ---------------------------------------------------------------------------
// The grammar of docs/FORMAT.md, byte for byte.

TEST_CASE("the empty value is the single tag 0x02 (0xFD descending)", "[key_codec]") {
  CHECK(Enc(*Native(TypeKind::kInt), "") == Bytes({0x02}));
  CHECK(Enc(*Native(TypeKind::kText), "", kDesc) == Bytes({0xFD}));
}

TEST_CASE("fixed-width integers are tag 0x03 then big-endian with the sign bit flipped",
          "[key_codec]") {
  CHECK(Enc(*Native(TypeKind::kInt), Int(1)) == Bytes({0x03, 0x80, 0x00, 0x00, 0x01}));
  CHECK(Enc(*Native(TypeKind::kInt), Int(-1)) == Bytes({0x03, 0x7F, 0xFF, 0xFF, 0xFF}));
  CHECK(Enc(*Native(TypeKind::kInt), Int(1), kDesc) == Bytes({0xFC, 0x7F, 0xFF, 0xFF, 0xFE}));
  CHECK(Enc(*Native(TypeKind::kDate), BigEndian(0x80000000, 4)) ==
        Bytes({0x03, 0x80, 0x00, 0x00, 0x00}));
}

TEST_CASE("byte strings escape 0x00 as 00 FF and end with 00 01", "[key_codec]") {
  CHECK(Enc(*Native(TypeKind::kText), std::string("a\0b", 3)) ==
        Bytes({0x03, 'a', 0x00, 0xFF, 'b', 0x00, 0x01}));
  CHECK(Enc(*Native(TypeKind::kBlob), "\xFF", kDesc) == Bytes({0xFC, 0x00, 0xFF, 0xFE}));
}

TEST_CASE("varints are a sign-and-length header then the magnitude", "[key_codec]") {
  const auto& type = *Native(TypeKind::kVarint);
  CHECK(Enc(type, Varint(0)) == Bytes({0x03, 0x80}));
  CHECK(Enc(type, Varint(1)) == Bytes({0x03, 0x81, 0x01}));
  CHECK(Enc(type, Varint(128)) == Bytes({0x03, 0x81, 0x80}));
  CHECK(Enc(type, Varint(256)) == Bytes({0x03, 0x82, 0x01, 0x00}));
  CHECK(Enc(type, Varint(-1)) == Bytes({0x03, 0x7E, 0xFE}));
  CHECK(Enc(type, Varint(-129)) == Bytes({0x03, 0x7E, 0x7E}));
}

TEST_CASE("varint magnitudes over 126 bytes use the 0xFF long-length header", "[key_codec]") {
  const auto& type = *Native(TypeKind::kVarint);
  const std::string magnitude = "\x01" + std::string(126, '\0');  // 127 bytes
  const std::string positive = Enc(type, std::string(1, '\0') + magnitude);
  CHECK(positive.substr(0, 10) == Bytes({0x03, 0xFF, 0, 0, 0, 0, 0, 0, 0, 127}));
  CHECK(positive.substr(10) == magnitude);
  const std::string largest_short = Enc(type, "\x7F" + std::string(125, '\xFF'));
  CHECK(static_cast<uint8_t>(largest_short[1]) == 0xFE);
  CHECK(largest_short < positive);
  // -2^1008 has the same magnitude: header 0x00 and everything inverted.
  const std::string negative = Enc(type, "\xFF" + std::string(1, '\xFF') + std::string(126, '\0'));
  CHECK(negative.substr(0, 2) == Bytes({0x03, 0x00}));
}

TEST_CASE("decimals are sign, base-100 exponent and base-100 digits", "[key_codec]") {
  const auto& type = *Native(TypeKind::kDecimal);
  // 1.5 = 0.(01)(50) * 100^1; digits 2d+1 except the last, 2d.
  CHECK(Enc(type, Decimal(15, 1)) == Bytes({0x03, 0x03, 0x81, 0x01, 0x03, 0x64}));
  CHECK(Enc(type, Decimal(1, 0)) == Bytes({0x03, 0x03, 0x81, 0x01, 0x02}));
  // 0.001 = 0.(10) * 100^-1
  CHECK(Enc(type, Decimal(1, 3)) == Bytes({0x03, 0x03, 0x7E, 0xFE, 0x14}));
  CHECK(Enc(type, Decimal(0, 4)) == Bytes({0x03, 0x02}));
  // -1.5: the exponent and digits inverted.
  CHECK(Enc(type, Decimal(-15, 1)) == Bytes({0x03, 0x01, 0x7E, 0xFE, 0xFC, 0x9B}));
}

TEST_CASE("uuid bodies put the version first, then v1 time fields most significant first",
          "[key_codec]") {
  CHECK(Enc(*Native(TypeKind::kUuid), Uuid("00112233-4455-1677-8899-aabbccddeeff")) ==
        Bytes({0x03, 0x01, 0x16, 0x77, 0x44, 0x55, 0x00, 0x11, 0x22, 0x33, 0x88, 0x99, 0xaa, 0xbb,
               0xcc, 0xdd, 0xee, 0xff}));
  CHECK(Enc(*Native(TypeKind::kTimeuuid), Uuid("00112233-4455-1677-8899-aabbccddeeff")) ==
        Bytes({0x03, 0x96, 0x77, 0x44, 0x55, 0x00, 0x11, 0x22, 0x33, 0x08, 0x19, 0x2a, 0x3b, 0x4c,
               0x5d, 0x6e, 0x7f}));
}

TEST_CASE("collections and tuples nest tagged components and end with 0x00", "[key_codec]") {
  CHECK(Enc(*CqlType::List(Native(TypeKind::kTinyint), true), Framed({"\x01", ""}, true)) ==
        Bytes({0x03, 0x03, 0x81, 0x02, 0x00}));
  const TypePtr tuple = CqlType::Tuple({Native(TypeKind::kTinyint), Native(TypeKind::kTinyint)});
  CHECK(Enc(*tuple, Framed({std::nullopt, std::string("\x01")}, false)) ==
        Bytes({0x03, 0x01, 0x03, 0x81, 0x00}));
}

TEST_CASE("no component starts with 0xFF in either direction", "[key_codec]") {
  for (const TypePtr& type :
       {Native(TypeKind::kBlob), Native(TypeKind::kVarint), Native(TypeKind::kDecimal),
        Native(TypeKind::kUuid), CqlType::List(Native(TypeKind::kText), true), Udt()}) {
    for (const std::string& v : Pool(*type, 29, 200)) {
      for (SortOrder order : {kAsc, kDesc}) {
        const std::string e = Enc(*type, v, order);
        REQUIRE(!e.empty());
        CHECK(static_cast<uint8_t>(e[0]) != 0xFF);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Round trips.

TEST_CASE("fixed-width and temporal keys decode to the bytes they came from", "[key_codec]") {
  for (TypeKind kind : {TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt, TypeKind::kBigint,
                        TypeKind::kTimestamp, TypeKind::kDate, TypeKind::kTime}) {
    CheckRoundTrip(Native(kind), 30);
  }
}

TEST_CASE("varint keys decode to the minimal two's complement", "[key_codec]") {
  CheckRoundTrip(Native(TypeKind::kVarint), 31);
  std::string_view in;
  std::string out;
  const std::string e = Enc(*Native(TypeKind::kVarint), Bytes({0xFF, 0xFF, 0x80}));
  in = e;
  REQUIRE(DecodeKeyComponent(*Native(TypeKind::kVarint), kAsc, &in, &out).ok());
  CHECK(out == Bytes({0x80}));
}

TEST_CASE("decimal keys decode normalised: 1.50 comes back as 15 scale 1", "[key_codec]") {
  CheckRoundTrip(Native(TypeKind::kDecimal), 32);
  const auto& type = *Native(TypeKind::kDecimal);
  auto round_trip = [&](const std::string& v) {
    const std::string e = Enc(type, v);
    std::string_view in = e;
    std::string out;
    REQUIRE(DecodeKeyComponent(type, kAsc, &in, &out).ok());
    return out;
  };
  CHECK(round_trip(Decimal(150, 2)) == Decimal(15, 1));
  CHECK(round_trip(Decimal(0, 9)) == Decimal(0, 0));
  CHECK(round_trip(Decimal(-1000, 0)) == Decimal(-1, -3));
}

TEST_CASE("a decimal whose normal form needs a scale below INT32_MIN keeps trailing zeros",
          "[key_codec]") {
  const auto& type = *Native(TypeKind::kDecimal);
  const std::string v = Decimal(1000, std::numeric_limits<int32_t>::min() + 1);
  const std::string e = Enc(type, v);
  std::string_view in = e;
  std::string out;
  REQUIRE(DecodeKeyComponent(type, kAsc, &in, &out).ok());
  CHECK(out == Decimal(100, std::numeric_limits<int32_t>::min()));
  CHECK(Enc(type, out) == e);
}

TEST_CASE("float and double keys round-trip, NaN canonicalised", "[key_codec]") {
  CheckRoundTrip(Native(TypeKind::kFloat), 33);
  CheckRoundTrip(Native(TypeKind::kDouble), 34);
}

TEST_CASE("boolean keys decode to 0x00 or 0x01", "[key_codec]") {
  CheckRoundTrip(Native(TypeKind::kBoolean), 35, 200);
}

TEST_CASE("text, blob and inet keys round-trip byte for byte", "[key_codec]") {
  for (TypeKind kind : {TypeKind::kText, TypeKind::kAscii, TypeKind::kBlob, TypeKind::kInet}) {
    CheckRoundTrip(Native(kind), 36);
  }
}

TEST_CASE("uuid and timeuuid keys round-trip", "[key_codec]") {
  CheckRoundTrip(Native(TypeKind::kUuid), 37);
  CheckRoundTrip(Native(TypeKind::kTimeuuid), 38);
}

TEST_CASE("collection keys round-trip, sets and maps sorted and deduplicated", "[key_codec]") {
  CheckRoundTrip(CqlType::List(Native(TypeKind::kDecimal), true), 39);
  CheckRoundTrip(CqlType::Set(Native(TypeKind::kVarint), true), 40);
  CheckRoundTrip(CqlType::Map(Native(TypeKind::kText), Native(TypeKind::kDouble), true), 41);
}

TEST_CASE("tuple and UDT keys round-trip without trailing nulls", "[key_codec]") {
  CheckRoundTrip(
      CqlType::Tuple({Native(TypeKind::kInt), Native(TypeKind::kText), Native(TypeKind::kBoolean)}),
      42);
  CheckRoundTrip(Udt(), 43);
}

TEST_CASE("decoding consumes exactly one component and leaves the rest", "[key_codec]") {
  const auto& type = *Native(TypeKind::kText);
  const std::string both = Enc(type, "ab", kDesc) + Enc(type, "", kDesc) + "\x42";
  std::string_view in = both;
  std::string value = "stale";
  REQUIRE(DecodeKeyComponent(type, kDesc, &in, &value).ok());
  CHECK(value == "ab");
  REQUIRE(DecodeKeyComponent(type, kDesc, &in, &value).ok());
  CHECK(value.empty());
  CHECK(in == "\x42");
}

// ---------------------------------------------------------------------------
// Composite keys and prefix bounds.

struct Column {
  TypePtr type;
  SortOrder order;
};

using Row = std::vector<std::string>;

std::vector<std::vector<Column>> Layouts() {
  return {
      {{Native(TypeKind::kTimestamp), kDesc}, {Native(TypeKind::kText), kAsc}},
      {{Native(TypeKind::kInt), kAsc},
       {Native(TypeKind::kVarint), kDesc},
       {Native(TypeKind::kText), kDesc}},
      {{Native(TypeKind::kText), kDesc},
       {Native(TypeKind::kDecimal), kAsc},
       {Native(TypeKind::kUuid), kDesc},
       {Native(TypeKind::kBoolean), kAsc}},
      {{CqlType::List(Native(TypeKind::kInt), true), kDesc},
       {CqlType::Tuple({Native(TypeKind::kInt), Native(TypeKind::kText)}), kAsc}},
  };
}

// Rows whose columns draw from a few values each, so leading columns tie.
std::vector<Row> Rows(const std::vector<Column>& layout, uint64_t seed, size_t n) {
  KeyValueGenerator generator(seed);
  std::vector<std::vector<std::string>> choices;
  for (const Column& c : layout) choices.push_back(Pool(*c.type, generator.Bits(), 5));
  std::vector<Row> rows;
  for (size_t i = 0; i < n; ++i) {
    Row row;
    for (const auto& values : choices) row.push_back(generator.Pick(values));
    rows.push_back(row);
  }
  return rows;
}

std::string EncodeRow(const std::vector<Column>& layout, const Row& row, size_t columns) {
  std::string out;
  for (size_t c = 0; c < columns; ++c)
    EncodeKeyComponent(*layout[c].type, row[c], layout[c].order, &out);
  return out;
}

// Cassandra's clustering comparison over the first `columns` columns.
int CompareRows(const std::vector<Column>& layout, const Row& a, const Row& b, size_t columns) {
  for (size_t c = 0; c < columns; ++c) {
    const int r = ReferenceCompare(*layout[c].type, a[c], b[c]);
    if (r != 0) return layout[c].order == kAsc ? r : -r;
  }
  return 0;
}

TEST_CASE("composite keys with mixed ASC and DESC columns sort as tuples", "[key_codec]") {
  uint64_t seed = 44;
  for (const auto& layout : Layouts()) {
    const std::vector<Row> rows = Rows(layout, seed++, 250);
    std::vector<std::string> keys;
    for (const Row& row : rows) keys.push_back(EncodeRow(layout, row, layout.size()));
    size_t mismatches = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      for (size_t j = 0; j < rows.size(); ++j) {
        const int expected = CompareRows(layout, rows[i], rows[j], layout.size());
        if (MemcmpSign(keys[i], keys[j]) != expected) ++mismatches;
      }
    }
    INFO("layout of " << layout.size() << " columns starting with " << layout[0].type->ToCql());
    CHECK(mismatches == 0);
  }
}

TEST_CASE("composite keys decode column by column to the canonical values", "[key_codec]") {
  uint64_t seed = 50;
  for (const auto& layout : Layouts()) {
    for (const Row& row : Rows(layout, seed++, 100)) {
      const std::string key = EncodeRow(layout, row, layout.size());
      std::string_view in = key;
      for (size_t c = 0; c < layout.size(); ++c) {
        std::string value;
        REQUIRE(DecodeKeyComponent(*layout[c].type, layout[c].order, &in, &value).ok());
        CHECK(value == Canonical(*layout[c].type, row[c]));
      }
      CHECK(in.empty());
    }
  }
}

TEST_CASE("PrefixSuccessor bounds exactly the keys that extend the prefix", "[key_codec]") {
  uint64_t seed = 60;
  for (const auto& layout : Layouts()) {
    const std::vector<Row> rows = Rows(layout, seed++, 120);
    size_t failures = 0;
    for (const Row& p : rows) {
      for (size_t columns = 0; columns <= layout.size(); ++columns) {
        const std::string prefix = EncodeRow(layout, p, columns);
        const std::string successor = PrefixSuccessor(prefix);
        for (const Row& k : rows) {
          const std::string key = EncodeRow(layout, k, layout.size());
          const int r = CompareRows(layout, k, p, columns);
          const bool ok = r < 0   ? key < prefix
                          : r > 0 ? key > successor
                                  : (key >= prefix && key < successor);
          if (!ok) ++failures;
        }
      }
    }
    CHECK(failures == 0);
  }
}

TEST_CASE("PrefixSuccessor appends 0xFF", "[key_codec]") {
  CHECK(PrefixSuccessor("") == "\xFF");
  CHECK(PrefixSuccessor(Bytes({0x03, 0x80})) == Bytes({0x03, 0x80, 0xFF}));
}

// ---------------------------------------------------------------------------
// Corrupt input.

Status DecodeBytes(const CqlType& type, const std::string& bytes, SortOrder order = kAsc) {
  std::string_view in = bytes;
  std::string value;
  return DecodeKeyComponent(type, order, &in, &value);
}

// The message must name the type and the problem.
void CheckCorruption(const CqlType& type, const std::string& bytes, const std::string& message) {
  const Status s = DecodeBytes(type, bytes);
  INFO(type.ToCql() << " " << Hex(bytes) << " -> " << s.ToString());
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK(s.message() == "key component of type " + type.ToCql() + ": " + message);
}

TEST_CASE("every strict prefix of an encoding is Corruption", "[key_codec]") {
  for (const TypePtr& type :
       {Native(TypeKind::kBigint), Native(TypeKind::kText), Native(TypeKind::kVarint),
        Native(TypeKind::kDecimal), Native(TypeKind::kDouble), Native(TypeKind::kUuid),
        Native(TypeKind::kTimeuuid),
        CqlType::Map(Native(TypeKind::kInt), Native(TypeKind::kText), true), Udt()}) {
    size_t failures = 0;
    for (const std::string& v : Pool(*type, 70, 200)) {
      for (SortOrder order : {kAsc, kDesc}) {
        const std::string e = Enc(*type, v, order);
        for (size_t n = 0; n < e.size(); ++n) {
          if (DecodeBytes(*type, e.substr(0, n), order).code() != StatusCode::kCorruption) {
            ++failures;
          }
        }
      }
    }
    INFO(type->ToCql());
    CHECK(failures == 0);
  }
}

TEST_CASE("a bad or missing tag is Corruption naming the byte", "[key_codec]") {
  const auto& type = *Native(TypeKind::kInt);
  CheckCorruption(type, "", "truncated: missing a component tag");
  CheckCorruption(type, Bytes({0x04}), "bad component tag 0x04");
  CheckCorruption(type, Bytes({0xFF}), "bad component tag 0xff");
  SECTION("end and null tags only appear inside collections and tuples") {
    CheckCorruption(type, Bytes({0x00}), "bad component tag 0x00");
    CheckCorruption(type, Bytes({0x01, 0x80, 0, 0, 0}), "bad component tag 0x01");
  }
  SECTION("a descending component is checked after inversion") {
    const Status s = DecodeBytes(type, Bytes({0xFB}), kDesc);
    CHECK(s.message() == "key component of type int: bad component tag 0x04");
  }
}

TEST_CASE("a truncated fixed-width body is Corruption saying how short it is", "[key_codec]") {
  CheckCorruption(*Native(TypeKind::kInt), Bytes({0x03, 0x80, 0x00}),
                  "truncated: needs 4 bytes, 2 left");
  CheckCorruption(*Native(TypeKind::kDouble), Bytes({0x03, 0x80}), "truncated floating-point key");
  CheckCorruption(*Native(TypeKind::kUuid), Bytes({0x03, 0x04, 0x00}), "truncated uuid key");
  CheckCorruption(*Native(TypeKind::kTimeuuid), Bytes({0x03}), "truncated timeuuid key");
  CheckCorruption(*Native(TypeKind::kBoolean), Bytes({0x03}), "truncated boolean key");
}

TEST_CASE("a byte string without its terminator or with a bad escape is Corruption",
          "[key_codec]") {
  const auto& type = *Native(TypeKind::kText);
  CheckCorruption(type, Bytes({0x03, 'a', 'b'}), "unterminated byte string");
  CheckCorruption(type, Bytes({0x03, 'a', 0x00}), "truncated escape in byte string");
  CheckCorruption(type, Bytes({0x03, 'a', 0x00, 0x02}), "bad escape 0x00 0x02 in byte string");
}

TEST_CASE("non-canonical booleans, NaNs and uuid versions are Corruption", "[key_codec]") {
  CheckCorruption(*Native(TypeKind::kBoolean), Bytes({0x03, 0x02}), "bad boolean key byte 0x02");
  // The body of a positive value has its sign bit set: 0x7F800001 -> 0xFF800001.
  CheckCorruption(*Native(TypeKind::kFloat), Bytes({0x03, 0xFF, 0x80, 0x00, 0x01}),
                  "non-canonical NaN in floating-point key");
  CheckCorruption(*Native(TypeKind::kUuid), Bytes({0x03, 0x04}) + std::string(16, '\0'),
                  "uuid key version byte 0x04 does not match the uuid's version nibble");
}

TEST_CASE("non-canonical varints are Corruption", "[key_codec]") {
  const auto& type = *Native(TypeKind::kVarint);
  CheckCorruption(type, Bytes({0x03, 0x81, 0x00}),
                  "leading zero byte in the magnitude of varint key");
  CheckCorruption(type, Bytes({0x03, 0x7F}), "negative zero header in varint key");
  CheckCorruption(type, Bytes({0x03, 0xFF, 0, 0, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4, 5}),
                  "long length form for a short magnitude in varint key");
  CheckCorruption(type, Bytes({0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1}),
                  "truncated varint key");
  CheckCorruption(type, Bytes({0x03, 0x82, 0x01}), "truncated varint key");
}

TEST_CASE("malformed decimal bodies are Corruption", "[key_codec]") {
  const auto& type = *Native(TypeKind::kDecimal);
  CheckCorruption(type, Bytes({0x03, 0x04}), "bad decimal sign byte 4");
  CheckCorruption(type, Bytes({0x03, 0x03, 0x80, 0xC8}), "decimal digit byte 200 above 199");
  CheckCorruption(type, Bytes({0x03, 0x03, 0x80, 0x03, 0x00}),
                  "decimal digits not normalised (a leading or trailing zero pair)");
  CheckCorruption(type, Bytes({0x03, 0x03, 0x80, 0x03}), "truncated decimal digits");
  CheckCorruption(type, Bytes({0x03, 0x03, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x02}),
                  "magnitude too long in decimal exponent");
  CheckCorruption(type, Bytes({0x03, 0x03, 0x86, 2, 0, 0, 0, 0, 0, 0x02}),
                  "decimal exponent out of range");
  // exponent -2^31: the scale would be 2^32.
  CheckCorruption(type, Bytes({0x03, 0x03, 0x7B, 0x7F, 0xFF, 0xFF, 0xFF, 0x02}),
                  "decimal scale 4294967298 out of range");
}

TEST_CASE("the empty value has one encoding: VALUE with an empty body is Corruption",
          "[key_codec]") {
  // Otherwise one key would have two encodings (02 and 03 00 01), breaking
  // "re-encoding gives back exactly the bytes consumed".
  for (TypeKind kind : {TypeKind::kText, TypeKind::kAscii, TypeKind::kBlob}) {
    CheckCorruption(*Native(kind), Bytes({0x03, 0x00, 0x01}), "empty value under a VALUE tag");
  }
  const TypePtr set = CqlType::Set(Native(TypeKind::kBlob), true);
  CheckCorruption(*set, Bytes({0x03, 0x03, 0x00, 0x01, 0x00}), "empty value under a VALUE tag");
  CHECK(DecodeBytes(*set, Bytes({0x03, 0x02, 0x00})).ok());  // {0x} spelled canonically
}

TEST_CASE("out-of-order or duplicate set elements and map keys are Corruption", "[key_codec]") {
  const TypePtr set = CqlType::Set(Native(TypeKind::kTinyint), true);
  CheckCorruption(*set, Bytes({0x03, 0x03, 0x82, 0x03, 0x81, 0x00}), "set elements out of order");
  CheckCorruption(*set, Bytes({0x03, 0x03, 0x81, 0x03, 0x81, 0x00}), "set elements out of order");
  const TypePtr map = CqlType::Map(Native(TypeKind::kTinyint), Native(TypeKind::kTinyint), true);
  CheckCorruption(*map, Bytes({0x03, 0x03, 0x82, 0x02, 0x03, 0x81, 0x02, 0x00}),
                  "map keys out of order");
  SECTION("descending sets are checked in ascending terms") {
    const std::string good = Enc(*set, Framed({"\x01", "\x02"}, true), kDesc);
    CHECK(DecodeBytes(*set, good, kDesc).ok());
    std::string swapped = good;
    std::swap(swapped[2], swapped[4]);  // the two elements' value bytes
    CHECK(DecodeBytes(*set, swapped, kDesc).message() ==
          "key component of type frozen<set<tinyint>>: set elements out of order");
  }
}

TEST_CASE("malformed collections and tuples are Corruption", "[key_codec]") {
  const TypePtr list = CqlType::List(Native(TypeKind::kTinyint), true);
  CheckCorruption(*list, Bytes({0x03, 0x01, 0x00}), "null element in a collection");
  CheckCorruption(*list, Bytes({0x03, 0x03, 0x81}), "truncated: missing a component tag");
  const TypePtr map = CqlType::Map(Native(TypeKind::kTinyint), Native(TypeKind::kTinyint), true);
  CheckCorruption(*map, Bytes({0x03, 0x03, 0x81, 0x00}), "bad component tag 0x00");
  const TypePtr tuple = CqlType::Tuple({Native(TypeKind::kTinyint), Native(TypeKind::kTinyint)});
  CheckCorruption(*tuple, Bytes({0x03, 0x02, 0x01, 0x00}),
                  "trailing null component (never encoded)");
  CheckCorruption(*tuple, Bytes({0x03, 0x02, 0x02, 0x02, 0x00}), "more than 2 components");
  CheckCorruption(*tuple, Bytes({0x03, 0x05}), "bad component tag 0x05");
}

// Whatever decodes must re-encode to exactly the bytes consumed: the decoder
// accepts the encoder's outputs and nothing else.
size_t CheckDecoderOn(const CqlType& type, const std::string& bytes, SortOrder order,
                      size_t* failures) {
  std::string_view in = bytes;
  std::string value;
  const Status s = DecodeKeyComponent(type, order, &in, &value);
  if (!s.ok()) {
    if (s.code() != StatusCode::kCorruption) ++*failures;
    return 0;
  }
  const size_t consumed = bytes.size() - in.size();
  if (Enc(type, value, order) != bytes.substr(0, consumed)) ++*failures;
  return 1;
}

std::vector<TypePtr> RobustnessTypes() {
  return {Native(TypeKind::kInt),
          Native(TypeKind::kBoolean),
          Native(TypeKind::kFloat),
          Native(TypeKind::kText),
          Native(TypeKind::kVarint),
          Native(TypeKind::kDecimal),
          Native(TypeKind::kUuid),
          Native(TypeKind::kTimeuuid),
          CqlType::Set(Native(TypeKind::kTinyint), true),
          CqlType::Map(Native(TypeKind::kBoolean), Native(TypeKind::kTinyint), true),
          CqlType::Tuple({Native(TypeKind::kTinyint), Native(TypeKind::kBoolean)}),
          Udt()};
}

TEST_CASE("random bytes never crash the decoder; what decodes re-encodes to the same bytes",
          "[key_codec]") {
  std::mt19937_64 rng(80);
  const std::string alphabet("\x00\x01\x02\x03\x7E\x7F\x80\x81\x82\xFC\xFD\xFE\xFF", 13);
  for (const TypePtr& type : RobustnessTypes()) {
    size_t failures = 0;
    size_t decoded = 0;
    for (int i = 0; i < 5000; ++i) {
      std::string bytes;
      for (size_t n = rng() % 24; n > 0; --n) {
        bytes.push_back(rng() % 2 == 0 ? alphabet[rng() % alphabet.size()]
                                       : static_cast<char>(rng() & 0xFF));
      }
      for (SortOrder order : {kAsc, kDesc})
        decoded += CheckDecoderOn(*type, bytes, order, &failures);
    }
    INFO(type->ToCql() << ": " << decoded << " decoded");
    CHECK(failures == 0);
    CHECK(decoded > 0);
  }
}

TEST_CASE("mutated encodings never crash the decoder; what decodes is canonical", "[key_codec]") {
  std::mt19937_64 rng(81);
  for (const TypePtr& type : RobustnessTypes()) {
    size_t failures = 0;
    size_t decoded = 0;
    for (const std::string& v : Pool(*type, rng(), 500)) {
      for (SortOrder order : {kAsc, kDesc}) {
        std::string bytes = Enc(*type, v, order);
        for (size_t edits = 1 + rng() % 3; edits > 0 && !bytes.empty(); --edits) {
          const size_t at = rng() % bytes.size();
          switch (rng() % 3) {
            case 0:
              bytes[at] = static_cast<char>(rng() & 0xFF);
              break;
            case 1:
              bytes.resize(at);
              break;
            default:
              bytes.insert(at, 1, static_cast<char>(rng() & 0xFF));
              break;
          }
        }
        decoded += CheckDecoderOn(*type, bytes, order, &failures);
      }
    }
    INFO(type->ToCql() << ": " << decoded << " decoded");
    CHECK(failures == 0);
  }
}

TEST_CASE("malformed serializations still encode to decodable keys, never out of bounds",
          "[key_codec]") {
  // Encoding REQUIRES a valid value; an invalid one must still be memory-safe.
  std::mt19937_64 rng(82);
  for (const TypePtr& type : RobustnessTypes()) {
    size_t failures = 0;
    for (int i = 0; i < 3000; ++i) {
      std::string value;
      for (size_t n = rng() % 40; n > 0; --n) {
        value.push_back(rng() % 3 == 0 ? '\0' : static_cast<char>(rng() & 0xFF));
      }
      for (SortOrder order : {kAsc, kDesc}) {
        if (CheckDecoderOn(*type, Enc(*type, value, order), order, &failures) != 1) ++failures;
      }
    }
    INFO(type->ToCql());
    CHECK(failures == 0);
  }
}

}  // namespace
}  // namespace cellfs
