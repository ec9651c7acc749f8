// OpenStorage: the backend the engine opens its store with. Today the one
// backend is LevelDB's (storage::LevelDbStorage); issue 19 adds RADOS.
#pragma once

#include <memory>
#include <string>

#include "engine/engine_options.h"
#include "engine/status.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {

// Opens the store at `path` as `options` say (see EngineOptions and
// LevelDbStorage::Open). IOError when another process has it open.
Result<std::unique_ptr<Storage>> OpenStorage(const std::string& path, const EngineOptions& options);

}  // namespace cellfs::storage
