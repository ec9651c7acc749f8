// Element suffixes: the file-face spelling of CQL's element operations on a
// non-frozen collection or UDT column (docs/FILESYSTEM.md "Collections"):
//   col@remove       write: s = s - {…} (set), m = m - {k…} (map keys),
//                    l = l - […] (every list element equal to one given)
//   col@prepend      write: l = […] + l
//   col@key=K        write: m[K] = v;   rm: DELETE m[K]
//   col@index=N      write: l[N] = v;   rm: DELETE l[N]
//   col@field=F      write: u.F = v;    rm: u.F = null
// K is spelled as a key name of the map's key type (fs/formats/key_name.h,
// escaped the same way); N a canonical unsigned decimal; F a field name.
// Write suffixes (@ttl=, @timestamp=) may follow: `m@key=k@ttl=60`.
// Pure functions: thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs::fs {

struct ElementEdit {
  enum class Kind : uint8_t { kRemove, kPrepend, kKey, kIndex, kField };
  Kind kind = Kind::kRemove;
  std::string key;     // kKey: the serialized map key; kField: the field name
  uint64_t index = 0;  // kIndex
  // The type a value written to this suffix's file takes: a set of
  // elements or keys (kRemove on a set or map), the list (kRemove,
  // kPrepend on a list), the map's value type, the list's element type, or
  // the field's type. Set by ParseElementEdit.
  TypePtr value_type;
};

// Splits `name` ("tags@remove", "m@key=k") at its first '@' after position
// 0 into the column name and the suffix. False when `name` has no such '@'
// or what follows it is not an element keyword (then it is no element
// name); the suffix may still be invalid for the column (ParseElementEdit).
bool SplitElementSuffix(std::string_view name, std::string_view* column, std::string_view* suffix);

// The edit `suffix` (from SplitElementSuffix) means on a column of type
// `type`. InvalidArgument naming the problem: a column that is not a
// non-frozen collection or UDT, an operation its type does not have
// (@prepend on a set, @key= on a list...), a key that does not parse for
// the map's key type, an index that is not a canonical number, an unknown
// field.
Status ParseElementEdit(const CqlType& type, std::string_view suffix, ElementEdit* out);

}  // namespace cellfs::fs
