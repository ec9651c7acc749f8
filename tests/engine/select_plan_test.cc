// PlanSelect (engine/cql/select_plan.h): Cassandra 4.x's restriction rules
// for SELECT, each with the exact InvalidRequest message it refuses with,
// and the partitions, clustering steps, filters and order it accepts.
#include "engine/cql/select_plan.h"

#include <catch2/catch.hpp>

#include "engine/cql/catalog.h"
#include "tests/engine/select_plan_support.h"

namespace cellfs {
namespace {

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "CREATE TABLE ks.t (k int, c1 int, c2 int, c3 int, s int static, v int, l list<int>,\n"
    "  m map<text, int>, fl frozen<list<int>>, PRIMARY KEY (k, c1, c2, c3));\n"
    "CREATE TABLE ks.p (a int, b int, c int, v int, PRIMARY KEY ((a, b), c));\n"
    "CREATE TABLE ks.d (k int, c int, v int, PRIMARY KEY (k, c))\n"
    "  WITH CLUSTERING ORDER BY (c DESC);\n"
    "CREATE TABLE ks.m2 (k int, a int, b int, v int, PRIMARY KEY (k, a, b))\n"
    "  WITH CLUSTERING ORDER BY (a ASC, b DESC);\n"
    "CREATE TYPE ks.addr (street text);\n"
    "CREATE TABLE ks.u (k int PRIMARY KEY, a addr, fa frozen<addr>);\n";

// Columns of ks.t by index (canonical order: keys, then the rest by name).
constexpr int kV = 8;
constexpr int kS = 7;

const testing::SelectPlanner& Planner() {
  static const testing::SelectPlanner* planner = new testing::SelectPlanner(kSchema);
  return *planner;
}

SelectPlan Accepted(const std::string& cql) { return Planner().Accepted(cql); }
std::string Refusal(const std::string& cql) { return Planner().Refusal(cql); }

// The partition keys of a plan as "1,3 1,4 ...".
std::string Keys(const SelectPlan& plan) {
  std::string out;
  for (const auto& key : plan.partition_keys) {
    if (!out.empty()) out += ' ';
    for (size_t i = 0; i < key.size(); ++i) out += (i ? "," : "") + key[i].text;
  }
  return out;
}

// The clustering steps as "eq(c1:1) slice(c2:(2,]" etc.: kind, first
// position, columns, values or bounds.
std::string Steps(const SelectPlan& plan) {
  std::string out;
  for (const ClusteringStep& step : plan.clustering) {
    if (!out.empty()) out += ' ';
    out += step.kind == ClusteringStep::Kind::kEq   ? "eq"
           : step.kind == ClusteringStep::Kind::kIn ? "in"
                                                    : "slice";
    out += "@" + std::to_string(step.first) + "x" + std::to_string(step.column_count) + "[";
    for (const CqlTerm& value : step.values) out += value.text + ";";
    if (step.start) out += (step.start->inclusive ? ">=" : ">") + step.start->value.text;
    if (step.end) out += (step.end->inclusive ? "<=" : "<") + step.end->value.text;
    out += "]";
  }
  return out;
}

const std::string& kFiltering = testing::kRequiresFiltering;

TEST_CASE("an unknown column anywhere is an undefined column name, in 5.0's words",
          "[select_plan]") {
  CHECK(Refusal("SELECT x FROM t") == "Undefined column name x in table ks.t");
  CHECK(Refusal("SELECT writetime(x) FROM t") == "Undefined column name x in table ks.t");
  CHECK(Refusal("SELECT totimestamp(x) FROM t") == "Undefined column name x in table ks.t");
  CHECK(Refusal("SELECT * FROM t WHERE x = 1") == "Undefined column name x in table ks.t");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND (c1, x) > (1, 2)") ==
        "Undefined column name x in table ks.t");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 ORDER BY x") ==
        "Undefined column name x in table ks.t");
  CHECK(Refusal("SELECT \"X y\" FROM t") == "Undefined column name \"X y\" in table ks.t");
}

