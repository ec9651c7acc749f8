// OpenStorage for the LevelDB backend.
#include "engine/store/storage/open_storage.h"

#include "engine/store/storage/leveldb/leveldb_storage.h"

namespace cellfs::storage {

Result<std::unique_ptr<Storage>> OpenStorage(const std::string& path,
                                             const EngineOptions& options) {
  auto opened = LevelDbStorage::Open(path, options);
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<Storage>(std::move(opened).value());
}

}  // namespace cellfs::storage
