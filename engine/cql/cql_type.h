// CqlType: a resolved CQL data type (native, collection, tuple or user-defined),
// as the schema records it and the value and key codecs consume it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"

namespace cellfs {

enum class TypeKind : uint8_t {
  // Native types. varchar is an alias of text and never appears here.
  kAscii,
  kBigint,
  kBlob,
  kBoolean,
  kCounter,
  kDate,
  kDecimal,
  kDouble,
  kDuration,
  kFloat,
  kInet,
  kInt,
  kSmallint,
  kText,
  kTime,
  kTimestamp,
  kTimeuuid,
  kTinyint,
  kUuid,
  kVarint,
  // Parameterised types.
  kList,   // params: {element}
  kSet,    // params: {element}
  kMap,    // params: {key, value}
  kTuple,  // params: the components; always frozen
  kUdt,    // params: the field types, in field order; field_names() alongside
};

class CqlType;
using TypePtr = std::shared_ptr<const CqlType>;

// The serialized width of a fixed-width native kind (tinyint: 1, int: 4,
// uuid: 16, ...); 0 for variable-width kinds and collections.
int FixedWidthOf(TypeKind kind);

// An immutable type tree. Instances are shared freely between threads.
//
// Frozenness follows Cassandra: tuples are always frozen; everything nested
// inside a frozen type is frozen; a collection nested in a non-frozen
// collection must be frozen (the constructors do not check that rule; the
// schema validator does, so it can report it with a position).
class CqlType {
 public:
  // The shared instance for a native kind. REQUIRES: kind is native.
  static TypePtr Native(TypeKind kind);
  static TypePtr List(TypePtr element, bool frozen);
  static TypePtr Set(TypePtr element, bool frozen);
  static TypePtr Map(TypePtr key, TypePtr value, bool frozen);
  static TypePtr Tuple(std::vector<TypePtr> components);
  // REQUIRES: field_names.size() == field_types.size()
  static TypePtr Udt(std::string keyspace, std::string name, std::vector<std::string> field_names,
                     std::vector<TypePtr> field_types, bool frozen);

  // The native type named `name` (already lower-cased; "varchar" gives text),
  // or nullptr when `name` is not a native type.
  static TypePtr NativeByName(std::string_view name);

  TypeKind kind() const { return kind_; }
  bool frozen() const { return frozen_; }
  bool is_native() const { return kind_ < TypeKind::kList; }
  bool is_collection() const {
    return kind_ == TypeKind::kList || kind_ == TypeKind::kSet || kind_ == TypeKind::kMap;
  }
  // True for non-frozen collections and UDTs: values Cassandra stores as
  // several cells, one per element; so does cellfs (docs/FORMAT.md "Element cells").
  bool is_multi_cell() const { return !frozen_ && (is_collection() || kind_ == TypeKind::kUdt); }

  const std::vector<TypePtr>& params() const { return params_; }
  const std::vector<std::string>& field_names() const { return field_names_; }
  const std::string& udt_keyspace() const { return udt_keyspace_; }
  const std::string& udt_name() const { return udt_name_; }

  // Levels of nesting: 1 for a native type, else 1 + the deepest parameter
  // (user types' fields included). Recursive code over values of the type
  // recurses about this deep; the catalog caps it.
  int depth() const { return depth_; }

  // This type with frozen set, recursively (what a frozen<...> wrapper means).
  TypePtr AsFrozen() const;

  // The CQL spelling: "int", "map<text, frozen<address>>", "frozen<list<int>>",
  // "tuple<int, text>". UDTs print by name only (quoted when needed).
  std::string ToCql() const;

  // Structural equality (UDTs compare by keyspace, name, fields and frozenness).
  bool Equals(const CqlType& other) const;

  // Ok when a value of this type may be part of a primary key; otherwise an
  // InvalidArgument naming the offending (sub)type, as Cassandra words it.
  Status CheckKeyCapable() const;

  // True when values of this type have a fixed serialized width (int: 4).
  // Returns 0 for variable-width types.
  int FixedWidth() const { return FixedWidthOf(kind_); }

 private:
  CqlType(TypeKind kind, bool frozen) : kind_(kind), frozen_(frozen) {}

  TypeKind kind_;
  bool frozen_;
  int depth_ = 1;
  std::vector<TypePtr> params_;
  std::vector<std::string> field_names_;
  std::string udt_keyspace_;
  std::string udt_name_;
};

// The CQL name of a native kind ("int", "text", ...). REQUIRES: kind is native.
std::string_view NativeTypeName(TypeKind kind);

}  // namespace cellfs