TEST_CASE("= and IN on every partition key column name exact partitions, as a product",
          "[select_plan]") {
  SelectPlan one = Accepted("SELECT * FROM t WHERE k = 1");
  CHECK(one.partitions == SelectPlan::Partitions::kKeys);
  CHECK(Keys(one) == "1");
  CHECK(Keys(Accepted("SELECT * FROM p WHERE a IN (1, 2) AND b IN (3, 4)")) == "1,3 1,4 2,3 2,4");
  CHECK(Keys(Accepted("SELECT * FROM p WHERE b = 5 AND a IN (1, 2)")) == "1,5 2,5");
  SelectPlan none = Accepted("SELECT * FROM t WHERE k IN ()");
  CHECK(none.partitions == SelectPlan::Partitions::kKeys);
  CHECK(none.partition_keys.empty());
  SelectPlan all = Accepted("SELECT * FROM t");
  CHECK(all.partitions == SelectPlan::Partitions::kAll);
  CHECK(all.filters.empty());
}

TEST_CASE("a partial or ranged partition key needs ALLOW FILTERING, and then filters",
          "[select_plan]") {
  CHECK(Refusal("SELECT * FROM p WHERE a = 1") == kFiltering);
  CHECK(Refusal("SELECT * FROM t WHERE k > 1") == kFiltering);
  CHECK(Refusal("SELECT * FROM p WHERE a IN (1, 2) ALLOW FILTERING") ==
        "IN restrictions are not supported when the query involves filtering");
  SelectPlan plan = Accepted("SELECT * FROM p WHERE a = 1 ALLOW FILTERING");
  CHECK(plan.partitions == SelectPlan::Partitions::kAll);
  REQUIRE(plan.filters.size() == 1);
  CHECK(plan.filters[0].columns == std::vector<size_t>{0});
  CHECK(plan.filters[0].value.text == "1");
}

TEST_CASE("token() relations make a token range; their arguments are the partition key",
          "[select_plan]") {
  SelectPlan plan = Accepted("SELECT * FROM p WHERE token(a, b) > 5 AND token(a, b) <= 10");
  CHECK(plan.partitions == SelectPlan::Partitions::kTokenRange);
  REQUIRE((plan.token_start && plan.token_end));
  CHECK((plan.token_start->value.text == "5" && !plan.token_start->inclusive));
  CHECK((plan.token_end->value.text == "10" && plan.token_end->inclusive));
  SelectPlan eq = Accepted("SELECT * FROM t WHERE token(k) = 7");
  CHECK((eq.token_start->inclusive && eq.token_end->value.text == "7"));
  SelectPlan keyed = Accepted("SELECT * FROM t WHERE k = 1 AND token(k) > 0");
  CHECK(keyed.partitions == SelectPlan::Partitions::kKeys);
  CHECK(keyed.token_start->value.text == "0");
  CHECK(Refusal("SELECT * FROM p WHERE token(b, a) > 1") ==
        "The token function arguments must be in the partition key order: a, b");
  CHECK(Refusal("SELECT * FROM t WHERE token(c1) > 1") ==
        "The token function arguments must be in the partition key order: k");
  CHECK(Refusal("SELECT * FROM t WHERE token(k) > 1 AND token(k) >= 2") ==
        "More than one restriction was found for the start bound on k");
  CHECK(Refusal("SELECT * FROM t WHERE token(k) = 1 AND token(k) < 2") ==
        "k cannot be restricted by more than one relation if it includes an Equal");
  CHECK(Refusal("SELECT * FROM p WHERE token(a, b) > 1 AND a = 1") == kFiltering);
}

