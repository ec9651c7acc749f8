// RadosCursor (engine/store/storage/rados/rados_cursor.h).
#include "engine/store/storage/rados/rados_cursor.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>

#include "engine/store/storage/rados/rados_status.h"

namespace cellfs::storage {

RadosCursor::RadosCursor(librados::IoCtx* io, RadosLocation where, size_t page)
    : io_(io),
      where_(std::move(where)),
      page_(page == 0 ? 1 : page),
      next_page_(std::min(kFirstPage, page_)) {}

size_t RadosCursor::TakePage() {
  const size_t page = next_page_;
  next_page_ = std::min(page_, next_page_ * 2);
  return page;
}

void RadosCursor::Fail(int result, const char* what) {
  status_ = FromRados(result, std::string(what) + " " + where_.object);
  window_.clear();
  pos_ = 0;
}

RadosPageRead::RadosPageRead(const RadosLocation& where, const std::string& start, bool inclusive,
                             size_t max)
    : prefix_size(where.key_prefix.size()) {
  if (inclusive) op.omap_get_vals_by_keys({start}, &exact, &exact_result);
  op.omap_get_vals2(start, where.key_prefix, max, &after, &more, &after_result);
}

int RadosPageRead::Finish(int result, std::vector<Entry>* window) {
  window->clear();
  if (result == -ENOENT) {  // no object: an empty shard
    more = false;
    return 0;
  }
  if (result >= 0) result = exact_result < 0 ? exact_result : after_result;
  if (result < 0) return result;
  for (auto* part : {&exact, &after}) {
    for (auto& [stored, value] : *part)
      window->emplace_back(stored.substr(prefix_size), value.to_str());
  }
  return 0;
}

void RadosCursor::LoadFrom(std::string_view key, bool inclusive) {
  backward_ = false;
  pos_ = 0;
  RadosPageRead read(where_, where_.key_prefix + std::string(key), inclusive, TakePage());
  librados::bufferlist unused;
  const int result = read.Finish(io_->operate(where_.object, &read.op, &unused), &window_);
  more_after_ = read.more;
  if (result < 0) Fail(result, "reading");
}

void RadosCursor::AdoptFirstPage(std::vector<Entry> window, bool more) {
  status_ = Status::Ok();
  backward_ = false;
  window_ = std::move(window);
  pos_ = 0;
  more_after_ = more;
  next_page_ = std::min(page_, kFirstPage * 2);
}

void RadosCursor::Seek(std::string_view key) {
  next_page_ = std::min(kFirstPage, page_);
  LoadFrom(key, /*inclusive=*/true);
}

void RadosCursor::Next() {
  if (++pos_ < window_.size()) return;
  // Past the window: the entries after its last key, read afresh (after a
  // backward walk too, which may have stopped short of the shard's end).
  if (!backward_ && !more_after_) return;  // ran off the end: invalid
  const std::string last = window_.back().first;
  LoadFrom(last, /*inclusive=*/false);
}

void RadosCursor::SeekBefore(std::string_view key) {
  const std::string bound(key);
  StartBackward(&bound);
}

void RadosCursor::SeekToLast() { StartBackward(nullptr); }

void RadosCursor::StartBackward(const std::string* bound) {
  next_page_ = std::min(kFirstPage, page_);
  window_.clear();
  pos_ = 0;
  before_.clear();
  backward_ = true;
  const std::string& prefix = where_.key_prefix;
  const std::string limit = bound ? prefix + *bound : std::string();
  auto in_range = [&](const std::string& stored) {
    return stored.compare(0, prefix.size(), prefix) == 0 && (!bound || stored < limit);
  };
  // The shard's empty key (stored as the prefix itself) is never after a
  // start_after of the prefix: asked for by name.
  std::map<std::string, librados::bufferlist> empty_key;
  int result = io_->omap_get_vals_by_keys(where_.object, {prefix}, &empty_key);
  if (result == -ENOENT) return;  // no object: nothing before
  if (result < 0) return Fail(result, "reading keys of");
  if (!empty_key.empty() && in_range(prefix)) before_.emplace_back();
  std::string after = prefix;
  for (bool more = true; more;) {
    std::set<std::string> keys;
    result = io_->omap_get_keys2(where_.object, after, page_, &keys, &more);
    if (result < 0) return Fail(result, "reading keys of");
    for (const std::string& stored : keys) {
      if (!in_range(stored)) {
        more = false;  // keys are in order: the rest are past the shard or the bound
        break;
      }
      before_.push_back(stored.substr(prefix.size()));
    }
    if (!keys.empty()) after = *keys.rbegin();
  }
  LoadBackwardPage(before_.size());
}

void RadosCursor::LoadBackwardPage(size_t end) {
  window_.clear();
  pos_ = 0;
  if (end == 0) return;  // nothing before: invalid
  const size_t page = TakePage();
  window_start_ = end > page ? end - page : 0;
  std::set<std::string> keys;
  for (size_t i = window_start_; i < end; ++i) keys.insert(where_.key_prefix + before_[i]);
  std::map<std::string, librados::bufferlist> values;
  const int result = io_->omap_get_vals_by_keys(where_.object, keys, &values);
  if (result < 0) return Fail(result, "reading");
  const size_t prefix = where_.key_prefix.size();
  // A key deleted since the keys were read is skipped, as a later read would.
  for (auto& [stored, value] : values) window_.emplace_back(stored.substr(prefix), value.to_str());
  if (window_.empty()) return LoadBackwardPage(window_start_);
  pos_ = window_.size() - 1;
}

void RadosCursor::Prev() {
  if (!backward_) {
    // Backward from a forward position: the keys before the current one.
    const std::string here(window_[pos_].first);
    if (pos_ > 0) {
      --pos_;
      return;
    }
    return SeekBefore(here);
  }
  if (pos_ > 0) {
    --pos_;
    return;
  }
  LoadBackwardPage(window_start_);
}

}  // namespace cellfs::storage
