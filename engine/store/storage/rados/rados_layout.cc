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

bool SpaceOfObject(std::string_view object, std::string* space) {
  if (!object.starts_with("o.")) return false;
  object.remove_prefix(2);
  const size_t dot = object.find('.');
  if (dot == std::string_view::npos || dot % 2 != 0) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  space->clear();
  for (size_t i = 0; i < dot; i += 2) {
    const int high = nibble(object[i]);
    const int low = nibble(object[i + 1]);
    if (high < 0 || low < 0) return false;
    space->push_back(static_cast<char>(high * 16 + low));
  }
  return true;
}

std::string IndexObject(std::string_view space, unsigned char first_shard_byte) {
  std::string object = "i.";
  AppendHex(space, &object);
  object.push_back('.');
  const char byte = static_cast<char>(first_shard_byte);
  AppendHex(std::string_view(&byte, 1), &object);
  return object;
}

std::string LogObject(std::string_view mount_id) { return "log." + std::string(mount_id); }

std::string LeaseObject(std::string_view name) {
  std::string object = "lease.";
  AppendHex(name, &object);
  return object;
}

std::string WatchObject(std::string_view space) {
  std::string object = "w.";
  AppendHex(space, &object);
  return object;
}

}  // namespace cellfs::storage