TEST_CASE("clustering restrictions narrow by an = prefix, then one slice or IN", "[select_plan]") {
  CHECK(Steps(Accepted("SELECT * FROM t WHERE k = 1 AND c1 = 1 AND c2 > 2")) ==
        "eq@0x1[1;] slice@1x1[>2]");
  CHECK(Steps(Accepted("SELECT * FROM t WHERE k = 1 AND c1 IN (1, 2) AND c2 >= 3 AND c2 < 9")) ==
        "in@0x1[1;2;] slice@1x1[>=3<9]");
  CHECK(Steps(Accepted("SELECT * FROM t WHERE k = 1 AND c2 = 5 AND c1 = 4 AND c3 <= 1")) ==
        "eq@0x1[4;] eq@1x1[5;] slice@2x1[<=1]");
}

TEST_CASE("a clustering column needs its predecessors restricted, by = or IN", "[select_plan]") {
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c2 = 1") ==
        "PRIMARY KEY column \"c2\" cannot be restricted as preceding column \"c1\" is not "
        "restricted");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c1 = 1 AND c3 = 1") ==
        "PRIMARY KEY column \"c3\" cannot be restricted as preceding column \"c2\" is not "
        "restricted");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c1 > 1 AND c2 = 1") ==
        "Clustering column \"c2\" cannot be restricted (preceding column \"c1\" is restricted by "
        "a non-EQ relation)");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c2 = 1 AND c1 > 1") ==
        "PRIMARY KEY column \"c2\" cannot be restricted (preceding column \"c1\" is restricted by "
        "a non-EQ relation)");
  SelectPlan filtered =
      Accepted("SELECT * FROM t WHERE k = 1 AND c1 > 1 AND c2 = 1 ALLOW FILTERING");
  CHECK(Steps(filtered) == "slice@0x1[>1]");
  REQUIRE(filtered.filters.size() == 1);
  CHECK(filtered.filters[0].columns == std::vector<size_t>{2});
  SelectPlan gap = Accepted("SELECT * FROM t WHERE k = 1 AND c2 = 1 ALLOW FILTERING");
  CHECK(gap.clustering.empty());
  CHECK(gap.filters.size() == 1);
}

TEST_CASE("two relations on one column merge only as a slice with one bound each",
          "[select_plan]") {
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c1 > 1 AND c1 > 2") ==
        "More than one restriction was found for the start bound on c1");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c1 < 1 AND c1 <= 2") ==
        "More than one restriction was found for the end bound on c1");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c1 = 1 AND c1 = 2") ==
        "c1 cannot be restricted by more than one relation if it includes an Equal");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND k = 2") ==
        "k cannot be restricted by more than one relation if it includes an Equal");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c1 IN (1, 3) AND c1 = 2") ==
        "c1 cannot be restricted by more than one relation if it includes a IN");
  // 4.x: an IN of one value is an = (SingleColumnRelation.newINRestriction).
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c1 IN (1) AND c1 = 2") ==
        "c1 cannot be restricted by more than one relation if it includes an Equal");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND c1 > 1 AND c1 = 2") ==
        "Column \"c1\" cannot be restricted by both an equality and an inequality relation");
  CHECK(Steps(Accepted("SELECT * FROM t WHERE k = 1 AND c1 < 9 AND c1 > 1")) == "slice@0x1[>1<9]");
}

