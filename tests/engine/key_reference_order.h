// A reference comparator for the key codec's property tests: Cassandra's
// AbstractType.compare rules, transcribed type by type over the serialized
// bytes, sharing no code with engine/cql/key_codec.cc. Also Canonical(), the
// value a decode should give back. Test-only.
#pragma once

#include <gmp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/cql/cql_type.h"

namespace cellfs::testing {

inline int Sign(int64_t v) { return (v > 0) - (v < 0); }

// Owns an mpz_t.
class Mpz {
 public:
  Mpz() { mpz_init(v_); }
  ~Mpz() { mpz_clear(v_); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
  mpz_ptr get() { return v_; }

 private:
  mpz_t v_;
};

// A two's-complement big-endian integer of any length (empty reads as 0).
inline void ImportTwosComplement(std::string_view bytes, mpz_ptr out) {
  mpz_set_ui(out, 0);
  for (char c : bytes) {
    mpz_mul_ui(out, out, 256);
    mpz_add_ui(out, out, static_cast<uint8_t>(c));
  }
  if (!bytes.empty() && (static_cast<uint8_t>(bytes[0]) & 0x80) != 0) {
    Mpz power;
    mpz_ui_pow_ui(power.get(), 256, bytes.size());
    mpz_sub(out, out, power.get());
  }
}

// The minimal two's-complement big-endian bytes of `v`, by search: the
// shortest length n with -2^(8n-1) <= v < 2^(8n-1).
inline std::string ExportTwosComplement(mpz_ptr v) {
  Mpz bound;
  Mpz shifted;
  size_t n = 1;
  while (true) {
    mpz_ui_pow_ui(bound.get(), 2, 8 * n - 1);
    mpz_neg(shifted.get(), bound.get());
    if (mpz_cmp(v, shifted.get()) >= 0 && mpz_cmp(v, bound.get()) < 0) break;
    ++n;
  }
  // v mod 2^(8n), as n bytes.
  Mpz modulus;
  Mpz r;
  mpz_ui_pow_ui(modulus.get(), 2, 8 * n);
  mpz_mod(r.get(), v, modulus.get());
  std::string bytes(n, '\0');
  for (size_t i = n; i-- > 0;) {
    bytes[i] = static_cast<char>(mpz_fdiv_ui(r.get(), 256));
    mpz_fdiv_q_ui(r.get(), r.get(), 256);
  }
  return bytes;
}

inline uint64_t BigEndian(std::string_view b, size_t offset, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) v = (v << 8) | static_cast<uint8_t>(b[offset + i]);
  return v;
}

// ByteBufferUtil.compareUnsigned: lexicographic, a prefix first.
inline int CompareUnsigned(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const int d = static_cast<uint8_t>(a[i]) - static_cast<uint8_t>(b[i]);
    if (d != 0) return d < 0 ? -1 : 1;
  }
  return Sign(static_cast<int64_t>(a.size()) - static_cast<int64_t>(b.size()));
}

inline int64_t SignedBigEndian(std::string_view b, size_t width) {
  const uint64_t u = BigEndian(b, 0, width);
  const unsigned shift = static_cast<unsigned>(64 - 8 * width);
  // Sign-extend by moving the value's top bit to bit 63 and back.
  return static_cast<int64_t>(u << shift) >> shift;
}

// java.lang.Float.compare / Double.compare, as the JDK writes them.
template <typename F, typename Bits>
int JavaFloatingCompare(F f1, F f2, Bits bits1, Bits bits2) {
  if (f1 < f2) return -1;
  if (f1 > f2) return 1;
  return bits1 == bits2 ? 0 : (bits1 < bits2 ? -1 : 1);
}

inline int CompareFloat(std::string_view a, std::string_view b) {
  auto to_float = [](std::string_view s, int32_t* java_bits) {
    const auto u = static_cast<uint32_t>(BigEndian(s, 0, 4));
    float f = 0;
    std::memcpy(&f, &u, 4);
    *java_bits = std::isnan(f) ? 0x7fc00000 : static_cast<int32_t>(u);  // floatToIntBits
    return f;
  };
  int32_t bits1 = 0;
  int32_t bits2 = 0;
  const float f1 = to_float(a, &bits1);
  const float f2 = to_float(b, &bits2);
  return JavaFloatingCompare(f1, f2, bits1, bits2);
}

