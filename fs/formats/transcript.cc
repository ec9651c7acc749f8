// Transcript: @cql's reply text, streams made a page at a time as reads reach
// them, text already read let go behind the reader.
#include "fs/formats/transcript.h"

#include <cassert>
#include <cerrno>
#include <cstdint>
#include <utility>

namespace cellfs::fs {

void Transcript::Append(std::string_view text) {
  if (text.empty()) return;
  if (queued_.empty()) {
    made_.append(text);
    return;
  }
  if (auto* last = std::get_if<std::string>(&queued_.back())) {
    last->append(text);
    return;
  }
  queued_.emplace_back(std::string(text));
}

void Transcript::Append(std::unique_ptr<ResultStream> stream) {
  assert(stream != nullptr);
  queued_.emplace_back(std::move(stream));
}

void Transcript::MakeUntil(uint64_t end) {
  while (base_ + made_.size() < end && !queued_.empty()) {
    auto& front = queued_.front();
    if (auto* text = std::get_if<std::string>(&front)) {
      made_.append(*text);
      queued_.pop_front();
      continue;
    }
    auto& stream = std::get<std::unique_ptr<ResultStream>>(front);
    if (!stream->Next(&made_)) queued_.pop_front();
  }
}

int Transcript::Read(uint64_t offset, size_t size, std::string* out) {
  out->clear();
  if (offset < base_) return EIO;
  MakeUntil(size > UINT64_MAX - offset ? UINT64_MAX : offset + size);
  const uint64_t made_end = base_ + made_.size();
  if (offset < made_end) {
    const size_t start = static_cast<size_t>(offset - base_);
    out->assign(made_, start, size);
  }
  // Let go of what lies far enough behind this read.
  if (offset > base_ + kKeptBehind) {
    const size_t drop = static_cast<size_t>(offset - base_ - kKeptBehind);
    made_.erase(0, drop);
    base_ += drop;
  }
  return 0;
}

const std::string& Transcript::ReadAll() {
  assert(base_ == 0);
  MakeUntil(UINT64_MAX);
  return made_;
}

}  // namespace cellfs::fs
