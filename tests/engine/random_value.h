// Random, valid serialized values of any CQL type, for the literal property
// tests: each generated value is one ValidateValue accepts.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/cql_type.h"
#include "engine/cql/internal/duration_literal.h"

namespace cellfs {

// Deterministic for a given seed. Values lean towards awkward content:
// quotes, commas, brackets and multi-byte UTF-8 in text; NaN, infinities
// and signed zeros in floats; empty elements where a term can spell them.
class RandomValues {
 public:
  explicit RandomValues(uint64_t seed) : rng_(seed) {}

  // A value of `type`. At the top level (`nested` false) never the empty
  // value of a kind whose empty value has no literal (see literal.h).
  std::string Value(const CqlType& type, bool nested = false) {
    if (type.is_native()) {
      if (nested && Chance(20) && type.kind() != TypeKind::kBlob) return "";
      return Native(type.kind());
    }
    switch (type.kind()) {
      case TypeKind::kList:
      case TypeKind::kSet:
      case TypeKind::kMap:
        return Collection(type);
      default:
        return Components(type);
    }
  }

  uint64_t Bits() { return rng_(); }
  size_t Below(size_t n) { return static_cast<size_t>(rng_() % n); }
  bool Chance(size_t one_in) { return Below(one_in) == 0; }

  std::string Bytes(size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(Below(256));
    return s;
  }

 private:
  std::string Native(TypeKind kind) {
    switch (kind) {
      case TypeKind::kText:
        return Text();
      case TypeKind::kAscii: {
        std::string s(Below(10), '\0');
        for (char& c : s) c = static_cast<char>(Below(128));
        return s;
      }
      case TypeKind::kBlob:
        return Bytes(Below(10));
      case TypeKind::kBoolean:
        return std::string(1, static_cast<char>(Below(2)));
      case TypeKind::kTimeuuid: {
        std::string u = Bytes(16);
        u[6] = static_cast<char>(0x10 | (u[6] & 0x0f));
        return u;
      }
      case TypeKind::kInet:
        return Bytes(Chance(2) ? 4 : 16);
      case TypeKind::kVarint:
        return Varint();
      case TypeKind::kFloat:
        return Floating(4, 0x7f800000, 0x007fffff, 0x7fc00000);
      case TypeKind::kDouble:
        return Floating(8, 0x7ff0000000000000, 0x000fffffffffffff, 0x7ff8000000000000);
      case TypeKind::kDecimal:
        return Bytes(4) + Varint();
      case TypeKind::kTime:
        return BigEndian(Bits() % 86'400'000'000'000, 8);
      case TypeKind::kDuration:
        return Duration();
      default:  // fixed width: every bit pattern is a value
        return Bytes(static_cast<size_t>(CqlType::Native(kind)->FixedWidth()));
    }
  }

  // Code points of every UTF-8 length, with CQL's special characters common.
  std::string Text() {
    static constexpr char kSpecial[] = "'\",:[]{}() $%/@.\n\\";
    std::string s;
    const size_t n = Below(8);
    for (size_t i = 0; i < n; ++i) {
      switch (Below(5)) {
        case 0:
          s += kSpecial[Below(sizeof kSpecial - 1)];
          break;
        case 1:
          s += static_cast<char>(Below(128));
          break;
        default:
          AppendUtf8(RandomCodePoint(), &s);
      }
    }
    return s;
  }

  uint32_t RandomCodePoint() {
    static constexpr uint32_t kLimits[] = {0x80, 0x800, 0x10000, 0x110000};
    while (true) {
      const uint32_t cp = static_cast<uint32_t>(Below(kLimits[Below(4)]));
      if (cp < 0xD800 || cp > 0xDFFF) return cp;
    }
  }

  static void AppendUtf8(uint32_t cp, std::string* s) {
    auto put = [s](uint32_t b) { s->push_back(static_cast<char>(b)); };
    if (cp < 0x80) {
      put(cp);
    } else if (cp < 0x800) {
      put(0xC0 | (cp >> 6));
      put(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      put(0xE0 | (cp >> 12));
      put(0x80 | ((cp >> 6) & 0x3F));
      put(0x80 | (cp & 0x3F));
    } else {
      put(0xF0 | (cp >> 18));
      put(0x80 | ((cp >> 12) & 0x3F));
      put(0x80 | ((cp >> 6) & 0x3F));
      put(0x80 | (cp & 0x3F));
    }
  }

  // Minimal two's complement: drop leading bytes that only repeat the sign.
  std::string Varint() {
    std::string v = Bytes(1 + Below(Chance(4) ? 24 : 4));
    size_t skip = 0;
    while (skip + 1 < v.size()) {
      const auto b0 = static_cast<unsigned char>(v[skip]);
      const bool next_negative = (static_cast<unsigned char>(v[skip + 1]) & 0x80) != 0;
      if ((b0 == 0x00 && !next_negative) || (b0 == 0xff && next_negative)) {
        ++skip;
      } else {
        break;
      }
    }
    return v.substr(skip);
  }

  std::string Floating(size_t width, uint64_t exponent, uint64_t mantissa, uint64_t nan) {
    uint64_t bits = Bits();
    if (width == 4) bits &= 0xffffffff;
    if (Chance(8)) bits &= ~mantissa;  // powers of two, infinities
    if (Chance(8)) bits &= ~exponent;  // subnormals and zeros
    if ((bits & exponent) == exponent && (bits & mantissa) != 0) bits = nan;
    return BigEndian(bits, width);
  }

  std::string Duration() {
    DurationValue d;
    const int sign = Chance(2) ? 1 : -1;
    d.months = sign * static_cast<int32_t>(Below(Chance(4) ? 2'000'000'000 : 30));
    d.days = sign * static_cast<int32_t>(Below(Chance(4) ? 2'000'000'000 : 40));
    d.nanoseconds = sign * static_cast<int64_t>(Bits() >> (Chance(2) ? 1 : 30));
    return EncodeDuration(d);
  }

  static std::string BigEndian(uint64_t value, size_t width) {
    std::string s(width, '\0');
    for (size_t i = width; i > 0; --i, value >>= 8) s[i - 1] = static_cast<char>(value & 0xff);
    return s;
  }

  std::string Collection(const CqlType& type) {
    const bool is_map = type.kind() == TypeKind::kMap;
    std::vector<std::string> items;
    const size_t n = Below(5);
    for (size_t i = 0; i < n; ++i) {
      items.push_back(Value(*type.params()[0], true));
      if (is_map) items.push_back(Value(*type.params()[1], true));
    }
    if (type.kind() == TypeKind::kSet) CanonicalizeSet(*type.params()[0], &items);
    if (is_map) CanonicalizeMap(*type.params()[0], &items);
    return PackCollection(items, is_map ? 2 : 1);
  }

  // Tuples and UDTs, sometimes with fewer components than the type.
  std::string Components(const CqlType& type) {
    std::vector<std::optional<std::string>> components;
    const size_t n = Chance(4) ? Below(type.params().size() + 1) : type.params().size();
    for (size_t i = 0; i < n; ++i) {
      if (Chance(4)) {
        components.emplace_back(std::nullopt);
      } else {
        components.emplace_back(Value(*type.params()[i], true));
      }
    }
    return PackComponents(components);
  }

  std::mt19937_64 rng_;
};

}  // namespace cellfs
