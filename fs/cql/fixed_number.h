// CQL's fixed-width numbers (tinyint, smallint, int, bigint, counter,
// float, double) read from and written to their serialized bytes: what the
// SELECT functions, casts and aggregates compute on. Internal to fs/cql.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/cql/big_endian.h"
#include "engine/cql/cql_type.h"

namespace cellfs::fs {

// A serialized integer of 1 to 8 bytes, sign-extended.
inline int64_t ReadInteger(std::string_view bytes) {
  const uint64_t bits = ReadBigEndian(bytes);
  const unsigned shift = static_cast<unsigned>(64 - 8 * bytes.size());
  return shift == 0 ? static_cast<int64_t>(bits) : static_cast<int64_t>(bits << shift) >> shift;
}

// A serialized float (4 bytes) or double (8 bytes) of `kind`.
inline double ReadFloating(TypeKind kind, std::string_view bytes) {
  if (kind == TypeKind::kFloat) {
    const auto bits = static_cast<uint32_t>(ReadBigEndian(bytes));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  const uint64_t bits = ReadBigEndian(bytes);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// `value` serialized as `kind` (a float is rounded to float first).
inline std::string WriteFloating(TypeKind kind, double value) {
  if (kind == TypeKind::kFloat) {
    const auto f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return BigEndianBytes(bits, 4);
  }
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return BigEndianBytes(bits, 8);
}

}  // namespace cellfs::fs
