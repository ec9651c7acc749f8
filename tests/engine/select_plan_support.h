// SelectPlanner: PlanSelect (engine/cql/select_plan.h) run against a schema
// script, for the planner's tests: a query's plan, or the message it is
// refused with.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "engine/cql/catalog.h"
#include "engine/cql/select_plan.h"
#include "tests/engine/cql_parse_support.h"
#include "tests/engine/schema_script.h"

namespace cellfs::testing {

// StatementRestrictions.REQUIRES_ALLOW_FILTERING_MESSAGE.
inline const std::string kRequiresFiltering =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

class SelectPlanner {
 public:
  // Runs `schema` (CQL DDL for keyspace ks); the test fails if it does not.
  explicit SelectPlanner(const char* schema) {
    Status status = RunScript(catalog_, schema);
    INFO(status.ToString());
    REQUIRE(status.ok());
  }

  const Catalog& catalog() const { return catalog_; }

  // Plans `cql` (one SELECT on a table of keyspace ks) into *plan.
  Status Plan(const std::string& cql, SelectPlan* plan) const {
    auto select = ParseAs<SelectStatement>(cql);
    const TableDef* table = catalog_.FindTable("ks", select.table);
    REQUIRE(table != nullptr);
    return PlanSelect(*table, select, plan);
  }

  // The plan of `cql`, which must be accepted.
  SelectPlan Accepted(const std::string& cql) const {
    SelectPlan plan;
    Status status = Plan(cql, &plan);
    INFO(cql);
    INFO(status.ToString());
    REQUIRE(status.ok());
    return plan;
  }

  // The message `cql` is refused with ("accepted" when it is not).
  std::string Refusal(const std::string& cql) const {
    SelectPlan plan;
    Status status = Plan(cql, &plan);
    if (status.ok()) return "accepted";
    CHECK(status.code() == StatusCode::kInvalidArgument);
    return status.message();
  }

 private:
  Catalog catalog_;
};

}  // namespace cellfs::testing
