// Key-codec bodies for the arbitrary-precision numbers, varint and decimal:
// numeric order across lengths and scales, 1.0 and 1.00 encoding alike.
// Grammar in docs/FORMAT.md ("varint body", "decimal body"). Internal to engine/.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/internal/key_reader.h"
#include "engine/status.h"

namespace cellfs {

// Appends the ascending body of a varint given as two's-complement
// big-endian bytes of any non-zero length (non-minimal input is fine).
void AppendVarintKeyBody(std::string_view twos_complement, std::string* out);

// Reads a varint body; writes the minimal two's-complement bytes to `*value`.
Status ReadVarintKeyBody(KeyReader* in, std::string* value);

// Appends the ascending body of a decimal serialization (int32 BE scale,
// then the unscaled varint).
void AppendDecimalKeyBody(std::string_view serialized, std::string* out);

// Reads a decimal body; writes the normalised serialization to `*value`:
// trailing zeros stripped from the unscaled part (1.50 -> 15 scale 1; zero is
// 0 scale 0), except where the scale would fall below INT32_MIN.
Status ReadDecimalKeyBody(KeyReader* in, std::string* value);

}  // namespace cellfs
