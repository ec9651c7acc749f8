// RadosShardCursor: a space's shards in order on the RADOS backend, read
// from the space's 256 partition index objects (docs/SCALEOUT.md
// "Partition listings"), each shard's entries through a RadosCursor.
#pragma once

#include <array>
#include <memory>
#include <rados/librados.hpp>
#include <string>
#include <vector>

#include "engine/store/storage/rados/rados_cursor.h"
#include "engine/store/storage/shard_cursor.h"

namespace cellfs::storage {

// The index lists every shard ever written into; a shard that holds no
// entry now (all deleted, or only buried rows) is skipped. A Seek reads the
// first page of every bucket from the sought one on at once (one round
// trip, not one per bucket); later pages one at a time. The shards' own
// first pages are read kReadAhead at a time, in flight together, so a
// listing costs a round trip per kReadAhead partitions, not per partition.
// Not thread-safe; `io` must outlive it.
class RadosShardCursor final : public ShardCursor {
 public:
  static constexpr size_t kIndexPage = 256;
  static constexpr size_t kReadAhead = 32;

  RadosShardCursor(librados::IoCtx* io, std::string space);

  void SetUpperBound(std::string_view end) override { end_.assign(end); }
  bool Valid() const override { return status_.ok() && entries_ != nullptr; }
  void Seek(std::string_view shard) override;
  void Next() override;
  std::string_view shard() const override { return bucket_shards_[pos_]; }
  Cursor& entries() override { return *entries_; }
  Status status() const override { return status_; }

 private:
  struct Bucket {
    std::vector<std::string> shards;  // the first page, once read
    bool more = false;                // the index object holds shards after the page
  };
  // Reads the first page of buckets [first, last_bucket_], from `shard`
  // (inclusive) in bucket `first`.
  void Prefetch(unsigned first, std::string_view shard);
  // Moves to the first shard at or after the position that holds entries.
  void Settle();
  // Reads the page of bucket_ after its last listed shard.
  void NextPage();
  // Reads the first pages of bucket_shards_[pos_, pos_ + kReadAhead) at
  // once into ahead_ (ahead_start_ = pos_).
  void ReadAhead();
  void Fail(Status status);
  // Whether `shard` is at or past the upper bound.
  bool PastEnd(std::string_view shard) const { return !end_.empty() && shard >= end_; }

  librados::IoCtx* io_;
  std::string space_;
  std::string end_;  // SetUpperBound's; empty: none
  std::array<Bucket, 256> prefetched_;
  unsigned bucket_ = 0;
  unsigned last_bucket_ = 255;              // the last bucket that may hold a shard below end_
  std::vector<std::string> bucket_shards_;  // the current page of bucket_
  bool bucket_more_ = false;
  size_t pos_ = 0;
  std::unique_ptr<RadosCursor> entries_;  // set while Valid
  // First pages read ahead: ahead_[i] is bucket_shards_[ahead_start_ + i]'s.
  struct FirstPage {
    std::vector<RadosPageRead::Entry> window;
    bool more = false;
    int result = 0;
  };
  std::vector<FirstPage> ahead_;
  size_t ahead_start_ = 0;
  Status status_;
};

}  // namespace cellfs::storage
