// What fs/formats/row_json.cc (rows out as JSON) and fs/formats/json_value.cc
// (JSON in: a row's @json write and @insert's JSON Lines) share. Internal to
// fs/formats.
#pragma once

#include "engine/cql/cql_type.h"

namespace cellfs::fs {

// Whether toJson writes a value of `kind` as a JSON number; fromJson takes a
// JSON number for these kinds (and for timestamp, date and time). Thread-safe.
bool IsJsonNumberKind(TypeKind kind);

// The kinds fromJson takes a JSON number for: IsJsonNumberKind's, and
// timestamp, date and time (as counts of their units). Thread-safe.
bool TakesJsonNumber(TypeKind kind);

}  // namespace cellfs::fs
