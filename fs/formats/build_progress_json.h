// The JSON and text spellings of an index or view build's progress, as
// @status, @stats and `cellfs status` show it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/store/build_progress.h"

namespace cellfs::fs {

// {"kind": "index"|"view", "keyspace", "table", "name", "rows",
//  "percent" (of the token ring read, one decimal), "error" (null while it
//  runs)}.
nlohmann::json BuildProgressJson(const BuildProgress& build);

// "being built: 12345 rows read, 42.0% of the token ring" (or "build
// stopped: REASON").
std::string BuildProgressText(const BuildProgress& build);

}  // namespace cellfs::fs