TEST_CASE("tuple relations apply to consecutive clustering columns in key order", "[select_plan]") {
  SelectPlan slice = Accepted("SELECT * FROM t WHERE k = 1 AND (c1, c2) > (1, 2)");
  CHECK(Steps(slice) == "slice@0x2[>(1, 2)]");
  CHECK(slice.clustering[0].multi_column);
  CHECK(slice.clustering[0].start->column_count == 2);
  CHECK(Steps(Accepted("SELECT * FROM t WHERE k = 1 AND (c1, c2) IN ((1, 2), (3, 4))")) ==
        "in@0x2[(1, 2);(3, 4);]");
  CHECK(Steps(Accepted("SELECT * FROM t WHERE k = 1 AND c1 = 0 AND (c2, c3) = (1, 2)")) ==
        "eq@0x1[0;] eq@1x2[(1, 2);]");
  SelectPlan merged = Accepted("SELECT * FROM t WHERE k = 1 AND (c1, c2) > (1, 2) AND c1 < 5");
  CHECK(Steps(merged) == "slice@0x2[>(1, 2)<5]");
  CHECK(merged.clustering[0].end->column_count == 1);
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND (c1, v) = (1, 2)") ==
        "Multi-column relations can only be applied to clustering columns but was applied to: v");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND (c2, c1) > (1, 2)") ==
        "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: "
        "(c2, c1) > (1, 2)");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND (c1, c1) = (1, 1)") ==
        "Column \"c1\" appeared twice in a relation: (c1, c1) = (1, 1)");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND (c1, c2) > (1, 2) AND (c1) > (0)") ==
        "More than one restriction was found for the start bound on c1");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND (c1, c2) > (1, 2) AND c2 < 3") ==
        "Clustering column \"c2\" cannot be restricted (preceding column \"c1\" is restricted by "
        "a non-EQ relation)");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND (c1, c2) > (1, 2) AND c2 < 3 ALLOW FILTERING") ==
        "Column \"c2\" cannot be restricted by two inequalities not starting with the same column");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND (c1, c2) = (1, 2) AND c2 = 3") ==
        "c2 cannot be restricted by more than one relation if it includes an Equal");
}

TEST_CASE("relations on other columns are filters that need ALLOW FILTERING", "[select_plan]") {
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND v = 2") == kFiltering);
  CHECK(Refusal("SELECT * FROM t WHERE s = 2") == kFiltering);
  SelectPlan plan = Accepted("SELECT * FROM t WHERE k = 1 AND v > 2 AND v < 9 ALLOW FILTERING");
  REQUIRE(plan.filters.size() == 2);
  CHECK(plan.filters[0].columns == std::vector<size_t>{kV});
  CHECK(plan.filters[0].op == SelectRelation::Op::kGt);
  CHECK(plan.filters[1].op == SelectRelation::Op::kLt);
  CHECK(plan.allow_filtering);
  SelectPlan in = Accepted("SELECT * FROM t WHERE v IN (1, 2) ALLOW FILTERING");
  CHECK(in.filters[0].in_list.size() == 2);
}

TEST_CASE("!= is refused on any column, before the column is looked up", "[select_plan]") {
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND v != 2") == "Unsupported \"!=\" relation: v != 2");
  CHECK(Refusal("SELECT * FROM t WHERE x != 'a'") == "Unsupported \"!=\" relation: x != 'a'");
}

TEST_CASE("collections take CONTAINS and CONTAINS KEY, other columns do not", "[select_plan]") {
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND l = [1] ALLOW FILTERING") ==
        "Collection column 'l' (list<int>) cannot be restricted by a '=' relation");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND m IN ({}) ALLOW FILTERING") ==
        "Collection column 'm' (map<text, int>) cannot be restricted by a 'IN' relation");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND v CONTAINS 1") ==
        "Cannot use CONTAINS on non-collection column v");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND l CONTAINS KEY 1") ==
        "Cannot use CONTAINS KEY on non-map column l");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND l CONTAINS 1") == kFiltering);
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND l CONTAINS 1 AND l > [1] ALLOW FILTERING") ==
        "Collection column 'l' (list<int>) cannot be restricted by a '>' relation");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 AND fl CONTAINS 1 AND fl = [1] ALLOW FILTERING") ==
        "Collection column fl can only be restricted by CONTAINS, CONTAINS KEY, or map-entry "
        "equality");
  CHECK(Refusal("SELECT * FROM u WHERE a = {street: 'x'} ALLOW FILTERING") ==
        "Non-frozen UDT column 'a' (addr) cannot be restricted by any relation");
  Accepted("SELECT * FROM u WHERE fa = {street: 'x'} ALLOW FILTERING");
  SelectPlan plan = Accepted(
      "SELECT * FROM t WHERE k = 1 AND m CONTAINS KEY 'a' AND m CONTAINS 2 "
      "AND fl = [1] ALLOW FILTERING");
  REQUIRE(plan.filters.size() == 3);
  CHECK(plan.filters[0].op == SelectRelation::Op::kContainsKey);
  CHECK(plan.filters[1].op == SelectRelation::Op::kContains);
}

