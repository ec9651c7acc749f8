// Text <-> serialized bytes for timestamp, date and time (duration has its
// own duration_literal.h). Internal to engine/; native_literal.cc dispatches
// here. Every Parse* leaves *out untouched on error and returns
// InvalidArgument quoting the input.
// Calendar dates are proleptic Gregorian, years numbered astronomically
// (0000 is 1 BCE); see engine/cql/internal/civil_time.h.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs {

// timestamp (int64 ms since the epoch, big-endian), as Cassandra's
// TimestampSerializer reads it: an integer of milliseconds (-?digits; no
// '+'), or the union of its date patterns:
//   y-M-d[(' '|'T')H:m[:s[.S]]][zone]
// Every field is 1 to 9 digits, after any white space (Java's
// FastDateParser reads "9" and " 9" for HH); S counts
// milliseconds, 0..999 (".5" is 5 ms, as Java). zone is attached: Z, +HH,
// +HHMM or +HH:MM; or after one space: +HHMM, +HH:MM, GMT+H:MM, GMT+HH:MM,
// UTC or GMT (names in any case). Offsets up to 23:59. No zone means UTC
// (Cassandra: the server's zone). A signed year of 4 or more digits
// ("+10000", "-0001") is cellfs's own, so canonical text parses back.
// Refusals: "Unable to coerce '<text>' to a formatted date (long)"
// (integer overflow: "Unable to make long (for date) from: '<text>'").
Status ParseTimestampLiteral(std::string_view text, std::string* out);
// 2018-07-23T11:04:22.432Z: always UTC with milliseconds. Years outside
// 0000..9999 carry a sign: +10000-01-01T..., -0001-01-01T....
std::string FormatTimestampLiteral(std::string_view bytes);

// date (uint32 days, 2^31 = 1970-01-01): yyyy-mm-dd (year as for timestamp)
// or the raw unsigned day number 0..4294967295 (Cassandra's rule: an all-digit
// text is the serialized number, not days since the epoch).
Status ParseDateLiteral(std::string_view text, std::string* out);
// yyyy-mm-dd, years outside 0000..9999 signed as for timestamp.
std::string FormatDateLiteral(std::string_view bytes);

// time (int64 ns since midnight, 0..86399999999999): HH:MM:SS[.f{1,9}]
// (two digits each; the fraction is right-padded: .5 is 500000000 ns) or an
// integer of nanoseconds.
Status ParseTimeLiteral(std::string_view text, std::string* out);
// HH:MM:SS.nnnnnnnnn (always nine fraction digits).
std::string FormatTimeLiteral(std::string_view bytes);

// Ok when `bytes` is a well-formed non-empty serialization of the temporal
// `kind` (kTimestamp: 8 bytes; kDate: 4; kTime: 8 within a day; kDuration:
// DecodeDuration in duration_literal.h succeeds). Otherwise InvalidArgument
// naming the problem.
Status ValidateTemporalValue(TypeKind kind, std::string_view bytes);

}  // namespace cellfs
