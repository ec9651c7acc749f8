// ScratchFiles (fs/tree/scratch_files.h): the held temporary files and
// their byte budget.
#include "fs/tree/scratch_files.h"

#include <algorithm>
#include <cerrno>

namespace cellfs::fs {

int ScratchFiles::Budget::Charge(size_t from, size_t to) {
  std::lock_guard lock(mutex_);
  if (to > from && to - from > kMaxTotalBytes - total_) return ENOSPC;
  total_ = total_ + to - from;
  return 0;
}

int ScratchFiles::File::Write(uint64_t offset, std::string_view data, int64_t now_micros) {
  if (offset > kMaxFileBytes || data.size() > kMaxFileBytes - offset) return EFBIG;
  const size_t end = static_cast<size_t>(offset) + data.size();
  const size_t size = std::max(end, content_.size());
  if (int e = budget_->Charge(content_.size(), size)) return e;
  content_.resize(size);
  content_.replace(static_cast<size_t>(offset), data.size(), data);
  mtime_micros = now_micros;
  return 0;
}

int ScratchFiles::File::Resize(uint64_t size, int64_t now_micros) {
  if (size > kMaxFileBytes) return EFBIG;
  if (int e = budget_->Charge(content_.size(), static_cast<size_t>(size))) return e;
  content_.resize(static_cast<size_t>(size));
  mtime_micros = now_micros;
  return 0;
}

int ScratchFiles::Create(const std::string& identity, uint32_t mode, int64_t now_micros) {
  std::lock_guard lock(mutex_);
  if (files_.count(identity) != 0) return EEXIST;
  if (files_.size() >= kMaxFiles) return ENOSPC;
  auto file = std::make_shared<File>(budget_);
  file->mode = mode & 07777;
  file->mtime_micros = now_micros;
  files_.emplace(identity, std::move(file));
  return 0;
}

std::shared_ptr<ScratchFiles::File> ScratchFiles::Find(const std::string& identity) const {
  std::lock_guard lock(mutex_);
  auto it = files_.find(identity);
  return it == files_.end() ? nullptr : it->second;
}

bool ScratchFiles::Remove(const std::string& identity) {
  std::shared_ptr<File> removed;  // released after the lock: its bytes go back then
  std::lock_guard lock(mutex_);
  auto it = files_.find(identity);
  if (it == files_.end()) return false;
  removed = std::move(it->second);
  files_.erase(it);
  return true;
}

size_t ScratchFiles::count() const {
  std::lock_guard lock(mutex_);
  return files_.size();
}

}  // namespace cellfs::fs
