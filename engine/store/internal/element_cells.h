// Element cells: how a non-frozen collection or UDT (a multi-cell column)
// is stored, as Cassandra stores it, one cell per element, and how a
// reader assembles its live elements back into the column's value.
// Byte format: docs/FORMAT.md, "Element cells".
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/status.h"
#include "engine/store/row_fragment.h"

namespace cellfs::storage {

// The path of a set element or a map key: its ascending key encoding, so
// paths sort in Cassandra's element order. REQUIRES: a valid value.
std::string KeyElementPath(const CqlType& key_type, std::string_view element);

// The path of field `index` of a UDT: u16 big-endian, as Cassandra's.
std::string FieldPath(size_t index);

// The path of a list element: u64(time * 1024 + nudge, XOR 2^63) || u64
// order, so elements sort by time (microseconds), then nudge, then order.
// Appends take the mutation's server time, nudge 0 and increasing orders;
// the k-th prepend of a mutation a time mirrored before 2010-01-01
// (PrependTime, so a later prepend sorts first, as in Cassandra), nudge -k
// and increasing orders; a whole list stored before element cells existed
// kLegacyListTime, nudge kLegacyListNudge, orders 0..n-1: after every
// prepend, before every append. REQUIRES: -512 <= nudge < 512.
std::string ListElementPath(int64_t time, uint64_t order, int32_t nudge = 0);

// The time a prepend made at `now` (microseconds) gives its elements:
// 2010-01-01 - (now - 2010-01-01), Cassandra's mirror for list prepends.
int64_t PrependTime(int64_t now);

// Where the elements of a list stored whole before element cells existed
// sort (ListElementPath): 2010-01-01, nudged past the prepends made then.
inline constexpr int64_t kLegacyListTime = 1'262'304'000'000'000;
inline constexpr int32_t kLegacyListNudge = 256;

// One element of a whole value: its path and the cell value it stores
// (a set element stores nothing; its path is the element).
struct ElementValue {
  std::string path;
  std::string value;
};

// Splits `value`, a whole serialized value of the multi-cell type `type`,
// into its elements with their paths, in path order. Lists take
// ListElementPath(list_time, list_order + i, list_nudge) for element i. Duplicate set
// elements and map keys (equal by the type's order) keep the first element,
// and for maps the last value, as Cassandra's literal does; null UDT fields
// store nothing. InvalidArgument for a value that does not split.
Status SplitIntoElements(const CqlType& type, std::string_view value, int64_t list_time,
                         uint64_t list_order, std::vector<ElementValue>* elements,
                         int32_t list_nudge = 0);

// The visible elements of one multi-cell column of a merged row, with
// their paths and cells, in path order: live at `now` and not shadowed by
// `deletion`. `run` as for AssembleElements; its cells are moved from.
Status VisibleElements(const CqlType& type, std::span<RowCell> run,
                       const std::optional<RowDeletion>& deletion, int64_t now,
                       std::vector<RowCell>* visible);

// Assembles the live elements of one multi-cell column of a merged row.
// `run` holds that column's cells (its empty-path cell first, if any, then
// element cells by path), as MergeRowFragmentInto leaves them; `deletion`
// is the row's effective deletion (row, range or partition). A whole value
// stored before element cells existed (a regular empty-path cell) is read
// as its elements at its write time. The result is one cell with an empty
// path holding the live elements packed as the type's serialized value
// (a UDT with every field, nulls included), the newest element write time,
// and the TTL and expiry of the element that expires first; nullopt when no
// element is live (an empty non-frozen collection is null). Corruption for
// a path that does not decode.
Status AssembleElements(const CqlType& type, std::span<RowCell> run,
                        const std::optional<RowDeletion>& deletion, int64_t now,
                        std::optional<RowCell>* assembled);

}  // namespace cellfs::storage
