// Catalog: applies DDL statements to the schema, one validated change at a time.
#include "engine/cql/catalog.h"

#include <algorithm>
#include <type_traits>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_parser.h"
#include "engine/cql/internal/index_schema.h"
#include "engine/cql/internal/schema_options.h"
#include "engine/cql/internal/table_builder.h"
#include "engine/cql/internal/type_resolver.h"
#include "engine/cql/internal/view_schema.h"

namespace cellfs {
namespace {

Status Positioned(const SourcePosition& position, Status status) {
  return Status(status.code(), AtPosition(position, status.message()));
}

void Report(SchemaChange* change, SchemaChange::Kind kind, std::string keyspace,
            std::string object = "") {
  if (change == nullptr) return;
  change->kind = kind;
  change->keyspace = std::move(keyspace);
  change->object = std::move(object);
}

bool IsParameterisedTypeName(const std::string& name) {
  return name == "list" || name == "set" || name == "map" || name == "tuple" || name == "frozen";
}

// True when `type` mentions the user type `name` anywhere inside it.
bool UsesUserType(const CqlType& type, const std::string& name) {
  if (type.kind() == TypeKind::kUdt && type.udt_name() == name) return true;
  return std::any_of(type.params().begin(), type.params().end(),
                     [&](const TypePtr& p) { return UsesUserType(*p, name); });
}

// A routine argument type as text: natives by their canonical name
// (varchar is text), user types by name; frozen<> is left out, since
// arguments are frozen implicitly (a signature, compared as Cassandra
// compares argument types).
std::string SignatureTypeText(const TypeExpr& type) {
  if (type.params.empty()) {
    if (type.keyspace.empty()) {
      if (TypePtr native = CqlType::NativeByName(type.name)) return native->ToCql();
    }
    return QuoteIdentifier(type.name);
  }
  std::string out = type.name + "<";
  for (size_t i = 0; i < type.params.size(); ++i) {
    if (i > 0) out += ", ";
    out += SignatureTypeText(type.params[i]);
  }
  return out + ">";
}

// The type as written, frozen<> included: how messages show it.
std::string WrittenTypeText(const TypeExpr& type) {
  std::string out;
  if (type.params.empty()) {
    out = type.keyspace.empty() ? type.name : type.keyspace + "." + type.name;
  } else {
    out = type.name + "<";
    for (size_t i = 0; i < type.params.size(); ++i) {
      if (i > 0) out += ", ";
      out += WrittenTypeText(type.params[i]);
    }
    out += ">";
  }
  return type.frozen ? "frozen<" + out + ">" : out;
}

std::string Signature(const std::vector<TypeExpr>& arguments, bool written = false) {
  std::string out;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i > 0) out += ", ";
    out += written ? WrittenTypeText(arguments[i]) : SignatureTypeText(arguments[i]);
  }
  return out;
}

// The routine's statement text with its name keyspace-qualified, so that
// DESCRIBE output replays without a USE.
std::string QualifiedRoutineText(const CreateRoutine& routine, const Statement& statement,
                                 const std::string& keyspace) {
  if (!routine.routine.keyspace.empty()) return routine.text;
  const size_t at = routine.routine.position.offset - statement.position.offset;
  if (at > routine.text.size()) return routine.text;
  return routine.text.substr(0, at) + QuoteIdentifier(keyspace) + "." + routine.text.substr(at);
}

}  // namespace

// Applies one statement kind; a friend-free helper class keeps each case a
// small function while sharing the statement's context.
class StatementApplier {
 public:
  StatementApplier(std::map<std::string, KeyspaceDef>* keyspaces, const Statement& statement,
                   std::string* current_keyspace, SchemaChange* change, bool stored_text)
      : keyspaces_(*keyspaces),
        statement_(statement),
        current_(*current_keyspace),
        change_(change),
        stored_text_(stored_text) {}

