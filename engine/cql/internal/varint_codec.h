// Variable-length integers for stored formats: LEB128 for unsigned numbers,
// zig-zag LEB128 for signed ones. Internal to engine/; grammar in docs/FORMAT.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cellfs {

// The longest LEB128 encoding of a 64-bit number.
inline constexpr size_t kMaxVarint64Bytes = 10;

// Appends `value` as LEB128: 7 bits per byte, least significant group first,
// the high bit set on every byte but the last. Inline: the row and key
// encoders call it several times per cell.
inline void AppendVarint64(uint64_t value, std::string* out) {
  char buffer[kMaxVarint64Bytes];
  size_t n = 0;
  while (value >= 0x80) {
    buffer[n++] = static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  buffer[n++] = static_cast<char>(value);
  out->append(buffer, n);
}

// Appends `value` zig-zag encoded (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...), so
// numbers near zero of either sign stay short.
void AppendSignedVarint64(int64_t value, std::string* out);

// Reads one LEB128 number from the front of `*in` and advances `*in` past it.
// Returns false, leaving `*in` and `*value` unspecified, when the input ends
// inside the number or the number does not fit in 64 bits.
[[nodiscard]] bool ReadVarint64(std::string_view* in, uint64_t* value);

// The zig-zag counterpart of ReadVarint64.
[[nodiscard]] bool ReadSignedVarint64(std::string_view* in, int64_t* value);

// The zig-zag mapping itself: the one definition, used here and by the
// duration codec (duration_literal.cc), whose parts are zig-zagged into
// Cassandra's VIntCoding rather than LEB128.
inline uint64_t ZigZagEncode(int64_t value) {
  // Unsigned arithmetic: shifting a negative signed value left is UB-prone.
  const uint64_t bits = static_cast<uint64_t>(value);
  return (bits << 1) ^ (value < 0 ? ~uint64_t{0} : uint64_t{0});
}
inline int64_t ZigZagDecode(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

}  // namespace cellfs