TEST_CASE("clustering relations over a range of partitions need ALLOW FILTERING", "[select_plan]") {
  CHECK(Refusal("SELECT * FROM t WHERE c1 = 1") == kFiltering);
  CHECK(Refusal("SELECT * FROM t WHERE token(k) > 0 AND c1 > 1") == kFiltering);
  SelectPlan plan = Accepted("SELECT * FROM t WHERE c1 = 1 ALLOW FILTERING");
  CHECK(plan.partitions == SelectPlan::Partitions::kAll);
  CHECK(Steps(plan) == "eq@0x1[1;]");
}

TEST_CASE("selecting only static columns refuses clustering restrictions", "[select_plan]") {
  CHECK(Refusal("SELECT s FROM t WHERE k = 1 AND c1 = 1") ==
        "Cannot restrict clustering columns when selecting only static columns");
  CHECK(Refusal("SELECT k, s FROM t WHERE k = 1 AND c1 = 1") ==
        "Cannot restrict clustering columns when selecting only static columns");
  Accepted("SELECT s, v FROM t WHERE k = 1 AND c1 = 1");
}

TEST_CASE("ORDER BY follows the clustering key of named partitions, one direction",
          "[select_plan]") {
  CHECK(Accepted("SELECT * FROM t WHERE k = 1 ORDER BY c1 DESC").reversed);
  CHECK_FALSE(Accepted("SELECT * FROM t WHERE k = 1 ORDER BY c1 ASC, c2").reversed);
  CHECK(Accepted("SELECT * FROM t WHERE k = 1 AND c1 = 1 ORDER BY c2 DESC").reversed);
  CHECK(Accepted("SELECT * FROM d WHERE k = 1 ORDER BY c ASC").reversed);
  CHECK_FALSE(Accepted("SELECT * FROM d WHERE k = 1 ORDER BY c DESC").reversed);
  CHECK(Accepted("SELECT * FROM m2 WHERE k = 1 ORDER BY a DESC, b ASC").reversed);
  CHECK(Refusal("SELECT * FROM m2 WHERE k = 1 ORDER BY a ASC, b ASC") ==
        "Unsupported order by relation");
  CHECK(Refusal("SELECT * FROM t ORDER BY c1 DESC") ==
        "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
  CHECK(Refusal("SELECT * FROM p WHERE a = 1 ORDER BY c ALLOW FILTERING") ==
        "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 ORDER BY c2 DESC") ==
        "Order by currently only supports the ordering of columns following their declared order "
        "in the PRIMARY KEY");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 ORDER BY c2, c1") ==
        "Order by currently only supports the ordering of columns following their declared order "
        "in the PRIMARY KEY");
  CHECK(Refusal("SELECT * FROM t WHERE k = 1 ORDER BY v") ==
        "Order by is currently only supported on the clustered columns of the PRIMARY KEY, got v");
  CHECK(Refusal("SELECT * FROM t WHERE k IN (1, 2) ORDER BY c1 DESC") ==
        "Cannot page queries with both ORDER BY and a IN restriction on the partition key; you "
        "must either remove the ORDER BY or the IN and sort client side, or disable paging for "
        "this query");
}

TEST_CASE("writetime and ttl take regular and static columns only", "[select_plan]") {
  CHECK(Refusal("SELECT writetime(k) FROM t") ==
        "Cannot use selection function writeTime on PRIMARY KEY part k");
  CHECK(Refusal("SELECT ttl(c1) FROM t") ==
        "Cannot use selection function ttl on PRIMARY KEY part c1");
  CHECK(Refusal("SELECT writetime(l) FROM t") ==
        "Cannot use selection function writeTime on non-frozen collection l");
  SelectPlan plan = Accepted("SELECT v, writetime(v) AS w, ttl(s), writetime(fl) FROM t");
  REQUIRE(plan.selectors.size() == 4);
  CHECK((plan.selectors[0].kind == Selector::Kind::kColumn && plan.selectors[0].column == kV));
  CHECK((plan.selectors[1].kind == Selector::Kind::kWriteTime && plan.selectors[1].column == kV));
  CHECK(plan.selectors[1].alias == "w");
  CHECK(plan.selectors[2].column == kS);
}

