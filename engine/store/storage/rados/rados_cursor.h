// RadosCursor: a storage::Cursor over one shard of the RADOS backend, the
// keys of one object's omap that carry the shard's prefix, read a page at
// a time (docs/SCALEOUT.md "Reverse reads").
#pragma once

#include <map>
#include <rados/librados.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engine/store/storage/cursor.h"
#include "engine/store/storage/rados/rados_layout.h"

namespace cellfs::storage {

// Reads the latest state: each page is one read of the object, consistent
// in itself. Forward, a page is one request. Backward, omap has no reverse
// read: the first step back from a position reads the keys before it
// forward, once, then their values a page at a time; so a backward walk
// costs the keys before its start (memory and one forward pass) on top of
// its pages. An object that does not exist is an empty shard. Not
// thread-safe; `io` must outlive the cursor.
// One forward page of a shard as one object read: the key `start` itself
// (when inclusive: omap's start_after is exclusive) and up to `max` entries
// after it, synchronous or through aio_operate (the shard cursor reads the
// first pages of many partitions at once).
struct RadosPageRead {
  using Entry = std::pair<std::string, std::string>;  // key without the prefix, value

  // Makes `op`. `start` is the stored key (prefix included).
  RadosPageRead(const RadosLocation& where, const std::string& start, bool inclusive, size_t max);
  // Given the operation's result: fills *window with the entries (keys
  // without the prefix) and returns 0, or the error (an absent object is
  // an empty page).
  int Finish(int result, std::vector<Entry>* window);

  librados::ObjectReadOperation op;
  std::map<std::string, librados::bufferlist> exact;
  std::map<std::string, librados::bufferlist> after;
  int exact_result = 0;
  int after_result = 0;
  bool more = false;  // the object holds entries after the page
  size_t prefix_size;
};

class RadosCursor final : public Cursor {
 public:
  // A walk's first page holds kFirstPage entries and each next one twice
  // the last, up to `page`: a point read (most seeks are) costs a small
  // read, a long walk few round trips.
  static constexpr size_t kDefaultPage = 512;
  static constexpr size_t kFirstPage = 8;

  RadosCursor(librados::IoCtx* io, RadosLocation where, size_t page = kDefaultPage);

  bool Valid() const override { return status_.ok() && pos_ < window_.size(); }
  void Seek(std::string_view key) override;
  void SeekBefore(std::string_view key) override;
  void SeekToFirst() override { Seek({}); }
  void SeekToLast() override;
  void Next() override;
  void Prev() override;
  std::string_view key() const override { return window_[pos_].first; }
  std::string_view value() const override { return window_[pos_].second; }
  Status status() const override { return status_; }

  // Positions the cursor at the first of `window`, a page read elsewhere
  // from the shard's start (RadosPageRead with an empty key, inclusive), as
  // SeekToFirst would have; `more`: the object holds entries after it.
  void AdoptFirstPage(std::vector<std::pair<std::string, std::string>> window, bool more);

 private:
  using Entry = std::pair<std::string, std::string>;  // key without the prefix, value

  // Reads the page of entries >= `key` (`inclusive`) or > `key` into the
  // window, positioned at its first.
  void LoadFrom(std::string_view key, bool inclusive);
  // Makes the keys before `bound` (all keys with `bound` null) the
  // backward walk's, then loads the page that ends right before it.
  void StartBackward(const std::string* bound);
  // Loads the page of the backward walk's keys that ends at index `end`,
  // positioned at its last.
  void LoadBackwardPage(size_t end);
  void Fail(int result, const char* what);

  librados::IoCtx* io_;
  RadosLocation where_;
  size_t page_;
  size_t next_page_;  // the next page's size: kFirstPage after a seek, doubling
  // The next page's size, and doubles it for the one after (up to page_).
  size_t TakePage();
  std::vector<Entry> window_;
  size_t pos_ = 0;
  bool more_after_ = false;  // forward: the object holds entries after the window
  // Backward: every key before where the walk started, in order, and the
  // index in it of the window's first entry.
  std::vector<std::string> before_;
  size_t window_start_ = 0;
  bool backward_ = false;
  Status status_;
};

}  // namespace cellfs::storage
