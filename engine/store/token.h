// Partition tokens: where a partition falls on the ring, and the bytes that
// make LevelDB order partitions by (token, key).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cellfs {

// The serialized partition key that tokens hash (Cassandra's layout). Each
// component must be canonical (as DecodeKeyComponent returns it), so that
// values with one key encoding (decimal 1.0 and 1.00) share one token: a
// single component is its value bytes; several are each
// [uint16 big-endian length][bytes][0x00].
// REQUIRES: every component is shorter than 65536 bytes.
std::string SerializePartitionKey(const std::vector<std::string>& components);

// xxHash64 (seed 0) of the serialized partition key, as signed 64-bit.
// INT64_MIN is excluded (it maps to INT64_MAX), as with Cassandra's
// Murmur3Partitioner, so every token has a successor and a predecessor.
int64_t ComputeToken(std::string_view serialized_partition_key);

// The token for a 64-bit hash: the hash as signed, with INT64_MIN moved to
// INT64_MAX. ComputeToken(k) == TokenFromHash(XXH64(k, 0)).
int64_t TokenFromHash(uint64_t hash);

// Appends 8 bytes whose memcmp order is the signed order of `token`.
void EncodeToken(int64_t token, std::string* out);

// Reads 8 bytes written by EncodeToken from the front of `*in`, advancing it.
// Returns false when fewer than 8 bytes remain.
bool DecodeToken(std::string_view* in, int64_t* token);

}  // namespace cellfs