  Status operator()(const CreateKeyspace& s) {
    CELLFS_RETURN_IF_ERROR(CheckSchemaObjectName("keyspace", s.name, statement_.position));
    if (keyspaces_.contains(s.name)) {
      if (s.if_not_exists) return Status::Ok();
      return Fail(Status::AlreadyExists("keyspace " + s.name + " already exists"));
    }
    KeyspaceDef keyspace;
    keyspace.name = s.name;
    CELLFS_RETURN_IF_ERROR(ApplyKeyspaceOptions(s.options, true, &keyspace));
    keyspaces_.emplace(s.name, std::move(keyspace));
    Report(change_, SchemaChange::Kind::kCreated, s.name);
    return Status::Ok();
  }

  Status operator()(const AlterKeyspace& s) {
    auto it = keyspaces_.find(s.name);
    if (it == keyspaces_.end()) {
      if (s.if_exists) return Status::Ok();
      return Fail(Status::NotFound("keyspace " + s.name + " does not exist"));
    }
    CELLFS_RETURN_IF_ERROR(ApplyKeyspaceOptions(s.options, false, &it->second));
    Report(change_, SchemaChange::Kind::kUpdated, s.name);
    return Status::Ok();
  }

  Status operator()(const DropKeyspace& s) {
    if (keyspaces_.erase(s.name) == 0) {
      if (s.if_exists) return Status::Ok();
      return Fail(Status::NotFound("keyspace " + s.name + " does not exist"));
    }
    if (current_ == s.name) current_.clear();
    Report(change_, SchemaChange::Kind::kDropped, s.name);
    return Status::Ok();
  }

  Status operator()(const UseKeyspace& s) {
    if (!keyspaces_.contains(s.name)) {
      return Fail(Status::NotFound("keyspace " + s.name + " does not exist"));
    }
    current_ = s.name;
    Report(change_, SchemaChange::Kind::kUsed, s.name);
    return Status::Ok();
  }

  Status operator()(const CreateTable& s) {
    KeyspaceDef* keyspace = nullptr;
    CELLFS_RETURN_IF_ERROR(FindKeyspaceOf(s.table, &keyspace));
    if (keyspace->tables.contains(s.table.name)) {
      if (s.if_not_exists) return Status::Ok();
      return Fail(Status::AlreadyExists("table " + keyspace->name + "." + s.table.name +
                                        " already exists"));
    }
    auto table = BuildTable(s, *keyspace);
    if (!table.ok()) return table.status();
    keyspace->tables.emplace(s.table.name, std::move(table).value());
    Report(change_, SchemaChange::Kind::kCreated, keyspace->name, s.table.name);
    return Status::Ok();
  }

  Status operator()(const DropTable& s) {
    KeyspaceDef* keyspace = nullptr;
    Status found = FindKeyspaceOf(s.table, &keyspace);
    if (found.ok()) {
      auto it = keyspace->tables.find(s.table.name);
      if (it != keyspace->tables.end()) {
        CELLFS_RETURN_IF_ERROR(CheckDropTable(*keyspace, it->second));
        keyspace->tables.erase(it);
        Report(change_, SchemaChange::Kind::kDropped, keyspace->name, s.table.name);
        return Status::Ok();
      }
    }
    if (s.if_exists) return Status::Ok();
    if (!found.ok()) return found;
    return Fail(
        Status::NotFound("table " + keyspace->name + "." + s.table.name + " does not exist"));
  }

  Status operator()(const AlterTable& s) {
    KeyspaceDef* keyspace = nullptr;
    Status found = FindKeyspaceOf(s.table, &keyspace);
    if (!found.ok()) return s.if_exists ? Status::Ok() : found;
    auto it = keyspace->tables.find(s.table.name);
    if (it == keyspace->tables.end()) {
      if (s.if_exists) return Status::Ok();
      return Fail(
          Status::NotFound("table " + keyspace->name + "." + s.table.name + " does not exist"));
    }
    CELLFS_RETURN_IF_ERROR(CheckAlterTable(*keyspace, it->second, s));
    auto altered = AlterTableDef(s, *keyspace, it->second);
    if (!altered.ok()) return altered.status();
    const TableDef before = it->second;
    it->second = std::move(altered).value();
    PropagateAlterTable(s, before, it->second, keyspace);
    Report(change_, SchemaChange::Kind::kUpdated, keyspace->name, s.table.name);
    return Status::Ok();
  }