inline int CompareDouble(std::string_view a, std::string_view b) {
  auto to_double = [](std::string_view s, int64_t* java_bits) {
    const uint64_t u = BigEndian(s, 0, 8);
    double d = 0;
    std::memcpy(&d, &u, 8);
    *java_bits = std::isnan(d) ? 0x7ff8000000000000 : static_cast<int64_t>(u);
    return d;
  };
  int64_t bits1 = 0;
  int64_t bits2 = 0;
  const double d1 = to_double(a, &bits1);
  const double d2 = to_double(b, &bits2);
  return JavaFloatingCompare(d1, d2, bits1, bits2);
}

inline int CompareVarint(std::string_view a, std::string_view b) {
  Mpz x;
  Mpz y;
  ImportTwosComplement(a, x.get());
  ImportTwosComplement(b, y.get());
  return Sign(mpz_cmp(x.get(), y.get()));
}

inline int32_t DecimalScale(std::string_view v) {
  return static_cast<int32_t>(static_cast<uint32_t>(BigEndian(v, 0, 4)));
}

// BigDecimal.compareTo: u1 * 10^-s1 against u2 * 10^-s2.
inline int CompareDecimal(std::string_view a, std::string_view b) {
  Mpz u1;
  Mpz u2;
  ImportTwosComplement(a.substr(4), u1.get());
  ImportTwosComplement(b.substr(4), u2.get());
  int64_t s1 = DecimalScale(a);
  int64_t s2 = DecimalScale(b);
  const int sign1 = mpz_sgn(u1.get());
  const int sign2 = mpz_sgn(u2.get());
  if (sign1 != sign2 || sign1 == 0) return Sign(sign1 - sign2);
  // Bring both to the larger scale; when that would need an enormous power
  // of ten, the numbers' magnitudes (digits - scale) already differ.
  const int64_t digits1 = static_cast<int64_t>(mpz_sizeinbase(u1.get(), 10));
  const int64_t digits2 = static_cast<int64_t>(mpz_sizeinbase(u2.get(), 10));
  if (std::llabs(s1 - s2) > 10000) {
    // sizeinbase may overshoot by one; a gap this large dwarfs that.
    return sign1 * Sign((digits1 - s1) - (digits2 - s2));
  }
  Mpz power;
  if (s1 < s2) {
    mpz_ui_pow_ui(power.get(), 10, static_cast<unsigned long>(s2 - s1));
    mpz_mul(u1.get(), u1.get(), power.get());
  } else if (s2 < s1) {
    mpz_ui_pow_ui(power.get(), 10, static_cast<unsigned long>(s1 - s2));
    mpz_mul(u2.get(), u2.get(), power.get());
  }
  return Sign(mpz_cmp(u1.get(), u2.get()));
}

// UUIDType.compareCustom and TimeUUIDType.compareCustom (Cassandra 4/5).
inline int64_t ReorderTimestampBytes(uint64_t msb) {
  return static_cast<int64_t>((msb << 48) | ((msb << 16) & 0xFFFF00000000) | (msb >> 32));
}

inline int CompareUuid(std::string_view a, std::string_view b) {
  const uint64_t msb1 = BigEndian(a, 0, 8);
  const uint64_t msb2 = BigEndian(b, 0, 8);
  const int version1 = static_cast<int>((msb1 >> 12) & 0xF);
  const int version2 = static_cast<int>((msb2 >> 12) & 0xF);
  if (version1 != version2) return Sign(version1 - version2);
  if (version1 == 1) {
    const int64_t r1 = ReorderTimestampBytes(msb1);
    const int64_t r2 = ReorderTimestampBytes(msb2);
    if (r1 != r2) return r1 < r2 ? -1 : 1;
  } else if (msb1 != msb2) {
    return msb1 < msb2 ? -1 : 1;
  }
  const uint64_t lsb1 = BigEndian(a, 8, 8);
  const uint64_t lsb2 = BigEndian(b, 8, 8);
  return lsb1 == lsb2 ? 0 : (lsb1 < lsb2 ? -1 : 1);
}

inline int CompareTimeuuid(std::string_view a, std::string_view b) {
  const int64_t r1 = ReorderTimestampBytes(BigEndian(a, 0, 8));
  const int64_t r2 = ReorderTimestampBytes(BigEndian(b, 0, 8));
  if (r1 != r2) return r1 < r2 ? -1 : 1;
  // signedBytesToNativeLong, then Long.compare.
  const auto l1 = static_cast<int64_t>(BigEndian(a, 8, 8) ^ 0x0080808080808080);
  const auto l2 = static_cast<int64_t>(BigEndian(b, 8, 8) ^ 0x0080808080808080);
  return l1 == l2 ? 0 : (l1 < l2 ? -1 : 1);
}

