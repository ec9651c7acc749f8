// LevelDbCounter: durable counters in the metadata space.
#include "engine/store/storage/leveldb/leveldb_counter.h"

#include <leveldb/db.h>

#include <limits>
#include <string>

#include "engine/cql/big_endian.h"
#include "engine/store/storage/leveldb/leveldb_status.h"

namespace cellfs::storage {
namespace {

constexpr size_t kCounterBytes = 8;

std::string CounterKey(std::string_view name) {
  std::string key(1, 'M');
  key += name;
  return key;
}

}  // namespace

Status LevelDbCounter::Load(std::string_view name, std::optional<uint64_t>* value) {
  value->reset();
  std::string stored;
  leveldb::Status s = (*db_)->Get(leveldb::ReadOptions(), CounterKey(name), &stored);
  if (s.IsNotFound()) return Status::Ok();
  CELLFS_RETURN_IF_ERROR(FromLevelDb(s));
  if (stored.size() != kCounterBytes) {
    return Status::Corruption(std::string(name) + " is not 8 bytes");
  }
  *value = ReadBigEndian(stored);
  return Status::Ok();
}

Status LevelDbCounter::Raise(std::string_view name, uint64_t at_least, uint64_t* bound) {
  std::lock_guard lock(mutex_);
  std::optional<uint64_t> stored;
  CELLFS_RETURN_IF_ERROR(Load(name, &stored));
  if (stored && *stored >= at_least) {
    *bound = *stored;
    return Status::Ok();
  }
  CELLFS_RETURN_IF_ERROR(Put(name, at_least));
  *bound = at_least;
  return Status::Ok();
}

Status LevelDbCounter::Reserve(std::string_view name, uint64_t initial, uint64_t count,
                               uint64_t* start) {
  std::lock_guard lock(mutex_);
  std::optional<uint64_t> stored;
  CELLFS_RETURN_IF_ERROR(Load(name, &stored));
  const uint64_t first = stored.value_or(initial);
  if (count > std::numeric_limits<uint64_t>::max() - first) {
    return Status::Corruption(std::string(name) + " would overflow 64 bits");
  }
  CELLFS_RETURN_IF_ERROR(Put(name, first + count));
  *start = first;
  return Status::Ok();
}

Status LevelDbCounter::Store(std::string_view name, uint64_t value) {
  std::lock_guard lock(mutex_);
  return Put(name, value);
}

Status LevelDbCounter::Put(std::string_view name, uint64_t value) {
  leveldb::WriteOptions sync;
  sync.sync = true;
  return FromLevelDb((*db_)->Put(sync, CounterKey(name), BigEndianBytes(value, kCounterBytes)));
}

}  // namespace cellfs::storage
