// Text <-> serialized bytes for timestamp, date, time and duration.
// Internal to engine/; literal.cc dispatches here.
#pragma once

#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs {

// timestamp (int64 ms since the epoch, big-endian): an integer of
// milliseconds, or yyyy-mm-dd[(T| )HH:MM[:SS[.f{1,9}]]][zone] where zone is
// Z, +HHMM, +HH:MM or +HH (no zone: UTC). Sub-millisecond digits must be 0.
Status ParseTimestampLiteral(std::string_view text, std::string* out);
// 2018-07-23T11:04:22.432Z (years outside 0..9999 carry a sign: +10000-01-01...).
std::string FormatTimestampLiteral(std::string_view bytes);

// date (uint32 days, 2^31 = 1970-01-01): yyyy-mm-dd (with optional sign and
// more year digits) or the raw unsigned day number.
Status ParseDateLiteral(std::string_view text, std::string* out);
std::string FormatDateLiteral(std::string_view bytes);

// time (int64 ns since midnight, 0..86399999999999): HH:MM:SS[.f{1,9}] or
// an integer of nanoseconds.
Status ParseTimeLiteral(std::string_view text, std::string* out);
// HH:MM:SS.nnnnnnnnn
std::string FormatTimeLiteral(std::string_view bytes);

// duration (vint months, vint days, vint nanoseconds; zigzag): 1y2mo3w4d5h6m7s8ms9us10ns
// (µs too), ISO 8601 P1Y2M3DT4H5M6S, P2W, P0001-02-03T04:05:06; optional '-'.
// All three parts must share a sign.
Status ParseDurationLiteral(std::string_view text, std::string* out);
// Cassandra's form: [-]NyNmoNdNhNmNsNmsNusNns, zero parts omitted, "0s" for zero.
std::string FormatDurationLiteral(std::string_view bytes);

}  // namespace cellfs
