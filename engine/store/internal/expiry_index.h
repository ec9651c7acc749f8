// ExpiryIndex: where the expiry index's entries live, in one of two
// layouts. A store one process writes (LevelDB) keeps one space ordered by
// due second (docs/FORMAT.md "Expiry index"), which a sweep walks from its
// start. A shared store (RADOS) keeps a space per table, a shard per time
// bucket of that table (docs/SCALEOUT.md "Expiry index"): each (table,
// bucket) is one object, swept by whichever mount holds that bucket's
// lease, and a bucket swept empty is forgotten once no writer can still
// put into it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/store/storage/address.h"

namespace cellfs::storage {

class ExpiryIndex {
 public:
  enum class Layout {
    // 'X' || i64 due || group: one space, a shard per due second.
    kByDue,
    // 'E' || u32 table id || u64 bucket || i64 due || group: a space per
    // table ('E' || u32 table id), a shard per bucket, keys in due order.
    kByTableAndBucket,
  };
  // A bucket holds the entries due in an hour of seconds since the epoch.
  static constexpr int64_t kBucketSeconds = 3600;

  explicit ExpiryIndex(Layout layout = Layout::kByDue) : layout_(layout) {}
  ExpiryIndex(const ExpiryIndex&) = delete;
  ExpiryIndex& operator=(const ExpiryIndex&) = delete;

  Layout layout() const { return layout_; }
  // Set once, at open, before any other call.
  void set_layout(Layout layout) { layout_ = layout; }

  // Appends the key of the entry saying that `group` (a data key's group,
  // or a range deletion's whole key) may need sweeping at second `due`,
  // written at second `now_s`. By table and bucket, an entry already due
  // goes into now's bucket, never into one past for its writer: buckets
  // past by more than a bucket then get no more entries (with the hosts'
  // clocks less than a bucket apart), and the sweeper may forget them.
  void AppendKey(int64_t due, std::string_view group, int64_t now_s, std::string* out) const;
  // The address of a key AppendKey made in this layout: its views point
  // into `key`.
  Address AddressOf(std::string_view key) const;
  // Splits a key of this layout; false when it is not one (wrong tag, too
  // short, a group that is not a data key's, or, by bucket, one filed under
  // another table).
  bool Parse(std::string_view key, int64_t* due, std::string_view* group) const;

  // ---- By table and bucket ---------------------------------------------------
  // The bucket of second `seconds` (seconds before the epoch: bucket 0).
  static int64_t Bucket(int64_t seconds);
  // 'E' || u32 table id: table `table_id`'s space.
  static std::string TableSpace(uint32_t table_id);
  // A bucket's shard: its number as 8 big-endian bytes, so shards sort by
  // bucket (and all sit in the first of the space's listing objects).
  static std::string BucketShard(int64_t bucket);
  // The bucket a shard names; false when `shard` is not 8 bytes.
  static bool ParseBucketShard(std::string_view shard, int64_t* bucket);
  // The lease its sweeper holds: "expiry.<table id>.<bucket>".
  static std::string LeaseName(uint32_t table_id, int64_t bucket);

  // True when, at second `now_s`, buckets have ended a whole bucket ago
  // that no earlier call was told of: the sweeper's cue to forget those it
  // swept empty (once an hour per process, not once a sweep). A caller that
  // fails to forget them calls ForgetFailed.
  bool PastBucketsToForget(int64_t now_s);
  void ForgetFailed() { forgotten_below_.store(-1); }

 private:
  Layout layout_;
  // The bucket below which past buckets were last forgotten; -1: never.
  std::atomic<int64_t> forgotten_below_{-1};
};

}  // namespace cellfs::storage
