// The framing of list, set, map, tuple and UDT values in Cassandra's native
// protocol (v4+), and the canonical element order of sets and maps. Public:
// fs/ reads and writes collection values with it. Pure functions: thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs {

// list and set: [int32 n] then n x ([int32 length][bytes]).
// map: [int32 n] then n x (key, value), each framed the same way.
// All int32s are big-endian; collection elements are never null.
//
// `items` holds the elements, or keys and values alternating (2 per entry).
// REQUIRES: items.size() is a multiple of items_per_entry.
std::string PackCollection(const std::vector<std::string>& items, size_t items_per_entry);

// Splits a list/set (items_per_entry 1) or map (2) value into views of
// `value`. InvalidArgument for a truncated or negative count or length, a
// null element, or bytes after the last element.
Status UnpackCollection(std::string_view value, size_t items_per_entry,
                        std::vector<std::string_view>* items);

// tuple and UDT: one ([int32 length][bytes]) per component, length -1 for
// null, no count. A value may hold fewer components than its type (Cassandra
// allows it: fields added by ALTER TYPE), never more.
std::string PackComponents(const std::vector<std::optional<std::string>>& components);

// Splits a tuple/UDT value into views of `value` (nullopt for null).
// InvalidArgument for a truncated length, a length below -1, or more than
// `max_components` components.
Status UnpackComponents(std::string_view value, size_t max_components,
                        std::vector<std::optional<std::string_view>>* components);

// Set elements and map keys are kept in Cassandra's order for their type,
// without duplicates. The order is the memcmp order of the key codec's
// ascending encoding (engine/cql/key_codec.h); for a type that cannot be a key
// (never the case for a valid schema) it is the order of the raw bytes.

// Sorts set elements, keeping the first of equal elements (as Cassandra's
// literal evaluation does). REQUIRES: each element is a valid value.
void CanonicalizeSet(const CqlType& element_type, std::vector<std::string>* elements);

// Sorts map entries (keys and values alternating) by key. Of equal keys the
// first key's bytes stay, with the last value (Cassandra's TreeMap.put).
// REQUIRES: each key is a valid value.
void CanonicalizeMap(const CqlType& key_type, std::vector<std::string>* items);

// Ok when items[0], items[stride], items[2*stride], ... are strictly
// increasing in `type`'s order; otherwise InvalidArgument naming the first
// entry out of order or duplicated. REQUIRES: each of them is a valid value.
Status CheckCanonicalOrder(const CqlType& type, const std::vector<std::string_view>& items,
                           size_t stride);

}  // namespace cellfs
