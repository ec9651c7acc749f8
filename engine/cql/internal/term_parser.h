// Parses one CQL term (a literal as written inside a statement or a
// collection: 'quoted text', 42, 0xff, [..], {..}, (..), null) of a given
// type from a lexer. Internal to engine/; shared by ParseLiteral and the
// statement parser.
#pragma once

#include <string>

#include "engine/cql/cql_type.h"
#include "engine/cql/internal/cql_lexer.h"
#include "engine/status.h"

namespace cellfs {

// Consumes exactly one term from `lexer` and writes the serialized value to
// `*out`. `*is_null` (when non-null) is set for the literal `null` (any
// case), which is otherwise an error; `*out` is then empty. Errors are
// InvalidArgument starting with the offending token's position ("line 1:5:").
//
// Which tokens spell a value of each native type:
//  - 'string' (or $$string$$): text, ascii, inet, timestamp, date, time, and
//    also uuid, timeuuid and duration (their text forms);
//  - integer: the integer kinds, float, double, decimal, timestamp (ms),
//    date (raw day number), time (ns); float token: float, double, decimal;
//  - NaN, Infinity, -Infinity (any case): float and double;
//  - 0x hex blob: blob; uuid token: uuid and timeuuid; true/false: boolean;
//  - duration: unit tokens (1h30m, -2d) or unquoted ISO 8601 (P1DT2H, -P2W,
//    P0001-02-03T04:05:06);
//  - blobas<type>(0x...) (blobAsInt(0x0000002a)): any native type, checked
//    for it; the one spelling of the empty value of most of them.
// Collections, tuples and UDTs as described at ParseLiteral
// (engine/cql/literal.h); recursion follows the type, so input cannot nest
// deeper than the type does.
Status ParseTerm(const CqlType& type, CqlLexer& lexer, std::string* out, bool* is_null = nullptr);

}  // namespace cellfs
