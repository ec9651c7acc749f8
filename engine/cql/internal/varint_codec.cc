// LEB128 and zig-zag varints (see varint_codec.h).
#include "engine/cql/internal/varint_codec.h"

namespace cellfs {

void AppendSignedVarint64(int64_t value, std::string* out) {
  AppendVarint64(ZigZagEncode(value), out);
}

bool ReadVarint64(std::string_view* in, uint64_t* value) {
  uint64_t result = 0;
  for (size_t i = 0; i < in->size() && i < kMaxVarint64Bytes; ++i) {
    const auto byte = static_cast<unsigned char>((*in)[i]);
    // The tenth byte carries bit 63 only; anything more overflows.
    if (i == kMaxVarint64Bytes - 1 && byte > 1) return false;
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      *value = result;
      in->remove_prefix(i + 1);
      return true;
    }
  }
  return false;
}

bool ReadSignedVarint64(std::string_view* in, int64_t* value) {
  uint64_t raw = 0;
  if (!ReadVarint64(in, &raw)) return false;
  *value = ZigZagDecode(raw);
  return true;
}

}  // namespace cellfs
