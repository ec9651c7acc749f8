// The order-preserving, self-delimiting key encoding (docs/FORMAT.md, "Key
// components"): memcmp order of encodings equals Cassandra's comparison of
// the values, per column ASC or DESC. Composite keys are concatenations.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql_type.h"
#include "engine/status.h"

namespace cellfs {

enum class SortOrder : uint8_t { kAsc, kDesc };

// Appends the encoding of `value` (serialized bytes; empty means Cassandra's
// empty value, which sorts before every other value) to `*out`.
// REQUIRES: type.CheckKeyCapable().ok() and ValidateValue(type, value).ok().
void EncodeKeyComponent(const CqlType& type, std::string_view value, SortOrder order,
                        std::string* out);

// Decodes one component from the front of `*in`, advancing `*in` past it,
// and writes the serialized value to `*value`. Decoding yields the value
// back, except that decimals come back normalised (1.50 -> 1.5; see
// docs/FORMAT.md). Corruption when `*in` does not start with a well-formed
// encoding; `*in` is then unspecified.
Status DecodeKeyComponent(const CqlType& type, SortOrder order, std::string_view* in,
                          std::string* value);

// A byte string greater than every encoding that starts with `prefix`
// (a whole number of components) and less than everything greater than all
// of them: prefix + 0xFF. Used for exclusive-after and inclusive-through
// prefix bounds.
std::string PrefixSuccessor(std::string_view prefix);

}  // namespace cellfs
