// Text <-> serialized bytes for the numeric CQL types: tinyint, smallint,
// int, bigint, counter, varint, float, double, decimal. Internal to engine/;
// literal.cc dispatches here. Every Parse* leaves *out untouched on error and
// returns InvalidArgument whose message quotes the input and names the type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs {

// kind: kTinyint, kSmallint, kInt, kBigint, kCounter or kVarint. Accepts an
// optional sign and decimal digits (leading zeros fine; no spaces, no hex);
// out-of-range values are InvalidArgument
// ("value 300 is out of range for tinyint (-128..127)").
// Output: big-endian two's complement of the type's width (1/2/4/8 bytes);
// varint: the minimal two's-complement bytes.
Status ParseIntegerLiteral(TypeKind kind, std::string_view text, std::string* out);
// Decimal digits, '-' for negatives. REQUIRES: ValidateNumericValue(kind, bytes).
std::string FormatIntegerLiteral(TypeKind kind, std::string_view bytes);

// kind: kFloat or kDouble. [sign](digits[.digits]|.digits)[(e|E)[sign]digits],
// "NaN", "Infinity", "+Infinity", "-Infinity" (NaN/Infinity in any case;
// NaN takes no sign). Rounds to nearest. A finite value too large for the
// type is an error, not Infinity; one too small rounds to a signed zero, as
// Java's parseFloat does. NaN is stored as the canonical quiet NaN.
Status ParseFloatingLiteral(TypeKind kind, std::string_view text, std::string* out);
// Shortest text that parses back to the same bits ("0.1", "1e+20", "-0",
// "NaN", "Infinity"); every NaN prints "NaN". REQUIRES: right width.
std::string FormatFloatingLiteral(TypeKind kind, std::string_view bytes);

// decimal: [sign](digits[.digits]|.digits)[(e|E)[sign]digits]; scale is
// preserved (1.50 stays 1.50; 1E+3 has scale -3; -0.00 is 0 with scale 2).
// Serialized as int32 big-endian scale + varint unscaled value. A scale
// outside int32 is an error.
Status ParseDecimalLiteral(std::string_view text, std::string* out);
// Java BigDecimal.toPlainString() form, which Cassandra's DecimalSerializer
// prints: exact, no exponent ("10" for 1E+1, "0.0000001" for 1E-7, "123.4500"
// keeps its scale; zero with a negative scale is "0"). A scale outside
// +-kMaxPlainScale would print hundreds of digits (1E+2147483647): such
// values print in BigDecimal.toString() form instead ("1.5E+400").
// Parsing the text gives back the same number; a negative scale comes back
// as scale 0. REQUIRES: at least 4 bytes.
inline constexpr int32_t kMaxPlainScale = 100;
std::string FormatDecimalLiteral(std::string_view bytes);

// Ok when `bytes` is a well-formed non-empty serialization of the numeric
// `kind` (exact width for fixed-width kinds; a non-empty varint; at least the
// 4 scale bytes for decimal). Non-minimal varints are well-formed, as in
// Cassandra, though they format to the same text as the minimal form.
// Otherwise InvalidArgument naming the type and the length.
Status ValidateNumericValue(TypeKind kind, std::string_view bytes);

}  // namespace cellfs
