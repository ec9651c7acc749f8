// OpenStorage: the backend the engine opens its store with: LevelDB's
// (storage::LevelDbStorage) for a directory, RADOS's (storage::RadosStorage)
// for a `rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE]` spelling (store_location.h).
#pragma once

#include <memory>
#include <string>

#include "engine/engine_options.h"
#include "engine/status.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {

// Opens the store `path` spells as `options` say (see EngineOptions,
// LevelDbStorage::Open and RadosStorage::Open). A directory store: IOError
// when another process has it open. InvalidArgument for a bad rados
// spelling.
Result<std::unique_ptr<Storage>> OpenStorage(const std::string& path, const EngineOptions& options);

}  // namespace cellfs::storage
