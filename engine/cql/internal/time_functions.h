// CQL's time functions where a value is parsed: minTimeuuid, maxTimeuuid,
// now, currentTimestamp, currentDate, currentTime, currentTimeUUID.
// Internal to engine/; native_literal.cc hands a text that calls one here.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs {

// Whether `text` has the shape of a function call: name(...) where name is
// letters. Cheap; says nothing about whether the call is valid.
bool LooksLikeTimeFunction(std::string_view text);

// Evaluates the call `text` as a value of `kind` into *out (serialized).
// Names in any case, spaces allowed around the argument:
//  - minTimeuuid(T), maxTimeuuid(T): timeuuid. T is a timestamp literal
//    (temporal_literal.h), single-quoted as CQL writes it ('' for a quote)
//    or bare: minTimeuuid('2018-07-23 06:00') or minTimeuuid(2018-07-23
//    06:00). The result is Cassandra's: the smallest (largest) timeuuid of
//    that millisecond, clock-sequence-and-node bytes 80 80 80 80 80 80 80 80
//    (7f 7f 7f 7f 7f 7f 7f 7f); neither is a uuid any node generates.
//  - now(), currentTimeUUID(): a new timeuuid for the current time, distinct
//    from every other this process makes (random clock sequence and node).
//  - currentTimestamp(), currentDate(), currentTime(): the current moment
//    (UTC) as a timestamp, date or time.
// The clock is the real one (the system clock: engine/cql has no Clock).
// InvalidArgument for an unknown function, a wrong number of arguments, an
// argument that is no timestamp, or a result type other than `kind`
// ("cannot assign result of function system.now (type timeuuid) to a
// timestamp", Cassandra's wording less the column name, which a literal
// does not know); *out is then untouched.
Status ParseTimeFunction(TypeKind kind, std::string_view text, std::string* out);

// The timeuuid Cassandra's minTimeuuid (max: maxTimeuuid) gives for
// `millis` since the epoch. REQUIRES: millis within the timeuuid's range
// (1582-10-15 up to year 5236).
std::string TimeuuidBound(int64_t millis, bool max);

}  // namespace cellfs