  Status operator()(const CreateType& s) {
    KeyspaceDef* keyspace = nullptr;
    CELLFS_RETURN_IF_ERROR(FindKeyspaceOf(s.type, &keyspace));
    if (keyspace->types.contains(s.type.name)) {
      if (s.if_not_exists) return Status::Ok();
      return Fail(
          Status::AlreadyExists("type " + keyspace->name + "." + s.type.name + " already exists"));
    }
    if (CqlType::NativeByName(s.type.name) != nullptr) {
      return Fail(Status::InvalidArgument("a user type cannot be named " + s.type.name +
                                          ", which is a native type"));
    }
    // The parser folds a quoted "list" to list, so such a type could never
    // be used (frozen<"list"> reads as a list missing its parameter).
    if (IsParameterisedTypeName(s.type.name)) {
      return Fail(Status::InvalidArgument("a user type cannot be named " + s.type.name +
                                          ", which is a reserved type name"));
    }
    UserTypeDef type;
    type.keyspace = keyspace->name;
    type.name = s.type.name;
    for (const auto& [field, expr] : s.fields) {
      if (std::find(type.field_names.begin(), type.field_names.end(), field) !=
          type.field_names.end()) {
        return Positioned(expr.position, Status::InvalidArgument("duplicate field name " + field +
                                                                 " in type " + s.type.name));
      }
      auto resolved = ResolveType(expr, *keyspace);
      if (!resolved.ok()) return resolved.status();
      const CqlType& t = *resolved.value();
      if (t.kind() == TypeKind::kCounter) {
        return Positioned(expr.position,
                          Status::InvalidArgument("a user type cannot contain counters"));
      }
      if (t.kind() == TypeKind::kUdt && !t.frozen()) {
        return Positioned(expr.position, Status::InvalidArgument(
                                             "a user type cannot contain non-frozen user types"));
      }
      type.field_names.push_back(field);
      type.field_types.push_back(std::move(resolved).value());
    }
    if (type.field_names.empty()) {
      return Fail(Status::InvalidArgument("type " + s.type.name + " needs at least one field"));
    }
    keyspace->types.emplace(s.type.name, std::move(type));
    keyspace->type_order.push_back(s.type.name);
    Report(change_, SchemaChange::Kind::kCreated, keyspace->name, s.type.name);
    return Status::Ok();
  }

  Status operator()(const DropType& s) {
    KeyspaceDef* keyspace = nullptr;
    Status found = FindKeyspaceOf(s.type, &keyspace);
    if (!found.ok()) return s.if_exists ? Status::Ok() : found;
    if (!keyspace->types.contains(s.type.name)) {
      if (s.if_exists) return Status::Ok();
      return Fail(
          Status::NotFound("type " + keyspace->name + "." + s.type.name + " does not exist"));
    }
    CELLFS_RETURN_IF_ERROR(CheckTypeUnused(*keyspace, s.type.name));
    keyspace->types.erase(s.type.name);
    std::erase(keyspace->type_order, s.type.name);
    Report(change_, SchemaChange::Kind::kDropped, keyspace->name, s.type.name);
    return Status::Ok();
  }

  Status operator()(const CreateRoutine& s) {
    KeyspaceDef* keyspace = nullptr;
    CELLFS_RETURN_IF_ERROR(FindKeyspaceOf(s.routine, &keyspace));
    RoutineDef routine;
    routine.aggregate = s.kind == CreateRoutine::Kind::kAggregate;
    routine.name = s.routine.name;
    routine.signature = Signature(s.arguments);
    auto it = keyspace->routines.find(routine.Key());
    if (it != keyspace->routines.end() &&
        (!s.or_replace || it->second.aggregate != routine.aggregate)) {
      if (s.if_not_exists) return Status::Ok();
      const char* kind = routine.aggregate ? "aggregate " : "function ";
      return Fail(
          Status::AlreadyExists(kind + keyspace->name + "." + s.routine.name + " already exists"));
    }
    routine.text = QualifiedRoutineText(s, statement_, keyspace->name);
    keyspace->routines[routine.Key()] = std::move(routine);
    Report(change_, SchemaChange::Kind::kCreated, keyspace->name, s.routine.name);
    return Status::Ok();
  }

