// Fuzz target for the CQL DDL parser (engine/cql/cql_parser.h) and the catalog
// that applies its statements (engine/cql/catalog.h), up to DESCRIBE's round trip.
//
// Input: the whole input is a CQL script (no selector byte). Properties:
//  - parsing never crashes and always ends: every call to Next either
//    consumes input or reports done;
//  - CompleteStatementsLength is a prefix ending in ';' and idempotent;
//  - every statement that parses is applied to a Catalog without crashing;
//  - every SELECT on a table of that catalog is planned without crashing,
//    and a refusal carries a message;
//  - DESCRIBE of every resulting keyspace parses and applies to a fresh
//    catalog, giving the same keyspace and the same description
//    (engine/cql/describe.h promises that round trip).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/cql/catalog.h"
#include "engine/cql/cql_parser.h"
#include "engine/cql/describe.h"
#include "engine/cql/schema.h"
#include "engine/cql/select_plan.h"
#include "tests/fuzz/fuzz_util.h"

namespace cellfs::fuzz {
namespace {

void CheckCompleteStatementsLength(std::string_view script) {
  const size_t length = CqlParser::CompleteStatementsLength(script);
  if (length > script.size()) Fail("complete length within the input", script);
  if (length > 0 && script[length - 1] != ';') Fail("complete prefix ends in ';'", script);
  if (CqlParser::CompleteStatementsLength(script.substr(0, length)) != length) {
    Fail("complete prefix is itself complete", script);
  }
}

// Plans `select` when its table exists; a refusal must say why.
void PlanIfTableExists(const Catalog& catalog, const std::string& keyspace,
                       const SelectStatement& select, std::string_view script) {
  const TableDef* table =
      catalog.FindTable(select.keyspace.empty() ? keyspace : select.keyspace, select.table);
  if (table == nullptr) return;
  SelectPlan plan;
  Status status = PlanSelect(*table, select, &plan);
  if (!status.ok() && status.message().empty()) Fail("plan refusals carry a message", script);
}

// Parses `script` and applies what parses to `catalog`. Returns the first
// error (parse or apply) when `stop_at_error`, else keeps going as the @cql
// file does. Aborts if the parser stops making progress.
Status RunScript(std::string_view script, bool stop_at_error, Catalog* catalog) {
  CqlParser parser(script);
  std::string keyspace;
  Status first_error;
  // Each statement or error consumes at least one byte (a ';' at least).
  const size_t max_steps = script.size() + 2;
  for (size_t step = 0;; ++step) {
    if (step > max_steps) Fail("the parser terminates", script);
    Statement statement;
    bool done = false;
    Status status = parser.Next(&statement, &done);
    if (status.ok() && done) break;
    if (const auto* select = std::get_if<SelectStatement>(&statement.body); status.ok() && select) {
      PlanIfTableExists(*catalog, keyspace, *select, script);
      continue;
    }
    if (status.ok()) status = catalog->Apply(statement, &keyspace);
    if (!status.ok()) {
      if (status.message().empty()) Fail("errors carry a message", script);
      if (stop_at_error) return status;
      if (first_error.ok()) first_error = status;
    }
  }
  return first_error;
}

// DescribeKeyspace(k) applied to an empty catalog gives k back.
void CheckDescribeRoundTrip(const KeyspaceDef& original, std::string_view script) {
  const std::string text = DescribeKeyspace(original);
  Catalog copy;
  Status status = RunScript(text, /*stop_at_error=*/true, &copy);
  if (!status.ok()) {
    Fail("DESCRIBE output applies", std::string(script) + "\n--- described as ---\n" + text +
                                        "\n--- error ---\n" + status.ToString());
  }
  const KeyspaceDef* again = copy.FindKeyspace(original.name);
  if (again == nullptr || !SameKeyspace(original, *again)) {
    Fail("DESCRIBE output rebuilds the same keyspace",
         std::string(script) + "\n--- described as ---\n" + text);
  }
  const std::string text_again = DescribeKeyspace(*again);
  if (text_again != text) {
    Fail("DESCRIBE is stable", text + "\n--- then ---\n" + text_again);
  }
}

}  // namespace
}  // namespace cellfs::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cellfs;  // NOLINT: harness shorthand
  const std::string_view script(reinterpret_cast<const char*>(data), size);
  fuzz::CheckCompleteStatementsLength(script);
  Catalog catalog;
  (void)fuzz::RunScript(script, /*stop_at_error=*/false, &catalog);
  for (const auto& [name, keyspace] : catalog.keyspaces()) {
    fuzz::CheckDescribeRoundTrip(keyspace, script);
  }
  return 0;
}
