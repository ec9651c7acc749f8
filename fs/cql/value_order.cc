// CompareValues through the order-preserving key encoding
// (engine/cql/key_codec.h), whose byte order is Cassandra's value order.
#include "fs/cql/value_order.h"

#include <cstdint>
#include <string>

#include "engine/cql/key_codec.h"

namespace cellfs::fs {
namespace {

bool HoldsDuration(const CqlType& type) {
  if (type.kind() == TypeKind::kDuration) return true;
  for (const TypePtr& param : type.params()) {
    if (HoldsDuration(*param)) return true;
  }
  return false;
}

int64_t CounterValue(std::string_view bytes) {
  uint64_t bits = 0;
  for (char c : bytes) bits = (bits << 8) | static_cast<unsigned char>(c);
  return static_cast<int64_t>(bits);
}

}  // namespace

int CompareValues(const CqlType& type, std::string_view a, std::string_view b) {
  if (type.kind() == TypeKind::kCounter) {
    const int64_t x = CounterValue(a), y = CounterValue(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (HoldsDuration(type)) return a.compare(b);
  const TypePtr frozen = type.is_multi_cell() ? type.AsFrozen() : nullptr;
  const CqlType& ordered = frozen ? *frozen : type;
  std::string ea, eb;
  EncodeKeyComponent(ordered, a, SortOrder::kAsc, &ea);
  EncodeKeyComponent(ordered, b, SortOrder::kAsc, &eb);
  return ea.compare(eb);
}

bool OrderSatisfies(SelectRelation::Op op, int order) {
  using Op = SelectRelation::Op;
  switch (op) {
    case Op::kEq:
    case Op::kIn:
      return order == 0;
    case Op::kNe:
      return order != 0;
    case Op::kLt:
      return order < 0;
    case Op::kLe:
      return order <= 0;
    case Op::kGt:
      return order > 0;
    case Op::kGe:
      return order >= 0;
    case Op::kContains:
    case Op::kContainsKey:
    case Op::kLike:
      break;
  }
  return false;
}

}  // namespace cellfs::fs
