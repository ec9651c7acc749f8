// DESCRIBE statements: listings in columns and CREATE statements, with the
// lookups and messages of Cassandra's DescribeStatement.
#include "engine/cql/describe_statement.h"

#include <algorithm>
#include <functional>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/describe.h"

namespace cellfs {
namespace {

using Kind = DescribeStatement::Kind;

Status NotFound(std::string message) { return Status::InvalidArgument(std::move(message)); }

Result<const KeyspaceDef*> ValidateKeyspace(const Catalog& catalog, const std::string& name) {
  const KeyspaceDef* keyspace = catalog.FindKeyspace(name);
  if (keyspace == nullptr) return NotFound("'" + name + "' not found in keyspaces");
  return keyspace;
}

// The keyspace of a single-element DESCRIBE: written, or the session's.
Result<const KeyspaceDef*> ElementKeyspace(const Catalog& catalog, const QualifiedName& name,
                                           const std::string& current) {
  const std::string& ks = name.keyspace.empty() ? current : name.keyspace;
  if (ks.empty()) return NotFound("No keyspace specified and no current keyspace");
  return ValidateKeyspace(catalog, ks);
}

std::string RoutineStatement(const RoutineDef& routine) { return routine.text + ";\n"; }

// A keyspace's elements in Cassandra's order: the keyspace, types
// (dependencies first), functions, aggregates, tables; each after "\n".
std::string KeyspaceElements(const KeyspaceDef& keyspace) {
  std::string out = "\n" + DescribeKeyspaceStatement(keyspace);
  for (const auto& name : keyspace.type_order) {
    out += "\n" + DescribeType(keyspace.types.at(name));
  }
  for (bool aggregates : {false, true}) {
    for (const auto& [key, routine] : keyspace.routines) {
      if (routine.aggregate == aggregates) out += "\n" + RoutineStatement(routine);
    }
  }
  for (const auto& [name, table] : keyspace.tables) {
    if (!table.view) out += "\n" + DescribeTableAndViews(keyspace, table);
  }
  return out;
}

// The names one listing shows for a keyspace.
std::vector<std::string> ElementNames(const KeyspaceDef& keyspace, Kind kind) {
  std::vector<std::string> names;
  switch (kind) {
    case Kind::kTables:
      for (const auto& [name, table] : keyspace.tables) {
        if (!table.view) names.push_back(QuoteIdentifier(name));
      }
      break;
    case Kind::kTypes:
      for (const auto& [name, type] : keyspace.types) names.push_back(QuoteIdentifier(name));
      break;
    default:
      for (const auto& [key, routine] : keyspace.routines) {
        if (routine.aggregate != (kind == Kind::kAggregates)) continue;
        names.push_back(QuoteIdentifier(routine.name) + "(" + routine.signature + ")");
      }
      break;
  }
  return names;  // the maps hold them sorted by name, as Cassandra lists them
}

// cqlsh's describe_list: per keyspace with elements, "\n", a header when no
// keyspace is in use, the names in columns; a final "\n" after the last.
Result<std::string> Listing(const Catalog& catalog, Kind kind, const std::string& current) {
  std::vector<const KeyspaceDef*> keyspaces;
  if (current.empty()) {
    for (const auto& [name, keyspace] : catalog.keyspaces()) keyspaces.push_back(&keyspace);
  } else {
    Result<const KeyspaceDef*> keyspace = ValidateKeyspace(catalog, current);
    if (!keyspace.ok()) return keyspace.status();
    keyspaces.push_back(keyspace.value());
  }
  std::string out;
  for (const KeyspaceDef* keyspace : keyspaces) {
    std::vector<std::string> names = ElementNames(*keyspace, kind);
    if (names.empty()) continue;  // the server returns no row for it
    out += "\n";
    if (current.empty()) {
      const std::string name = QuoteIdentifier(keyspace->name);
      out += "Keyspace " + name + "\n---------" + std::string(name.size(), '-') + "\n";
    }
    out += Columnize(names);
  }
  if (!out.empty()) out += "\n";
  return out;
}

// The overloads of a function or aggregate, or the message when none.
Result<std::string> Routines(const KeyspaceDef& keyspace, const std::string& name, bool aggregate) {
  std::string out;
  for (const auto& [key, routine] : keyspace.routines) {
    if (routine.name == name && routine.aggregate == aggregate) {
      out += "\n" + RoutineStatement(routine);
    }
  }
  if (out.empty()) {
    return NotFound(std::string("User defined ") + (aggregate ? "aggregate '" : "function '") +
                    name + "' not found in '" + keyspace.name + "'");
  }
  return out;
}

// DESCRIBE [ks.]name: a keyspace, else a table of the keyspace.
Result<std::string> Generic(const Catalog& catalog, const QualifiedName& name,
                            const std::string& current) {
  std::string ks = name.keyspace;
  if (ks.empty()) {
    if (const KeyspaceDef* keyspace = catalog.FindKeyspace(name.name)) {
      return KeyspaceElements(*keyspace);
    }
    ks = current.empty() ? name.name : current;
  }
  Result<const KeyspaceDef*> keyspace = ValidateKeyspace(catalog, ks);
  if (!keyspace.ok()) return keyspace.status();
  auto table = keyspace.value()->tables.find(name.name);
  if (table == keyspace.value()->tables.end()) {
    return NotFound("'" + name.name + "' not found in keyspace '" + ks + "'");
  }
  if (table->second.view) return "\n" + DescribeView(table->second);
  return "\n" + DescribeTableAndViews(*keyspace.value(), table->second);
}

Result<std::string> Element(const Catalog& catalog, const DescribeStatement& statement,
                            const std::string& current) {
  Result<const KeyspaceDef*> found = ElementKeyspace(catalog, statement.name, current);
  if (!found.ok()) return found.status();
  const KeyspaceDef& keyspace = *found.value();
  const std::string& name = statement.name.name;
  switch (statement.kind) {
    case Kind::kTable: {
      auto table = keyspace.tables.find(name);
      if (table == keyspace.tables.end() || table->second.view) {
        return NotFound("Table '" + name + "' not found in keyspace '" + keyspace.name + "'");
      }
      return "\n" + DescribeTableAndViews(keyspace, table->second);
    }
    case Kind::kView: {
      auto view = keyspace.tables.find(name);
      if (view == keyspace.tables.end() || !view->second.view) {
        return NotFound("Materialized view '" + name + "' not found in keyspace '" + keyspace.name +
                        "'");
      }
      return "\n" + DescribeView(view->second);
    }
    case Kind::kType: {
      auto type = keyspace.types.find(name);
      if (type == keyspace.types.end()) {
        return NotFound("User defined type '" + name + "' not found in '" + keyspace.name + "'");
      }
      return "\n" + DescribeType(type->second);
    }
    case Kind::kFunction:
      return Routines(keyspace, name, false);
    case Kind::kAggregate:
      return Routines(keyspace, name, true);
    default:
      return KeyspaceElements(keyspace);
  }
}

}  // namespace

std::string Columnize(const std::vector<std::string>& names, size_t width) {
  if (names.empty()) return "<empty>\n";
  if (names.size() == 1) return names[0] + "\n";
  const size_t size = names.size();
  size_t rows = size;
  std::vector<size_t> widths;
  for (size_t try_rows = 1; try_rows < size; ++try_rows) {
    const size_t columns = (size + try_rows - 1) / try_rows;
    std::vector<size_t> try_widths;
    long total = -2;
    for (size_t column = 0; column < columns; ++column) {
      size_t column_width = 0;
      for (size_t row = 0; row < try_rows; ++row) {
        const size_t i = row + try_rows * column;
        if (i >= size) break;
        column_width = std::max(column_width, names[i].size());
      }
      try_widths.push_back(column_width);
      total += static_cast<long>(column_width) + 2;
      if (total > static_cast<long>(width)) break;
    }
    if (total <= static_cast<long>(width)) {
      rows = try_rows;
      widths = std::move(try_widths);
      break;
    }
  }
  if (widths.empty()) widths.assign(1, 0);  // one name per row
  const size_t columns = (size + rows - 1) / rows;
  std::string out;
  for (size_t row = 0; row < rows; ++row) {
    std::vector<std::string> texts;
    for (size_t column = 0; column < columns; ++column) {
      const size_t i = row + rows * column;
      texts.push_back(i < size ? names[i] : std::string());
    }
    while (!texts.empty() && texts.back().empty()) texts.pop_back();
    for (size_t column = 0; column < texts.size(); ++column) {
      if (column > 0) out += "  ";
      out += texts[column];
      if (column < widths.size() && texts[column].size() < widths[column]) {
        out.append(widths[column] - texts[column].size(), ' ');
      }
    }
    out += "\n";
  }
  return out;
}

Result<std::string> DescribeOutput(const Catalog& catalog, const DescribeStatement& statement,
                                   const std::string& current_keyspace) {
  switch (statement.kind) {
    case Kind::kKeyspaces: {
      std::vector<std::string> names;
      for (const auto& [name, keyspace] : catalog.keyspaces()) {
        names.push_back(QuoteIdentifier(name));
      }
      return "\n" + Columnize(names) + "\n";
    }
    case Kind::kTables:
    case Kind::kTypes:
    case Kind::kFunctions:
    case Kind::kAggregates:
      return Listing(catalog, statement.kind, current_keyspace);
    case Kind::kSchema: {
      std::string out;
      for (const auto& [name, keyspace] : catalog.keyspaces()) out += KeyspaceElements(keyspace);
      return out;
    }
    case Kind::kName:
      return Generic(catalog, statement.name, current_keyspace);
    case Kind::kKeyspace:
      if (statement.has_name) {
        Result<const KeyspaceDef*> keyspace = ValidateKeyspace(catalog, statement.name.name);
        if (!keyspace.ok()) return keyspace.status();
        return KeyspaceElements(*keyspace.value());
      }
      return Element(catalog, statement, current_keyspace);
    default:
      return Element(catalog, statement, current_keyspace);
  }
}

}  // namespace cellfs
