// Text <-> serialized bytes for every native CQL type: text, ascii, blob,
// boolean, uuid, timeuuid and inet here; the numeric kinds are handed to
// numeric_literal.h, timestamp, date and time to temporal_literal.h and
// duration to duration_literal.h. Internal to engine/.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/cql/literal.h"  // QuoteForMessage, defined in native_literal.cc
#include "engine/status.h"

namespace cellfs {

// Parses the bare spelling of a native value (see ParseLiteral in
// engine/cql/literal.h). "" is the empty value for text and ascii and an error
// ("empty value for int") for every other kind. On error *out is unspecified.
Status ParseNativeLiteral(TypeKind kind, std::string_view text, std::string* out);

// The canonical text (DESIGN.md section 2). The empty value prints as "" for
// every kind except blob, whose empty value is "0x".
// REQUIRES: ValidateNativeValue(kind, bytes).ok()
std::string FormatNativeLiteral(TypeKind kind, std::string_view bytes);

// The value as a CQL term: single-quoted (quotes doubled) for text, ascii,
// inet, timestamp, date and time; bare otherwise. The empty value of a kind
// other than text, ascii and blob has no literal, so it prints as the
// conversion function call CQL offers for it: blobasint(0x).
// REQUIRES: ValidateNativeValue(kind, bytes).ok()
std::string FormatNativeTerm(TypeKind kind, std::string_view bytes);

// Ok when `bytes` is empty or exactly what ParseNativeLiteral produces for
// some text, so that formatting and parsing again gives `bytes` back. That
// is stricter than Cassandra in three corners, all unreachable through a
// literal: varints (and decimals' unscaled part) must be minimal two's
// complement, a decimal needs at least one unscaled byte, and a float or
// double NaN must be the canonical quiet NaN.
Status ValidateNativeValue(TypeKind kind, std::string_view bytes);

}  // namespace cellfs
