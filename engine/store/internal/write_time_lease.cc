// Loading and storing the write-time bound (MetaKey(kWriteTimeName)).
#include "engine/store/internal/write_time_lease.h"

#include <leveldb/db.h>

#include <string>

#include "engine/cql/internal/big_endian.h"
#include "engine/store/internal/leveldb_status.h"
#include "engine/store/internal/storage_keys.h"

namespace cellfs::storage {

Status LoadWriteTimeBound(leveldb::DB* db, int64_t* bound) {
  *bound = INT64_MIN;
  std::string stored;
  leveldb::Status s = db->Get(leveldb::ReadOptions(), MetaKey(kWriteTimeName), &stored);
  if (s.IsNotFound()) return Status::Ok();
  CELLFS_RETURN_IF_ERROR(FromLevelDb(s, "reading the write-time lease"));
  if (stored.size() != 8) return Status::Corruption("write-time lease is not 8 bytes");
  *bound = static_cast<int64_t>(ReadBigEndian(stored));
  return Status::Ok();
}

Status StoreWriteTimeBound(leveldb::DB* db, WriteFence* fence, int64_t bound) {
  CELLFS_RETURN_IF_ERROR(fence->Check());
  leveldb::WriteOptions options;
  options.sync = true;
  leveldb::Status s =
      db->Put(options, MetaKey(kWriteTimeName), BigEndianBytes(static_cast<uint64_t>(bound), 8));
  return fence->Record(FromLevelDb(s, "storing the write-time lease"));
}

}  // namespace cellfs::storage
