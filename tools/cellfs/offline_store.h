// OpenOfflineStore: the engine of a store opened directly, without a mount,
// for `cellfs load/dump/stats --offline`, verify and snapshot.
#pragma once

#include <memory>
#include <string>

#include "engine/engine.h"

namespace cellfs::tools {

// Opens the existing store `store_spelling` names, a data directory or
// rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE] (store_argument.h), never creating a
// directory, read-only when asked, without a background sweeper. On
// failure prints "cellfs: ..." to stderr — for a store a daemon holds,
// with the hint "if it is mounted, `what` through the mount or unmount it"
// ("unmount it" when `what` is null) — and returns null.
std::unique_ptr<Engine> OpenOfflineStore(const std::string& store_spelling, bool read_only,
                                         const char* what);

}  // namespace cellfs::tools
