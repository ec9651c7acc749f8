// Loading and storing the write-time bound (the counter kWriteTimeName).
#include "engine/store/internal/write_time_lease.h"

#include <optional>

#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {

Status LoadWriteTimeBound(Storage* storage, int64_t* bound) {
  *bound = INT64_MIN;
  std::optional<uint64_t> stored;
  CELLFS_RETURN_IF_ERROR(
      storage->counter().Load(kWriteTimeName, &stored).WithContext("reading the write-time lease"));
  if (stored) *bound = static_cast<int64_t>(*stored);
  return Status::Ok();
}

Status StoreWriteTimeBound(Storage* storage, WriteFence* fence, int64_t bound) {
  CELLFS_RETURN_IF_ERROR(fence->Check());
  return fence->Record(storage->counter()
                           .Store(kWriteTimeName, static_cast<uint64_t>(bound))
                           .WithContext("storing the write-time lease"));
}

}  // namespace cellfs::storage
