// Text <-> serialized bytes for duration: Cassandra's three-part length of
// time (months, days, nanoseconds) in its standard and ISO 8601 spellings.
// Internal to engine/; native_literal.cc dispatches here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs {

// A duration's three independent parts, all >= 0 or all <= 0. They never
// convert into one another except as the literal says (a year is 12 months,
// a week 7 days): a month has no fixed number of days, a day no fixed number
// of nanoseconds.
struct DurationValue {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanoseconds = 0;
};

// duration: an optional '-' then one of
//  - standard: 1y2mo3w4d5h6m7s8ms9us10ns (µs too; units in any case, at
//    least one, each at most once, in this order);
//  - ISO 8601: P1Y2M3DT4H5M6S (at least one part; T needs a time part), P4W;
//  - ISO 8601 alternative: P0001-02-03T04:05:06.
// y = 12 mo, w = 7 d; h..ns add to nanoseconds. A part that overflows
// (months, days: int32; nanoseconds: int64) is an error.
// On success *out holds EncodeDuration of the value. On error *out is
// untouched and the InvalidArgument reads "invalid duration '<text>': why".
Status ParseDurationLiteral(std::string_view text, std::string* out);

// Cassandra's form: [-]NyNmoNdNhNmNsNmsNusNns with zero parts omitted (days
// are never folded into weeks), "0s" for the zero duration. Parsing the
// result gives `bytes` back.
// REQUIRES: DecodeDuration(bytes) succeeds ("" otherwise).
std::string FormatDurationLiteral(std::string_view bytes);

// The serialization: months, days, nanoseconds, each a zigzag-encoded
// (ZigZagEncode in varint_codec.h) unsigned vint in Cassandra's VIntCoding
// (the count of leading 1 bits of the first byte is the number of bytes that
// follow; the first byte's remaining bits are the value's high bits;
// big-endian). Always minimal. Grammar in docs/FORMAT.md.
std::string EncodeDuration(const DurationValue& value);

// Decodes and validates: exactly three minimal vints and nothing else,
// months and days within int32, parts of one sign. InvalidArgument otherwise,
// *out then untouched. Every accepted input is what EncodeDuration makes.
Status DecodeDuration(std::string_view bytes, DurationValue* out);

}  // namespace cellfs
