// Literal values: parsing every text spelling CQL accepts for a type into the
// value's serialized bytes, and printing the canonical text of DESIGN.md
// section 2. Values everywhere in cellfs are held in Cassandra's native
// protocol serialization (docs/FORMAT.md, "Values").
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs {

// Parses `text`, the bare (unquoted) spelling of a value of `type` as a file
// holds it or a directory name carries it, into its serialized bytes.
//  - text/varchar: any valid UTF-8, taken as is; ascii: bytes < 0x80.
//  - blob: 0x and an even number of hex digits, either case ("0x": empty).
//  - boolean: true/false in any case. uuid/timeuuid: 8-4-4-4-12 hex digits
//    in either case; a timeuuid must be version 1. inet: IPv4 dotted quad or
//    IPv6 text (inet_pton), 4 or 16 bytes; no host names.
//  - integers: optional sign and decimal digits; overflow is an error.
//  - timestamp: milliseconds since the epoch, or ISO-8601 / CQL date-time
//    text (no zone means UTC); date: yyyy-mm-dd or the raw unsigned day
//    number; time: HH:MM:SS[.fffffffff] or nanoseconds.
//  - collections, tuples and UDTs: their CQL literal, elements being CQL
//    terms (engine/cql/internal/term_parser.h): [a, b] for a list, {a, b} for a
//    set, {k: v} for a map ({} is an empty set or map), (a, b) for a tuple,
//    {field: v, ...} for a UDT (field names case-folded unless quoted).
//    Set elements come out sorted in Cassandra's order for the element type,
//    duplicates dropped (the first spelling stays); map entries sorted by
//    key, a repeated key keeping its last value. Tuples may give fewer
//    components than the type and keep that many; a UDT value holds every
//    field of its type, fields not named being null ({} alone is the empty
//    value), as Cassandra serializes UDT literals. Elements are
//    never null; tuple components and UDT fields may be.
// "" is the empty value for text and ascii; for every other type it is an
// error ("empty value for int"). On failure returns InvalidArgument naming
// the type, quoting the input and, inside a literal, giving the position
// ("line 1:5"); never a silent coercion.
Result<std::string> ParseLiteral(const CqlType& type, std::string_view text);

// The canonical text of a serialized value: what listings and reads show.
// ParseLiteral(type, FormatLiteral(type, v)) yields v back for every valid,
// non-empty v, with three exceptions that parse back to an equal value in
// other bytes: decimal keys (docs/FORMAT.md), decimals of negative scale
// (1E+1 prints 10, which has scale 0) and UDT values holding fewer fields
// than their type (they come back with every field). Collections print
// their elements with FormatTerm: ['a', 'b'], {1, 2}, {'k': 1},
// (1, 'x', null), {name: 'x', n: null} (a UDT shows every field in
// declaration order, null where it holds none, as cqlsh does; field names
// through QuoteIdentifier).
// Empty values: "" for text, ascii, every other native kind and the
// collections; "0x" for blob; "()" and "{}" for a tuple and a UDT (which
// parse back). The empty value of a non-text native or collection type thus
// has no bare spelling; it only arises from conversion functions in CQL
// writes (blobAsInt(0x)), never from a literal.
// REQUIRES: ValidateValue(type, v).
std::string FormatLiteral(const CqlType& type, std::string_view value);

// The value as a CQL term, quoted where CQL requires it ('text',
// '2018-07-23T11:04:22.432Z', 42, 0xff, [1, 2]); used inside collection
// literals and generated statements. Single-quoted, quotes doubled: text,
// ascii, inet, timestamp, date, time; bare otherwise. The empty value of a
// native kind other than text, ascii and blob prints as its conversion call,
// blobasint(0x), which ParseTerm reads back; that of a collection prints "".
// REQUIRES: ValidateValue(type, v).
std::string FormatTerm(const CqlType& type, std::string_view value);

// Ok when `value` is a well-formed serialization for `type`: the right
// width, valid UTF-8 (ascii: < 0x80), a boolean byte of 0 or 1, a version 1
// timeuuid, an inet of 4 or 16 bytes, a time within a day, a well-formed
// duration; collection framing (int32 count, int32-length-prefixed items, no
// null element, nothing after the last), tuple/UDT framing (no more
// components than the type), every element recursively, set elements and
// map keys strictly increasing in the type's order.
// An empty value is well-formed for every type (Cassandra's "empty" value);
// nested inside another value it is well-formed except for a collection
// type, which no term can spell.
// Stricter than Cassandra where a lax form could not print and parse back
// to the same bytes: varints and decimals' unscaled part minimal, a decimal
// with at least one unscaled byte, NaN only as the canonical quiet NaN, sets
// and maps sorted and duplicate-free. Every such value is what some literal
// parses to, so ValidateValue(v) implies the round trip above.
Status ValidateValue(const CqlType& type, std::string_view value);

// `text` single-quoted for error messages: at most 64 bytes, then "...", non-printable as \xNN.
std::string QuoteForMessage(std::string_view text);

}  // namespace cellfs
