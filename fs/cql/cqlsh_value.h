// The text cqlsh (Cassandra 4.x/5.0, default settings, no colour, UTF-8)
// shows for one value of a SELECT result, and the width it reckons that
// text takes when it aligns its table. Facts from pylib/cqlshlib/formatting.py
// and bin/cqlsh.py; docs/CQL.md "SELECT output" lists where cellfs differs.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"

namespace cellfs::fs {

// cqlsh's defaults (DEFAULT_FLOAT_PRECISION and DEFAULT_DOUBLE_PRECISION in
// cqlsh.py; cqlshrc.sample suggests 12 for doubles, but that is a comment).
inline constexpr int kCqlshFloatPrecision = 5;
inline constexpr int kCqlshDoublePrecision = 5;

// A formatted value. `width` is what cqlsh computes, which is not always
// the true terminal width of `text`: text counts by cqlsh's wcwidth
// (cqlsh_width.h), any other value by code points, and a collection by the
// sum of its elements plus 2 per element (4 per map entry and UDT field),
// so an empty collection ("[]", "{}") counts 0, as in cqlsh.
struct CqlshText {
  std::string text;
  int width = 0;
};

// A null cell: "null" (width 4).
CqlshText CqlshNull();

// A column name in the header (and in EXPAND ON records): escaped as a
// text value is, unquoted.
CqlshText FormatCqlshName(std::string_view name);

// The text of serialized `value` of `type` at the top level of a row.
// Rules, per kind (a "nested" value is one inside a collection, tuple or
// UDT; cqlsh formats those with quote=True):
//  - text, ascii, varchar: the characters as they are, except that '\\' is
//    doubled and each of U+0000..U+001F and U+007F..U+00A0 is shown as
//    Python's repr shows it: \t, \n, \r, else \xNN (lower-case hex). Nested:
//    single-quoted, inner quotes doubled ('it''s'). Width: cqlsh's wcwidth
//    of the result (quotes included), East Asian wide characters 2.
//  - boolean: True or False.
//  - tinyint, smallint, int, bigint, counter, varint: decimal digits.
//  - float and double: NaN, Infinity, -Infinity; otherwise with
//    e = int(log10(|v|)) (truncated toward zero; for |v| <= 2^-52 e is
//    taken as very negative), the printf "%.*g" of v with precision
//    5 + e + 1 when -4 <= e < 5, else 5. So 1.0 prints 1, 0.1 0.1,
//    123456.7 1.2346e+05, 1e20 1e+20, 6e-05 6e-05, 0.0006 0.0006, -0.0 -0; a
//    float is widened to double first (1116.12345f prints 1116.12341).
//  - decimal: Python's str(Decimal), the General Decimal Arithmetic
//    to-scientific-string: plain when the scale is >= 0 and the adjusted
//    exponent >= -6 (123.4500, 0.000001, 0.0), otherwise with an exponent:
//    1E-7, 1E+3 (unscaled 1, scale -3), 1.50E+5.
//  - blob: 0x and lower-case hex; the empty blob is 0x.
//  - uuid, timeuuid: lower-case 8-4-4-4-12.
//  - inet: the address as inet_ntop(3) prints it. Nested: single-quoted.
//  - timestamp: yyyy-mm-dd HH:MM:SS.ffffff+0000 in UTC
//    (2018-07-23 11:04:22.432000+0000). The milliseconds go through a
//    Python float (ms / 1000.0, then microseconds rounded half to even),
//    so far from 1970 the microseconds may show float noise. The year is
//    printed as glibc's strftime %Y does (no zero padding below 1000).
//    An instant outside years 1..9999 prints as the integer milliseconds.
//    Nested: single-quoted.
//  - date: yyyy-mm-dd for years 1..9999, otherwise the signed number of
//    days since 1970-01-01 (-719528 for 0000-01-01). Nested: bare.
//  - time: HH:MM:SS.nnnnnnnnn. Nested: bare.
//  - duration: cqlsh's duration_as_str: "-" when any part is negative,
//    then for each of y (12 months), mo, d, h, m, s, ms, us, ns whose
//    remaining amount reaches one unit: the quotient and the unit. cqlsh
//    4.1/5.0 runs on Python 3, where that quotient is a true division, so
//    each number prints as a Python float, correctly rounded: 1h30m is
//    1.5h30.0m (5400 s / 3600 s, then 30 min left), 14 months is
//    1.1666666666666667y2.0mo, 1500ms is 1.5s500.0ms. The zero duration
//    prints "". Nested: bare.
//  - list [a, b], set {a, b}, map {k: v}, tuple (a, b), UDT {f: v}: the
//    nested texts joined by ", ". Set elements and map keys come in
//    Python's order, which is the stored order except for uuid and
//    timeuuid (by their 128-bit value) and inet (by their text). A tuple
//    shows every component of its type; a missing or null component shows
//    as None ('None' for inet and timestamp) — see docs/CQL.md. A UDT
//    shows every field of its type, `name: value`, the name as the text it
//    is (unquoted), a missing or null field as null.
//  - the empty (0-byte) value of any type but text, ascii and blob: "" at
//    any level (blobAsInt(0x) shows as blank); nested empty text is ''.
// REQUIRES: ValidateValue(type, value).
CqlshText FormatCqlshValue(const CqlType& type, std::string_view value);

}  // namespace cellfs::fs
