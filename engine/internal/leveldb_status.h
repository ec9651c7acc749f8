// LevelDB's status in the engine's terms: the one place a leveldb::Status
// becomes a cellfs::Status.
#pragma once

#include <leveldb/status.h>

#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs::storage {

// Ok for ok; Corruption for LevelDB's corruption; IOError for the rest
// (NotFound included: callers that expect absence test IsNotFound first).
// `context`, when given, prefixes the message ("reading the lease: ...").
inline Status FromLevelDb(const leveldb::Status& s, std::string_view context = {}) {
  if (s.ok()) return Status::Ok();
  std::string message = context.empty() ? s.ToString() : std::string(context) + ": " + s.ToString();
  if (s.IsCorruption()) return Status::Corruption(std::move(message));
  return Status::IOError(std::move(message));
}

}  // namespace cellfs::storage
