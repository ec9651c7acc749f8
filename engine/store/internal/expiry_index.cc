// ExpiryIndex (engine/store/internal/expiry_index.h).
#include "engine/store/internal/expiry_index.h"

#include <algorithm>

#include "engine/store/internal/storage_keys.h"
#include "engine/store/token.h"

namespace cellfs::storage {
namespace {

constexpr size_t kTableSpaceBytes = 1 + 4;  // 'E' || u32 table id
constexpr size_t kBucketBytes = 8;

}  // namespace

void ExpiryIndex::AppendKey(int64_t due, std::string_view group, int64_t now_s,
                            std::string* out) const {
  if (layout_ == Layout::kByDue) return AppendExpiryKey(due, group, out);
  out->push_back(kExpiryBucketTag);
  out->append(group.substr(1, kTablePrefixBytes - 1));  // the group's table id
  out->append(BucketShard(Bucket(std::max(due, now_s))));
  EncodeToken(due, out);
  out->append(group);
}

Address ExpiryIndex::AddressOf(std::string_view key) const {
  if (layout_ == Layout::kByDue) return ExpiryAddress(key);
  return {key.substr(0, kTableSpaceBytes), key.substr(kTableSpaceBytes, kBucketBytes),
          key.substr(kTableSpaceBytes + kBucketBytes)};
}

bool ExpiryIndex::Parse(std::string_view key, int64_t* due, std::string_view* group) const {
  if (layout_ == Layout::kByDue) return ParseExpiryKey(key, due, group);
  if (key.size() < kTableSpaceBytes + kBucketBytes || key[0] != kExpiryBucketTag) return false;
  std::string_view rest = key.substr(kTableSpaceBytes + kBucketBytes);
  int64_t parsed_due = 0;
  uint32_t table_id = 0;
  if (!DecodeToken(&rest, &parsed_due) || !ParseTableId(rest, &table_id)) return false;
  if (rest.substr(1, kTablePrefixBytes - 1) != key.substr(1, kTableSpaceBytes - 1)) return false;
  *due = parsed_due;
  *group = rest;
  return true;
}

int64_t ExpiryIndex::Bucket(int64_t seconds) { return seconds < 0 ? 0 : seconds / kBucketSeconds; }

std::string ExpiryIndex::TableSpace(uint32_t table_id) {
  std::string space(1, kExpiryBucketTag);
  for (int shift = 24; shift >= 0; shift -= 8) {
    space.push_back(static_cast<char>((table_id >> shift) & 0xFF));
  }
  return space;
}

std::string ExpiryIndex::BucketShard(int64_t bucket) {
  const auto value = static_cast<uint64_t>(bucket);
  std::string shard(kBucketBytes, '\0');
  for (size_t i = 0; i < kBucketBytes; ++i) {
    shard[i] = static_cast<char>((value >> (8 * (kBucketBytes - 1 - i))) & 0xFF);
  }
  return shard;
}

bool ExpiryIndex::ParseBucketShard(std::string_view shard, int64_t* bucket) {
  if (shard.size() != kBucketBytes) return false;
  uint64_t value = 0;
  for (char byte : shard) value = (value << 8) | static_cast<unsigned char>(byte);
  *bucket = static_cast<int64_t>(value);
  return true;
}

std::string ExpiryIndex::LeaseName(uint32_t table_id, int64_t bucket) {
  return "expiry." + std::to_string(table_id) + "." + std::to_string(bucket);
}

bool ExpiryIndex::PastBucketsToForget(int64_t now_s) {
  const int64_t below = Bucket(now_s) - 1;
  int64_t told = forgotten_below_.load();
  while (told < below) {
    if (forgotten_below_.compare_exchange_weak(told, below)) return below > 0;
  }
  return false;
}

}  // namespace cellfs::storage
