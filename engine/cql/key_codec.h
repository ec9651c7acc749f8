// The order-preserving, self-delimiting key encoding (docs/FORMAT.md, "Key
// components"): memcmp order of encodings equals Cassandra's comparison of
// the values, per column ASC or DESC. Composite keys are concatenations.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs {

enum class SortOrder : uint8_t { kAsc, kDesc };

// Appends the encoding of `value` (serialized bytes; empty means Cassandra's
// empty value, which sorts before every other value) to `*out`. Values that
// Cassandra ranks equal encode identically (1.0 and 1.00; a set in any
// element order; a tuple with or without trailing nulls).
// REQUIRES: type.CheckKeyCapable().ok() and ValidateValue(type, value).ok().
// An invalid value still yields a decodable encoding and never reads out of
// bounds, but which one is unspecified.
void EncodeKeyComponent(const CqlType& type, std::string_view value, SortOrder order,
                        std::string* out);

// Decodes one component from the front of `*in`, advancing `*in` past it,
// and writes the serialized value to `*value`. Decoding yields the value
// back in its canonical form (docs/FORMAT.md): decimals normalised (1.50 ->
// 15 scale 1), varints minimal, booleans 0/1, NaN canonical, sets and maps
// sorted, tuples without trailing nulls. Corruption, naming the type and the
// problem, when `*in` does not start with an encoding EncodeKeyComponent
// could have written; `*in` and `*value` are then unspecified.
Status DecodeKeyComponent(const CqlType& type, SortOrder order, std::string_view* in,
                          std::string* value);

// A byte string greater than every encoding that starts with `prefix`
// (a whole number of components) and less than everything greater than all
// of them: prefix + 0xFF. Used for exclusive-after and inclusive-through
// prefix bounds.
std::string PrefixSuccessor(std::string_view prefix);

}  // namespace cellfs