TEST_CASE("token() as a selector takes the whole partition key", "[select_plan]") {
  SelectPlan plan = Accepted("SELECT token(a, b), totimestamp(now()) FROM p");
  CHECK(plan.selectors[0].kind == Selector::Kind::kToken);
  CHECK(plan.selectors[0].args.size() == 2);
  CHECK(plan.selectors[1].name == "totimestamp");
  CHECK(plan.selectors[1].args[0].name == "now");
  CHECK(Refusal("SELECT token(k, c1) FROM t") ==
        "Invalid number of arguments in call to function system.token: 1 required but 2 "
        "provided");
}

TEST_CASE("SELECT DISTINCT asks for partition keys and statics only", "[select_plan]") {
  CHECK(Refusal("SELECT DISTINCT k, c1 FROM t") ==
        "SELECT DISTINCT queries must only request partition key columns and/or static columns "
        "(not c1)");
  CHECK(Refusal("SELECT DISTINCT * FROM t") ==
        "SELECT DISTINCT queries must only request partition key columns and/or static columns "
        "(not c1)");
  CHECK(Refusal("SELECT DISTINCT a FROM p") ==
        "SELECT DISTINCT queries must request all the partition key columns (missing b)");
  CHECK(Refusal("SELECT DISTINCT k FROM t WHERE k = 1 AND c1 = 1") ==
        "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or "
        "static columns.");
  CHECK(Refusal("SELECT DISTINCT k FROM t PER PARTITION LIMIT 1") ==
        "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
  SelectPlan keyed = Accepted("SELECT DISTINCT a FROM p WHERE a = 1 AND b = 2");
  CHECK(keyed.distinct);
  Accepted("SELECT DISTINCT k, s FROM t WHERE s = 1 ALLOW FILTERING");
}

TEST_CASE("limits are strictly positive 32-bit integers", "[select_plan]") {
  SelectPlan plan = Accepted("SELECT * FROM t PER PARTITION LIMIT 3 LIMIT 10");
  CHECK(plan.limit == 10);
  CHECK(plan.per_partition_limit == 3);
  CHECK(Refusal("SELECT * FROM t LIMIT 0") == "LIMIT must be strictly positive");
  CHECK(Refusal("SELECT * FROM t LIMIT -1") == "LIMIT must be strictly positive");
  CHECK(Refusal("SELECT * FROM t PER PARTITION LIMIT 0") ==
        "PER PARTITION LIMIT must be strictly positive");
  CHECK(Refusal("SELECT * FROM t LIMIT 2147483648") == "Unable to make int from '2147483648'");
}

TEST_CASE("count(*) makes an aggregate, which takes no PER PARTITION LIMIT", "[select_plan]") {
  CHECK(Accepted("SELECT count(*) FROM t").aggregate);
  CHECK(Accepted("SELECT max(v) FROM t WHERE k = 1").aggregate);
  CHECK_FALSE(Accepted("SELECT v FROM t").aggregate);
  CHECK(Refusal("SELECT count(*) FROM t PER PARTITION LIMIT 2") ==
        "PER PARTITION LIMIT is not allowed with aggregate queries.");
}

TEST_CASE("JSON and the wildcard pass through to the plan", "[select_plan]") {
  SelectPlan plan = Accepted("SELECT JSON * FROM t WHERE k = 1");
  CHECK(plan.json);
  CHECK(plan.wildcard);
  CHECK(plan.selectors.empty());
}

}  // namespace
}  // namespace cellfs
