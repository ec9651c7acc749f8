// TouchedRows (fs/formats/touched_rows.h): rows appended to and read back
// from one length-prefixed byte buffer.
#include "fs/formats/touched_rows.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>

namespace cellfs::fs {
namespace {

void PutU32(size_t value, std::string* out) {
  assert(value <= UINT32_MAX);
  const auto narrow = static_cast<uint32_t>(value);
  out->append(reinterpret_cast<const char*>(&narrow), sizeof narrow);
}

void PutStrings(std::span<const std::string> values, std::string* out) {
  PutU32(values.size(), out);
  for (const std::string& value : values) {
    PutU32(value.size(), out);
    out->append(value);
  }
}

uint32_t GetU32(const std::string& bytes, size_t* offset) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + *offset, sizeof value);
  *offset += sizeof value;
  return value;
}

// Reads a list written by PutStrings into *values, reusing its strings.
void GetStrings(const std::string& bytes, size_t* offset, std::vector<std::string>* values) {
  values->resize(GetU32(bytes, offset));
  for (std::string& value : *values) {
    const uint32_t size = GetU32(bytes, offset);
    value.assign(bytes, *offset, size);
    *offset += size;
  }
}

}  // namespace

void TouchedRows::Add(std::span<const std::string> partition_key,
                      std::span<const std::string> clustering, std::span<const size_t> columns) {
  const bool same = has_last_ && std::equal(partition_key.begin(), partition_key.end(),
                                            last_partition_.begin(), last_partition_.end());
  bytes_.push_back(same ? 0 : 1);
  if (!same) {
    PutStrings(partition_key, &bytes_);
    last_partition_.assign(partition_key.begin(), partition_key.end());
    has_last_ = true;
  }
  PutStrings(clustering, &bytes_);
  PutU32(columns.size(), &bytes_);
  for (size_t column : columns) PutU32(column, &bytes_);
  ++rows_;
}

void TouchedRows::Append(const TouchedRows& other) {
  if (other.empty()) return;
  // The other's first row carries its partition key (has_last_ was false
  // when it was added), so it reads correctly after this one's last row.
  bytes_.append(other.bytes_);
  last_partition_ = other.last_partition_;
  has_last_ = true;
  rows_ += other.rows_;
}

void TouchedRows::clear() {
  bytes_.clear();
  has_last_ = false;
  rows_ = 0;
}

bool TouchedRows::Reader::Next() {
  const std::string& bytes = rows_.bytes_;
  if (offset_ >= bytes.size()) return false;
  new_partition_ = bytes[offset_++] != 0;
  if (new_partition_) GetStrings(bytes, &offset_, &partition_key_);
  GetStrings(bytes, &offset_, &clustering_);
  columns_.resize(GetU32(bytes, &offset_));
  for (size_t& column : columns_) column = GetU32(bytes, &offset_);
  return true;
}

}  // namespace cellfs::fs
