// Tests for fs/formats/row_json.h: rows as JSON objects and CSV lines (shapes per
// type, column order, quoting, nulls) and the parse of a row's @json write.
#include "fs/formats/row_json.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/hex_test_util.h"
#include "tests/engine/random_value.h"
#include "tests/fs/all_types_schema.h"

namespace cellfs::fs {
namespace {

using testing::kAllTypesDdl;
using testing::TestEngine;
using testing::ToHex;
using Key = std::vector<std::string>;

constexpr char kSchema[] = R"(
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.t (k text, c int, s text static, b int, a text, PRIMARY KEY (k, c));
CREATE TABLE ks.flat (k int PRIMARY KEY, v text);
CREATE TABLE ks.counts (k text PRIMARY KEY, hits counter);
CREATE TABLE ks.odd (k int PRIMARY KEY, "a,b" int, "Q""x" text);
)";

// The schema once, shared by every test case (TableHandles are immutable).
class Schema {
 public:
  Schema() {
    db_.Ddl(kSchema);
    db_.Ddl(kAllTypesDdl);
  }
  TableHandle Table(const std::string& name) { return db_.Table("ks", name); }

 private:
  TestEngine db_;
};

Schema& TheSchema() {
  static Schema schema;
  return schema;
}

size_t IndexOf(const TableSchema& table, const std::string& name) {
  const ColumnDef* column = table.def.FindColumn(name);
  REQUIRE(column != nullptr);
  return static_cast<size_t>(column - table.def.columns.data());
}

// A row fragment with live cells given as CQL literals by column name.
RowFragment Row(const TableSchema& table, const std::map<std::string, std::string>& literals) {
  RowFragment row;
  for (const auto& [name, literal] : literals) {
    const size_t index = IndexOf(table, name);
    row.cells.push_back({table.column_ids[index],
                         Cell::Live(1, testing::Value(*table.column(index).type, literal))});
  }
  NormalizeRowFragment(&row);
  return row;
}

Key KeyOf(const TableSchema& table, size_t first, const std::vector<std::string>& literals) {
  Key key;
  for (size_t i = 0; i < literals.size(); ++i) {
    key.push_back(testing::Value(*table.column(first + i).type, literals[i]));
  }
  return key;
}

// The JSON of a `types` row holding one cell, `column` = `literal`.
std::string TypesJson(const std::string& column, const std::string& literal) {
  TableHandle table = TheSchema().Table("types");
  const Key pk = KeyOf(*table, 0, {"1"});
  return RowToJson(*table, pk, {}, nullptr, Row(*table, {{column, literal}}));
}

TEST_CASE("a row is one JSON object with every column in SELECT *'s order, statics first",
          "[row_json]") {
  TableHandle table = TheSchema().Table("t");
  const Key pk = KeyOf(*table, 0, {"p1"});
  const Key ck = KeyOf(*table, 1, {"7"});
  const RowFragment statics = Row(*table, {{"s", "st"}});
  const RowFragment row = Row(*table, {{"a", "x"}});
  CHECK(RowToJson(*table, pk, ck, &statics, row) ==
        R"({"k": "p1", "c": 7, "s": "st", "a": "x", "b": null})");
  SECTION("without a static row the static column is null") {
    CHECK(RowToJson(*table, pk, ck, nullptr, row) ==
          R"({"k": "p1", "c": 7, "s": null, "a": "x", "b": null})");
  }
  SECTION("a deleted cell is null") {
    RowFragment deleted = row;
    deleted.cells[0].cell = Cell::Tombstone(2, 0);
    CHECK(RowToJson(*table, pk, ck, nullptr, deleted) ==
          R"({"k": "p1", "c": 7, "s": null, "a": null, "b": null})");
  }
  SECTION("a table without clustering columns") {
    TableHandle flat = TheSchema().Table("flat");
    CHECK(RowToJson(*flat, KeyOf(*flat, 0, {"3"}), {}, nullptr, Row(*flat, {{"v", "z"}})) ==
          R"({"k": 3, "v": "z"})");
  }
}

TEST_CASE("each type has the JSON shape of Cassandra's toJson", "[row_json]") {
  struct Case {
    std::string column, literal, json;
  };
  const std::vector<Case> cases = {
      {"t_ascii", "abc", R"("abc")"},
      {"t_bigint", "-9000000000", "-9000000000"},
      {"t_blob", "0x00FF", R"("0x00ff")"},
      {"t_boolean", "true", "true"},
      {"t_date", "2018-07-23", R"("2018-07-23")"},
      {"t_decimal", "12345678901234567890.123456789", "12345678901234567890.123456789"},
      {"t_decimal", "1E+3", "1000"},
      {"t_decimal", "123.4500", "123.4500"},
      {"t_decimal", "1E-7", "0.0000001"},
      {"t_double", "1.5", "1.5"},
      {"t_double", "100", "100.0"},
      {"t_double", "-0.0", "-0.0"},
      {"t_double", "NaN", "null"},
      {"t_double", "-Infinity", "null"},
      {"t_float", "Infinity", "null"},
      {"t_float", "NaN", "null"},
      {"t_float", "0.25", "0.25"},
      {"t_duration", "1h2m", R"("1h2m")"},
      {"t_inet", "127.0.0.1", R"("127.0.0.1")"},
      {"t_int", "42", "42"},
      {"t_smallint", "-3", "-3"},
      {"t_tinyint", "127", "127"},
      {"t_text", "say \"hi\"\\ \t\n\x01 caf\xc3\xa9", R"("say \"hi\"\\ \t\n\u0001 café")"},
      {"t_text", "", R"("")"},
      {"t_time", "11:04:22.5", R"("11:04:22.500000000")"},
      {"t_timestamp", "2018-07-23 11:04:22.432+0000", R"("2018-07-23 11:04:22.432Z")"},
      {"t_timeuuid", "50554D6E-29BB-11E5-B345-FEFF819CDC9F",
       R"("50554d6e-29bb-11e5-b345-feff819cdc9f")"},
      {"t_uuid", "F47AC10B-58CC-4372-A567-0E02B2C3D479",
       R"("f47ac10b-58cc-4372-a567-0e02b2c3d479")"},
      {"t_varint", "-123456789012345678901234567890", "-123456789012345678901234567890"},
      {"t_decimal", "1.5E+400", R"("1.5E+400")"},
      {"t_list", "[3, 1, 3]", "[3, 1, 3]"},
      {"t_list", "[]", "[]"},
      {"t_set", "{'b', 'a'}", R"(["a", "b"])"},
      {"t_map", "{'b': 2, 'a': 1}", R"({"a": 1, "b": 2})"},
      {"t_imap", "{10: 'x', -1: 'y'}", R"({"-1": "y", "10": "x"})"},
      {"t_tuple", "(1, null)", R"([1, null])"},
      {"t_tuple", "(1)", R"([1])"},
      {"t_udt", "{city: 'Oslo'}", R"({"street": null, "city": "Oslo", "zip": null})"},
      {"t_udt", "{}", "{}"},
      {"t_tuple", "()", "[]"},
      {"t_fset", "{2, 1}", "[1, 2]"},
      {"t_nested", "[{'2018-07-23': 0xab}]", R"([{"2018-07-23": "0xab"}])"},
      {"t_udtmap", "{'home': {zip: 5}}", R"({"home": {"street": null, "city": null, "zip": 5}})"},
  };
  for (const Case& c : cases) {
    const std::string json = TypesJson(c.column, c.literal);
    INFO(c.column << " = " << c.literal << " -> " << json);
    const std::string member = "\"" + c.column + "\": " + c.json;
    CHECK((json.find(member + ", ") != std::string::npos ||
           json.find(member + "}") != std::string::npos));
  }
}

TEST_CASE("a counter prints its total as a number", "[row_json]") {
  TableHandle table = TheSchema().Table("counts");
  RowFragment row;
  row.cells.push_back({table->column_ids[IndexOf(*table, "hits")], Cell::Counter(5, -12)});
  const Key pk = KeyOf(*table, 0, {"a"});
  CHECK(RowToJson(*table, pk, {}, nullptr, row) == R"({"k": "a", "hits": -12})");
  CHECK(RowToCsv(*table, pk, {}, nullptr, row) == "a,-12\n");
}

TEST_CASE("CSV has a header and COPY TO's quoting", "[row_json]") {
  TableHandle table = TheSchema().Table("t");
  CHECK(CsvHeader(*table) == "k,c,s,a,b\n");
  const Key ck = KeyOf(*table, 1, {"-1"});
  auto csv = [&](const std::string& key, const RowFragment& row) {
    return RowToCsv(*table, KeyOf(*table, 0, {key}), ck, nullptr, row);
  };
  SECTION("plain values and nulls") {
    CHECK(csv("p", Row(*table, {{"a", "x"}, {"b", "5"}})) == "p,-1,,x,5\n");
    CHECK(csv("p", Row(*table, {})) == "p,-1,,,\n");
  }
  SECTION("empty text is quoted to tell it from null") {
    CHECK(csv("", Row(*table, {{"a", ""}})) == "\"\",-1,,\"\",\n");
  }
  SECTION("separators, quotes and line breaks are quoted, quotes doubled") {
    CHECK(csv("a,b", Row(*table, {{"a", "say \"hi\""}})) == "\"a,b\",-1,,\"say \"\"hi\"\"\",\n");
    CHECK(csv("p", Row(*table, {{"a", "two\nlines"}})) == "p,-1,,\"two\nlines\",\n");
    CHECK(csv("p", Row(*table, {{"a", "cr\r"}})) == "p,-1,,\"cr\r\",\n");
    CHECK(csv("p", Row(*table, {{"a", "no 'quoting' here"}})) == "p,-1,,no 'quoting' here,\n");
  }
  SECTION("other types print their canonical text") {
    TableHandle types = TheSchema().Table("types");
    const Key pk = KeyOf(*types, 0, {"1"});
    const std::string header = CsvHeader(*types);
    CHECK(header.starts_with("k,t_ascii,t_bigint,t_blob,"));
    const std::string line =
        RowToCsv(*types, pk, {}, nullptr,
                 Row(*types, {{"t_blob", "0xAB"}, {"t_set", "{'b', 'a'}"}, {"t_text", ""}}));
    CHECK(line.starts_with("1,,,0xab,"));
    CHECK(line.find(",\"{'a', 'b'}\",") != std::string::npos);
    CHECK(line.find(",\"\",") != std::string::npos);
  }
  SECTION("a timestamp is written as COPY TO writes it") {
    TableHandle types = TheSchema().Table("types");
    const std::string line = RowToCsv(*types, KeyOf(*types, 0, {"1"}), {}, nullptr,
                                      Row(*types, {{"t_timestamp", "2019-08-02T21:57:44.418Z"}}));
    CHECK(line.find(",2019-08-02 21:57:44.418+0000,") != std::string::npos);
  }
  SECTION("column names are quoted by the same rule") {
    CHECK(CsvHeader(*TheSchema().Table("odd")) == "k,\"Q\"\"x\",\"a,b\"\n");
  }
}

// ParseRowJson on row (p1, 7) of table t; REQUIREs success.
std::vector<ColumnValue> Parsed(const std::string& json) {
  TableHandle table = TheSchema().Table("t");
  std::vector<ColumnValue> cells;
  Status status =
      ParseRowJson(*table, KeyOf(*table, 0, {"p1"}), KeyOf(*table, 1, {"7"}), json, &cells);
  INFO(json << ": " << status.ToString());
  REQUIRE(status.ok());
  return cells;
}

// The error message ParseRowJson gives for `json` on a row of `table_name`.
std::string ParseError(const std::string& table_name, const std::string& json) {
  TableHandle table = TheSchema().Table(table_name);
  const Key pk = KeyOf(*table, 0, {table_name == "t" || table_name == "counts" ? "p1" : "1"});
  const Key ck = table->clustering_count() > 0 ? KeyOf(*table, 1, {"7"}) : Key{};
  std::vector<ColumnValue> cells;
  Status status = ParseRowJson(*table, pk, ck, json, &cells);
  INFO(json);
  REQUIRE_FALSE(status.ok());
  CHECK(status.code() == StatusCode::kInvalidArgument);
  return status.message();
}

TEST_CASE("a row's @json write gives a value per member, null deleting", "[row_json]") {
  TableHandle table = TheSchema().Table("t");
  const auto a = IndexOf(*table, "a"), b = IndexOf(*table, "b"), s = IndexOf(*table, "s");
  const auto cells = Parsed(R"({"b": 5, "a": "x", "s": null})");
  REQUIRE(cells.size() == 3);
  CHECK(cells[0].column == b);
  CHECK(cells[0].value == testing::Value(*table->column(b).type, "5"));
  CHECK(cells[1].column == a);
  CHECK(cells[1].value == "x");
  CHECK(cells[2].column == s);
  CHECK_FALSE(cells[2].value.has_value());
  SECTION("a string holding a CQL literal is accepted for other types") {
    CHECK(Parsed(R"({"b": "-6"})")[0].value == testing::Value(*table->column(b).type, "-6"));
  }
  SECTION("key members equal to the row's key are accepted and ignored") {
    const auto keyed = Parsed(R"({"k": "p1", "c": "7", "a": "y"})");
    REQUIRE(keyed.size() == 1);
    CHECK(keyed[0].column == a);
  }
  SECTION("a quoted column name, as Cassandra's fromJson takes it") {
    CHECK(Parsed(R"({"\"a\"": "q"})")[0].column == a);
  }
  CHECK(Parsed("{}").empty());
  CHECK(Parsed(" {\n} \n").empty());
}

TEST_CASE("a row's @json write refuses what does not fit, naming it", "[row_json]") {
  CHECK(ParseError("t", R"({"nope": 1})").find("unknown column nope") != std::string::npos);
  CHECK(ParseError("t", R"({"A": "x"})").find("unknown column A") != std::string::npos);
  SECTION("wrong JSON types") {
    CHECK(ParseError("t", R"({"b": true})").find("column b") != std::string::npos);
    CHECK(ParseError("t", R"({"a": 5})").find("column a") != std::string::npos);
    ParseError("types", R"({"t_list": {}})");
    ParseError("types", R"({"t_map": [1]})");
    ParseError("types", R"({"t_udt": [1]})");
    ParseError("types", R"({"t_tuple": {"a": 1}})");
    ParseError("types", R"({"t_uuid": 5})");
    ParseError("types", R"({"t_boolean": 1})");
  }
  SECTION("values that do not fit the column's type") {
    CHECK(ParseError("t", R"({"b": "x"})").find("column b") != std::string::npos);
    ParseError("t", R"({"b": 1.5})");
    ParseError("t", R"({"b": 2147483648})");
    ParseError("types", R"({"t_blob": "ab"})");
    ParseError("types", R"({"t_ascii": "caf\u00e9"})");
    ParseError("types", R"({"t_list": [1, null]})");
    ParseError("types", R"({"t_map": {"a": null}})");
    ParseError("types", R"({"t_imap": {"x": "y"}})");
    ParseError("types", R"({"t_tuple": [1, "a", 3]})");
    ParseError("types", R"({"t_udt": {"country": "x"}})");
    ParseError("types", R"({"t_timeuuid": "f47ac10b-58cc-4372-a567-0e02b2c3d479"})");
  }
  SECTION("counters change only by adding") {
    CHECK(ParseError("counts", R"({"hits": 1})").find("column hits") != std::string::npos);
    ParseError("counts", R"({"hits": null})");
  }
  SECTION("key members that differ from the row's key") {
    CHECK(ParseError("t", R"({"k": "p2"})").find("column k") != std::string::npos);
    ParseError("t", R"({"c": 8})");
    ParseError("t", R"({"c": null})");
    ParseError("t", R"({"k": 1})");
  }
  SECTION("text that is not one JSON object") {
    for (std::string bad : {"[1]", "\"x\"", "5", "null", ""}) {
      const std::string message = ParseError("t", bad);
      CHECK((message.find("JSON object") != std::string::npos ||
             message.find("invalid JSON") != std::string::npos));
    }
    for (std::string bad :
         {"{", R"({"a": })", "{} {}", "{'a': 1}", "{\"a\": \"\xff\"}", R"({"a": "x",})"}) {
      CHECK(ParseError("t", bad).find("invalid JSON") != std::string::npos);
    }
    CHECK(
        ParseError("types", R"({"t_list": )" + std::string(100, '[') + std::string(100, ']') + "}")
            .find("nested") != std::string::npos);
  }
  CHECK(ParseError("t", R"({"a": "x", "a": "y"})").find("twice") != std::string::npos);
}

TEST_CASE("JSON numbers reach decimals and varints exactly", "[row_json]") {
  TableHandle table = TheSchema().Table("types");
  std::vector<ColumnValue> cells;
  const std::string json =
      R"({"t_decimal": 12345678901234567890.123456789012345, "t_varint": )"
      R"(123456789012345678901234567890, "t_double": -0.0, "t_timestamp": 1532343862432})";
  REQUIRE(ParseRowJson(*table, KeyOf(*table, 0, {"1"}), {}, json, &cells).ok());
  REQUIRE(cells.size() == 4);
  CHECK(FormatLiteral(*table->column(cells[0].column).type, *cells[0].value) ==
        "12345678901234567890.123456789012345");
  CHECK(FormatLiteral(*table->column(cells[1].column).type, *cells[1].value) ==
        "123456789012345678901234567890");
  CHECK(FormatLiteral(*table->column(cells[2].column).type, *cells[2].value) == "-0");
  CHECK(FormatLiteral(*table->column(cells[3].column).type, *cells[3].value) ==
        "2018-07-23T11:04:22.432Z");
}

// `value` in a form equal for values Cassandra ranks equal: a UDT printed
// with every field, its missing trailing fields as null, parses back with
// them present, which is the same value.
std::string Comparable(const CqlType& type, const std::string& value) {
  TypePtr frozen = type.AsFrozen();
  if (!frozen->CheckKeyCapable().ok()) return value;
  std::string encoded;
  EncodeKeyComponent(*frozen, value, SortOrder::kAsc, &encoded);
  return encoded;
}

TEST_CASE("property: a row's JSON parses back to its values", "[row_json][property]") {
  TableHandle table = TheSchema().Table("types");
  RandomValues random(31337);
  for (int iteration = 0; iteration < 300; ++iteration) {
    const Key pk = {random.Value(*table->column(0).type)};
    RowFragment row;
    std::map<size_t, std::string> expected;
    for (size_t i = 1; i < table->def.columns.size(); ++i) {
      if (random.Chance(4)) continue;  // absent: null
      const CqlType& type = *table->column(i).type;
      std::string value = random.Value(type);
      // A nested empty value (blobasint(0x)) has no JSON spelling; NaN and
      // the infinities print as null, as in Cassandra 4, so none comes back.
      const std::string literal = FormatLiteral(type, value);
      if (literal.find("blobas") != std::string::npos || literal.find("NaN") != std::string::npos ||
          literal.find("Infinity") != std::string::npos) {
        continue;
      }
      row.cells.push_back({table->column_ids[i], Cell::Live(1, value)});
      expected[i] = std::move(value);
    }
    const std::string json = RowToJson(*table, pk, {}, nullptr, row);
    INFO(json);
    std::vector<ColumnValue> cells;
    Status status = ParseRowJson(*table, pk, {}, json, &cells);
    INFO(status.ToString());
    REQUIRE(status.ok());
    REQUIRE(cells.size() == table->def.columns.size() - 1);
    for (const ColumnValue& cell : cells) {
      INFO(table->column(cell.column).name);
      auto it = expected.find(cell.column);
      if (it == expected.end()) {
        CHECK_FALSE(cell.value.has_value());
      } else {
        REQUIRE(cell.value.has_value());
        CHECK(ToHex(Comparable(*table->column(cell.column).type, *cell.value)) ==
              ToHex(Comparable(*table->column(cell.column).type, it->second)));
      }
    }
  }
}

}  // namespace
}  // namespace cellfs::fs
