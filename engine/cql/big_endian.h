// Fixed-width big-endian integers: how CQL serializes its fixed-width types.
// Public: fs/ builds and reads CQL values with them too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cellfs {

// Appends the low `width` bytes of `value`, most significant first.
// REQUIRES: width <= 8
inline void AppendBigEndian(uint64_t value, size_t width, std::string* out) {
  for (size_t i = width; i-- > 0;) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// The low `width` bytes of `value`, most significant first.
inline std::string BigEndianBytes(uint64_t value, size_t width) {
  std::string bytes;
  bytes.reserve(width);
  AppendBigEndian(value, width, &bytes);
  return bytes;
}

// The first min(8, bytes.size()) bytes read as an unsigned big-endian number.
inline uint64_t ReadBigEndian(std::string_view bytes) {
  uint64_t value = 0;
  for (char c : bytes.substr(0, 8)) value = (value << 8) | static_cast<unsigned char>(c);
  return value;
}

}  // namespace cellfs
