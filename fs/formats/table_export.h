// ExportTable: a whole table as JSON Lines or CSV (header first), in token
// order, from one snapshot — what TABLE/@json and @csv show, for
// `cellfs dump --offline`, which opens the engine without a mount.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "engine/engine.h"
#include "engine/status.h"

namespace cellfs::fs {

// Calls `write` with consecutive pieces of the export until the end or
// until `write` returns false (then returns Ok: the caller stopped).
// NotFound for an unknown keyspace or table; IOError / Corruption from the
// read. Memory is flat in the table's size.
Status ExportTable(const Engine& engine, const std::string& keyspace, const std::string& table,
                   bool csv, const std::function<bool(std::string_view piece)>& write);

}  // namespace cellfs::fs
