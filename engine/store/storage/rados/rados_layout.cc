// Locate (engine/store/storage/rados/rados_layout.h).
#include "engine/store/storage/rados/rados_layout.h"

namespace cellfs::storage {
namespace {

void AppendHex(std::string_view bytes, std::string* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out->push_back(kDigits[byte >> 4]);
    out->push_back(kDigits[byte & 0xF]);
  }
}

// A table's data or buried space: its tag, then the u32 table id.
bool IsPartitionSpace(std::string_view space) {
  return space.size() == 5 && (space[0] == 'D' || space[0] == 'B');
}

}  // namespace

RadosLocation Locate(const ShardAddress& shard) {
  RadosLocation where;
  if (IsPartitionSpace(shard.space)) {
    where.object = "p.";
    AppendHex(shard.space.substr(1), &where.object);
    where.key_prefix.assign(shard.space.substr(0, 1));
  } else {
    where.object = "o.";
    AppendHex(shard.space, &where.object);
  }
  where.object.push_back('.');
  AppendHex(shard.shard, &where.object);
  return where;
}

}  // namespace cellfs::storage
