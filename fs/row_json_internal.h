// What fs/row_json.cc (rows out as JSON) and fs/row_json_parse.cc (a row's
// @json write in) share. Internal to those two files.
#pragma once

#include "engine/cql_type.h"

namespace cellfs::fs {

// Whether toJson writes a value of `kind` as a JSON number; fromJson takes a
// JSON number for these kinds (and for timestamp, date and time). Thread-safe.
bool IsJsonNumberKind(TypeKind kind);

}  // namespace cellfs::fs