// The length-prefixed pieces of a collection or tuple serialization;
// nullopt for a negative length.
struct Framed {
  int32_t count = 0;
  std::vector<std::optional<std::string>> pieces;
};

inline Framed SplitFramed(std::string_view v, bool has_count) {
  Framed f;
  size_t pos = 0;
  if (has_count) {
    f.count = static_cast<int32_t>(static_cast<uint32_t>(BigEndian(v, 0, 4)));
    pos = 4;
  }
  while (pos + 4 <= v.size()) {
    const auto len = static_cast<int32_t>(static_cast<uint32_t>(BigEndian(v, pos, 4)));
    pos += 4;
    if (len < 0) {
      f.pieces.emplace_back(std::nullopt);
    } else {
      f.pieces.emplace_back(std::string(v.substr(pos, static_cast<size_t>(len))));
      pos += static_cast<size_t>(len);
    }
  }
  return f;
}

inline int ReferenceCompare(const CqlType& type, std::string_view a, std::string_view b);

// ListType/SetType.compareListOrSet and MapType.compareMaps.
inline int CompareCollections(const CqlType& type, std::string_view a, std::string_view b) {
  const Framed fa = SplitFramed(a, true);
  const Framed fb = SplitFramed(b, true);
  const bool is_map = type.kind() == TypeKind::kMap;
  const size_t per_entry = is_map ? 2 : 1;
  const auto n = static_cast<size_t>(std::min(fa.count, fb.count));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < per_entry; ++j) {
      const size_t k = i * per_entry + j;
      const int c = ReferenceCompare(*type.params()[j], *fa.pieces[k], *fb.pieces[k]);
      if (c != 0) return c;
    }
  }
  return Sign(int64_t{fa.count} - int64_t{fb.count});
}

// TupleType.compareCustom (Cassandra 5): null before any value; absent and
// trailing-null components compare equal.
inline int CompareTuples(const CqlType& type, std::string_view a, std::string_view b) {
  const Framed fa = SplitFramed(a, false);
  const Framed fb = SplitFramed(b, false);
  const auto& types = type.params();
  size_t i = 0;
  for (; i < fa.pieces.size() && i < fb.pieces.size() && i < types.size(); ++i) {
    const auto& l = fa.pieces[i];
    const auto& r = fb.pieces[i];
    if (!l.has_value()) {
      if (!r.has_value()) continue;
      return -1;
    }
    if (!r.has_value()) return 1;
    const int c = ReferenceCompare(*types[i], *l, *r);
    if (c != 0) return c;
  }
  auto rest_null = [i](const Framed& f) {
    for (size_t j = i; j < f.pieces.size(); ++j) {
      if (f.pieces[j].has_value()) return false;
    }
    return true;
  };
  if (rest_null(fa) && rest_null(fb)) return 0;
  if (i >= fa.pieces.size()) return rest_null(fb) ? 0 : -1;
  return rest_null(fa) ? 0 : 1;
}

// Cassandra's comparison of two serialized values of `type`.
inline int ReferenceCompare(const CqlType& type, std::string_view a, std::string_view b) {
  // Boolean.compare(right.isEmpty(), left.isEmpty()): the empty value first.
  if (a.empty() || b.empty()) return Sign(int{b.empty()} - int{a.empty()});
  switch (type.kind()) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kTimestamp: {
      const auto w = static_cast<size_t>(type.FixedWidth());
      const int64_t x = SignedBigEndian(a, w);
      const int64_t y = SignedBigEndian(b, w);
      return x == y ? 0 : (x < y ? -1 : 1);
    }
    case TypeKind::kBoolean:
      return Sign(int{a[0] != 0} - int{b[0] != 0});
    case TypeKind::kFloat:
      return CompareFloat(a, b);
    case TypeKind::kDouble:
      return CompareDouble(a, b);
    case TypeKind::kVarint:
      return CompareVarint(a, b);
    case TypeKind::kDecimal:
      return CompareDecimal(a, b);
    case TypeKind::kUuid:
      return CompareUuid(a, b);
    case TypeKind::kTimeuuid:
      return CompareTimeuuid(a, b);
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return CompareCollections(type, a, b);
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return CompareTuples(type, a, b);
    default:  // text, ascii, blob, inet, date, time: byte order
      return CompareUnsigned(a, b);
  }
}

inline void AppendBigEndian32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

inline void AppendFramed(const std::optional<std::string>& piece, std::string* out) {
  AppendBigEndian32(piece.has_value() ? static_cast<uint32_t>(piece->size()) : 0xFFFFFFFF, out);
  if (piece.has_value()) out->append(*piece);
}

inline std::string Canonical(const CqlType& type, std::string_view v);

