// Random serialized values of any key-capable CqlType for the key codec's
// property tests, biased towards edge values and near-collisions (small
// alphabets, shared prefixes) so that comparisons reach every tie-break.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/cql_type.h"
#include "tests/engine/key_reference_order.h"

namespace cellfs::testing {

// Not thread-safe. Deterministic for a seed.
class KeyValueGenerator {
 public:
  // `sorted_collections`: sets and maps come sorted by the reference
  // comparator without duplicates, as Cassandra serializes them. Unsorted
  // ones are valid codec input too, but the reference comparator (like
  // Cassandra's) compares them in serialized order.
  explicit KeyValueGenerator(uint64_t seed, bool sorted_collections = true)
      : rng_(seed), sorted_collections_(sorted_collections) {}

  std::string Generate(const CqlType& type) {
    if (Chance(0.04)) return "";
    return GenerateNonEmpty(type);
  }

  size_t Uniform(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  uint64_t Bits() { return rng_(); }

  template <typename T>
  const T& Pick(const std::vector<T>& choices) {
    return choices[Uniform(choices.size())];
  }

 private:
  static std::string BigEndian(uint64_t v, size_t width) {
    std::string out(width, '\0');
    for (size_t i = width; i-- > 0; v >>= 8) out[i] = static_cast<char>(v & 0xFF);
    return out;
  }

  std::string FromAlphabet(size_t n, const std::string& alphabet) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out.push_back(alphabet[Uniform(alphabet.size())]);
    return out;
  }

  std::string RandomBytes(size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out.push_back(static_cast<char>(Bits() & 0xFF));
    return out;
  }

  std::string SignedInteger(size_t width) {
    const unsigned bits = static_cast<unsigned>(8 * width);
    const int64_t max = static_cast<int64_t>((uint64_t{1} << (bits - 1)) - 1);
    const int64_t min = -max - 1;
    int64_t v = 0;
    const size_t mode = Uniform(3);
    if (mode == 0) {
      v = Pick(std::vector<int64_t>{0, 1, -1, 2, -2, min, max, min + 1, max - 1});
    } else if (mode == 1) {
      v = static_cast<int64_t>(Uniform(7)) - 3;
    } else {
      return RandomBytes(width);
    }
    return BigEndian(static_cast<uint64_t>(v), width);
  }

  std::string Timestamp() {
    if (Chance(0.3)) {
      // Pre-1970 instants, the epoch, year 1 and the extremes.
      const int64_t v = Pick(std::vector<int64_t>{
          0, -1, 1, -86400000, -62135596800000, 1532343862432, std::numeric_limits<int64_t>::min(),
          std::numeric_limits<int64_t>::max()});
      return BigEndian(static_cast<uint64_t>(v), 8);
    }
    return SignedInteger(8);
  }

  std::string Date() {
    const uint64_t epoch = uint64_t{1} << 31;
    switch (Uniform(3)) {
      case 0:
        return BigEndian(Pick(std::vector<uint64_t>{0, 1, epoch - 1, epoch, epoch + 1, 0xFFFFFFFF}),
                         4);
      case 1:
        return BigEndian(epoch - 1000 + Uniform(2000), 4);
      default:
        return RandomBytes(4);
    }
  }

  std::string Time() {
    const uint64_t day = 86399999999999;
    switch (Uniform(4)) {
      case 0:
        return BigEndian(Pick(std::vector<uint64_t>{0, 1, day, 43200000000000}), 8);
      case 1:
        return BigEndian(Uniform(1000), 8);
      case 2:
        return BigEndian(Bits() % (day + 1), 8);
      default:  // outside the valid range, still ordered as Cassandra's bytes
        return RandomBytes(8);
    }
  }

  std::string Floating(size_t width) {
    const bool is_float = width == 4;
    const std::vector<uint64_t> edges =
        is_float ? std::vector<uint64_t>{0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                         0xFFC00000, 0x7F800001, 0xFFFFFFFF, 0x7FBFFFFF, 0x00000001,
                                         0x80000001, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000}
                 : std::vector<uint64_t>{0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000,
                                         0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
                                         0x7FF0000000000001, 0xFFFFFFFFFFFFFFFF, 0x0000000000000001,
                                         0x8000000000000001, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF,
                                         0x3FF0000000000000, 0xBFF0000000000000};
    if (Chance(0.4)) return BigEndian(Pick(edges), width);
    if (Chance(0.3)) {
      const double v = static_cast<double>(static_cast<int>(Uniform(9)) - 4) / 2.0;
      if (is_float) {
        const auto f = static_cast<float>(v);
        uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        return BigEndian(bits, 4);
      }
      uint64_t bits = 0;
      std::memcpy(&bits, &v, 8);
      return BigEndian(bits, 8);
    }
    return RandomBytes(width);
  }

  // Two's complement of a small number, sometimes with redundant sign bytes.
  std::string SmallVarint(int64_t v) {
    std::string bytes = BigEndian(static_cast<uint64_t>(v), 8);
    size_t skip = 0;
    while (skip + 1 < bytes.size() &&
           ((bytes[skip] == '\0' && (static_cast<uint8_t>(bytes[skip + 1]) & 0x80) == 0) ||
            (bytes[skip] == '\xFF' && (static_cast<uint8_t>(bytes[skip + 1]) & 0x80) != 0))) {
      ++skip;
    }
    if (Chance(0.2)) skip -= std::min(skip, Uniform(3));  // non-minimal input
    return bytes.substr(skip);
  }

