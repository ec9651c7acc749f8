// The CQL parser's SELECT (engine/cql/select_statement.h): every selector
// kind, every relation form, the clauses after WHERE, and the syntax errors
// with their positions.
#include <catch2/catch.hpp>

#include "tests/engine/cql_parse_support.h"

namespace cellfs {
namespace {

using testing::ErrorMessage;
using testing::Outline;
using testing::ParseAs;
using K = Selector::Kind;
using Op = SelectRelation::Op;
using Target = SelectRelation::Target;

TEST_CASE("SELECT * with nothing else parses to a wildcard over the table", "[parser][select]") {
  auto select = ParseAs<SelectStatement>("SELECT * FROM ks.\"T\"");
  CHECK(select.wildcard);
  CHECK(select.selectors.empty());
  CHECK(select.keyspace == "ks");
  CHECK(select.table == "T");
  CHECK(select.table_position.column == 15);
  CHECK_FALSE(select.json);
  CHECK_FALSE(select.distinct);
  CHECK(select.where.empty());
  CHECK(select.order_by.empty());
  CHECK_FALSE(select.limit);
  CHECK_FALSE(select.per_partition_limit);
  CHECK_FALSE(select.allow_filtering);
}

TEST_CASE("every selector kind keeps its name, arguments and alias", "[parser][select]") {
  auto select = ParseAs<SelectStatement>(
      "SELECT JSON DISTINCT k, count(*), COUNT(1) AS n, WRITETIME(v) AS w, ttl(\"V\"), "
      "token(a, b), CAST(v AS text), toTimestamp(now()), count(v), 'lit', -5, \"count\" "
      "FROM t");
  CHECK(select.json);
  CHECK(select.distinct);
  CHECK_FALSE(select.wildcard);
  const auto& s = select.selectors;
  REQUIRE(s.size() == 12);
  CHECK((s[0].kind == K::kColumn && s[0].name == "k" && s[0].alias.empty()));
  CHECK(s[1].kind == K::kCountRows);
  CHECK((s[2].kind == K::kCountRows && s[2].alias == "n"));
  CHECK((s[3].kind == K::kWriteTime && s[3].name == "v" && s[3].alias == "w"));
  CHECK((s[4].kind == K::kTtl && s[4].name == "V"));
  REQUIRE(s[5].args.size() == 2);
  CHECK((s[5].kind == K::kToken && s[5].args[0].name == "a" && s[5].args[1].name == "b"));
  REQUIRE(s[6].args.size() == 1);
  CHECK((s[6].kind == K::kCast && s[6].name == "text" && s[6].args[0].name == "v"));
  REQUIRE(s[7].args.size() == 1);
  CHECK((s[7].kind == K::kFunction && s[7].name == "totimestamp"));
  CHECK((s[7].args[0].kind == K::kFunction && s[7].args[0].name == "now" &&
         s[7].args[0].args.empty()));
  CHECK((s[8].kind == K::kFunction && s[8].name == "count" && s[8].args[0].name == "v"));
  CHECK((s[9].kind == K::kTerm && s[9].term.text == "'lit'"));
  CHECK((s[10].kind == K::kTerm && s[10].term.text == "-5"));
  CHECK((s[11].kind == K::kColumn && s[11].name == "count"));
  CHECK(s[3].position.column == 50);
}

TEST_CASE("WHERE keeps every relation form with its values as written", "[parser][select]") {
  auto select = ParseAs<SelectStatement>(
      "SELECT * FROM t WHERE a = 1 AND b < 2 AND b <= 3 AND c > 'x' AND c >= 4 AND d != 5 "
      "AND e IN (1, 2) AND f IN () AND (c1, c2) > (1, 2) AND (c1, c2) IN ((1, 2), (3, 4)) "
      "AND token(a, b) > -5 AND l CONTAINS 1 AND m CONTAINS KEY 'k' AND n LIKE 'ab%'");
  const auto& w = select.where;
  REQUIRE(w.size() == 14);
  const Op ops[] = {Op::kEq, Op::kLt, Op::kLe, Op::kGt, Op::kGe,       Op::kNe,          Op::kIn,
                    Op::kIn, Op::kGt, Op::kIn, Op::kGt, Op::kContains, Op::kContainsKey, Op::kLike};
  for (size_t i = 0; i < w.size(); ++i) {
    INFO(i);
    CHECK(w[i].op == ops[i]);
  }
  CHECK((w[0].target == Target::kColumn && w[0].columns == std::vector<std::string>{"a"}));
  CHECK(w[0].value.text == "1");
  CHECK(w[3].value.text == "'x'");
  CHECK(w[5].value.text == "5");
  REQUIRE(w[6].in_list.size() == 2);
  CHECK((w[6].in_list[0].text == "1" && w[6].in_list[1].text == "2"));
  CHECK(w[7].in_list.empty());
  CHECK(w[8].target == Target::kMultiColumn);
  CHECK(w[8].columns == std::vector<std::string>{"c1", "c2"});
  CHECK(w[8].value.text == "(1, 2)");
  REQUIRE(w[9].in_list.size() == 2);
  CHECK((w[9].in_list[0].text == "(1, 2)" && w[9].in_list[1].text == "(3, 4)"));
  CHECK((w[10].target == Target::kToken && w[10].columns == std::vector<std::string>{"a", "b"}));
  CHECK(w[10].value.text == "-5");
  CHECK(w[13].value.text == "'ab%'");
  CHECK(w[12].value.text == "'k'");
  CHECK(w[1].position.column == 33);
}

TEST_CASE("ORDER BY, PER PARTITION LIMIT, LIMIT and ALLOW FILTERING are kept in order",
          "[parser][select]") {
  auto select = ParseAs<SelectStatement>(
      "select v from t where k = 1 order by c1 desc, c2 asc, c3 per partition limit 2 "
      "limit 10 allow filtering");
  REQUIRE(select.order_by.size() == 3);
  CHECK((select.order_by[0].column == "c1" && select.order_by[0].descending));
  CHECK((select.order_by[1].column == "c2" && !select.order_by[1].descending));
  CHECK((select.order_by[2].column == "c3" && !select.order_by[2].descending));
  REQUIRE(select.per_partition_limit);
  CHECK(select.per_partition_limit->text == "2");
  REQUIRE(select.limit);
  CHECK(select.limit->text == "10");
  CHECK(select.limit->position.column == 86);
  CHECK(select.allow_filtering);
  // Zero and negative limits parse; the planner refuses them.
  CHECK(ParseAs<SelectStatement>("SELECT * FROM t LIMIT -1").limit->text == "-1");
}

TEST_CASE("SELECT sits in a script like any statement", "[parser][select]") {
  CHECK(Outline("SELECT * FROM t WHERE a = ';'; DROP TABLE x; select k from t") ==
        std::vector<std::string>{"Select", "DropTable", "Select"});
}

TEST_CASE("malformed SELECTs are syntax errors at the offending token", "[parser][select]") {
  struct Case {
    const char* cql;
    const char* message;
  };
  const Case cases[] = {
      {"SELECT FROM t", "line 1:8: expected a selector, found reserved keyword 'from'"},
      {"SELECT * t", "line 1:10: expected FROM, found 't'"},
      {"SELECT token FROM t", "line 1:8: expected a selector, found reserved keyword 'token'"},
      {"SELECT a, FROM t", "line 1:11: expected a selector, found reserved keyword 'from'"},
      {"SELECT a AS FROM t", "line 1:13: expected an alias, found reserved keyword 'from'"},
      {"SELECT count(*, FROM t", "line 1:15: expected ')', found ','"},
      {"SELECT cast(v text) FROM t", "line 1:15: expected AS, found 'text'"},
      {"SELECT * FROM t WHERE", "line 1:22: expected column name, found end of input"},
      {"SELECT * FROM t WHERE a 'x'",
       "line 1:25: expected '=', '<', '<=', '>', '>=', '!=', IN, CONTAINS or LIKE, found string "
       "'x'"},
      {"SELECT * FROM t WHERE m['a'] IN (1)",
       "line 1:30: expected '=', '<', '<=', '>', '>=' or '!=', found reserved keyword 'in'"},
      {"SELECT * FROM t WHERE m['a'] CONTAINS 1",
       "line 1:30: expected '=', '<', '<=', '>', '>=' or '!=', found 'contains'"},
      {"SELECT * FROM t WHERE (a, b) LIKE 'x'",
       "line 1:30: expected '=', '<', '<=', '>', '>=', '!=' or IN, found 'like'"},
      {"SELECT * FROM t WHERE token(a) IN (1)",
       "line 1:32: expected '=', '<', '<=', '>', '>=' or '!=', found reserved keyword 'in'"},
      {"SELECT * FROM t WHERE (a, b) CONTAINS 1",
       "line 1:30: expected '=', '<', '<=', '>', '>=', '!=' or IN, found 'contains'"},
      {"SELECT * FROM t WHERE a IN 1", "line 1:28: expected '(', found '1'"},
      {"SELECT * FROM t LIMIT 'x'", "line 1:23: expected an integer, found string 'x'"},
      {"SELECT * FROM t PER LIMIT 1",
       "line 1:21: expected PARTITION, found reserved keyword 'limit'"},
      {"SELECT * FROM t ORDER c", "line 1:23: expected BY, found 'c'"},
      {"SELECT * FROM t ALLOW", "line 1:22: expected FILTERING, found end of input"},
      {"SELECT * FROM t LIMIT 1 WHERE a = 1",
       "line 1:25: expected ';', found reserved keyword "
       "'where'"},
  };
  for (const Case& c : cases) {
    INFO(c.cql);
    CHECK(ErrorMessage(c.cql) == c.message);
  }
}

TEST_CASE("GROUP BY is refused as not supported, with its position", "[parser][select]") {
  Status status = testing::FirstError("SELECT k, count(*) FROM t GROUP BY k");
  CHECK(status.code() == StatusCode::kNotSupported);
  CHECK(status.message() == "line 1:27: GROUP BY is not supported by cellfs");
}

}  // namespace
}  // namespace cellfs
