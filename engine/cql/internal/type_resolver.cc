// TypeExpr -> CqlType resolution with Cassandra's type-nesting rules.
#include "engine/cql/internal/type_resolver.h"

namespace cellfs {
namespace {

// Where a type sits decides which rules apply to it.
enum class Context { kTopLevel, kInsideCollection, kInsideFrozen };

Result<TypePtr> Resolve(const TypeExpr& expr, const KeyspaceDef& keyspace, Context context);

Status Fail(const TypeExpr& expr, const std::string& message) {
  return Status::InvalidArgument(AtPosition(expr.position, message));
}

Result<std::vector<TypePtr>> ResolveParams(const TypeExpr& expr, const KeyspaceDef& keyspace,
                                           Context inner) {
  std::vector<TypePtr> params;
  for (const auto& p : expr.params) {
    auto resolved = Resolve(p, keyspace, inner);
    if (!resolved.ok()) return resolved.status();
    params.push_back(std::move(resolved).value());
  }
  return params;
}

Status CheckCollectionElement(const TypeExpr& expr, const CqlType& collection,
                              const CqlType& element, bool is_set_or_map_key) {
  if (element.kind() == TypeKind::kCounter) {
    return Fail(expr, "counters are not allowed inside collections: " + collection.ToCql());
  }
  if (element.is_collection() && !element.frozen()) {
    return Fail(expr,
                "non-frozen collections are not allowed inside collections: " + collection.ToCql());
  }
  if (element.kind() == TypeKind::kUdt && !element.frozen()) {
    return Fail(expr,
                "non-frozen user types are not allowed inside collections: " + collection.ToCql());
  }
  if (is_set_or_map_key && element.kind() == TypeKind::kDuration) {
    return Fail(expr,
                "durations are not allowed as set elements or map keys: " + collection.ToCql());
  }
  return Status::Ok();
}

Result<TypePtr> ResolveCollection(const TypeExpr& expr, const KeyspaceDef& keyspace,
                                  Context context) {
  const size_t want = expr.name == "map" ? 2 : 1;
  if (expr.params.size() != want) {
    return Fail(expr, expr.name + " takes " + std::to_string(want) + " type parameter" +
                          (want == 1 ? "" : "s"));
  }
  const bool frozen = expr.frozen || context == Context::kInsideFrozen;
  // Elements of a non-frozen collection are checked as written (they must be
  // frozen themselves); inside a frozen one everything is frozen anyway.
  auto params =
      ResolveParams(expr, keyspace, frozen ? Context::kInsideFrozen : Context::kInsideCollection);
  if (!params.ok()) return params.status();
  auto& p = params.value();
  TypePtr type;
  if (expr.name == "list") type = CqlType::List(p[0], frozen);
  if (expr.name == "set") type = CqlType::Set(p[0], frozen);
  if (expr.name == "map") type = CqlType::Map(p[0], p[1], frozen);
  for (size_t i = 0; i < p.size(); ++i) {
    const bool keyed = expr.name == "set" || (expr.name == "map" && i == 0);
    CELLFS_RETURN_IF_ERROR(CheckCollectionElement(expr, *type, *p[i], keyed));
  }
  return type;
}

Result<TypePtr> ResolveUserType(const TypeExpr& expr, const KeyspaceDef& keyspace,
                                Context context) {
  if (!expr.keyspace.empty() && expr.keyspace != keyspace.name) {
    return Fail(expr, "user type " + expr.keyspace + "." + expr.name +
                          " cannot be used in keyspace " + keyspace.name +
                          ": user types can only be used in the keyspace they are defined in");
  }
  auto it = keyspace.types.find(expr.name);
  if (it == keyspace.types.end()) {
    return Status::NotFound(
        AtPosition(expr.position, "unknown type " + keyspace.name + "." + expr.name));
  }
  if (!expr.params.empty()) return Fail(expr, "user type " + expr.name + " takes no parameters");
  return it->second.AsType(expr.frozen || context == Context::kInsideFrozen);
}

Result<TypePtr> Resolve(const TypeExpr& expr, const KeyspaceDef& keyspace, Context context) {
  if (TypePtr native = CqlType::NativeByName(expr.name); native && expr.keyspace.empty()) {
    if (expr.frozen) {
      return Fail(expr, "frozen<> is only allowed on collections, tuples and user types, not " +
                            native->ToCql());
    }
    if (!expr.params.empty()) return Fail(expr, native->ToCql() + " takes no type parameters");
    return native;
  }
  if (expr.keyspace.empty() && (expr.name == "list" || expr.name == "set" || expr.name == "map")) {
    return ResolveCollection(expr, keyspace, context);
  }
  if (expr.keyspace.empty() && expr.name == "tuple") {
    if (expr.params.empty()) return Fail(expr, "tuple needs at least one component type");
    auto params = ResolveParams(expr, keyspace, Context::kInsideFrozen);
    if (!params.ok()) return params.status();
    for (const auto& p : params.value()) {
      if (p->kind() == TypeKind::kCounter)
        return Fail(expr, "counters are not allowed inside tuples");
    }
    return CqlType::Tuple(std::move(params).value());
  }
  return ResolveUserType(expr, keyspace, context);
}

}  // namespace

std::string AtPosition(const SourcePosition& position, const std::string& message) {
  return position.ToString() + ": " + message;
}

Result<TypePtr> ResolveType(const TypeExpr& expr, const KeyspaceDef& keyspace) {
  auto resolved = Resolve(expr, keyspace, Context::kTopLevel);
  // User types nest without the parser's per-expression limit; code that
  // walks values recurses this deep, so hostile schemas must not go deeper.
  if (resolved.ok() && resolved.value()->depth() > kMaxResolvedTypeDepth) {
    return Fail(expr, "type nested more than " + std::to_string(kMaxResolvedTypeDepth) +
                          " levels deep (through user types)");
  }
  return resolved;
}

}  // namespace cellfs
