// CREATE INDEX / DROP INDEX in the catalog: Cassandra's validation order and
// words, default names, and DESCRIBE text that loads back.
#include <catch2/catch.hpp>

#include "engine/cql/catalog.h"
#include "engine/cql/describe.h"
#include "engine/cql/select_plan.h"
#include "tests/engine/schema_script.h"

namespace cellfs {
namespace {

using testing::RunScript;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE t (p int, q int, c int, v int, s int static, d duration, "
    "l list<int>, fl frozen<list<int>>, m map<text, int>, st set<text>, "
    "PRIMARY KEY ((p, q), c));\n"
    "CREATE TABLE one (k int PRIMARY KEY, v int);\n"
    "CREATE TABLE hits (k int PRIMARY KEY, n counter);\n"
    "CREATE TABLE words (k int, c text, w text, n int, PRIMARY KEY (k, c))\n"
    "  WITH CLUSTERING ORDER BY (c DESC);\n";

std::string ErrorOf(const std::string& script) {
  Catalog catalog;
  Status s = RunScript(catalog, std::string(kSchema) + script);
  return s.ok() ? "" : s.message();
}

const TableDef& TableOf(Catalog& catalog, const std::string& name) {
  const TableDef* table = catalog.FindTable("ks", name);
  REQUIRE(table != nullptr);
  return *table;
}

TEST_CASE("CREATE INDEX adds an index named as Cassandra names it", "[index_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) + "CREATE INDEX ON t (v);\n"
                                                    "CREATE INDEX ON t (values(l));\n"
                                                    "CREATE INDEX named ON t (keys(m));\n"
                                                    "CREATE INDEX ON t (c);\n"
                                                    "CREATE INDEX ON t (p);\n"
                                                    "CREATE INDEX ON t (s);\n"
                                                    "CREATE INDEX ON t (full(fl));\n"
                                                    "CREATE INDEX ON t (st);\n")
              .ok());
  const TableDef& t = TableOf(catalog, "t");
  REQUIRE(t.indexes.size() == 8);
  CHECK(t.indexes[0].name == "t_v_idx");
  CHECK(t.indexes[1].name == "t_l_idx");
  CHECK(t.indexes[1].target == IndexTargetKind::kValues);
  CHECK(t.indexes[2].name == "named");
  CHECK(t.indexes[2].target == IndexTargetKind::kKeys);
  CHECK(t.indexes[6].target == IndexTargetKind::kFull);
  // A plain target on a non-frozen collection means its values.
  CHECK(t.indexes[7].target == IndexTargetKind::kValues);
}

TEST_CASE("default index names that are taken get _1, _2", "[index_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) + "CREATE INDEX t_v_idx ON one (v);\n"
                                                    "CREATE INDEX ON t (v);\n")
              .ok());
  CHECK(TableOf(catalog, "t").indexes[0].name == "t_v_idx_1");
}

TEST_CASE("SASI's options are validated as SASIIndex.validateOptions does", "[index_schema]") {
  const std::string sasi = "USING 'org.apache.cassandra.index.sasi.SASIIndex'";
  const std::string analyzer = "'analyzer_class': 'org.apache.cassandra.index.sasi.analyzer.";
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON t (l) " + sasi + ";"),
             Catch::Contains("complex columns are not yet supported by SASI"));
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sasi + " WITH OPTIONS = {'mode': 'x'};"),
             Catch::Contains("Incorrect index mode: x"));
  CHECK(
      ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sasi + " WITH OPTIONS = {'mode': 'Contains'};")
          .empty());
  CHECK_THAT(
      ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sasi + " WITH OPTIONS = {'mode': 'SPARSE'};"),
      Catch::Contains("SPARSE mode is only supported on non-literal columns."));
  CHECK(ErrorOf("CREATE CUSTOM INDEX ON words (n) " + sasi + " WITH OPTIONS = {'mode': 'SPARSE'};")
            .empty());
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (n) " + sasi +
                     " WITH OPTIONS = {'mode': " + "'SPARSE', 'analyzed': 'true'};"),
             Catch::Contains("SPARSE mode doesn't support analyzers."));
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sasi +
                     " WITH OPTIONS = {'analyzer_class': 'NonTokenizingAnalyzer'};"),
             Catch::Contains("Invalid analyzer class option specified [NonTokenizingAnalyzer]"));
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (n) " + sasi + " WITH OPTIONS = {" + analyzer +
                     "StandardAnalyzer'};"),
             Catch::Contains("StandardAnalyzer does not support type int"));
  // A DESC clustering column's type is ReversedType: no text analyser takes it.
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (c) " + sasi + " WITH OPTIONS = {" + analyzer +
                     "NonTokenizingAnalyzer'};"),
             Catch::Contains("NonTokenizingAnalyzer does not support type text"));
  CHECK(ErrorOf("CREATE CUSTOM INDEX ON words (n) " + sasi + " WITH OPTIONS = {" + analyzer +
                "NoOpAnalyzer'};")
            .empty());
  CHECK(ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sasi + " WITH OPTIONS = {" + analyzer +
                "NonTokenizingAnalyzer', 'case_sensitive': 'false'};")
            .empty());
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sasi + " WITH OPTIONS = {" + analyzer +
                     "NonTokenizingAnalyzer', 'case_sensitive': 'true', 'normalize_lowercase': "
                     "'false'};"),
             Catch::Contains("case_sensitive option cannot be specified together with either "
                             "normalize_lowercase or normalize_uppercase"));
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sasi + " WITH OPTIONS = {" + analyzer +
                     "NonTokenizingAnalyzer', 'normalize_uppercase': 'true', "
                     "'normalize_lowercase': 'TRUE'};"),
             Catch::Contains("Options to normalize terms cannot be both uppercase and lowercase "
                             "at the same time"));
  // Not analysed: the options are never read.
  CHECK(ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sasi + " WITH OPTIONS = {" + analyzer +
                "NonTokenizingAnalyzer', 'analyzed': 'false', 'normalize_uppercase': 'true', "
                "'normalize_lowercase': 'true'};")
            .empty());
}