  // Cassandra's DropFunctionStatement / DropAggregateStatement, messages included.
  Status operator()(const DropRoutine& s) {
    const bool aggregate = s.kind == CreateRoutine::Kind::kAggregate;
    const std::string& ks = s.routine.keyspace.empty() ? current_ : s.routine.keyspace;
    if (ks.empty()) {
      return Fail(
          Status::InvalidArgument("No keyspace has been specified. USE a keyspace, or "
                                  "explicitly specify keyspace.tablename"));
    }
    const std::string shown = ks + "." + s.routine.name +
                              (s.arguments_given ? "(" + Signature(s.arguments, true) + ")" : "");
    const std::string missing =
        std::string(aggregate ? "Aggregate '" : "Function '") + shown + "' doesn't exist";
    auto keyspace = keyspaces_.find(ks);
    if (keyspace == keyspaces_.end())
      return s.if_exists ? Status::Ok() : Fail(Status::NotFound(missing));
    auto& routines = keyspace->second.routines;
    const std::string prefix = s.routine.name + "(";
    size_t overloads = 0;
    for (auto it = routines.lower_bound(prefix);
         it != routines.end() && it->second.name == s.routine.name; ++it) {
      ++overloads;
    }
    if (overloads > 1 && !s.arguments_given) {
      const std::string verb = aggregate ? "AGGREGATE " : "FUNCTION ";
      const std::string& n = s.routine.name;
      return Fail(
          Status::InvalidArgument("'DROP " + verb + n +
                                  "' matches multiple function definitions; specify the argument "
                                  "types by issuing a statement like 'DROP " +
                                  verb + n +
                                  " (type, type, ...)'. You can "
                                  "use cqlsh 'DESCRIBE " +
                                  verb + n + "' command to find all overloads"));
    }
    for (const TypeExpr& argument : s.arguments) {
      if (argument.frozen && argument.name != "tuple") {
        const std::string text = WrittenTypeText(argument);
        return Fail(Status::InvalidArgument("Argument '" + text +
                                            "' cannot be frozen; remove frozen<> modifier from '" +
                                            text + "'"));
      }
    }
    auto found = routines.end();
    for (auto it = routines.lower_bound(prefix);
         it != routines.end() && it->second.name == s.routine.name; ++it) {
      if (it->second.aggregate != aggregate) continue;
      if (s.arguments_given && it->second.signature != Signature(s.arguments)) continue;
      found = it;
      break;
    }
    if (found == routines.end())
      return s.if_exists ? Status::Ok() : Fail(Status::NotFound(missing));
    routines.erase(found);
    Report(change_, SchemaChange::Kind::kDropped, ks, s.routine.name);
    return Status::Ok();
  }

  // Validated as Cassandra's TruncateStatement (Schema.validateTable).
  Status operator()(const TruncateTable& s) {
    KeyspaceDef* keyspace = nullptr;
    CELLFS_RETURN_IF_ERROR(FindKeyspaceOf(s.table, &keyspace));
    if (!keyspace->tables.contains(s.table.name)) {
      return Positioned(s.table.position, Status::NotFound("unconfigured table " + s.table.name));
    }
    CELLFS_RETURN_IF_ERROR(CheckTruncatableTable(keyspace->tables.at(s.table.name)));
    Report(change_, SchemaChange::Kind::kTruncated, keyspace->name, s.table.name);
    return Status::Ok();
  }

