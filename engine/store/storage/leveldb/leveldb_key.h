// The LevelDB key of an address: space || shard || key, byte for byte the
// layout of docs/FORMAT.md "Storage layout", so stores written before the
// seam open unchanged.
#pragma once

#include <leveldb/slice.h>

#include <optional>
#include <string>
#include <string_view>

#include "engine/store/storage/address.h"

namespace cellfs::storage {

inline void AppendLevelDbKey(const Address& at, std::string* out) {
  out->append(at.space);
  out->append(at.shard);
  out->append(at.key);
}

inline std::string_view View(const leveldb::Slice& slice) { return {slice.data(), slice.size()}; }
inline leveldb::Slice ToSlice(std::string_view bytes) { return {bytes.data(), bytes.size()}; }

// The least key above every key that starts with `prefix`; nullopt when
// none (empty, or all 0xFF).
inline std::optional<std::string> PrefixSuccessor(std::string_view prefix) {
  std::string next(prefix);
  while (!next.empty()) {
    auto& last = reinterpret_cast<unsigned char&>(next.back());
    if (last != 0xFF) {
      ++last;
      return next;
    }
    next.pop_back();
  }
  return std::nullopt;
}

}  // namespace cellfs::storage
