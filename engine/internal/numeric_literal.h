// Text <-> serialized bytes for the numeric CQL types: tinyint, smallint,
// int, bigint, counter, varint, float, double, decimal. Internal to engine/;
// literal.cc dispatches here.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql_type.h"
#include "engine/status.h"

namespace cellfs {

// kind: kTinyint, kSmallint, kInt, kBigint, kCounter or kVarint. Accepts an
// optional sign and decimal digits; out-of-range values are InvalidArgument
// ("value 300 is out of range for tinyint").
Status ParseIntegerLiteral(TypeKind kind, std::string_view text, std::string* out);
// REQUIRES: bytes is a valid serialization for kind.
std::string FormatIntegerLiteral(TypeKind kind, std::string_view bytes);

// kind: kFloat or kDouble. Decimal and exponent forms, NaN, Infinity,
// -Infinity (CQL spellings). Finite values out of range are an error.
Status ParseFloatingLiteral(TypeKind kind, std::string_view text, std::string* out);
// Shortest text that parses back to the same bits ("0.1", "1e+20", "NaN").
std::string FormatFloatingLiteral(TypeKind kind, std::string_view bytes);

// decimal: [sign]digits[.digits][(e|E)[sign]digits]; scale is preserved
// (1.50 stays 1.50). Serialized as int32 scale + varint unscaled value.
Status ParseDecimalLiteral(std::string_view text, std::string* out);
// Java BigDecimal.toString() form: exact, scale-preserving.
std::string FormatDecimalLiteral(std::string_view bytes);

}  // namespace cellfs
