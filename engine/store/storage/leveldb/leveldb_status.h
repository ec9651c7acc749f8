// LevelDB's status in the engine's terms: the one place a leveldb::Status
// becomes a cellfs::Status.
#pragma once

#include <leveldb/status.h>

#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs::storage {

// Ok for ok; Corruption for LevelDB's corruption; NoSpace and ReadOnly for a
// full or read-only device; IOError for the rest (NotFound included: callers
// that expect absence test IsNotFound first). LevelDB keeps no errno, only
// strerror's text in the message, so the two device states are read from it.
// `context`, when given, prefixes the message ("reading the lease: ...").
inline Status FromLevelDb(const leveldb::Status& s, std::string_view context = {}) {
  if (s.ok()) return Status::Ok();
  std::string message = context.empty() ? s.ToString() : std::string(context) + ": " + s.ToString();
  if (s.IsCorruption()) return Status::Corruption(std::move(message));
  if (s.IsIOError()) {
    if (message.find("No space left on device") != std::string::npos ||
        message.find("Disk quota exceeded") != std::string::npos) {
      return Status::NoSpace(std::move(message));
    }
    if (message.find("Read-only file system") != std::string::npos) {
      return Status::ReadOnly(std::move(message));
    }
  }
  return Status::IOError(std::move(message));
}

}  // namespace cellfs::storage
