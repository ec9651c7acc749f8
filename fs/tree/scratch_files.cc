// ScratchFiles (fs/tree/scratch_files.h): the held temporary files and
// their byte budget.
#include "fs/tree/scratch_files.h"

#include <algorithm>
#include <cerrno>
#include <iterator>

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

int ScratchFiles::Create(const std::string& identity, const std::string& directory, uint32_t mode,
                         int64_t now_micros) {
  std::lock_guard lock(mutex_);
  if (files_.count(identity) != 0) return EEXIST;
  if (files_.size() >= kMaxFiles) {
    for (auto it = files_.begin(); it != files_.end();) {
      auto next = std::next(it);
      // use_count 1: no open file holds it (the count only grows through
      // Find, under this lock).
      if (it->second.file.use_count() == 1 &&
          now_micros - it->second.file->mtime_micros > kIdleMicros) {
        TakeName(it, Fate::kUnlinked);
      }
      it = next;
    }
    if (files_.size() >= kMaxFiles) return ENOSPC;
  }
  auto file = std::make_shared<File>(budget_);
  file->mode = mode & 07777;
  file->mtime_micros = now_micros;
  gone_.erase(identity);
  files_.emplace(identity, Entry{directory, std::move(file)});
  return 0;
}

std::shared_ptr<ScratchFiles::File> ScratchFiles::Find(const std::string& identity) const {
  std::lock_guard lock(mutex_);
  auto it = files_.find(identity);
  return it == files_.end() ? nullptr : it->second.file;
}

std::shared_ptr<ScratchFiles::File> ScratchFiles::FindGone(const std::string& identity) const {
  std::lock_guard lock(mutex_);
  auto it = gone_.find(identity);
  return it == gone_.end() ? nullptr : it->second.lock();
}

bool ScratchFiles::Remove(const std::string& identity, Fate fate) {
  std::lock_guard lock(mutex_);
  auto it = files_.find(identity);
  if (it == files_.end()) return false;
  TakeName(it, fate);
  return true;
}

void ScratchFiles::RemoveIn(const std::string& directory) {
  std::lock_guard lock(mutex_);
  for (auto it = files_.begin(); it != files_.end();) {
    auto next = std::next(it);
    if (it->second.directory == directory) TakeName(it, Fate::kUnlinked);
    it = next;
  }
}

void ScratchFiles::TakeName(std::unordered_map<std::string, Entry>::iterator it, Fate fate) {
  for (auto gone = gone_.begin(); gone != gone_.end();) {  // forget what no one holds
    gone = gone->second.expired() ? gone_.erase(gone) : std::next(gone);
  }
  std::shared_ptr<File> file = std::move(it->second.file);
  {
    std::lock_guard file_lock(file->mutex);
    file->fate = fate;
  }
  if (file.use_count() > 1) gone_[it->first] = file;  // an open file still holds it
  files_.erase(it);
  // `file` goes last: when no open file holds it, its bytes go back here.
}

}  // namespace cellfs::fs
