// LevelDbBatch: a storage::Batch of space || shard || key entries, handed to
// LevelDB as one leveldb::WriteBatch in key order, with the spaces it writes
// (for watches).
//
// Why key order: LevelDB inserts a batch's entries into its memtable (a skip
// list) one by one. Entries in key order walk neighbouring paths of the list,
// so a batch of many partitions (a bulk load's, whose keys are spread over
// the token ring) costs a raw LevelDB writer about a third less than the
// same entries in arrival order; behind the engine's own work the gain
// measured is small (docs/BENCHMARKS.md). The order changes nothing else: a
// WriteBatch is applied atomically, and entries of one key keep the order
// they were put in (the sort is stable), so the last one still wins.
#pragma once

#include <leveldb/write_batch.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/store/storage/batch.h"

namespace cellfs::storage {

// Not thread-safe.
class LevelDbBatch final : public Batch {
 public:
  void Put(const Address& at, std::string_view value) override;
  void Delete(const Address& at) override;
  void Clear() override;
  // Exactly the size of the leveldb::WriteBatch rep() builds (what its own
  // ApproximateSize says), so a log record's length can be known before it
  // is written.
  size_t ApproximateSize() const override { return rep_bytes_; }
  bool empty() const override { return entries_.empty(); }

  // The entries as a LevelDB batch, in key order (equal keys in the order
  // they were put). Valid until the next change of this batch.
  leveldb::WriteBatch* rep();
  // The distinct spaces written, in first-write order.
  const std::vector<std::string>& spaces() const { return spaces_; }

 private:
  struct Entry {
    uint64_t head;  // the key's first 8 bytes, big-endian (0-padded): most comparisons end here
    size_t key_at, key_size;
    size_t value_at, value_size;
    bool is_delete;
  };

  void Add(const Address& at, std::string_view value, bool is_delete);
  std::string_view Key(const Entry& e) const { return {bytes_.data() + e.key_at, e.key_size}; }
  bool Less(const Entry& a, const Entry& b) const;
  void Note(std::string_view space);

  std::string bytes_;                       // keys and values, back to back
  std::vector<Entry> entries_;              // in the order put
  std::vector<size_t> order_;               // scratch: entry indexes in key order
  static constexpr size_t kRepHeader = 12;  // a WriteBatch's sequence and count
  leveldb::WriteBatch rep_;                 // built by rep()
  size_t rep_bytes_ = kRepHeader;           // rep_'s size once built
  bool rep_current_ = false;
  std::vector<std::string> spaces_;
};

}  // namespace cellfs::storage
