// Literal values: parsing every text spelling CQL accepts for a type into the
// value's serialized bytes, and printing the canonical text of DESIGN.md
// section 2. Values everywhere in cellfs are held in Cassandra's native
// protocol serialization (docs/FORMAT.md, "Values").
#pragma once

#include <string>
#include <string_view>

#include "engine/cql_type.h"
#include "engine/status.h"

namespace cellfs {

// Parses `text`, the bare (unquoted) spelling of a value of `type` as a file
// holds it or a directory name carries it, into its serialized bytes.
//  - text/varchar: any valid UTF-8, taken as is; ascii: bytes < 0x80.
//  - integers: optional sign and decimal digits; overflow is an error.
//  - timestamp: milliseconds since the epoch, or ISO-8601 / CQL date-time
//    text (no zone means UTC); date: yyyy-mm-dd or the raw unsigned day
//    number; time: HH:MM:SS[.fffffffff] or nanoseconds.
//  - collections, tuples and UDTs: their CQL literal ([..], {..}, (..)),
//    with quoted elements where CQL quotes them.
// On failure returns InvalidArgument naming the type and the problem;
// never a silent coercion.
Result<std::string> ParseLiteral(const CqlType& type, std::string_view text);

// The canonical text of a serialized value: what listings and reads show.
// ParseLiteral(type, FormatLiteral(type, v)) yields v back for every valid v
// (decimal keys aside, see docs/FORMAT.md). REQUIRES: ValidateValue(type, v).
std::string FormatLiteral(const CqlType& type, std::string_view value);

// The value as a CQL term, quoted where CQL requires it ('text',
// '2018-07-23T11:04:22.432Z', 42, 0xff, [1, 2]); used inside collection
// literals and generated statements. REQUIRES: ValidateValue(type, v).
std::string FormatTerm(const CqlType& type, std::string_view value);

// Ok when `value` is a well-formed serialization for `type` (right width,
// valid UTF-8, well-formed collection framing, ...). An empty value is
// well-formed for every type (Cassandra's "empty" value).
Status ValidateValue(const CqlType& type, std::string_view value);

}  // namespace cellfs