TEST_CASE("SAI's options are validated as StorageAttachedIndex.validateOptions does",
          "[index_schema]") {
  const std::string sai = "USING 'StorageAttachedIndex'";
  CHECK(ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sai +
                " WITH OPTIONS = {'case_sensitive': 'False', 'normalize': 'true'};")
            .empty());
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sai +
                     " WITH OPTIONS = {'mode': 'CONTAINS', 'analyzer_class': 'x'};"),
             Catch::Contains("Properties specified [analyzer_class, mode] are not understood by "
                             "StorageAttachedIndex"));
  CHECK_THAT(
      ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sai + " WITH OPTIONS = {'class_name': 'x'};"),
      Catch::Contains("Cannot specify class_name as a CUSTOM option"));
  CHECK_THAT(
      ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sai + " WITH OPTIONS = {'target': 'w'};"),
      Catch::Contains("Cannot specify target as a CUSTOM option"));
  CHECK_THAT(
      ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sai + "; CREATE CUSTOM INDEX ON words (w) " +
              sai + " WITH OPTIONS = {'case_sensitive': 'false'};"),
      Catch::Contains("Cannot create more than one storage-attached index on the same "
                      "column: w"));
  // Keys and values of one map are different targets.
  CHECK(ErrorOf("CREATE INDEX ON t (keys(m)) USING 'sai'; CREATE INDEX ON t (values(m)) USING "
                "'sai';")
            .empty());
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (c) " + sai +
                     " WITH OPTIONS = {'normalize': 'true', 'case_sensitive': 'false'};"),
             Catch::Contains("Analysis options are not supported on primary key columns, but "
                             "found {'case_sensitive': 'false', 'normalize': 'true'}"));
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (n) " + sai +
                     " WITH OPTIONS = {'case_sensitive': 'true'};"),
             Catch::Contains("CQL type int cannot be analyzed."));
  CHECK_THAT(
      ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sai + " WITH OPTIONS = {'normalize': 'yes'};"),
      Catch::Contains("Illegal value for boolean option 'normalize': yes"));
  CHECK_THAT(
      ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sai + " WITH OPTIONS = {'normalize': ''};"),
      Catch::Contains("Empty value for boolean option 'normalize'"));
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON words (n) " + sai +
                     " WITH OPTIONS = {'similarity_function': 'cosine'};"),
             Catch::Contains("CQL type int cannot have vector options"));
  CHECK_THAT(ErrorOf("CREATE TABLE b (k int PRIMARY KEY, v blob, bl list<blob>, fb "
                     "frozen<list<blob>>); CREATE INDEX ON b (v) USING 'sai';"),
             Catch::Contains("Unsupported type: blob"));
  CHECK_THAT(ErrorOf("CREATE TABLE b (k int PRIMARY KEY, bl list<blob>); CREATE INDEX ON b (bl) "
                     "USING 'sai';"),
             Catch::Contains("Unsupported type: blob"));
  CHECK(ErrorOf("CREATE TABLE b (k int PRIMARY KEY, fb frozen<list<blob>>); CREATE INDEX ON b "
                "(full(fb)) USING 'sai';")
            .empty());
  // What cellfs does not do, it says.
  CHECK_THAT(
      ErrorOf("CREATE CUSTOM INDEX ON words (w) " + sai + " WITH OPTIONS = {'ascii': 'true'};"),
      Catch::Contains("'ascii' (Lucene's ASCII folding) is not supported by cellfs"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON t (st) USING 'sai' WITH OPTIONS = {'case_sensitive': "
                     "'false'};"),
             Catch::Contains("analysis options on a collection's elements are not supported"));
}