  Status operator()(const CreateIndex& s) {
    std::string ks;
    CELLFS_RETURN_IF_ERROR(IndexStatementKeyspace(s, current_, &ks));
    auto keyspace = keyspaces_.find(ks);
    if (keyspace == keyspaces_.end()) {
      return Fail(Status::InvalidArgument("Keyspace '" + ks + "' doesn't exist"));
    }
    bool added = false;
    std::string table;
    CELLFS_RETURN_IF_ERROR(
        AddIndex(s, &keyspace->second, &added, &table,
                 stored_text_ ? IndexOptionChecks::kSkip : IndexOptionChecks::kCheck));
    if (added) Report(change_, SchemaChange::Kind::kUpdated, ks, table);
    return Status::Ok();
  }

  // Cassandra's DropIndexStatement, message included.
  Status operator()(const DropIndex& s) {
    const std::string& ks = s.index.keyspace.empty() ? current_ : s.index.keyspace;
    auto keyspace = keyspaces_.find(ks);
    std::string table;
    if (keyspace == keyspaces_.end() || !RemoveIndex(s.index.name, &keyspace->second, &table)) {
      if (s.if_exists) return Status::Ok();
      return Fail(
          Status::InvalidArgument("Index '" + ks + "." + s.index.name + "' doesn't exist'"));
    }
    Report(change_, SchemaChange::Kind::kUpdated, ks, table);
    return Status::Ok();
  }

  Status operator()(const CreateView& s) {
    std::string ks;
    CELLFS_RETURN_IF_ERROR(ViewStatementKeyspace(s, current_, &ks));
    auto keyspace = keyspaces_.find(ks);
    if (keyspace == keyspaces_.end()) {
      return Fail(Status::InvalidArgument("Keyspace '" + ks + "' doesn't exist"));
    }
    bool added = false;
    CELLFS_RETURN_IF_ERROR(AddView(s, &keyspace->second, &added));
    if (added) Report(change_, SchemaChange::Kind::kCreated, ks, s.view.name);
    return Status::Ok();
  }

  // Cassandra's DropViewStatement, message included.
  Status operator()(const DropView& s) {
    TableDef* view = nullptr;
    std::string ks;
    CELLFS_RETURN_IF_ERROR(FindView(s.view, s.if_exists, &ks, &view));
    if (view == nullptr) return Status::Ok();
    keyspaces_.at(ks).tables.erase(s.view.name);
    Report(change_, SchemaChange::Kind::kDropped, ks, s.view.name);
    return Status::Ok();
  }

  // Cassandra's AlterViewStatement, messages included.
  Status operator()(const AlterView& s) {
    TableDef* view = nullptr;
    std::string ks;
    CELLFS_RETURN_IF_ERROR(FindView(s.view, s.if_exists, &ks, &view));
    if (view == nullptr) return Status::Ok();
    CELLFS_RETURN_IF_ERROR(AlterViewOptions(s, view));
    Report(change_, SchemaChange::Kind::kUpdated, ks, s.view.name);
    return Status::Ok();
  }

  Status operator()(const DescribeStatement&) { return Status::Ok(); }

  Status operator()(const UnsupportedStatement& s) {
    return Fail(Status::NotSupported(s.what + " is not supported yet"));
  }

  // Data statements change no schema; the session runs them elsewhere.
  template <typename Data>
  requires std::is_same_v<Data, InsertStatement> || std::is_same_v<Data, UpdateStatement> ||
      std::is_same_v<Data, DeleteStatement> || std::is_same_v<Data, BatchStatement> ||
      std::is_same_v<Data, SelectStatement>
          Status operator()(const Data&) {
    return Fail(Status::InvalidArgument("not a schema statement"));
  }

 private:
  // Catalog::Apply adds the statement's position to messages that have none.
  static Status Fail(Status status) { return status; }

  // The keyspace a possibly qualified name lives in.
  Status FindKeyspaceOf(const QualifiedName& name, KeyspaceDef** keyspace) {
    const std::string& ks = name.keyspace.empty() ? current_ : name.keyspace;
    if (ks.empty()) {
      return Positioned(name.position, Status::InvalidArgument(
                                           "no keyspace has been specified for " + name.name +
                                           ": USE a keyspace, or write keyspace." + name.name));
    }
    auto it = keyspaces_.find(ks);
    if (it == keyspaces_.end()) {
      return Positioned(name.position, Status::NotFound("keyspace " + ks + " does not exist"));
    }
    *keyspace = &it->second;
    return Status::Ok();
  }

