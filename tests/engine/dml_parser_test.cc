// The CQL parser's data statements (engine/cql/dml_statement.h): every form
// of INSERT, UPDATE, DELETE and BATCH, terms kept as written with their
// positions, and the refusals with their positions.
#include <catch2/catch.hpp>

#include "tests/engine/cql_parse_support.h"

namespace cellfs {
namespace {

using testing::FirstError;
using testing::Outline;
using testing::ParseAs;

TEST_CASE("INSERT ... VALUES keeps columns, terms as written and USING", "[parser][dml]") {
  auto insert = ParseAs<InsertStatement>(
      "INSERT INTO ks.t (p, \"C\", s, l) VALUES (1, 'it''s', {'a': [1, 2]}, now()) "
      "USING TTL 60 AND TIMESTAMP 1700000000000000");
  CHECK(insert.keyspace == "ks");
  CHECK(insert.table == "t");
  CHECK_FALSE(insert.json);
  CHECK(insert.columns == std::vector<std::string>{"p", "C", "s", "l"});
  REQUIRE(insert.values.size() == 4);
  CHECK(insert.values[0].text == "1");
  CHECK(insert.values[1].text == "'it''s'");
  CHECK(insert.values[1].position.column == 44);
  CHECK(insert.values[2].text == "{'a': [1, 2]}");
  CHECK(insert.values[3].text == "now()");
  CHECK(insert.using_clause.ttl == 60);
  CHECK(insert.using_clause.timestamp == 1700000000000000);
}

TEST_CASE("INSERT JSON keeps the decoded string and the DEFAULT", "[parser][dml]") {
  auto plain = ParseAs<InsertStatement>("insert into t JSON '{\"p\": 1, \"v\": ''x''}'");
  CHECK(plain.json);
  CHECK(plain.json_value.text == "{\"p\": 1, \"v\": 'x'}");
  CHECK_FALSE(plain.default_unset);
  CHECK(ParseAs<InsertStatement>("INSERT INTO t JSON '{}' DEFAULT UNSET").default_unset);
  CHECK_FALSE(ParseAs<InsertStatement>("INSERT INTO t JSON '{}' DEFAULT NULL").default_unset);
}

TEST_CASE("UPDATE parses every assignment form", "[parser][dml]") {
  auto update = ParseAs<UpdateStatement>(
      "UPDATE t USING TIMESTAMP 5 SET a = 1, c = c + 2, d = d - 3, e = e -4, s = s + {'x'}, "
      "l = [0] + l, l[2] = 'v', m['k'] = 7, u.city = 'Oslo', n = null WHERE p = 1 AND c1 = 'x'");
  CHECK(update.using_clause.timestamp == 5);
  CHECK_FALSE(update.using_clause.ttl);
  using K = Assignment::Kind;
  REQUIRE(update.assignments.size() == 10);
  const auto& a = update.assignments;
  CHECK((a[0].kind == K::kSet && a[0].value.text == "1"));
  CHECK((a[1].kind == K::kAdd && a[1].value.text == "2"));
  CHECK((a[2].kind == K::kSubtract && a[2].value.text == "3"));
  CHECK((a[3].kind == K::kAdd && a[3].value.text == "-4"));
  CHECK((a[4].kind == K::kAdd && a[4].value.text == "{'x'}"));
  CHECK((a[5].kind == K::kPrepend && a[5].value.text == "[0]"));
  CHECK((a[6].kind == K::kSet && a[6].target.index->text == "2" && a[6].value.text == "'v'"));
  CHECK((a[7].target.index->text == "'k'" && a[7].value.text == "7"));
  CHECK((a[8].target.field == "city" && a[8].value.text == "'Oslo'"));
  CHECK(a[9].value.is_null());
  REQUIRE(update.where.size() == 2);
  CHECK(update.where[1].column == "c1");
  CHECK(update.where[1].value.text == "'x'");
}

TEST_CASE("WHERE relations take IN lists, empty ones too", "[parser][dml]") {
  auto update = ParseAs<UpdateStatement>("UPDATE t SET v = 1 WHERE p IN (1, 2) AND c IN ()");
  REQUIRE(update.where.size() == 2);
  CHECK(update.where[0].op == Relation::Op::kIn);
  REQUIRE(update.where[0].in_values.size() == 2);
  CHECK(update.where[0].in_values[1].text == "2");
  CHECK((update.where[1].op == Relation::Op::kIn && update.where[1].in_values.empty()));
}

TEST_CASE("IF clauses: NOT EXISTS before USING, EXISTS, and conditions", "[parser][dml][lwt]") {
  using Kind = ConditionClause::Kind;
  using Op = Condition::Op;
  auto insert = ParseAs<InsertStatement>("INSERT INTO t (p) VALUES (1) IF NOT EXISTS USING TTL 5");
  CHECK(insert.conditions.kind == Kind::kIfNotExists);
  CHECK(insert.conditions.position.column == 30);
  CHECK(insert.using_clause.ttl == 5);
  CHECK(ParseAs<InsertStatement>("INSERT INTO t (p) VALUES (1)").conditions.empty());
  CHECK(ParseAs<DeleteStatement>("DELETE FROM t WHERE p = 1 IF EXISTS").conditions.kind ==
        Kind::kIfExists);
  auto update = ParseAs<UpdateStatement>(
      "UPDATE t SET v = 1 WHERE p = 1 IF v = 2 AND w != null AND m['k'] <= 3 AND u.f > 'x' "
      "AND l[0] IN (1, null) AND x < 1 AND y >= 2");
  REQUIRE(update.conditions.kind == Kind::kColumns);
  const auto& c = update.conditions.columns;
  REQUIRE(c.size() == 7);
  CHECK((c[0].target.name == "v" && c[0].op == Op::kEq && c[0].value.text == "2"));
  CHECK((c[1].op == Op::kNe && c[1].value.is_null()));
  CHECK((c[2].target.index->text == "'k'" && c[2].op == Op::kLe && c[2].value.text == "3"));
  CHECK((c[3].target.field == "f" && c[3].op == Op::kGt));
  CHECK((c[4].op == Op::kIn && c[4].values.size() == 2 && c[4].values[1].is_null()));
  CHECK(c[5].op == Op::kLt);
  CHECK((c[6].op == Op::kGe && c[6].op_position.column == 123));
}

TEST_CASE("DELETE parses columns, elements, ranges and USING TIMESTAMP", "[parser][dml]") {
  auto remove = ParseAs<DeleteStatement>(
      "DELETE a, m['k'], l[0], u.f FROM ks.t USING TIMESTAMP 9 WHERE p = 1 AND c > 2 AND c <= 5");
  REQUIRE(remove.columns.size() == 4);
  CHECK(remove.columns[1].index->text == "'k'");
  CHECK(remove.columns[3].field == "f");
  CHECK(remove.using_clause.timestamp == 9);
  using Op = Relation::Op;
  REQUIRE(remove.where.size() == 3);
  CHECK(remove.where[0].op == Op::kEq);
  CHECK(remove.where[1].op == Op::kGt);
  CHECK(remove.where[2].op == Op::kLe);
  auto row = ParseAs<DeleteStatement>("DELETE FROM t WHERE p = 1 AND c >= 2 AND c < 3");
  CHECK(row.columns.empty());
  CHECK(row.where[1].op == Op::kGe);
  CHECK(row.where[2].op == Op::kLt);
}

TEST_CASE("BATCH holds its statements, with or without ';' between them", "[parser][dml]") {
  CHECK(Outline("BEGIN BATCH INSERT INTO t (p) VALUES (1); UPDATE t SET v = 1 WHERE p = 2 "
                "DELETE FROM t WHERE p = 3; APPLY BATCH; INSERT INTO t (p) VALUES (4)") ==
        std::vector<std::string>{"Batch(3)", "Insert"});
  auto batch = ParseAs<BatchStatement>(
      "begin unlogged batch using timestamp 7 insert into t (p) values (1) apply batch");
  CHECK(batch.type == BatchStatement::Type::kUnlogged);
  CHECK(batch.using_clause.timestamp == 7);
  CHECK(ParseAs<BatchStatement>("BEGIN COUNTER BATCH UPDATE c SET n = n + 1 WHERE p = 1; "
                                "APPLY BATCH")
            .type == BatchStatement::Type::kCounter);
}

TEST_CASE("a whole BATCH is one complete statement for a streaming reader", "[parser][dml]") {
  const std::string script = "BEGIN BATCH INSERT INTO t (p) VALUES (1); INSERT";
  CHECK(CqlParser::CompleteStatementsLength(script) == 0);
  const std::string done = "BEGIN BATCH INSERT INTO t (p) VALUES (1); APPLY BATCH; USE k";
  CHECK(CqlParser::CompleteStatementsLength(done) == done.size() - 6);
}

TEST_CASE("data statement refusals carry their positions", "[parser][dml][errors]") {
  struct Case {
    const char* cql;
    const char* message;
  };
  const Case cases[] = {
      {"INSERT INTO t (p) VALUES (1) IF EXISTS", "line 1:33: expected NOT, found 'exists'"},
      {"UPDATE t SET v = 1 WHERE p = 1 IF v",
       "line 1:36: expected '=', '<', '<=', '>', '>=', "
       "'!=' or IN, found end of input"},
      {"DELETE FROM t WHERE p = 1 IF v IN (1", "line 1:37: expected ')', found end of input"},
      {"UPDATE t SET v = 1 WHERE p = 1 IF NOT EXISTS",
       "line 1:35: expected column name, found reserved keyword 'not'"},
      {"DELETE FROM t WHERE p IN (1, 2", "line 1:31: expected ')', found end of input"},
      {"DELETE FROM t WHERE p IN 1", "line 1:26: expected '(', found '1'"},
      {"INSERT INTO t (p) VALUES ()", "line 1:27: expected a value, found ')'"},
      {"INSERT t (p) VALUES (1)", "line 1:8: expected INTO, found 't'"},
      {"UPDATE t SET v = 1", "line 1:19: expected WHERE, found end of input"},
      {"UPDATE t SET l = [1] + m WHERE p = 1",
       "line 1:24: Only expressions of the form X = <value> + X are supported."},
      {"DELETE FROM t USING TTL 5 WHERE p = 1", "line 1:21: expected TIMESTAMP, found 'ttl'"},
      {"UPDATE t USING TTL 1 AND TTL 2 SET v = 1 WHERE p = 1",
       "line 1:26: Multiple definitions found for TTL"},
      {"INSERT INTO t (p) VALUES ({1, 2)", "line 1:32: expected '}', found ')'"},
      {"INSERT INTO t (p) VALUES ([1, 2", "line 1:32: expected ']', found end of input"},
      {"BEGIN BATCH SELECT * FROM t APPLY BATCH",
       "line 1:13: expected INSERT, UPDATE, DELETE or APPLY BATCH, found reserved keyword "
       "'select'"},
  };
  for (const Case& c : cases) {
    INFO(c.cql);
    CHECK(FirstError(c.cql).message() == c.message);
  }
}

TEST_CASE("an error inside a BATCH skips the whole batch, not just to its first ';'",
          "[parser][dml][errors]") {
  CHECK(
      Outline("BEGIN BATCH INSERT INTO t (p) VALUES (1) IF NOT THERE; "
              "INSERT INTO t (p) VALUES (2); APPLY BATCH; USE k") ==
      std::vector<std::string>{"error: line 1:49: expected EXISTS, found 'there'", "UseKeyspace"});
}

}  // namespace
}  // namespace cellfs