TEST_CASE("stored text skips the option checks, so what an older build accepted loads",
          "[index_schema]") {
  Catalog catalog;
  catalog.set_applying_stored_text(true);
  CHECK(RunScript(catalog, std::string(kSchema) +
                               "CREATE INDEX ON words (w) USING 'sai' WITH OPTIONS = {'ascii': "
                               "'true', 'foo': 'bar'};\n"
                               "CREATE CUSTOM INDEX ON words (n) USING "
                               "'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = "
                               "{'mode': 'nonsense'};\n")
            .ok());
  // A user's statement is checked.
  catalog.set_applying_stored_text(false);
  CHECK_FALSE(
      RunScript(catalog, "CREATE INDEX ON ks.one (v) USING 'sai' WITH OPTIONS = {'foo': 'x'};")
          .ok());
}

TEST_CASE("CREATE INDEX refuses what Cassandra refuses, in its words", "[index_schema]") {
  CHECK_THAT(ErrorOf("CREATE INDEX ON one (k);"),
             Catch::Contains("Cannot create secondary index on the only partition key column k"));
  CHECK_THAT(
      ErrorOf("CREATE CUSTOM INDEX ON t (q) USING 'org.apache.cassandra.index.sasi.SASIIndex';"),
      Catch::Contains("partition key columns are not yet supported by SASI"));
  CHECK(ErrorOf("CREATE CUSTOM INDEX ON t (q) USING 'sai';").empty());

  CHECK_THAT(ErrorOf("CREATE INDEX ON hits (n);"),
             Catch::Contains("Secondary indexes on counter tables aren't supported"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON t (nope);"),
             Catch::Contains("Undefined column name nope in table ks.t"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON t (d);"),
             Catch::Contains("Secondary indexes are not supported on duration columns"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON t (fl);"),
             Catch::Contains("Cannot create values() index on frozen column fl. Frozen collections "
                             "are immutable and must be fully indexed by using the 'full(fl)' "
                             "modifier"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON t (full(l));"),
             Catch::Contains("full() indexes can only be created on frozen collections"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON t (keys(v));"),
             Catch::Contains("Cannot create keys() index on v. Non-collection columns only "
                             "support simple indexes"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON t (keys(l));"),
             Catch::Contains("Cannot create index on keys of column l with non-map type"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON t (v, c);"),
             Catch::Contains("Only CUSTOM indexes support multiple columns"));
  CHECK_THAT(ErrorOf("CREATE INDEX i ON t (v); CREATE INDEX i ON t (c);"),
             Catch::Contains("Index 'i' already exists"));
  CHECK_THAT(ErrorOf("CREATE INDEX i ON t (v); CREATE INDEX j ON t (v);"),
             Catch::Contains("Index j is a duplicate of existing index i"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON nope (v);"), Catch::Contains("Table 'nope' doesn't exist"));
  CHECK_THAT(ErrorOf("CREATE INDEX ON other.t (v);"),
             Catch::Contains("Keyspace 'other' doesn't exist"));
  CHECK_THAT(ErrorOf("CREATE CUSTOM INDEX ON t (v) USING 'com.example.Nope';"),
             Catch::Contains("Unable to find custom indexer class 'com.example.Nope'"));
  CHECK(ErrorOf("CREATE INDEX i ON t (v); CREATE INDEX IF NOT EXISTS i ON t (c);").empty());
  CHECK(ErrorOf("CREATE INDEX i ON t (v); CREATE INDEX IF NOT EXISTS ON t (v);").empty());
}

TEST_CASE("DROP INDEX removes the index; a missing one is refused in Cassandra's words",
          "[index_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) + "CREATE INDEX i ON t (v); DROP INDEX i;").ok());
  CHECK(TableOf(catalog, "t").indexes.empty());
  CHECK_THAT(ErrorOf("DROP INDEX nope;"), Catch::Contains("Index 'ks.nope' doesn't exist'"));
  CHECK(ErrorOf("DROP INDEX IF EXISTS nope;").empty());
}

TEST_CASE("a column with an index cannot be dropped or renamed", "[index_schema]") {
  CHECK_THAT(
      ErrorOf("CREATE INDEX i ON t (v); ALTER TABLE t DROP v;"),
      Catch::Contains("Cannot drop column v because it has dependent secondary indexes (i)"));
  CHECK_THAT(ErrorOf("CREATE INDEX i ON t (c); ALTER TABLE t RENAME c TO c2;"),
             Catch::Contains("Cannot rename column c because it has dependent secondary indexes"));
}

TEST_CASE("DESCRIBE shows indexes after their table, and the text loads back", "[index_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) +
                                 "CREATE INDEX ON t (v);\n"
                                 "CREATE INDEX tags ON t (entries(m));\n"
                                 "CREATE CUSTOM INDEX ON one (v) USING "
                                 "'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = "
                                 "{'mode': 'SPARSE'};\n")
              .ok());
  const std::string text = DescribeKeyspace(*catalog.FindKeyspace("ks"));
  CHECK_THAT(text, Catch::Contains("\nCREATE INDEX t_v_idx ON ks.t (v);\n"));
  CHECK_THAT(text, Catch::Contains("\nCREATE INDEX tags ON ks.t (entries(m));\n"));
  CHECK_THAT(text, Catch::Contains("\nCREATE CUSTOM INDEX one_v_idx ON ks.one (v) USING "
                                   "'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = "
                                   "{'mode': 'SPARSE'};\n"));
  Catalog reloaded;
  REQUIRE(RunScript(reloaded, text).ok());
  CHECK(SameKeyspace(*reloaded.FindKeyspace("ks"), *catalog.FindKeyspace("ks")));
}

}  // namespace
}  // namespace cellfs

namespace cellfs {
namespace {

IndexDef Custom(const std::string& custom_class,
                std::vector<std::pair<std::string, std::string>> options = {},
                IndexTargetKind target = IndexTargetKind::kSimple) {
  IndexDef index;
  index.name = "i";
  index.column = "c";
  index.custom_class = custom_class;
  index.options = std::move(options);
  index.target = target;
  return index;
}

}  // namespace

TEST_CASE("which indexes answer slices: SAI's and SASI's on their non-literal types only",
          "[index_schema]") {
  const TypePtr int_type = CqlType::Native(TypeKind::kInt);
  const TypePtr text = CqlType::Native(TypeKind::kText);
  const TypePtr timeuuid = CqlType::Native(TypeKind::kTimeuuid);
  CHECK_FALSE(IndexAnswersRanges(Custom(""), *int_type, false));  // a plain index: equality
  CHECK(IndexAnswersRanges(Custom("StorageAttachedIndex"), *int_type, false));
  CHECK(IndexAnswersRanges(Custom("SAI"), *timeuuid, false));
  for (TypeKind literal :
       {TypeKind::kText, TypeKind::kAscii, TypeKind::kBoolean, TypeKind::kUuid}) {
    CHECK_FALSE(IndexAnswersRanges(Custom("sai"), *CqlType::Native(literal), false));
  }
  CHECK_FALSE(IndexAnswersRanges(Custom("sai", {}, IndexTargetKind::kFull), *int_type, false));
  const std::string sasi = "org.apache.cassandra.index.sasi.SASIIndex";
  CHECK(IndexAnswersRanges(Custom(sasi), *int_type, false));
  CHECK(IndexAnswersRanges(Custom("sasiindex"), *int_type, false));
  CHECK_FALSE(IndexAnswersRanges(Custom(sasi), *text, false));
  CHECK(IndexAnswersRanges(Custom(sasi, {{"is_literal", "false"}}), *text, false));
  CHECK_FALSE(IndexAnswersRanges(Custom(sasi, {{"is_literal", "true"}}), *int_type, false));
  CHECK_FALSE(IndexAnswersRanges(Custom(sasi, {{"mode", "CONTAINS"}}), *int_type, false));
  CHECK(IndexAnswersRanges(Custom(sasi, {{"mode", "SPARSE"}}), *int_type, false));
  // A DESC clustering column's value type is ReversedType: not a literal to SASI.
  CHECK(IndexAnswersRanges(Custom(sasi), *text, true));
  CHECK_FALSE(IndexAnswersLike(Custom(sasi), *text, true));
  CHECK(IndexAnswersLike(Custom(sasi), *text, false));
  CHECK(IndexAnswersLike(Custom(sasi, {{"is_literal", "true"}}), *text, true));
}

}  // namespace cellfs
