// CqlType construction, naming, equality and the key-capability rule.
#include "engine/cql/cql_type.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "engine/cql/cql_identifier.h"

namespace cellfs {
namespace {

struct NativeName {
  TypeKind kind;
  std::string_view name;
};

constexpr std::array<NativeName, 20> kNativeNames = {{
    {TypeKind::kAscii, "ascii"},       {TypeKind::kBigint, "bigint"},
    {TypeKind::kBlob, "blob"},         {TypeKind::kBoolean, "boolean"},
    {TypeKind::kCounter, "counter"},   {TypeKind::kDate, "date"},
    {TypeKind::kDecimal, "decimal"},   {TypeKind::kDouble, "double"},
    {TypeKind::kDuration, "duration"}, {TypeKind::kFloat, "float"},
    {TypeKind::kInet, "inet"},         {TypeKind::kInt, "int"},
    {TypeKind::kSmallint, "smallint"}, {TypeKind::kText, "text"},
    {TypeKind::kTime, "time"},         {TypeKind::kTimestamp, "timestamp"},
    {TypeKind::kTimeuuid, "timeuuid"}, {TypeKind::kTinyint, "tinyint"},
    {TypeKind::kUuid, "uuid"},         {TypeKind::kVarint, "varint"},
}};

// `type` frozen. A frozen type is frozen all the way down (the factories
// below freeze what they wrap), so it is shared rather than rebuilt: deep
// copies would make every use of a nested UDT cost its whole tree.
TypePtr Frozen(TypePtr type) {
  return type->is_native() || type->frozen() ? type : type->AsFrozen();
}

}  // namespace

std::string_view NativeTypeName(TypeKind kind) {
  for (const auto& n : kNativeNames) {
    if (n.kind == kind) return n.name;
  }
  assert(false && "not a native kind");
  return "?";
}

TypePtr CqlType::Native(TypeKind kind) {
  // One shared, immortal instance per native kind.
  static const std::array<TypePtr, kNativeNames.size()> instances = [] {
    std::array<TypePtr, kNativeNames.size()> a;
    for (size_t i = 0; i < kNativeNames.size(); ++i) {
      a[i] = TypePtr(new CqlType(static_cast<TypeKind>(i), false));
    }
    return a;
  }();
  assert(static_cast<size_t>(kind) < instances.size());
  return instances[static_cast<size_t>(kind)];
}

TypePtr CqlType::NativeByName(std::string_view name) {
  if (name == "varchar") return Native(TypeKind::kText);
  for (const auto& n : kNativeNames) {
    if (n.name == name) return Native(n.kind);
  }
  return nullptr;
}

TypePtr CqlType::List(TypePtr element, bool frozen) {
  auto* t = new CqlType(TypeKind::kList, frozen);
  t->params_ = {frozen ? Frozen(std::move(element)) : std::move(element)};
  t->depth_ = 1 + t->params_[0]->depth_;
  return TypePtr(t);
}

TypePtr CqlType::Set(TypePtr element, bool frozen) {
  auto* t = new CqlType(TypeKind::kSet, frozen);
  t->params_ = {frozen ? Frozen(std::move(element)) : std::move(element)};
  t->depth_ = 1 + t->params_[0]->depth_;
  return TypePtr(t);
}

TypePtr CqlType::Map(TypePtr key, TypePtr value, bool frozen) {
  auto* t = new CqlType(TypeKind::kMap, frozen);
  if (frozen) {
    t->params_ = {Frozen(std::move(key)), Frozen(std::move(value))};
  } else {
    t->params_ = {std::move(key), std::move(value)};
  }
  t->depth_ = 1 + std::max(t->params_[0]->depth_, t->params_[1]->depth_);
  return TypePtr(t);
}

TypePtr CqlType::Tuple(std::vector<TypePtr> components) {
  auto* t = new CqlType(TypeKind::kTuple, true);
  for (auto& c : components) {
    t->params_.push_back(Frozen(std::move(c)));
    t->depth_ = std::max(t->depth_, 1 + t->params_.back()->depth_);
  }
  return TypePtr(t);
}

TypePtr CqlType::Udt(std::string keyspace, std::string name, std::vector<std::string> field_names,
                     std::vector<TypePtr> field_types, bool frozen) {
  assert(field_names.size() == field_types.size());
  auto* t = new CqlType(TypeKind::kUdt, frozen);
  t->udt_keyspace_ = std::move(keyspace);
  t->udt_name_ = std::move(name);
  t->field_names_ = std::move(field_names);
  // Fields of a UDT are themselves frozen when they are collections or UDTs
  // (Cassandra requires frozen<> for nested UDTs; collections in a UDT are
  // stored whole).
  for (auto& f : field_types) {
    t->params_.push_back(Frozen(std::move(f)));
    t->depth_ = std::max(t->depth_, 1 + t->params_.back()->depth_);
  }
  return TypePtr(t);
}

TypePtr CqlType::AsFrozen() const {
  if (is_native()) return Native(kind_);
  switch (kind_) {
    case TypeKind::kList:
      return List(params_[0], true);
    case TypeKind::kSet:
      return Set(params_[0], true);
    case TypeKind::kMap:
      return Map(params_[0], params_[1], true);
    case TypeKind::kTuple:
      return Tuple(params_);
    case TypeKind::kUdt:
      return Udt(udt_keyspace_, udt_name_, field_names_, params_, true);
    default:
      break;
  }
  assert(false);
  return nullptr;
}

std::string CqlType::ToCql() const {
  if (is_native()) return std::string(NativeTypeName(kind_));
  std::string inner;
  switch (kind_) {
    case TypeKind::kList:
      inner = "list<" + params_[0]->ToCql() + ">";
      break;
    case TypeKind::kSet:
      inner = "set<" + params_[0]->ToCql() + ">";
      break;
    case TypeKind::kMap:
      inner = "map<" + params_[0]->ToCql() + ", " + params_[1]->ToCql() + ">";
      break;
    case TypeKind::kTuple: {
      inner = "tuple<";
      for (size_t i = 0; i < params_.size(); ++i) {
        if (i > 0) inner += ", ";
        inner += params_[i]->ToCql();
      }
      inner += ">";
      return inner;  // tuples are implicitly frozen; never wrapped
    }
    case TypeKind::kUdt:
      inner = QuoteIdentifier(udt_name_);
      break;
    default:
      assert(false);
  }
  return frozen_ ? "frozen<" + inner + ">" : inner;
}

bool CqlType::Equals(const CqlType& other) const {
  if (kind_ != other.kind_ || frozen_ != other.frozen_) return false;
  if (udt_keyspace_ != other.udt_keyspace_ || udt_name_ != other.udt_name_) return false;
  if (field_names_ != other.field_names_ || params_.size() != other.params_.size()) return false;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i]->Equals(*other.params_[i])) return false;
  }
  return true;
}

Status CqlType::CheckKeyCapable() const {
  if (kind_ == TypeKind::kCounter) {
    return Status::InvalidArgument("counter type is not supported for PRIMARY KEY columns");
  }
  if (kind_ == TypeKind::kDuration) {
    return Status::InvalidArgument("duration type is not supported for PRIMARY KEY columns");
  }
  if (is_multi_cell()) {
    return Status::InvalidArgument("invalid non-frozen " + ToCql() +
                                   " in a PRIMARY KEY column; use frozen<" + ToCql() + ">");
  }
  for (const auto& p : params_) {
    // duration may sit inside a frozen list or tuple in Cassandra, but not
    // in a key; counters never nest. Recurse for the same wording.
    CELLFS_RETURN_IF_ERROR(p->CheckKeyCapable());
  }
  return Status::Ok();
}

int FixedWidthOf(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
    case TypeKind::kBoolean:
      return 1;
    case TypeKind::kSmallint:
      return 2;
    case TypeKind::kInt:
    case TypeKind::kFloat:
    case TypeKind::kDate:
      return 4;
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kDouble:
    case TypeKind::kTimestamp:
    case TypeKind::kTime:
      return 8;
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return 16;
    default:
      return 0;
  }
}

}  // namespace cellfs
