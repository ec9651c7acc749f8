// The bounded set of rows waiting to be folded.
#include "engine/store/internal/fold_queue.h"

namespace cellfs::storage {

void FoldQueue::Add(std::string_view group) {
  std::lock_guard lock(mutex_);
  if (groups_.size() >= kCapacity) return;
  groups_.emplace(group);
}

std::vector<std::string> FoldQueue::Take(size_t max) {
  std::vector<std::string> taken;
  std::lock_guard lock(mutex_);
  while (!groups_.empty() && taken.size() < max) {
    taken.push_back(std::move(groups_.extract(groups_.begin()).value()));
  }
  return taken;
}

}  // namespace cellfs::storage
