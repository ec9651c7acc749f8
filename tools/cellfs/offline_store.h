// OpenOfflineStore: the engine of a data directory opened directly, without
// a mount, for `cellfs load/dump/stats --offline`.
#pragma once

#include <memory>
#include <string>

#include "engine/engine.h"

namespace cellfs::tools {

// Opens the existing store in `dir` (never creates one), read-only when
// asked, without a background sweeper. On failure prints "cellfs: ..." to
// stderr — for a store a daemon holds, with the hint "if it is mounted,
// `what` through the mount or unmount it" ("unmount it" when `what` is
// null) — and returns null.
std::unique_ptr<Engine> OpenOfflineStore(const std::string& dir, bool read_only, const char* what);

}  // namespace cellfs::tools
