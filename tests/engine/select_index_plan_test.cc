// PlanSelect with secondary indexes: StatementRestrictions' "queriable
// index" rules (an index answering any restriction lifts the
// preceding-column refusal; what is then checked row by row decides
// whether ALLOW FILTERING is needed) and LIKE, with Cassandra's words.
#include <catch2/catch.hpp>

#include "engine/cql/catalog.h"
#include "engine/cql/select_plan.h"
#include "tests/engine/select_plan_support.h"

namespace cellfs {
namespace {

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    // name: SASI PREFIX; bio: SASI CONTAINS; tag: plain; code: SAI; n: SASI on an int;
    // raw: SASI with is_literal false; note: no index.
    "CREATE TABLE ks.u (k int, a int, b int, name text, bio text, tag text, code text, n int,\n"
    "  raw text, note text, PRIMARY KEY (k, a, b));\n"
    "CREATE CUSTOM INDEX name_idx ON ks.u (name) USING "
    "'org.apache.cassandra.index.sasi.SASIIndex';\n"
    "CREATE CUSTOM INDEX bio_idx ON ks.u (bio) USING 'org.apache.cassandra.index.sasi.SASIIndex'\n"
    "  WITH OPTIONS = {'mode': 'CONTAINS'};\n"
    "CREATE INDEX tag_idx ON ks.u (tag);\n"
    "CREATE CUSTOM INDEX code_idx ON ks.u (code) USING 'StorageAttachedIndex';\n"
    "CREATE CUSTOM INDEX n_idx ON ks.u (n) USING 'org.apache.cassandra.index.sasi.SASIIndex';\n"
    "CREATE CUSTOM INDEX raw_idx ON ks.u (raw) USING 'org.apache.cassandra.index.sasi.SASIIndex'\n"
    "  WITH OPTIONS = {'is_literal': 'FALSE'};\n"
    "CREATE INDEX b_idx ON ks.u (b);\n"
    "CREATE TABLE ks.plain (k int, a int, b int, v int, PRIMARY KEY (k, a, b));\n"
    "CREATE TABLE ks.maps (k int PRIMARY KEY, m map<text, int>, n map<text, int>,\n"
    "  fm frozen<map<text, int>>, l list<int>, v int);\n"
    "CREATE INDEX m_entries ON ks.maps (entries(m));\n"
    "CREATE TABLE ks.rev (k int, c text, v int, PRIMARY KEY (k, c))\n"
    "  WITH CLUSTERING ORDER BY (c DESC);\n"
    "CREATE CUSTOM INDEX c_idx ON ks.rev (c) USING 'org.apache.cassandra.index.sasi.SASIIndex';\n"
    // Every restricted column but w and p2 has an SAI index.
    "CREATE TABLE ks.sai (p1 int, p2 int, c int, d int, x int, y int, w int,\n"
    "  s set<int>, m map<int, int>, PRIMARY KEY ((p1, p2), c, d));\n"
    "CREATE INDEX ON ks.sai (p1) USING 'sai';\n"
    "CREATE INDEX ON ks.sai (c) USING 'sai';\n"
    "CREATE INDEX ON ks.sai (x) USING 'sai';\n"
    "CREATE INDEX ON ks.sai (y) USING 'sai';\n"
    "CREATE INDEX ON ks.sai (s) USING 'sai';\n"
    "CREATE INDEX ON ks.sai (keys(m)) USING 'sai';\n"
    "CREATE INDEX w_plain ON ks.sai (w);\n";

const std::string& kFiltering = testing::kRequiresFiltering;

const testing::SelectPlanner& Planner() {
  static const testing::SelectPlanner* planner = new testing::SelectPlanner(kSchema);
  return *planner;
}

SelectPlan Accepted(const std::string& cql) { return Planner().Accepted(cql); }
std::string Refusal(const std::string& cql) { return Planner().Refusal(cql); }

std::string IndexName(const SelectPlan& plan) {
  if (!plan.index) return "none";
  const TableDef* table = Planner().catalog().FindTable("ks", "u");
  return table->indexes[plan.index->index].name;
}

TEST_CASE("LIKE needs a SASI index on a literal column, in Cassandra's words", "[select_plan]") {
  const SelectPlan prefix = Accepted("SELECT * FROM u WHERE name LIKE 'ab%'");
  CHECK(IndexName(prefix) == "name_idx");
  CHECK(prefix.index->like);
  CHECK(prefix.index->value.text == "'ab%'");
  REQUIRE(prefix.filters.size() == 1);
  CHECK(prefix.filters[0].op == SelectRelation::Op::kLike);
  CHECK(IndexName(Accepted("SELECT * FROM u WHERE bio LIKE '%ab%'")) == "bio_idx");
  // The form is checked against the index's mode once the value is bound
  // (fs/cql/select_like.h), not here.
  CHECK(Refusal("SELECT * FROM u WHERE name LIKE '%ab'") == "accepted");

  CHECK(Refusal("SELECT * FROM u WHERE note LIKE 'ab%'") ==
        "LIKE restriction is only supported on properly indexed columns. note LIKE 'ab%' is not "
        "valid.");
  CHECK(Refusal("SELECT * FROM u WHERE note LIKE 'ab%' ALLOW FILTERING") ==
        "LIKE restriction is only supported on properly indexed columns. note LIKE 'ab%' is not "
        "valid.");
  CHECK(Refusal("SELECT * FROM u WHERE k = 1 AND note LIKE 'ab%'") ==
        "LIKE restriction is only supported on properly indexed columns. note LIKE 'ab%' is not "
        "valid.");
  CHECK(Refusal("SELECT * FROM u WHERE k LIKE 'ab%'") ==
        "LIKE restriction is only supported on properly indexed columns. k LIKE 'ab%' is not "
        "valid.");
  // Cassandra 5.0: a column whose indexes do not answer LIKE.
  CHECK(Refusal("SELECT * FROM u WHERE tag LIKE 'ab%'") ==
        "Index on column tag does not support LIKE restrictions.");
  CHECK(Refusal("SELECT * FROM u WHERE code LIKE 'ab%'") ==
        "Index on column code does not support LIKE restrictions.");
  CHECK(Refusal("SELECT * FROM u WHERE n LIKE 'ab%'") ==
        "Index on column n does not support LIKE restrictions.");
  CHECK(Refusal("SELECT * FROM u WHERE raw LIKE 'ab%'") ==
        "Index on column raw does not support LIKE restrictions.");

  CHECK(Refusal("SELECT * FROM u WHERE name LIKE 'a%' AND name LIKE 'b%'") ==
        "name cannot be restricted by more than one relation if it includes a LIKE");
  CHECK(Refusal("SELECT * FROM u WHERE name = 'a' AND name LIKE 'b%'") ==
        "name cannot be restricted by more than one relation if it includes an Equal");
  CHECK(Refusal("SELECT * FROM u WHERE name > 'a' AND name LIKE 'b%' ALLOW FILTERING") ==
        "Column \"name\" cannot be restricted by both an equality and an inequality relation");
}

TEST_CASE("a LIKE beside another restriction is filtering", "[select_plan]") {
  CHECK(Refusal("SELECT * FROM u WHERE name LIKE 'a%' AND note = 'x'") == kFiltering);
  CHECK(Refusal("SELECT * FROM u WHERE name LIKE 'a%' AND bio LIKE '%x%'") == kFiltering);
  const SelectPlan both =
      Accepted("SELECT * FROM u WHERE name LIKE 'a%' AND bio LIKE '%x%' ALLOW FILTERING");
  CHECK(IndexName(both) == "name_idx");
  CHECK(both.filters.size() == 2);
  // The partition given: the index still answers (usesSecondaryIndexing),
  // and the partition's rows are checked.
  const SelectPlan one = Accepted("SELECT * FROM u WHERE k = 1 AND name LIKE 'a%'");
  CHECK(one.partitions == SelectPlan::Partitions::kKeys);
  CHECK(Refusal("SELECT * FROM u WHERE k = 1 AND name LIKE 'a%' ORDER BY a DESC") ==
        "ORDER BY with 2ndary indexes is not supported.");
}

TEST_CASE("an index answering any restriction lifts the preceding-column refusal",
          "[select_plan]") {
  // b (the second clustering column) is indexed.
  CHECK(IndexName(Accepted("SELECT * FROM u WHERE b = 2")) == "b_idx");
  CHECK(Refusal("SELECT * FROM u WHERE b = 2 AND note = 'x'") == kFiltering);
  CHECK(Refusal("SELECT * FROM u WHERE b = 2 AND note = 'x' ALLOW FILTERING") == "accepted");
  // tag is indexed, b is restricted out of order beside it.
  CHECK(Refusal("SELECT * FROM u WHERE a = 1 AND tag = 'x'") == kFiltering);
  const SelectPlan tag = Accepted("SELECT * FROM u WHERE b = 1 AND tag = 'x' ALLOW FILTERING");
  CHECK(IndexName(tag) == "tag_idx");
  // Without any index the refusal stays.
  CHECK(Refusal("SELECT * FROM plain WHERE b = 1 AND v = 2") ==
        "PRIMARY KEY column \"b\" cannot be restricted as preceding column \"a\" is not "
        "restricted");
  // The partition given, the indexed restriction is the one checked.
  CHECK(Refusal("SELECT * FROM u WHERE k = 1 AND tag = 'x'") == "accepted");
  // A token range beside an indexed clustering column: the index is
  // queriable, the one restriction checked row by row.
  const SelectPlan token = Accepted("SELECT * FROM u WHERE token(k) > 5 AND b = 2");
  CHECK(token.partitions == SelectPlan::Partitions::kTokenRange);
  CHECK(Refusal("SELECT * FROM plain WHERE token(k) > 5 AND b = 2") ==
        "PRIMARY KEY column \"b\" cannot be restricted as preceding column \"a\" is not "
        "restricted");
}

TEST_CASE("Cassandra 5.0 names an indexed column whose index does not answer", "[select_plan]") {
  CHECK(Refusal("SELECT * FROM u WHERE tag > 'x'") ==
        "Column 'tag' has an index but does not support the operators specified in the query. "
        "If you want to execute this query despite the performance unpredictability, use "
        "ALLOW FILTERING");
  CHECK(Refusal("SELECT * FROM u WHERE tag > 'x' AND code > 'y'") ==
        "Columns [code, tag] have indexes but do not support the operators specified in the "
        "query. If you want to execute this query despite the performance unpredictability, use "
        "ALLOW FILTERING");
  CHECK(Refusal("SELECT * FROM u WHERE note > 'x'") == kFiltering);
  // An out-of-order clustering column its index does not answer: the
  // preceding-column refusal comes first.
  CHECK(Refusal("SELECT * FROM u WHERE b > 1") ==
        "PRIMARY KEY column \"b\" cannot be restricted as preceding column \"a\" is not "
        "restricted");
}

TEST_CASE("a tuple or CONTAINS is supported by an index of any of its parts", "[select_plan]") {
  // (a, b) = (1, 2): b's index supports it, so an index is used.
  CHECK(Refusal("SELECT * FROM u WHERE k = 0 AND (a, b) = (1, 2) AND note = 'x' ORDER BY a DESC "
                "ALLOW FILTERING") == "ORDER BY with 2ndary indexes is not supported.");
  CHECK(Refusal("SELECT * FROM u WHERE k IN (0, 1) AND (a, b) = (1, 2) AND note = 'x' ALLOW "
                "FILTERING") ==
        "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
  // Two columns checked row by row: filtering, not an unsupported index.
  CHECK(Refusal("SELECT * FROM u WHERE (a, b) = (1, 2)") == kFiltering);
}

TEST_CASE("map-entry equality: an ENTRIES index answers it, in Cassandra's words",
          "[select_plan]") {
  const SelectPlan entry = Accepted("SELECT * FROM maps WHERE m['a'] = 1");
  REQUIRE(entry.index);
  REQUIRE(entry.index->map_key);
  CHECK(entry.index->map_key->text == "'a'");
  CHECK(entry.index->value.text == "1");
  REQUIRE(entry.filters.size() == 1);
  CHECK(entry.filters[0].map_key->text == "'a'");
  CHECK(Refusal("SELECT * FROM maps WHERE n['a'] = 1") == kFiltering);
  CHECK(Refusal("SELECT * FROM maps WHERE n['a'] = 1 ALLOW FILTERING") == "accepted");
  // Two entries (or an entry and a CONTAINS) of one column: several CONTAINS.
  CHECK(Refusal("SELECT * FROM maps WHERE m['a'] = 1 AND m['b'] = 2") == kFiltering);
  CHECK(Refusal("SELECT * FROM maps WHERE m['a'] = 1 AND m CONTAINS 2") == kFiltering);
  CHECK(Refusal("SELECT * FROM maps WHERE m['a'] = 1 AND m CONTAINS 2 ALLOW FILTERING") ==
        "accepted");

  CHECK(Refusal("SELECT * FROM maps WHERE l[0] = 1") ==
        "Indexes on list entries (l[index] = value) are not currently supported.");
  CHECK(Refusal("SELECT * FROM maps WHERE v['a'] = 1") == "Column v cannot be used as a map");
  CHECK(Refusal("SELECT * FROM maps WHERE k['a'] = 1") == "Column k cannot be used as a map");
  CHECK(Refusal("SELECT * FROM maps WHERE fm['a'] = 1") ==
        "Map-entry equality predicates on frozen map column fm are not supported");
  CHECK(Refusal("SELECT * FROM maps WHERE m['a'] > 1") ==
        "Only EQ relations are supported on map entries");
  CHECK(Refusal("SELECT * FROM maps WHERE m['a'] != 1") ==
        "Unsupported \"!=\" relation: m['a'] != 1");
  CHECK(Refusal("SELECT * FROM maps WHERE x['a'] = 1") ==
        "Undefined column name x in table ks.maps");
}

TEST_CASE("SASI reads a DESC text clustering column as not literal", "[select_plan]") {
  CHECK(Refusal("SELECT * FROM rev WHERE c LIKE 'a%'") ==
        "Index on column c does not support LIKE restrictions.");
  const SelectPlan range = Accepted("SELECT * FROM rev WHERE c > 'a'");
  REQUIRE(range.index);
  CHECK(range.index->slice);
}

}  // namespace
}  // namespace cellfs

namespace cellfs {
namespace {

TEST_CASE("SAI indexes answer a conjunction together, as Cassandra 5.0's index group",
          "[select_plan]") {
  // Each restriction answered by an SAI index: no ALLOW FILTERING.
  CHECK(Refusal("SELECT * FROM sai WHERE x = 1 AND y = 2") == "accepted");
  CHECK(Refusal("SELECT * FROM sai WHERE x = 1 AND y > 2 AND y < 5") == "accepted");
  CHECK(Refusal("SELECT * FROM sai WHERE x = 1 AND c = 2") == "accepted");
  CHECK(Refusal("SELECT * FROM sai WHERE p1 = 1 AND x = 1") == "accepted");
  CHECK(Refusal("SELECT * FROM sai WHERE s CONTAINS 1 AND s CONTAINS 2") == "accepted");
  CHECK(Refusal("SELECT * FROM sai WHERE s CONTAINS 1 AND m CONTAINS KEY 2 AND x = 3") ==
        "accepted");
  // One restriction the group does not answer: 4.x's count decides.
  CHECK(Refusal("SELECT * FROM sai WHERE x = 1 AND w = 2") == kFiltering);
  CHECK(Refusal("SELECT * FROM sai WHERE x = 1 AND d = 2") == kFiltering);
  CHECK(Refusal("SELECT * FROM sai WHERE p2 = 1 AND x = 1") == kFiltering);
  CHECK(Refusal("SELECT * FROM sai WHERE x = 1 AND m CONTAINS 2") ==
        "Column 'm' has an index but does not support the operators specified in the query. If "
        "you want to execute this query despite the performance unpredictability, use ALLOW "
        "FILTERING");
  // Plain indexes are each their own group (4.x and 5.0 alike).
  CHECK(Refusal("SELECT * FROM u WHERE tag = 'a' AND b = 1") == kFiltering);
}

}  // namespace
}  // namespace cellfs
