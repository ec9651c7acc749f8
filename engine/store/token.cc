// Partition tokens: Cassandra's composite partition-key layout, xxHash64 of
// it, and the sign-flipped big-endian bytes that sort tokens in LevelDB.
// See docs/FORMAT.md, "Tokens".
#include "engine/store/token.h"

#include <xxhash.h>

#include <cassert>
#include <limits>

namespace cellfs {

std::string SerializePartitionKey(const std::vector<std::string>& components) {
  if (components.size() == 1) return components[0];
  std::string out;
  for (const std::string& c : components) {
    assert(c.size() <= 0xFFFF);
    out.push_back(static_cast<char>((c.size() >> 8) & 0xFF));
    out.push_back(static_cast<char>(c.size() & 0xFF));
    out.append(c);
    out.push_back('\0');
  }
  return out;
}

int64_t TokenFromHash(uint64_t hash) {
  const auto token = static_cast<int64_t>(hash);
  // INT64_MIN is the ring's minimum bound, never a partition's token.
  return token == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : token;
}

int64_t ComputeToken(std::string_view serialized_partition_key) {
  return TokenFromHash(
      XXH64(serialized_partition_key.data(), serialized_partition_key.size(), /*seed=*/0));
}

void EncodeToken(int64_t token, std::string* out) {
  // Flipping the sign bit turns two's complement into offset binary, whose
  // big-endian bytes memcmp in signed order.
  const uint64_t biased = static_cast<uint64_t>(token) ^ (uint64_t{1} << 63);
  char bytes[8];
  for (size_t i = 0; i < 8; ++i) bytes[i] = static_cast<char>((biased >> (56 - 8 * i)) & 0xFF);
  out->append(bytes, sizeof bytes);  // one append: this runs once per written row
}

bool DecodeToken(std::string_view* in, int64_t* token) {
  if (in->size() < 8) return false;
  uint64_t biased = 0;
  for (size_t i = 0; i < 8; ++i) biased = (biased << 8) | static_cast<uint8_t>((*in)[i]);
  *token = static_cast<int64_t>(biased ^ (uint64_t{1} << 63));
  in->remove_prefix(8);
  return true;
}

}  // namespace cellfs
