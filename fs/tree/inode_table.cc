// InodeTable: two hash maps under one mutex; a memo per inode beside its
// identity.
#include "fs/tree/inode_table.h"

#include <utility>

namespace cellfs::fs {

InodeTable::InodeTable(std::string root_identity) {
  by_identity_.emplace(root_identity, kRootInode);
  by_inode_.emplace(kRootInode, Entry{std::move(root_identity), 0, nullptr});
}

uint64_t InodeTable::Acquire(std::string_view identity) {
  std::lock_guard lock(mutex_);
  auto found = by_identity_.find(std::string(identity));
  if (found != by_identity_.end()) {
    if (found->second != kRootInode) ++by_inode_.at(found->second).lookups;
    return found->second;
  }
  const uint64_t inode = next_inode_++;
  by_identity_.emplace(std::string(identity), inode);
  by_inode_.emplace(inode, Entry{std::string(identity), 1, nullptr});
  return inode;
}

std::optional<std::string> InodeTable::Forget(uint64_t inode, uint64_t count) {
  if (inode == kRootInode) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto found = by_inode_.find(inode);
  if (found == by_inode_.end()) return std::nullopt;
  Entry& entry = found->second;
  if (count < entry.lookups) {
    entry.lookups -= count;
    return std::nullopt;
  }
  std::string identity = std::move(entry.identity);
  by_identity_.erase(identity);
  by_inode_.erase(found);
  return identity;
}

std::optional<std::string> InodeTable::Identity(uint64_t inode) const {
  std::lock_guard lock(mutex_);
  auto found = by_inode_.find(inode);
  if (found == by_inode_.end()) return std::nullopt;
  return found->second.identity;
}

std::shared_ptr<const NodeMemo> InodeTable::Memo(uint64_t inode) const {
  std::lock_guard lock(mutex_);
  auto found = by_inode_.find(inode);
  return found == by_inode_.end() ? nullptr : found->second.memo;
}

void InodeTable::Memoize(uint64_t inode, std::shared_ptr<const NodeMemo> memo) {
  std::lock_guard lock(mutex_);
  auto found = by_inode_.find(inode);
  if (found != by_inode_.end()) found->second.memo = std::move(memo);
}

std::optional<uint64_t> InodeTable::Find(std::string_view identity) const {
  std::lock_guard lock(mutex_);
  auto found = by_identity_.find(std::string(identity));
  if (found == by_identity_.end()) return std::nullopt;
  return found->second;
}

size_t InodeTable::size() const {
  std::lock_guard lock(mutex_);
  return by_inode_.size();
}

}  // namespace cellfs::fs
