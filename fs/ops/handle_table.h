// HandleTable: the open files and directories behind fuse_file_info::fh.
// The kernel holds a number, never a pointer: a slot index and the slot's
// generation packed into 64 bits, so a handle released (or never issued)
// finds nothing instead of freed memory.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace cellfs::fs {

// Owns the objects it hands out numbers for; a lookup shares ownership, so
// an object outlives its removal until the calls that found it return.
// Handles are never 0 (the binding's "no handle"). A slot is reused after
// its object is removed, under a new generation: the old number is refused
// until the slot's 32-bit generation wraps, 2^32 reuses later.
//
// Thread-safe. Its mutex guards the slots and is a leaf: no other lock is
// taken while it is held, and objects are destroyed outside it.
template <typename T>
class HandleTable {
 public:
  HandleTable() = default;
  HandleTable(const HandleTable&) = delete;
  HandleTable& operator=(const HandleTable&) = delete;

  // Takes `object` (non-null) and returns its handle.
  uint64_t Add(std::shared_ptr<T> object) {
    std::lock_guard lock(mutex_);
    uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      index = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Slot& slot = slots_[index];
    slot.object = std::move(object);
    return Pack(index, slot.generation);
  }

  // The object `handle` names, or null: released, or never issued.
  std::shared_ptr<T> Find(uint64_t handle) const {
    std::lock_guard lock(mutex_);
    std::optional<uint32_t> index = IndexOf(handle);
    return index ? slots_[*index].object : nullptr;
  }

  // Takes the object out; `handle` and its slot's earlier numbers find
  // nothing from now on. Null when `handle` names nothing.
  std::shared_ptr<T> Remove(uint64_t handle) {
    std::lock_guard lock(mutex_);
    std::optional<uint32_t> index = IndexOf(handle);
    if (!index) return nullptr;
    Slot& slot = slots_[*index];
    std::shared_ptr<T> object = std::move(slot.object);
    slot.object.reset();
    slot.generation = slot.generation == UINT32_MAX ? 1 : slot.generation + 1;
    free_.push_back(*index);
    return object;
  }

  // Takes every object out (shutdown), each handle then finding nothing.
  std::vector<std::shared_ptr<T>> RemoveAll() {
    std::vector<uint64_t> handles;
    {
      std::lock_guard lock(mutex_);
      for (size_t i = 0; i < slots_.size(); ++i) {
        if (!slots_[i].object) continue;
        handles.push_back(Pack(static_cast<uint32_t>(i), slots_[i].generation));
      }
    }
    std::vector<std::shared_ptr<T>> objects;
    for (uint64_t handle : handles) {
      if (std::shared_ptr<T> object = Remove(handle)) objects.push_back(std::move(object));
    }
    return objects;
  }

  // Objects held now.
  size_t size() const {
    std::lock_guard lock(mutex_);
    return slots_.size() - free_.size();
  }

 private:
  struct Slot {
    std::shared_ptr<T> object;  // null while free
    uint32_t generation = 1;    // never 0, so no handle is 0
  };

  static uint64_t Pack(uint32_t index, uint32_t generation) {
    return (uint64_t{generation} << 32) | index;
  }

  // The slot `handle` names while its object is in it. REQUIRES: mutex_ held.
  std::optional<uint32_t> IndexOf(uint64_t handle) const {
    const auto index = static_cast<uint32_t>(handle);
    const auto generation = static_cast<uint32_t>(handle >> 32);
    if (index >= slots_.size()) return std::nullopt;
    const Slot& slot = slots_[index];
    if (!slot.object || slot.generation != generation) return std::nullopt;
    return index;
  }

  mutable std::mutex mutex_;  // guards slots_ and free_
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;  // indexes of free slots
};

}  // namespace cellfs::fs
