// Conversions between decimal digit strings and the two's-complement,
// big-endian, minimal-length bytes that CQL varint (and decimal's unscaled
// part) serialize to. Backed by GMP. Internal to engine/.
#pragma once

#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs {

// Parses an optionally signed ("-" or "+") run of decimal digits of any
// length into minimal two's-complement big-endian bytes (0 -> "\x00").
// InvalidArgument when `text` is not exactly that.
Status DecimalDigitsToVarint(std::string_view text, std::string* out);

// The decimal text of a two's-complement big-endian integer ("-123").
// Empty input reads as 0.
std::string VarintToDecimalDigits(std::string_view bytes);

// The minimal two's-complement big-endian bytes of `value`.
std::string Int64ToVarint(int64_t value);

}  // namespace cellfs
