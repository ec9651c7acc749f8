// BuriedReader: a row's buried fragments, found by seeking the partition's
// shard of the buried space only where the last seek leaves doubt.
#include "engine/store/internal/buried_reader.h"

#include <utility>

#include "engine/store/internal/storage_keys.h"

namespace cellfs::storage {

BuriedReader::BuriedReader(Storage* storage, const ReadPoint* at, uint32_t table_id,
                           std::string_view partition_prefix, bool enabled, bool fill_cache)
    : storage_(storage), at_(at), enabled_(enabled), fill_cache_(fill_cache) {
  if (!enabled_) return;
  AppendBuriedPrefix(table_id, &space_);
  shard_.assign(BuriedShard(space_, partition_prefix).shard);
}

BuriedReader::BuriedReader(Cursor* entries) : enabled_(entries != nullptr), it_(entries) {}

BuriedReader::~BuriedReader() = default;

bool BuriedReader::KnownAbsent(std::string_view group) const {
  if (!seeked_ || group < std::string_view(empty_from_)) return false;
  if (!it_->Valid()) return it_->status().ok();  // nothing at or after empty_from_
  // The group's keys are group || sequence, all below group || 0xFF
  // (sequences never start with 0xFF): absent when the cursor's key is
  // past them.
  const std::string_view key = it_->key();
  if (!key.starts_with(group)) return key > group;
  return key.size() > group.size() && key[group.size()] == '\xFF';
}

Status BuriedReader::MergeInto(bool keep_keys, FragmentGroup* out) {
  if (!enabled_) return Status::Ok();
  const std::string_view group = out->group;
  if (KnownAbsent(group)) return Status::Ok();
  if (it_ == nullptr) {
    owned_ = storage_->NewCursor(at_, {space_, shard_}, {fill_cache_});
    it_ = owned_.get();
  }
  it_->Seek(group);
  seeked_ = true;
  empty_from_.assign(group);
  if (!it_->Valid()) return it_->status();
  const std::string_view key = it_->key();
  if (key.size() != group.size() + kSequenceBytes || !key.starts_with(group)) {
    return Status::Ok();
  }
  CELLFS_RETURN_IF_ERROR(ReadGroupForward(it_, keep_keys, &buried_));
  // Nothing lies between the group's last key and where the cursor stands.
  empty_from_.push_back('\xFF');
  out->fragments += buried_.fragments;
  MergeRowFragmentInto(&out->merged, std::move(buried_.merged));
  buried_.merged = RowFragment();
  if (keep_keys) {
    for (std::string& k : buried_.keys) out->buried_keys.push_back(std::move(k));
  }
  return Status::Ok();
}

}  // namespace cellfs::storage
