// LevelDbBatch: entries collected back to back, handed to LevelDB in key
// order (leveldb_batch.h says why).
#include "engine/store/storage/leveldb/leveldb_batch.h"

#include <algorithm>
#include <cstring>

#include "engine/store/storage/leveldb/leveldb_key.h"

namespace cellfs::storage {
namespace {

size_t VarintLength(size_t value) {
  size_t length = 1;
  for (; value >= 128; value >>= 7) ++length;
  return length;
}

}  // namespace

void LevelDbBatch::Put(const Address& at, std::string_view value) { Add(at, value, false); }

void LevelDbBatch::Delete(const Address& at) { Add(at, {}, true); }

void LevelDbBatch::Add(const Address& at, std::string_view value, bool is_delete) {
  Note(at.space);
  const size_t key_at = bytes_.size();
  AppendLevelDbKey(at, &bytes_);
  const size_t value_at = bytes_.size();
  bytes_.append(value);
  const size_t key_size = value_at - key_at;
  unsigned char head[8] = {};
  std::memcpy(head, bytes_.data() + key_at, std::min<size_t>(key_size, 8));
  uint64_t head_value = 0;
  for (unsigned char byte : head) head_value = head_value << 8 | byte;
  // A WriteBatch entry: its tag, the key's length and bytes, for a put the
  // value's length and bytes.
  rep_bytes_ += 1 + VarintLength(key_size) + key_size +
                (is_delete ? 0 : VarintLength(value.size()) + value.size());
  entries_.push_back({head_value, key_at, key_size, value_at, value.size(), is_delete});
  rep_current_ = false;
}

void LevelDbBatch::Clear() {
  rep_bytes_ = kRepHeader;
  bytes_.clear();
  entries_.clear();
  rep_.Clear();
  rep_current_ = true;
  spaces_.clear();
}

bool LevelDbBatch::Less(const Entry& a, const Entry& b) const {
  if (a.head != b.head) return a.head < b.head;
  return Key(a) < Key(b);
}

leveldb::WriteBatch* LevelDbBatch::rep() {
  if (rep_current_) return &rep_;
  order_.resize(entries_.size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
  bool sorted = true;
  for (size_t i = 1; i < entries_.size() && sorted; ++i) {
    sorted = !Less(entries_[i], entries_[i - 1]);
  }
  if (!sorted) {
    std::stable_sort(order_.begin(), order_.end(),
                     [this](size_t a, size_t b) { return Less(entries_[a], entries_[b]); });
  }
  rep_.Clear();
  for (size_t index : order_) {
    const Entry& e = entries_[index];
    if (e.is_delete) {
      rep_.Delete(ToSlice(Key(e)));
    } else {
      rep_.Put(ToSlice(Key(e)), leveldb::Slice(bytes_.data() + e.value_at, e.value_size));
    }
  }
  rep_current_ = true;
  return &rep_;
}

void LevelDbBatch::Note(std::string_view space) {
  for (const std::string& seen : spaces_) {
    if (seen == space) return;
  }
  spaces_.emplace_back(space);
}

}  // namespace cellfs::storage
