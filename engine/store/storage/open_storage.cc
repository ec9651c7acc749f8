// OpenStorage: the backend the store's spelling names (store_location.h).
#include "engine/store/storage/open_storage.h"

#include "engine/store/storage/leveldb/leveldb_storage.h"
#ifdef CELLFS_WITH_RADOS
#include "engine/store/storage/rados/rados_storage.h"
#endif
#include "engine/store/storage/store_location.h"

namespace cellfs::storage {

Result<std::unique_ptr<Storage>> OpenStorage(const std::string& path,
                                             const EngineOptions& options) {
  Result<StoreLocation> location = ParseStoreLocation(path);
  if (!location.ok()) return location.status();
  if (location->kind == StoreLocation::Kind::kRados) {
#ifdef CELLFS_WITH_RADOS
    auto opened = RadosStorage::Open(*location, options);
    if (!opened.ok()) return opened.status();
    return std::unique_ptr<Storage>(std::move(opened).value());
#else
    return Status::NotSupported("this build has no RADOS backend (CELLFS_RADOS=OFF)");
#endif
  }
  auto opened = LevelDbStorage::Open(path, options);
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<Storage>(std::move(opened).value());
}

}  // namespace cellfs::storage