  std::string Varint() {
    switch (Uniform(5)) {
      case 0:
        return Pick(std::vector<std::string>{std::string(1, '\0'), std::string(2, '\0'), "\xFF",
                                             "\xFF\xFF", "\x80", "\x7F", std::string("\x00\x80", 2),
                                             "\xFF\x7F", "\x01", std::string("\x01\x00", 2)});
      case 1:
        return SmallVarint(static_cast<int64_t>(Uniform(601)) - 300);
      case 2:
        return SmallVarint(static_cast<int64_t>(Bits()));
      case 3:
        return RandomBytes(1 + Uniform(24));
      default:  // magnitudes around the 126-byte boundary of the short length form
        return RandomBytes(120 + Uniform(20));
    }
  }

  std::string Decimal() {
    constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
    constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
    if (Chance(0.15)) {
      // 1, 1.0, 1.00, 0.1E1 (= 1), 10E-1, 0, 0.000, 0E+5, -1.50, 15E-1 ...
      const std::vector<std::pair<int64_t, int32_t>> edges = {
          {1, 0}, {10, 1}, {100, 2}, {0, 0}, {0, 3}, {0, -5}, {-150, 2}, {15, 1}, {-1, 0}, {5, 1}};
      const auto& [unscaled, scale] = Pick(edges);
      return BigEndian(static_cast<uint32_t>(scale), 4) + SmallVarint(unscaled);
    }
    int32_t scale = 0;
    switch (Uniform(5)) {
      case 0:
      case 1:
        scale = static_cast<int32_t>(Uniform(10)) - 3;
        break;
      case 2:
        scale = static_cast<int32_t>(Uniform(81)) - 40;
        break;
      case 3:
        scale = Pick(std::vector<int32_t>{kMin, kMin + 1, kMax, kMax - 1});
        break;
      default:
        scale = static_cast<int32_t>(static_cast<uint32_t>(Bits()));
        break;
    }
    std::string unscaled;
    if (Chance(0.6)) {
      int64_t v = static_cast<int64_t>(Uniform(4001)) - 2000;
      for (size_t zeros = Uniform(4); zeros > 0; --zeros) v *= 10;
      unscaled = SmallVarint(v);
    } else {
      unscaled = Varint();
    }
    return BigEndian(static_cast<uint32_t>(scale), 4) + unscaled;
  }

  std::string ByteString() {
    if (Chance(0.1)) return RandomBytes(20 + Uniform(80));
    return FromAlphabet(1 + Uniform(6), std::string("\x00\x01"
                                                    "ab\x7F\x80\xFE\xFF",
                                                    8));
  }

  std::string Inet() {
    const std::string alphabet("\x00\x01\x0A\x7F\xC0\xFF", 6);
    return FromAlphabet(Chance(0.5) ? 4 : 16, alphabet);
  }

  std::string Uuid(bool time_based) {
    std::string b = FromAlphabet(16, std::string("\x00\x01\x7F\x80\xFF", 5));
    if (Chance(0.3)) b = RandomBytes(16);
    const unsigned version =
        time_based
            ? 1u
            : Pick(std::vector<unsigned>{1, 1, 4, 4, 0, 2, 15, static_cast<unsigned>(Uniform(16))});
    b[6] = static_cast<char>((version << 4) | (static_cast<uint8_t>(b[6]) & 0x0F));
    return b;
  }

  std::string Collection(const CqlType& type) {
    const bool is_map = type.kind() == TypeKind::kMap;
    std::vector<std::pair<std::string, std::string>> entries;
    for (size_t n = Uniform(5); n > 0; --n) {
      entries.emplace_back(Generate(*type.params()[0]), is_map ? Generate(*type.params()[1]) : "");
    }
    return FrameCollection(type, std::move(entries),
                           sorted_collections_ && type.kind() != TypeKind::kList);
  }

  std::string Tuple(const CqlType& type) {
    const size_t size = type.params().size();
    const size_t count = Chance(0.7) ? size : Uniform(size + 1);
    std::string out;
    for (size_t i = 0; i < count; ++i) {
      if (Chance(0.2)) {
        AppendFramed(std::nullopt, &out);
      } else {
        AppendFramed(Generate(*type.params()[i]), &out);
      }
    }
    return out;
  }

  std::string GenerateNonEmpty(const CqlType& type) {
    switch (type.kind()) {
      case TypeKind::kTinyint:
      case TypeKind::kSmallint:
      case TypeKind::kInt:
      case TypeKind::kBigint:
        return SignedInteger(static_cast<size_t>(type.FixedWidth()));
      case TypeKind::kTimestamp:
        return Timestamp();
      case TypeKind::kDate:
        return Date();
      case TypeKind::kTime:
        return Time();
      case TypeKind::kFloat:
      case TypeKind::kDouble:
        return Floating(static_cast<size_t>(type.FixedWidth()));
      case TypeKind::kBoolean:
        return std::string(1,
                           Pick(std::vector<char>{'\x00', '\x00', '\x01', '\x01', '\x02', '\xFF'}));
      case TypeKind::kVarint:
        return Varint();
      case TypeKind::kDecimal:
        return Decimal();
      case TypeKind::kUuid:
        return Uuid(false);
      case TypeKind::kTimeuuid:
        return Uuid(true);
      case TypeKind::kInet:
        return Inet();
      case TypeKind::kList:
      case TypeKind::kSet:
      case TypeKind::kMap:
        return Collection(type);
      case TypeKind::kTuple:
      case TypeKind::kUdt:
        return Tuple(type);
      default:  // text, ascii, blob
        return ByteString();
    }
  }

  std::mt19937_64 rng_;
  bool sorted_collections_;
};

}  // namespace cellfs::testing
