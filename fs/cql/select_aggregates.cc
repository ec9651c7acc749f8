// count(c), min, max, sum and avg: their signatures, Cassandra's refusal,
// and the running state each keeps.
#include "fs/cql/select_aggregates.h"

#include <algorithm>
#include <array>

#include "engine/cql/big_endian.h"
#include "fs/cql/value_order.h"

namespace cellfs::fs {
namespace {

using Kind = AggregateFunction::Kind;

bool Summable(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kDecimal:
    case TypeKind::kVarint:
    case TypeKind::kCounter:
      return true;
    default:
      return false;
  }
}

// "known type signatures" as Cassandra lists them: in the order
// AggregateFcts.all() registers the overloads (sum and avg in their own
// order; count, min and max over CQL3Type.Native's values, varchar left out).
std::string KnownSignatures(std::string_view name) {
  static constexpr std::array<std::string_view, 9> kSummable = {
      "tinyint", "smallint", "int", "bigint", "float", "double", "decimal", "varint", "counter"};
  static constexpr std::array<std::string_view, 21> kNative = {
      "ascii",  "bigint",   "blob",      "boolean",  "counter", "date", "decimal",
      "double", "duration", "empty",     "float",    "inet",    "int",  "smallint",
      "text",   "time",     "timestamp", "timeuuid", "tinyint", "uuid", "varint"};
  const bool numeric = name == "sum" || name == "avg";
  std::string known;
  auto add = [&](std::string_view type) {
    const std::string_view result = name == "count" ? "bigint" : type;
    known += (known.empty() ? "" : ", ") + std::string("system.") + std::string(name) + " : (" +
             std::string(type) + ") -> " + std::string(result);
  };
  if (numeric) {
    for (std::string_view type : kSummable) add(type);
  } else {
    for (std::string_view type : kNative) add(type);
  }
  return known;
}

}  // namespace

bool IsAggregateName(std::string_view name) {
  return name == "count" || name == "min" || name == "max" || name == "sum" || name == "avg";
}

Status ResolveAggregate(const std::string& name, const std::vector<TypePtr>& arg_types,
                        AggregateFunction* out) {
  const bool numeric = name == "sum" || name == "avg";
  const auto no_match = [&] {
    return Status::InvalidArgument("Invalid call to function " + name +
                                   ", none of its type signatures match (known type signatures: " +
                                   KnownSignatures(name) + ")");
  };
  if (arg_types.size() != 1) return no_match();
  const TypePtr& type = arg_types[0];
  if (!type) {
    return Status::NotSupported("the aggregate " + name +
                                "() of a constant is not supported by cellfs yet");
  }
  if (!type->is_native()) {
    if (numeric) return no_match();
    return Status::NotSupported("the aggregate " + name + "() of a " + type->ToCql() +
                                " value is not supported by cellfs yet");
  }
  if (numeric && !Summable(type->kind())) return no_match();
  out->kind = name == "count" ? Kind::kCount
              : name == "min" ? Kind::kMin
              : name == "max" ? Kind::kMax
              : name == "sum" ? Kind::kSum
                              : Kind::kAvg;
  out->argument = type;
  out->result = out->kind == Kind::kCount ? CqlType::Native(TypeKind::kBigint) : type;
  out->name = "system." + name;
  return Status::Ok();
}

Aggregator::Aggregator(const AggregateFunction& function) : function_(function) {
  if (function.kind == Kind::kSum || function.kind == Kind::kAvg) {
    numeric_ = NumericAggregate::Make(
        function.kind == Kind::kSum ? NumericAggregate::Op::kSum : NumericAggregate::Op::kAvg,
        function.argument->kind());
  }
}

void Aggregator::Add(const std::optional<std::string>& value) {
  if (!value) return;
  switch (function_.kind) {
    case Kind::kCount:
      ++count_;
      return;
    case Kind::kMin:
    case Kind::kMax: {
      if (!best_) {
        best_ = value;
        return;
      }
      const int order = CompareValues(*function_.argument, *value, *best_);
      if (function_.kind == Kind::kMin ? order < 0 : order > 0) best_ = value;
      return;
    }
    case Kind::kSum:
    case Kind::kAvg:
      numeric_->Add(*value);
      return;
  }
}

Status Aggregator::Result(std::optional<std::string>* out) const {
  out->reset();
  switch (function_.kind) {
    case Kind::kCount:
      *out = BigEndianBytes(count_, 8);
      return Status::Ok();
    case Kind::kMin:
    case Kind::kMax:
      *out = best_;
      return Status::Ok();
    case Kind::kSum:
    case Kind::kAvg: {
      std::string value;
      CELLFS_RETURN_IF_ERROR(numeric_->Result(&value));
      *out = std::move(value);
      return Status::Ok();
    }
  }
  return Status::Ok();
}

}  // namespace cellfs::fs