inline std::string CanonicalDecimal(std::string_view v) {
  Mpz u;
  ImportTwosComplement(v.substr(4), u.get());
  int64_t scale = DecimalScale(v);
  if (mpz_sgn(u.get()) == 0) return std::string(5, '\0');
  while (mpz_divisible_ui_p(u.get(), 10) && scale > std::numeric_limits<int32_t>::min()) {
    mpz_divexact_ui(u.get(), u.get(), 10);
    --scale;
  }
  std::string out;
  AppendBigEndian32(static_cast<uint32_t>(static_cast<int32_t>(scale)), &out);
  return out + ExportTwosComplement(u.get());
}

// The serialization of a list/set/map from its (element or key, mapped)
// entries; with `sort`, entries are first sorted by the reference order of
// the element/key type and duplicates dropped (first kept), as sets and
// maps are stored.
inline std::string FrameCollection(const CqlType& type,
                                   std::vector<std::pair<std::string, std::string>> entries,
                                   bool sort) {
  const bool is_map = type.kind() == TypeKind::kMap;
  if (sort) {
    const CqlType& key_type = *type.params()[0];
    auto less = [&](const auto& x, const auto& y) {
      return ReferenceCompare(key_type, x.first, y.first) < 0;
    };
    auto equal = [&](const auto& x, const auto& y) {
      return ReferenceCompare(key_type, x.first, y.first) == 0;
    };
    std::stable_sort(entries.begin(), entries.end(), less);
    entries.erase(std::unique(entries.begin(), entries.end(), equal), entries.end());
  }
  std::string out;
  AppendBigEndian32(static_cast<uint32_t>(entries.size()), &out);
  for (const auto& [key, mapped] : entries) {
    AppendFramed(key, &out);
    if (is_map) AppendFramed(mapped, &out);
  }
  return out;
}

inline std::string CanonicalCollection(const CqlType& type, std::string_view v) {
  const Framed f = SplitFramed(v, true);
  const bool is_map = type.kind() == TypeKind::kMap;
  std::vector<std::pair<std::string, std::string>> entries;
  for (size_t i = 0; i + (is_map ? 1 : 0) < f.pieces.size(); i += is_map ? 2 : 1) {
    entries.emplace_back(Canonical(*type.params()[0], *f.pieces[i]),
                         is_map ? Canonical(*type.params()[1], *f.pieces[i + 1]) : "");
  }
  return FrameCollection(type, std::move(entries), type.kind() != TypeKind::kList);
}

inline std::string CanonicalTuple(const CqlType& type, std::string_view v) {
  Framed f = SplitFramed(v, false);
  f.pieces.resize(std::min(f.pieces.size(), type.params().size()));
  while (!f.pieces.empty() && !f.pieces.back().has_value()) f.pieces.pop_back();
  // All null: keep one, since no components at all is the empty value.
  if (f.pieces.empty()) f.pieces.emplace_back(std::nullopt);
  std::string out;
  for (size_t i = 0; i < f.pieces.size(); ++i) {
    if (f.pieces[i].has_value()) f.pieces[i] = Canonical(*type.params()[i], *f.pieces[i]);
    AppendFramed(f.pieces[i], &out);
  }
  return out;
}

// The one serialization of v's equivalence class that decoding yields:
// minimal varints, decimals without trailing zeros (scale >= INT32_MIN),
// boolean 0/1, Java's canonical NaN, sets and maps sorted without
// duplicates (the first kept), tuples without trailing nulls (a tuple of
// nulls only: a single null).
inline std::string Canonical(const CqlType& type, std::string_view v) {
  if (v.empty()) return "";
  switch (type.kind()) {
    case TypeKind::kVarint: {
      Mpz x;
      ImportTwosComplement(v, x.get());
      return ExportTwosComplement(x.get());
    }
    case TypeKind::kDecimal:
      return CanonicalDecimal(v);
    case TypeKind::kBoolean:
      return std::string(1, v[0] != 0 ? '\x01' : '\x00');
    case TypeKind::kFloat: {
      const std::string nan("\x7f\xc0\x00\x00", 4);
      return CompareFloat(v, nan) == 0 ? nan : std::string(v);
    }
    case TypeKind::kDouble: {
      const std::string nan("\x7f\xf8\x00\x00\x00\x00\x00\x00", 8);
      return CompareDouble(v, nan) == 0 ? nan : std::string(v);
    }
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return CanonicalCollection(type, v);
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return CanonicalTuple(type, v);
    default:
      return std::string(v);
  }
}

}  // namespace cellfs::testing
