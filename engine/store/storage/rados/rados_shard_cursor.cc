// RadosShardCursor (engine/store/storage/rados/rados_shard_cursor.h).
#include "engine/store/storage/rados/rados_shard_cursor.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>

#include "engine/store/storage/rados/rados_layout.h"
#include "engine/store/storage/rados/rados_status.h"

namespace cellfs::storage {

RadosShardCursor::RadosShardCursor(librados::IoCtx* io, std::string space)
    : io_(io), space_(std::move(space)) {}

void RadosShardCursor::Fail(Status status) {
  status_ = std::move(status);
  entries_.reset();
}

void RadosShardCursor::Prefetch(unsigned first, std::string_view shard) {
  struct Read {
    librados::ObjectReadOperation op;
    std::map<std::string, librados::bufferlist> exact;
    std::set<std::string> keys;
    int exact_result = 0;
    int keys_result = 0;
    bool more = false;
    std::unique_ptr<librados::AioCompletion> done;
  };
  std::vector<std::unique_ptr<Read>> reads;
  for (unsigned b = first; b <= last_bucket_; ++b) {
    auto read = std::make_unique<Read>();
    const std::string from = b == first ? std::string(shard) : std::string();
    if (!from.empty()) read->op.omap_get_vals_by_keys({from}, &read->exact, &read->exact_result);
    read->op.omap_get_keys2(from, kIndexPage, &read->keys, &read->more, &read->keys_result);
    read->done.reset(librados::Rados::aio_create_completion());
    const int started = io_->aio_operate(IndexObject(space_, static_cast<unsigned char>(b)),
                                         read->done.get(), &read->op, nullptr);
    if (started < 0) {
      for (auto& earlier : reads) earlier->done->wait_for_complete();
      return Fail(FromRados(started, "listing the shards of a space"));
    }
    reads.push_back(std::move(read));
  }
  Status first_error;
  for (unsigned i = 0; i < reads.size(); ++i) {
    Read& read = *reads[i];
    read.done->wait_for_complete();
    int result = read.done->get_return_value();
    Bucket& bucket = prefetched_[first + i];
    bucket = Bucket{};
    if (result == -ENOENT) continue;  // no shard was ever written there
    if (result >= 0) result = read.exact_result < 0 ? read.exact_result : read.keys_result;
    if (result < 0) {
      if (first_error.ok()) first_error = FromRados(result, "listing the shards of a space");
      continue;
    }
    for (auto& entry : read.exact) bucket.shards.push_back(entry.first);
    bucket.shards.insert(bucket.shards.end(), read.keys.begin(), read.keys.end());
    bucket.more = read.more;
  }
  if (!first_error.ok()) Fail(first_error);
}

void RadosShardCursor::Seek(std::string_view shard) {
  status_ = Status::Ok();
  entries_.reset();
  bucket_ = shard.empty() ? 0 : static_cast<unsigned char>(shard[0]);
  last_bucket_ = end_.empty() ? 255 : static_cast<unsigned char>(end_[0]);
  bucket_shards_.clear();
  bucket_more_ = false;
  if (bucket_ > last_bucket_ || PastEnd(shard)) return;  // nothing below the bound
  Prefetch(bucket_, shard);
  if (!status_.ok()) return;
  bucket_shards_ = std::move(prefetched_[bucket_].shards);
  bucket_more_ = prefetched_[bucket_].more;
  ahead_.clear();
  pos_ = 0;
  Settle();
}

void RadosShardCursor::Next() {
  ++pos_;
  Settle();
}

void RadosShardCursor::NextPage() {
  const std::string after = bucket_shards_.back();
  std::set<std::string> keys;
  bucket_more_ = false;
  const int result = io_->omap_get_keys2(IndexObject(space_, static_cast<unsigned char>(bucket_)),
                                         after, kIndexPage, &keys, &bucket_more_);
  bucket_shards_.assign(keys.begin(), keys.end());
  ahead_.clear();
  pos_ = 0;
  if (result < 0 && result != -ENOENT) {
    Fail(FromRados(result, "listing the shards of a space"));
  }
}

void RadosShardCursor::ReadAhead() {
  ahead_.clear();
  ahead_start_ = pos_;
  size_t end = std::min(bucket_shards_.size(), pos_ + kReadAhead);
  while (end > pos_ && PastEnd(bucket_shards_[end - 1])) --end;
  struct Flight {
    std::unique_ptr<RadosPageRead> read;
    std::unique_ptr<librados::AioCompletion> done;
    int started = 0;
  };
  std::vector<Flight> flights;
  for (size_t i = pos_; i < end; ++i) {
    const RadosLocation where = Locate({space_, bucket_shards_[i]});
    Flight flight;
    flight.read = std::make_unique<RadosPageRead>(where, where.key_prefix, /*inclusive=*/true,
                                                  RadosCursor::kFirstPage);
    flight.done.reset(librados::Rados::aio_create_completion());
    flight.started = io_->aio_operate(where.object, flight.done.get(), &flight.read->op, nullptr);
    flights.push_back(std::move(flight));
  }
  for (Flight& flight : flights) {
    FirstPage page;
    int result = flight.started;
    if (result >= 0) {
      flight.done->wait_for_complete();
      result = flight.done->get_return_value();
    }
    page.result = flight.read->Finish(result, &page.window);
    page.more = flight.read->more;
    ahead_.push_back(std::move(page));
  }
}

void RadosShardCursor::Settle() {
  entries_.reset();
  while (status_.ok()) {
    if (pos_ >= bucket_shards_.size()) {
      ahead_.clear();
      if (bucket_more_ && !bucket_shards_.empty()) {
        NextPage();
        continue;
      }
      if (bucket_ >= last_bucket_) return;  // no more shards
      ++bucket_;
      bucket_shards_ = std::move(prefetched_[bucket_].shards);
      bucket_more_ = prefetched_[bucket_].more;
      pos_ = 0;
      continue;
    }
    if (PastEnd(bucket_shards_[pos_])) return;  // no more shards below the bound
    if (pos_ < ahead_start_ || pos_ >= ahead_start_ + ahead_.size()) ReadAhead();
    FirstPage& page = ahead_[pos_ - ahead_start_];
    if (page.result < 0) {
      return Fail(FromRados(page.result, "reading the first entries of a shard"));
    }
    if (!page.window.empty()) {
      auto cursor = std::make_unique<RadosCursor>(io_, Locate({space_, bucket_shards_[pos_]}));
      cursor->AdoptFirstPage(std::move(page.window), page.more);
      entries_ = std::move(cursor);
      return;
    }
    ++pos_;  // listed but empty now
  }
}

}  // namespace cellfs::storage
