// Tests of ExpiryIndex's two layouts: by due second, byte for byte the
// keys docs/FORMAT.md gives; by table and bucket (a shared store's), the
// bytes docs/SCALEOUT.md gives, the bucket an entry goes into (never one
// past for its writer), how keys split into addresses, the order a bucket
// walk meets them in, and when past buckets are due to be forgotten.
#include "engine/store/internal/expiry_index.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/internal/storage_keys.h"
#include "tests/engine/hex_test_util.h"

namespace cellfs::storage {
namespace {

std::string Hex(std::string_view bytes) { return testing::ToHex(bytes); }

// A group of table 0x00000107: 'D', the table id, then partition bytes.
const std::string kGroup = std::string("D\x00\x00\x01\x07", 5) + "pk\x03row";

TEST_CASE("by due second, keys are docs/FORMAT.md's 'X' || due || group", "[expiry_index]") {
  ExpiryIndex index(ExpiryIndex::Layout::kByDue);
  std::string key;
  index.AppendKey(1'700'000'000, kGroup, /*now_s=*/1'800'000'000, &key);
  std::string expected;
  AppendExpiryKey(1'700'000'000, kGroup, &expected);
  CHECK(key == expected);  // the writer's now changes nothing here
  CHECK(Hex(key.substr(0, 9)) ==
        "58"
        "800000006553f100");
  const Address at = index.AddressOf(key);
  CHECK(at.space == "X");
  CHECK(Hex(at.shard) == "800000006553f100");
  CHECK(at.key == kGroup);
  int64_t due = 0;
  std::string_view group;
  REQUIRE(index.Parse(key, &due, &group));
  CHECK(due == 1'700'000'000);
  CHECK(group == kGroup);
}

TEST_CASE("by table and bucket, a key is 'E' || table || bucket || due || group",
          "[expiry_index]") {
  ExpiryIndex index(ExpiryIndex::Layout::kByTableAndBucket);
  const int64_t due = 1'700'000'000;  // bucket 472222 (0x7349e)
  std::string key;
  index.AppendKey(due, kGroup, /*now_s=*/due - 100, &key);
  CHECK(Hex(key.substr(0, 21)) ==
        "45"
        "00000107"
        "000000000007349e"
        "800000006553f100");
  CHECK(key.substr(21) == kGroup);
  const Address at = index.AddressOf(key);
  CHECK(at.space == ExpiryIndex::TableSpace(0x107));
  CHECK(Hex(at.space) == "4500000107");
  CHECK(at.shard == ExpiryIndex::BucketShard(472222));
  CHECK(Hex(at.key.substr(0, 8)) == "800000006553f100");
  int64_t parsed_due = 0;
  std::string_view group;
  REQUIRE(index.Parse(key, &parsed_due, &group));
  CHECK(parsed_due == due);
  CHECK(group == kGroup);
  int64_t bucket = 0;
  REQUIRE(ExpiryIndex::ParseBucketShard(at.shard, &bucket));
  CHECK(bucket == 472222);
  CHECK(ExpiryIndex::LeaseName(0x107, 472222) == "expiry.263.472222");

  // A key filed under another table, a short key, a group that is no data
  // key's, or the other layout's key: not parsed.
  std::string other = key;
  other[4] = '\x08';
  CHECK_FALSE(index.Parse(other, &parsed_due, &group));
  CHECK_FALSE(index.Parse(key.substr(0, 20), &parsed_due, &group));
  std::string not_data = key.substr(0, 21) + "C\x00\x00\x01\x07";
  CHECK_FALSE(index.Parse(not_data, &parsed_due, &group));
  std::string by_due;
  AppendExpiryKey(due, kGroup, &by_due);
  CHECK_FALSE(index.Parse(by_due, &parsed_due, &group));
  CHECK_FALSE(ExpiryIndex(ExpiryIndex::Layout::kByDue).Parse(key, &parsed_due, &group));
}

TEST_CASE("an entry goes into its due second's bucket, or its writer's now's when later",
          "[expiry_index]") {
  ExpiryIndex index(ExpiryIndex::Layout::kByTableAndBucket);
  auto bucket_of = [&](int64_t due, int64_t now_s) {
    std::string key;
    index.AppendKey(due, kGroup, now_s, &key);
    int64_t bucket = 0;
    REQUIRE(ExpiryIndex::ParseBucketShard(index.AddressOf(key).shard, &bucket));
    int64_t parsed_due = 0;
    std::string_view group;
    REQUIRE(index.Parse(key, &parsed_due, &group));
    CHECK(parsed_due == due);  // the due second itself is kept as it is
    return bucket;
  };
  CHECK(bucket_of(7199, 0) == 1);
  CHECK(bucket_of(7200, 7199) == 2);
  CHECK(bucket_of(3600, 3600) == 1);
  CHECK(bucket_of(100, 7300) == 2);  // already due: now's bucket
  CHECK(bucket_of(-5, -10) == 0);    // before the epoch: the first bucket
  CHECK(bucket_of(INT64_MIN, 0) == 0);
  CHECK(ExpiryIndex::Bucket(INT64_MAX) == INT64_MAX / 3600);
}

TEST_CASE("a bucket's keys sort by bucket, then due second", "[expiry_index]") {
  ExpiryIndex index(ExpiryIndex::Layout::kByTableAndBucket);
  std::mt19937_64 random(19);
  const int64_t now_s = 1'764'000'000;
  std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> keys;
  for (int i = 0; i < 300; ++i) {
    const int64_t due = now_s - 20'000 + static_cast<int64_t>(random() % 40'000);
    std::string key;
    index.AppendKey(due, kGroup, now_s, &key);
    keys.push_back({key, {ExpiryIndex::Bucket(std::max(due, now_s)), due}});
  }
  std::sort(keys.begin(), keys.end());
  for (size_t i = 1; i < keys.size(); ++i) CHECK(keys[i - 1].second <= keys[i].second);
}

TEST_CASE("past buckets are due to be forgotten once each time a bucket ends", "[expiry_index]") {
  ExpiryIndex index(ExpiryIndex::Layout::kByTableAndBucket);
  const int64_t hour = ExpiryIndex::kBucketSeconds;
  CHECK_FALSE(index.PastBucketsToForget(0));         // no bucket has ended a bucket ago
  CHECK_FALSE(index.PastBucketsToForget(hour));      // bucket 0 ended just now
  CHECK(index.PastBucketsToForget(2 * hour));        // bucket 0 ended a bucket ago
  CHECK_FALSE(index.PastBucketsToForget(2 * hour));  // told already
  CHECK_FALSE(index.PastBucketsToForget(3 * hour - 1));
  CHECK(index.PastBucketsToForget(3 * hour));
  index.ForgetFailed();
  CHECK(index.PastBucketsToForget(3 * hour + 5));  // again after a failure
  CHECK_FALSE(index.PastBucketsToForget(hour));    // a clock set back tells nothing new
}

}  // namespace
}  // namespace cellfs::storage