  // The view DROP / ALTER MATERIALIZED VIEW names: *view stays nullptr
  // when it is absent and `if_exists` allows that.
  Status FindView(const QualifiedName& name, bool if_exists, std::string* ks, TableDef** view) {
    *ks = name.keyspace.empty() ? current_ : name.keyspace;
    if (ks->empty()) {
      return Fail(
          Status::InvalidArgument("No keyspace has been specified. USE a keyspace, or explicitly "
                                  "specify keyspace.tablename"));
    }
    auto keyspace = keyspaces_.find(*ks);
    if (keyspace != keyspaces_.end()) {
      auto it = keyspace->second.tables.find(name.name);
      if (it != keyspace->second.tables.end() && it->second.view) *view = &it->second;
    }
    if (*view != nullptr || if_exists) return Status::Ok();
    return Fail(
        Status::InvalidArgument("Materialized view '" + *ks + "." + name.name + "' doesn't exist"));
  }

  static Status CheckTypeUnused(const KeyspaceDef& keyspace, const std::string& name) {
    for (const auto& [table_name, table] : keyspace.tables) {
      for (const auto& c : table.columns) {
        if (UsesUserType(*c.type, name)) {
          return Fail(Status::FailedPrecondition("cannot drop type " + keyspace.name + "." + name +
                                                 ": table " + table_name + " still uses it"));
        }
      }
    }
    for (const auto& [type_name, type] : keyspace.types) {
      for (const auto& f : type.field_types) {
        if (UsesUserType(*f, name)) {
          return Fail(Status::FailedPrecondition("cannot drop type " + keyspace.name + "." + name +
                                                 ": type " + type_name + " still uses it"));
        }
      }
    }
    return Status::Ok();
  }

  std::map<std::string, KeyspaceDef>& keyspaces_;
  const Statement& statement_;
  std::string& current_;
  SchemaChange* change_;
  bool stored_text_;
};

Status Catalog::ApplyScript(std::string_view cql, std::string* current_keyspace) {
  CqlParser parser(cql);
  for (;;) {
    Statement statement;
    bool done = false;
    CELLFS_RETURN_IF_ERROR(parser.Next(&statement, &done));
    if (done) return Status::Ok();
    CELLFS_RETURN_IF_ERROR(Apply(statement, current_keyspace));
  }
}

Status Catalog::Apply(const Statement& statement, std::string* current_keyspace,
                      SchemaChange* change) {
  Report(change, SchemaChange::Kind::kNone, "");
  // Work on copies so that a failure leaves the catalog and session as they were.
  std::map<std::string, KeyspaceDef> updated = keyspaces_;
  std::string current = *current_keyspace;
  Status status = std::visit(StatementApplier(&updated, statement, &current, change, stored_text_),
                             statement.body);
  if (!status.ok()) {
    if (status.message().starts_with("line ")) return status;
    return Positioned(statement.position, status);
  }
  keyspaces_ = std::move(updated);
  *current_keyspace = std::move(current);
  return Status::Ok();
}

void Catalog::Restore(KeyspaceDef keyspace) {
  std::string name = keyspace.name;
  keyspaces_.emplace(std::move(name), std::move(keyspace));
}

const KeyspaceDef* Catalog::FindKeyspace(const std::string& name) const {
  auto it = keyspaces_.find(name);
  return it == keyspaces_.end() ? nullptr : &it->second;
}

const TableDef* Catalog::FindTable(const std::string& keyspace, const std::string& table) const {
  const KeyspaceDef* ks = FindKeyspace(keyspace);
  if (ks == nullptr) return nullptr;
  auto it = ks->tables.find(table);
  return it == ks->tables.end() ? nullptr : &it->second;
}

}  // namespace cellfs
