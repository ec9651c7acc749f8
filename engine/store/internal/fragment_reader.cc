// Reading stored entries back: a row's fragments merged into one, and the
// head of a partition (deletion, range deletions, static row).
#include "engine/store/internal/fragment_reader.h"

#include <algorithm>
#include <utility>

namespace cellfs::storage {
namespace {

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0x0F]);
  }
  return out;
}

Status Corrupt(std::string_view key, std::string_view problem) {
  return Status::Corruption("data entry " + Hex(key) + ": " + std::string(problem));
}

// The error that left `it` invalid; ok at a plain end.
Status IteratorError(const Cursor& it) { return it.status(); }

// True when `key` is an entry of `group` (the group and a sequence number).
bool InGroup(std::string_view key, std::string_view group) {
  return key.size() == group.size() + kSequenceBytes && key.starts_with(group);
}

// Decodes the fragment at `it` and merges it into `*out`.
Status MergeEntry(const Cursor& it, bool keep_keys, FragmentGroup* out) {
  const std::string_view key = it.key();
  // Most rows are one fragment: decode it in place, into memory the
  // previous row left behind.
  if (out->fragments == 0) {
    Status decoded = DecodeRowFragment(it.value(), &out->merged);
    if (!decoded.ok()) return Corrupt(key, decoded.message());
  } else {
    RowFragment fragment;
    Status decoded = DecodeRowFragment(it.value(), &fragment);
    if (!decoded.ok()) return Corrupt(key, decoded.message());
    MergeRowFragmentInto(&out->merged, std::move(fragment));
  }
  if (keep_keys) out->keys.emplace_back(key);
  ++out->fragments;
  return Status::Ok();
}

// Starts `*out` as the group of the key at `it`.
Status StartGroup(const Cursor& it, FragmentGroup* out) {
  const std::string_view key = it.key();
  if (key.size() <= kSequenceBytes) return Corrupt(key, "too short for a data key");
  out->group.assign(key.substr(0, key.size() - kSequenceBytes));
  out->keys.clear();
  out->buried_keys.clear();
  out->fragments = 0;
  return Status::Ok();
}

}  // namespace

Status ReadGroupForward(Cursor* it, bool keep_keys, FragmentGroup* out) {
  CELLFS_RETURN_IF_ERROR(StartGroup(*it, out));
  for (; it->Valid() && InGroup(it->key(), out->group); it->Next()) {
    CELLFS_RETURN_IF_ERROR(MergeEntry(*it, keep_keys, out));
  }
  return IteratorError(*it);
}

Status ReadGroupBackward(Cursor* it, bool keep_keys, FragmentGroup* out) {
  CELLFS_RETURN_IF_ERROR(StartGroup(*it, out));
  for (; it->Valid() && InGroup(it->key(), out->group); it->Prev()) {
    CELLFS_RETURN_IF_ERROR(MergeEntry(*it, keep_keys, out));
  }
  // Keys in key order, as ReadGroupForward gives them.
  std::reverse(out->keys.begin(), out->keys.end());
  return IteratorError(*it);
}

namespace {

// Reads the range deletion at `it` into the header and steps past it.
Status ReadRangeDeletion(Cursor* it, bool keep_keys, PartitionHeader* header) {
  const std::string_view key = it->key();
  RangeDeletion range;
  Status decoded = DecodeRangeDeletion(it->value(), &range);
  if (!decoded.ok()) return Corrupt(key, decoded.message());
  header->ranges.push_back(std::move(range));
  if (keep_keys) header->keys.emplace_back(key);
  ++header->entries;
  it->Next();
  return Status::Ok();
}

// Reads the group at `it` (a partition deletion or the static row) into
// `*group`, and its keys and count into the header.
Status ReadHeaderGroup(Cursor* it, bool keep_keys, PartitionHeader* header, FragmentGroup* group) {
  CELLFS_RETURN_IF_ERROR(ReadGroupForward(it, keep_keys, group));
  header->entries += group->fragments;
  for (std::string& key : group->keys) header->keys.push_back(std::move(key));
  group->keys.clear();
  return Status::Ok();
}

}  // namespace

Status ReadPartitionHeader(Cursor* it, bool keep_keys, PartitionHeader* header) {
  *header = PartitionHeader();
  while (it->Valid()) {
    const std::string_view key = it->key();
    if (key.empty()) break;
    const auto kind = static_cast<EntryKind>(key[0]);
    if (kind == EntryKind::kRow) break;
    FragmentGroup group;
    switch (kind) {
      case EntryKind::kPartitionDeletion:
        CELLFS_RETURN_IF_ERROR(ReadHeaderGroup(it, keep_keys, header, &group));
        if (group.merged.deletion) {
          header->deletion = header->deletion
                                 ? ReconcileDeletions(*header->deletion, *group.merged.deletion)
                                 : *group.merged.deletion;
        }
        break;
      case EntryKind::kRangeDeletion:
        CELLFS_RETURN_IF_ERROR(ReadRangeDeletion(it, keep_keys, header));
        break;
      case EntryKind::kStaticRow:
        CELLFS_RETURN_IF_ERROR(ReadHeaderGroup(it, keep_keys, header, &group));
        MergeRowFragmentInto(&header->static_row, std::move(group.merged));
        break;
      default:
        return Corrupt(key, "unknown entry kind");
    }
  }
  return IteratorError(*it);
}

std::optional<RowDeletion> InheritedDeletion(const PartitionHeader& header,
                                             std::string_view clustering) {
  std::optional<RowDeletion> newest = header.deletion;
  for (const RangeDeletion& range : header.ranges) {
    if (!Covers(range, clustering)) continue;
    newest = newest ? ReconcileDeletions(*newest, range.deletion) : range.deletion;
  }
  return newest;
}

}  // namespace cellfs::storage
