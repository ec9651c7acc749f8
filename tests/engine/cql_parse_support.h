// Test support for the CQL DDL parser tests: parse a script or one
// statement, and render ASTs (kinds, types) as short strings to compare.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/cql/cql_parser.h"

namespace cellfs::testing {

// The statement kind as a word; unsupported ones carry what they are.
inline std::string KindOf(const Statement& statement) {
  struct Namer {
    std::string operator()(const CreateKeyspace&) const { return "CreateKeyspace"; }
    std::string operator()(const AlterKeyspace&) const { return "AlterKeyspace"; }
    std::string operator()(const DropKeyspace&) const { return "DropKeyspace"; }
    std::string operator()(const UseKeyspace&) const { return "UseKeyspace"; }
    std::string operator()(const CreateTable&) const { return "CreateTable"; }
    std::string operator()(const DropTable&) const { return "DropTable"; }
    std::string operator()(const AlterTable&) const { return "AlterTable"; }
    std::string operator()(const CreateType&) const { return "CreateType"; }
    std::string operator()(const DropType&) const { return "DropType"; }
    std::string operator()(const CreateRoutine&) const { return "CreateRoutine"; }
    std::string operator()(const UnsupportedStatement& s) const {
      return "Unsupported(" + s.what + ")";
    }
    std::string operator()(const InsertStatement&) const { return "Insert"; }
    std::string operator()(const UpdateStatement&) const { return "Update"; }
    std::string operator()(const DeleteStatement&) const { return "Delete"; }
    std::string operator()(const BatchStatement& s) const {
      return "Batch(" + std::to_string(s.statements.size()) + ")";
    }
    std::string operator()(const DropRoutine&) const { return "DropRoutine"; }
    std::string operator()(const CreateIndex&) const { return "CreateIndex"; }
    std::string operator()(const DropIndex&) const { return "DropIndex"; }
    std::string operator()(const CreateView&) const { return "CreateView"; }
    std::string operator()(const DropView&) const { return "DropView"; }
    std::string operator()(const AlterView&) const { return "AlterView"; }
    std::string operator()(const TruncateTable&) const { return "TruncateTable"; }
    std::string operator()(const DescribeStatement&) const { return "Describe"; }
    std::string operator()(const SelectStatement&) const { return "Select"; }
  };
  return std::visit(Namer{}, statement.body);
}

// Every statement of `script` as its kind, or "error: <message>" for a
// failed one, in order.
inline std::vector<std::string> Outline(std::string_view script) {
  CqlParser parser(script);
  std::vector<std::string> outline;
  for (int guard = 0; guard < 10000; ++guard) {
    Statement statement;
    bool done = false;
    Status status = parser.Next(&statement, &done);
    if (!status.ok()) {
      outline.push_back("error: " + status.message());
    } else if (done) {
      return outline;
    } else {
      outline.push_back(KindOf(statement));
    }
  }
  FAIL("the parser did not reach the end of the script");
  return outline;
}

// The one statement of `cql`, which must parse.
inline Statement ParseOne(std::string_view cql) {
  INFO(cql);
  CqlParser parser(cql);
  Statement statement;
  bool done = true;
  Status status = parser.Next(&statement, &done);
  INFO(status.ToString());
  REQUIRE(status.ok());
  REQUIRE_FALSE(done);
  Statement extra;
  bool end = false;
  REQUIRE(parser.Next(&extra, &end).ok());
  REQUIRE(end);
  return statement;
}

template <typename T>
T ParseAs(std::string_view cql) {
  Statement statement = ParseOne(cql);
  INFO(cql);
  INFO("parsed as " + KindOf(statement));
  REQUIRE(std::holds_alternative<T>(statement.body));
  return std::get<T>(std::move(statement.body));
}

// The status of the first statement of `cql`, which must fail.
inline Status FirstError(std::string_view cql) {
  CqlParser parser(cql);
  Statement statement;
  bool done = false;
  Status status = parser.Next(&statement, &done);
  INFO(cql);
  REQUIRE_FALSE(status.ok());
  return status;
}

inline std::string ErrorMessage(std::string_view cql) { return FirstError(cql).message(); }

// A type as compact text: map<text, frozen<ks.address>>.
inline std::string RenderType(const TypeExpr& type) {
  std::string out = type.keyspace.empty() ? type.name : type.keyspace + "." + type.name;
  if (!type.params.empty()) {
    out += '<';
    for (size_t i = 0; i < type.params.size(); ++i) {
      if (i > 0) out += ", ";
      out += RenderType(type.params[i]);
    }
    out += '>';
  }
  return type.frozen ? "frozen<" + out + ">" : out;
}

// The column names of a CREATE TABLE, comma-joined.
inline std::string ColumnNames(const CreateTable& table) {
  std::string out;
  for (const ColumnExpr& column : table.columns) {
    if (!out.empty()) out += ',';
    out += column.name;
  }
  return out;
}

inline std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ',';
    out += name;
  }
  return out;
}

}  // namespace cellfs::testing
