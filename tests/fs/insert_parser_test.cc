// Tests for fs/formats/insert_parser.h: JSON Lines and CSV records turned into
// inserts (values, nulls, attributes, errors with their line numbers), and
// streaming: any split of the input gives the same records.
#include "fs/formats/insert_parser.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "fs/formats/row_json.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/hex_test_util.h"
#include "tests/engine/random_value.h"
#include "tests/fs/all_types_schema.h"

namespace cellfs::fs {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using testing::kAllTypesDdl;
using testing::TestEngine;
using Calls = std::vector<std::string>;

constexpr char kSchema[] = R"(
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.logs (host text, day int, ts timestamp, seq int, s text static, msg text,
  n int, ok boolean, PRIMARY KEY ((host, day), ts, seq));
CREATE TABLE ks.flat (k int PRIMARY KEY, v text);
CREATE TABLE ks.counts (k text PRIMARY KEY, hits counter);
CREATE TABLE ks.odd (k int PRIMARY KEY, "Q" text, "a,b" int);
CREATE TABLE ks.names (p text, c text, v text, PRIMARY KEY (p, c));
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

TableHandle Table(const std::string& name) {
  static Schema schema;
  return schema.Table(name);
}

// One sink call as text: "2: a,1|2018-07-23T11:04:22.432Z,1 msg='x' n=null ttl=60",
// key values by FormatLiteral (partition, then '|' and clustering), cells
// by FormatTerm in the record's order; or "2: InvalidArgument: message".
std::string Render(const TableSchema& table, uint64_t line, const Result<InsertRow>& result) {
  std::string text = std::to_string(line) + ": ";
  if (!result.ok()) return text + result.status().ToString();
  auto key = [&](const std::vector<std::string>& values, size_t first) {
    for (size_t i = 0; i < values.size(); ++i) {
      text += (i > 0 ? "," : "") + FormatLiteral(*table.column(first + i).type, values[i]);
    }
  };
  key(result->partition_key, 0);
  if (!result->clustering.empty()) text += "|";
  key(result->clustering, table.partition_key_count());
  for (const ColumnValue& cell : result->cells) {
    const ColumnDef& column = table.column(cell.column);
    text += " " + column.name + "=" + (cell.value ? FormatTerm(*column.type, *cell.value) : "null");
  }
  if (result->attributes.ttl) text += " ttl=" + std::to_string(*result->attributes.ttl);
  if (result->attributes.timestamp) {
    text += " timestamp=" + std::to_string(*result->attributes.timestamp);
  }
  return text;
}

// Every sink call for `chunks` fed in turn, then Finish.
Calls LoadChunks(const TableHandle& table, const std::vector<std::string>& chunks,
                 const WriteAttributes& defaults = {}) {
  InsertParser parser(table, defaults);
  Calls calls;
  const InsertParser::Sink sink = [&](uint64_t line, Result<InsertRow>&& row) {
    calls.push_back(Render(*table, line, row));
  };
  for (const std::string& chunk : chunks) parser.Feed(chunk, sink);
  parser.Finish(sink);
  return calls;
}

Calls Load(const std::string& table, const std::string& input,
           const WriteAttributes& defaults = {}) {
  return LoadChunks(Table(table), {input}, defaults);
}

TEST_CASE("JSON Lines records insert their key with only the cells they name", "[insert_parser]") {
  const std::string input =
      R"({"host": "a", "day": 20180723, "ts": "2018-07-23T11:04:22.432Z", "seq": 1,)"
      R"( "msg": "h\u00e9 \"x\"", "n": -42, "ok": true, "s": "st"})"
      "\n"
      R"({"seq": 2, "ts": 1532343862432, "day": 1, "host": "b"})"
      "\n"
      R"({"host": "", "day": 2, "ts": "2018-07-23 11:04:22.432+0000", "seq": 3, "msg": null,)"
      R"( "n": null, "ok": false})"
      "\n";
  CHECK(Load("logs", input) ==
        Calls{"1: a,20180723|2018-07-23T11:04:22.432Z,1 msg='hé \"x\"' n=-42 ok=true s='st'",
              "2: b,1|2018-07-23T11:04:22.432Z,2",
              "3: ,2|2018-07-23T11:04:22.432Z,3 msg=null n=null ok=false"});
}

TEST_CASE("@ttl and @timestamp members override the @insert defaults for their line",
          "[insert_parser]") {
  const std::string input =
      "{\"k\": 1}\n"
      "{\"k\": 2, \"@ttl\": 0}\n"
      "{\"@timestamp\": -7, \"k\": 3, \"@ttl\": 630720000}\n";
  SECTION("with defaults") {
    CHECK(Load("flat", input, {.timestamp = 5, .ttl = 60}) ==
          Calls{"1: 1 ttl=60 timestamp=5", "2: 2 ttl=0 timestamp=5",
                "3: 3 ttl=630720000 timestamp=-7"});
  }
  SECTION("without defaults") {
    CHECK(Load("flat", input) == Calls{"1: 1", "2: 2 ttl=0", "3: 3 ttl=630720000 timestamp=-7"});
  }
}

TEST_CASE("a bad JSON line is refused with its problem and the next line still loads",
          "[insert_parser]") {
  const std::string key = R"("host": "a", "day": 1, "ts": 0, "seq": 1)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"host": "a", "day": 1, "ts": 0})", "missing key column 'seq'"},
      {R"({"host": null, "day": 1, "ts": 0, "seq": 1})", "key column 'host' cannot be null"},
      {"{" + key + R"(, "nope": 1})", "unknown column 'nope'"},
      {"{" + key + R"(, "n": "x"})", "column 'n': "},
      {"{" + key + R"(, "n": 1.5})", "column 'n': "},
      {"{" + key + R"(, "n": 2147483648})", "column 'n': "},
      {"{" + key + R"(, "msg": 5})", "column 'msg': a JSON number is not a text value"},
      {"{" + key + R"(, "ok": "maybe"})", "column 'ok': "},
      {"{" + key + R"(, "n": true})", "column 'n': a JSON boolean is not a int value"},
      {"{" + key + R"(, "n": [1]})", "column 'n': a JSON array is not a int value"},
      {"{" + key + R"(, "n": 1, "n": 2})", "column 'n' given twice"},
      {"{" + key + R"(, "n": 01})", "column 'n': invalid JSON number '01'"},
      {"{" + key + R"(, "@ttl": -1})", "@ttl: TTL must be"},
      {"{" + key + R"(, "@ttl": 630720001})", "@ttl: TTL must be"},
      {"{" + key + R"(, "@ttl": "60"})", "@ttl must be a JSON integer, not a string"},
      {"{" + key + R"(, "@ttl": null})", "@ttl must be a JSON integer, not a null"},
      {"{" + key + R"(, "@ttl": 1, "@ttl": 2})", "'@ttl' given twice"},
      {"{" + key + R"(, "@timestamp": 1.5})", "@timestamp: timestamp must be"},
      {"[1, 2]", "not a JSON object"},
      {R"("text")", "not a JSON object"},
      {"{" + key + ",", "invalid JSON"},
      {"{" + key + "} x", "invalid JSON"},
      {"{" + key + "}{}", "invalid JSON: text after the object"},
      {"{" + key + R"(, "msg": "\ud800"})", "invalid JSON"},
      {"{" + key + ", \"msg\": \"\xff\"}", "invalid JSON"},
      {"{" + key + R"(, "ok": tru})", "invalid JSON"},
      {"{" + key + R"(, "msg": nul})", "invalid JSON"},
      {"{" + key + R"(, "msg" 1})", "invalid JSON"},
  };
  for (const auto& [line, message] : cases) {
    INFO(line);
    // Good lines around it: the first decides the format.
    const Calls calls = Load("logs", "{" + key + "}\n" + line + "\n{" + key + "}\n");
    REQUIRE(calls.size() == 3);
    CHECK(calls[0] == "1: a,1|1970-01-01T00:00:00.000Z,1");
    CHECK_THAT(calls[1], StartsWith("2: InvalidArgument: ") && Contains(message));
    CHECK(calls[2] == "3: a,1|1970-01-01T00:00:00.000Z,1");
  }
}

TEST_CASE("JSON values of every kind become the column's value", "[insert_parser]") {
  auto one = [](const std::string& member) {
    const Calls calls = Load("types", R"({"k": 1, )" + member + "}");
    REQUIRE(calls.size() == 1);
    return calls[0];
  };
  CHECK(one(R"("t_ascii": "abc")") == "1: 1 t_ascii='abc'");
  CHECK(one(R"("t_blob": "0xCAFE")") == "1: 1 t_blob=0xcafe");
  CHECK(one(R"("t_decimal": 12345678901234567890.123456789012345)") ==
        "1: 1 t_decimal=12345678901234567890.123456789012345");
  CHECK(one(R"("t_varint": 123456789012345678901234567890)") ==
        "1: 1 t_varint=123456789012345678901234567890");
  CHECK(one(R"("t_double": -1.5e3)") == "1: 1 t_double=-1500");
  CHECK(one(R"("t_float": "NaN")") == "1: 1 t_float=NaN");
  CHECK(one(R"("t_int": "42")") == "1: 1 t_int=42");
  CHECK(one(R"("t_date": "2018-07-23")") == "1: 1 t_date='2018-07-23'");
  CHECK(one(R"("t_inet": "10.0.0.1")") == "1: 1 t_inet='10.0.0.1'");
  CHECK(one(R"("t_uuid": "00000000-0000-0000-0000-0000000000AB")") ==
        "1: 1 t_uuid=00000000-0000-0000-0000-0000000000ab");
  CHECK(one(R"("t_text": "it's")") == "1: 1 t_text='it''s'");
  CHECK(one(R"("t_list": [3, 1, 3])") == "1: 1 t_list=[3, 1, 3]");
  CHECK(one(R"("t_set": ["b", "a", "b"])") == "1: 1 t_set={'a', 'b'}");
  CHECK(one(R"("t_set": "{'y', 'x'}")") == "1: 1 t_set={'x', 'y'}");
  CHECK(one(R"("t_map": {"x": 1, "it's": 2})") == "1: 1 t_map={'it''s': 2, 'x': 1}");
  CHECK(one(R"("t_imap": {"2": "two", "1": "one"})") == "1: 1 t_imap={1: 'one', 2: 'two'}");
  CHECK(one(R"("t_tuple": [1, null])") == "1: 1 t_tuple=(1, null)");
  CHECK(one(R"("t_udt": {"zip": 75001, "city": "Paris"})") ==
        "1: 1 t_udt={street: null, city: 'Paris', zip: 75001}");
  CHECK(one(R"("t_nested": [{"2018-07-23": "0xff"}, {}])") ==
        "1: 1 t_nested=[{'2018-07-23': 0xff}, {}]");
  CHECK(one(R"("t_udtmap": {"home": {"street": "Main"}})") ==
        "1: 1 t_udtmap={'home': {street: 'Main', city: null, zip: null}}");
  CHECK_THAT(one(R"("t_ascii": "é")"), Contains("InvalidArgument: column 't_ascii': "));
  CHECK_THAT(one(R"("t_list": [1, null])"),
             Contains("column 't_list': a int collection element cannot be null"));
  CHECK_THAT(one(R"("t_tuple": [1, "a", 3])"),
             Contains("column 't_tuple': tuple<int, text> has 2 components, got 3"));
  CHECK_THAT(one(R"("t_udt": {"nope": 1})"),
             Contains("column 't_udt': frozen<address> has no field named nope"));
  CHECK_THAT(one(R"("t_map": [1])"), Contains("a JSON array is not a map<text, int> value"));
  CHECK_THAT(one(R"("t_list": {"a": 1})"), Contains("a JSON object is not a list<int> value"));
  CHECK_THAT(one(R"("t_imap": {"x": "one"})"), Contains("InvalidArgument: column 't_imap': "));
}

TEST_CASE("member names may quote a column's name as CQL does", "[insert_parser]") {
  CHECK(Load("odd", R"({"k": 1, "Q": "x", "a,b": 2})") == Calls{"1: 1 Q='x' a,b=2"});
  CHECK(Load("odd", R"({"k": 1, "\"Q\"": "x"})") == Calls{"1: 1 Q='x'"});
  CHECK(Load("odd", R"({"k": 1, "q": "x"})") == Calls{"1: InvalidArgument: unknown column 'q'"});
}

TEST_CASE("the first non-blank byte decides the format", "[insert_parser]") {
  CHECK(Load("flat", " \n\t {\"k\": 1}\n") == Calls{"2: 1"});
  CHECK(Load("flat", "\n\nk,v\n1,a\n") == Calls{"4: 1 v='a'"});
  CHECK(Load("flat", "[1]\n1,a\n") ==
        Calls{"1: InvalidArgument: CSV header on line 1: unknown column '[1]'",
              "2: InvalidArgument: CSV header on line 1: unknown column '[1]'"});
}

TEST_CASE("blank lines are skipped but counted", "[insert_parser]") {
  CHECK(Load("flat", "\n  \n{\"k\": 1}\r\n\t\n{\"k\": 2}\n\n") == Calls{"3: 1", "5: 2"});
  CHECK(Load("flat", " \n\r\n\n").empty());
  CHECK(Load("flat", "").empty());
}

TEST_CASE("the last record needs no final newline", "[insert_parser]") {
  CHECK(Load("flat", "{\"k\": 1}\n{\"k\": 2, \"v\": \"x\"}") == Calls{"1: 1", "2: 2 v='x'"});
  CHECK(Load("flat", "k,v\n1,a\n2,\"b\"") == Calls{"2: 1 v='a'", "3: 2 v='b'"});
  CHECK(Load("flat", "k,v\n1,") == Calls{"2: 1 v=null"});
  CHECK(Load("flat", "k,v\n1,\"a\nb") ==
        Calls{"2: InvalidArgument: a quoted field is not closed at the end of the input"});
}

TEST_CASE("CSV fields are literals, quoted empty is empty text, unquoted empty is null",
          "[insert_parser]") {
  const std::string input =
      "host,day,ts,seq,msg,n,ok\n"
      "a,1,2018-07-23T11:04:22.432Z,1,\"hello, \"\"world\"\"\",42,true\n"
      "b,1,1,2,\"two\nlines\",,false\n"
      "c,1,2,3,\"\",7,\r\n"
      " d ,1,3,4, spaced ,8,TRUE\n";
  CHECK(Load("logs", input) ==
        Calls{"2: a,1|2018-07-23T11:04:22.432Z,1 msg='hello, \"world\"' n=42 ok=true",
              "3: b,1|1970-01-01T00:00:00.001Z,2 msg='two\nlines' n=null ok=false",
              "5: c,1|1970-01-01T00:00:00.002Z,3 msg='' n=7 ok=null",
              "6:  d ,1|1970-01-01T00:00:00.003Z,4 msg=' spaced ' n=8 ok=true"});
}

TEST_CASE("CSV header columns come in any order and may leave columns out", "[insert_parser]") {
  CHECK(Load("types", "t_set,k,t_map,t_blob\n\"{'b', 'a'}\",1,\"{'x': 1}\",0xFF\n") ==
        Calls{"2: 1 t_set={'a', 'b'} t_map={'x': 1} t_blob=0xff"});
  CHECK(Load("odd", "\"Q\",k,\"a,b\"\nx,1,2\n") == Calls{"2: 1 Q='x' a,b=2"});
}

TEST_CASE("a bad CSV record is refused with its problem and the next one still loads",
          "[insert_parser]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"1,a,b", "3 fields, the header has 2"},
      {"1", "1 fields, the header has 2"},
      {",a", "key column 'k' cannot be null"},
      {"\"\",a", "column 'k': empty value for int"},
      {"x,a", "column 'k': "},
      {"1,\"a\"b", "bad quoting on line 2"},
      {"1,a\"b", "bad quoting on line 2"},
      {"1,\"a\" ", "bad quoting on line 2"},
      {"1,\"a\n\"b", "bad quoting on line 3"},
      {"1,\xff", "column 'v': invalid UTF-8"},
  };
  for (const auto& [record, message] : cases) {
    INFO(record);
    const Calls calls = Load("flat", "k,v\n" + record + "\n9,ok\n");
    REQUIRE(calls.size() == 2);
    CHECK_THAT(calls[0], Contains("2: InvalidArgument: " + message));
    CHECK_THAT(calls[1], Contains(": 9 v='ok'"));
  }
}

TEST_CASE("a bad CSV header is reported on its line and refuses every record", "[insert_parser]") {
  auto check = [](const std::string& header, const std::string& message) {
    INFO(header);
    const Calls calls = Load("flat", header + "\n1,a\n2,b\n");
    REQUIRE(calls.size() == 3);
    const std::string error = "InvalidArgument: CSV header on line 1: " + message;
    CHECK(calls[0] == "1: " + error);
    CHECK(calls[1] == "2: " + error);
    CHECK(calls[2] == "3: " + error);
  };
  check("k,foo", "unknown column 'foo'");
  check("k,", "unknown column ''");
  check("v", "missing key column 'k'");
  check("v,v,k", "column 'v' given twice");
  check("k,k", "column 'k' given twice");
  check(" k,v", "unknown column ' k'");
  check("v,@ttl", "missing key column 'k'");
  check("k,\"v\"x",
        "bad quoting on line 1: a '\"' must open a field, close it before ',' or "
        "the end of the line, or be doubled inside it");
}

TEST_CASE("CSV @ttl and @timestamp columns set each record's attributes", "[insert_parser]") {
  const std::string input =
      "k,@ttl,v,@timestamp\n"
      "1,60,a,5\n"
      "2,0,b,\n"
      "3,,c,7\n"
      "4,x,d,1\n"
      "5,1,e,-0\n";
  CHECK(Load("flat", input, {.timestamp = 8, .ttl = 9}) ==
        Calls{"2: 1 v='a' ttl=60 timestamp=5", "3: 2 v='b' ttl=0 timestamp=8",
              "4: InvalidArgument: @ttl is empty (write 0 for no TTL)",
              "5: InvalidArgument: @ttl: TTL must be a decimal integer from 0 to 630720000 "
              "seconds, without sign or leading zeros; got 'x'",
              "6: InvalidArgument: @timestamp: timestamp must be a decimal integer of "
              "microseconds from -9223372036854775807 to 9223372036854775807, without '+' or "
              "leading zeros; got '-0'"});
  CHECK(Load("flat", "k,v\n1,a\n", {.timestamp = std::nullopt, .ttl = 9}) ==
        Calls{"2: 1 v='a' ttl=9"});
}

TEST_CASE("a CSV record's line is where it starts, multi-line fields counted", "[insert_parser]") {
  const std::string input =
      "\n"
      "k,v\n"
      "1,\"a\nb\"\n"
      "2,c\n"
      "\n"
      "3,\"x\r\n\r\ny\"\r\n"
      "4,\"\n\"\n"
      "5,d";
  CHECK(Load("flat", input) ==
        Calls{"3: 1 v='a\nb'", "5: 2 v='c'", "7: 3 v='x\r\n\r\ny'", "10: 4 v='\n'", "12: 5 v='d'"});
}

TEST_CASE("a counter table's records carry the values to add; a null counter is refused",
          "[insert_parser]") {
  CHECK(Load("counts", "{\"k\": \"a\", \"hits\": 1}\n\n{\"k\": \"b\", \"hits\": null}\n") ==
        Calls{"1: a hits=1", "3: InvalidArgument: counter column 'hits' cannot be null"});
  CHECK(Load("counts", "k,hits\na,-4\n") == Calls{"2: a hits=-4"});
}

TEST_CASE("a record of the partition key and static columns only is the static row's INSERT",
          "[insert_parser]") {
  CHECK(Load("logs", R"({"host": "a", "day": 1, "s": "x"})"
                     "\n") == Calls{"1: a,1 s='x'"});
  CHECK(Load("logs", "host,day,s\na,1,x\n") == Calls{"2: a,1 s='x'"});
  // A regular column, a part of the clustering key, or no static column:
  // every key column is needed, as Cassandra's INSERT says.
  CHECK(Load("logs", R"({"host": "a", "day": 1, "s": "x", "msg": "m"})"
                     "\n") == Calls{"1: InvalidArgument: missing key column 'ts'"});
  CHECK(Load("logs", R"({"host": "a", "day": 1, "ts": 0, "s": "x"})"
                     "\n") == Calls{"1: InvalidArgument: missing key column 'seq'"});
  CHECK(Load("logs", R"({"host": "a", "day": 1})"
                     "\n") == Calls{"1: InvalidArgument: missing key column 'ts'"});
  CHECK(Load("logs", R"({"day": 1, "s": "x"})"
                     "\n") == Calls{"1: InvalidArgument: missing key column 'host'"});
}

TEST_CASE("the sink may keep the rows it is given", "[insert_parser]") {
  TableHandle table = Table("logs");
  InsertParser parser(table, {});
  std::vector<InsertRow> kept;
  const InsertParser::Sink sink = [&](uint64_t, Result<InsertRow>&& row) {
    REQUIRE(row.ok());
    kept.push_back(std::move(row).value());
  };
  parser.Feed(
      R"({"host": "a", "day": 1, "ts": 0, "seq": 1, "msg": "a long message, longer than a small string"})"
      "\n",
      sink);
  parser.Feed(R"({"host": "bb", "day": 2, "ts": 1, "seq": 2, "n": 5, "msg": null})"
              "\n",
              sink);
  parser.Finish(sink);
  REQUIRE(kept.size() == 2);
  CHECK(Render(*table, 1, kept[0]) ==
        "1: a,1|1970-01-01T00:00:00.000Z,1 msg='a long message, longer than a small string'");
  CHECK(Render(*table, 2, kept[1]) == "2: bb,2|1970-01-01T00:00:00.001Z,2 n=5 msg=null");
}

TEST_CASE("loaded rows apply to the engine, a null deleting the cell", "[insert_parser]") {
  TestEngine db;
  db.Ddl(kSchema);
  TableHandle table = db.Table("ks", "logs");
  auto load = [&](const std::string& input, int64_t timestamp) {
    Mutation mutation = db.engine->NewMutation();
    const InsertParser::Sink sink = [&](uint64_t line, Result<InsertRow>&& row) {
      INFO(line << ": " << row.status().ToString());
      REQUIRE(row.ok());
      Status inserted =
          mutation.Insert(table, row->partition_key, row->clustering, row->cells, row->attributes);
      INFO(inserted.ToString());
      REQUIRE(inserted.ok());
    };
    InsertParser parser(table, {.timestamp = timestamp, .ttl = std::nullopt});
    parser.Feed(input, sink);
    parser.Finish(sink);
    REQUIRE(db.engine->Apply(std::move(mutation)).ok());
  };
  load("host,day,ts,seq,s,msg,n\na,1,0,1,st,x,9\na,1,0,2,,\"\",3\n", 100);
  load(R"({"host": "a", "day": 1, "ts": 0, "seq": 1, "n": null})", 200);
  const std::vector<std::string> partition = {testing::Value(*table->column(0).type, "a"),
                                              testing::Value(*table->column(1).type, "1")};
  CHECK(testing::FormatPartition(db.engine->NewReadView(), table, partition) ==
        "1970-01-01T00:00:00.000Z,1: marker@200 msg='x'@100 | "
        "1970-01-01T00:00:00.000Z,2: marker@100 msg=''@100 n=3@100");
}

// Inputs whose records cover both formats' awkward corners: errors, blank
// lines, CRLF, multi-byte UTF-8 and escapes, quoted fields across lines.
std::string RandomJsonLines(std::mt19937_64& rng) {
  static const std::vector<std::string> kLines = {
      R"({"k": 1, "v": "plain"})",
      R"({"k": 2, "v": "h\u00e9 \"q\" \\ \n", "@ttl": 5})",
      "{\"v\": \"\xe2\x9c\x93 \xf0\x9f\x98\x80\", \"k\": 3}",
      R"({"k": 4, "v": null, "@timestamp": 12})",
      R"({"k": "x"})",
      R"({"k": 5, "nope": 1})",
      "[1]",
      "{\"k\": 6,",
      "",
      "   ",
      "{\"k\": 7}\r",
  };
  std::string input;
  const size_t lines = 1 + rng() % 30;
  for (size_t i = 0; i < lines; ++i) input += kLines[rng() % kLines.size()] + "\n";
  if (rng() % 2 == 0) input.pop_back();
  return input;
}

std::string RandomCsv(std::mt19937_64& rng) {
  static const std::vector<std::string> kRecords = {
      "1,plain",
      "2,\"comma, \"\"quote\"\"\"",
      "3,\"multi\nline\r\nfield\"",
      "4,",
      "5,\"\"",
      "x,bad int",
      "6,\"bad\"quote",
      "7,a,extra",
      "",
      "8,\xe2\x9c\x93\xf0\x9f\x98\x80",
      "9,\"\n\n\"",
      "10,crlf\r",
  };
  std::string input = "k,v\n";
  const size_t records = 1 + rng() % 30;
  for (size_t i = 0; i < records; ++i) input += kRecords[rng() % kRecords.size()] + "\n";
  if (rng() % 2 == 0) input.pop_back();
  return input;
}

TEST_CASE("property: any split of the input gives the same records", "[insert_parser][property]") {
  std::mt19937_64 rng(20240611);
  TableHandle table = Table("flat");
  for (int iteration = 0; iteration < 400; ++iteration) {
    const std::string input = iteration % 2 == 0 ? RandomJsonLines(rng) : RandomCsv(rng);
    INFO(input);
    const Calls whole = LoadChunks(table, {input});
    std::vector<std::string> chunks;
    for (size_t at = 0; at < input.size();) {
      const size_t size = std::min<size_t>(input.size() - at, rng() % 12);
      chunks.push_back(input.substr(at, size));  // empty chunks too
      at += size;
    }
    CHECK(LoadChunks(table, chunks) == whole);
    if (iteration % 20 == 0) {
      std::vector<std::string> bytes;
      for (char c : input) bytes.emplace_back(1, c);
      CHECK(LoadChunks(table, bytes) == whole);
    }
  }
}

// `value` in a form equal for values Cassandra ranks equal (as in
// row_json_test): a UDT's missing trailing fields count as null.
std::string Comparable(const CqlType& type, const std::string& value) {
  TypePtr frozen = type.AsFrozen();
  if (!frozen->CheckKeyCapable().ok()) return value;
  std::string encoded;
  EncodeKeyComponent(*frozen, value, SortOrder::kAsc, &encoded);
  return encoded;
}

TEST_CASE("property: what @json and @csv read, @insert loads back", "[insert_parser][property]") {
  TableHandle table = Table("types");
  RandomValues random(4242);
  const bool csv = GENERATE(false, true);
  std::string input = csv ? CsvHeader(*table) : "";
  std::vector<std::map<size_t, std::string>> expected;
  for (int i = 0; i < 200; ++i) {
    const std::vector<std::string> pk = {testing::Value(*table->column(0).type, std::to_string(i))};
    RowFragment row;
    std::map<size_t, std::string>& values = expected.emplace_back();
    for (size_t c = 1; c < table->def.columns.size(); ++c) {
      if (random.Chance(4)) continue;  // absent: null
      const CqlType& type = *table->column(c).type;
      std::string value = random.Value(type);
      // A nested empty value (blobasint(0x)) has no literal; JSON prints NaN
      // and the infinities as null, as Cassandra 4 does, so none comes back.
      const std::string literal = FormatLiteral(type, value);
      if (literal.find("blobas") != std::string::npos) continue;
      if (!csv && (literal.find("NaN") != std::string::npos ||
                   literal.find("Infinity") != std::string::npos)) {
        continue;
      }
      row.cells.push_back({table->column_ids[c], Cell::Live(1, value)});
      values[c] = std::move(value);
    }
    input += csv ? RowToCsv(*table, pk, {}, nullptr, row)
                 : RowToJson(*table, pk, {}, nullptr, row) + "\n";
  }
  std::vector<InsertRow> rows;
  InsertParser parser(table, {});
  const InsertParser::Sink sink = [&](uint64_t line, Result<InsertRow>&& row) {
    INFO(line << ": " << row.status().ToString());
    REQUIRE(row.ok());
    rows.push_back(std::move(row).value());
  };
  parser.Feed(input, sink);
  parser.Finish(sink);
  REQUIRE(rows.size() == expected.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    REQUIRE(rows[i].cells.size() == table->def.columns.size() - 1);
    for (const ColumnValue& cell : rows[i].cells) {
      const CqlType& type = *table->column(cell.column).type;
      INFO(i << " " << table->column(cell.column).name);
      auto it = expected[i].find(cell.column);
      if (it == expected[i].end()) {
        CHECK_FALSE(cell.value.has_value());
      } else {
        REQUIRE(cell.value.has_value());
        CHECK(testing::ToHex(Comparable(type, *cell.value)) ==
              testing::ToHex(Comparable(type, it->second)));
      }
    }
  }
}

TEST_CASE("a record whose key name would exceed 255 bytes is refused, the next line loads",
          "[insert_parser]") {
  const std::string x255(255, 'x');
  const std::string x256(256, 'x');
  const std::string percents(86, '%');  // 258 bytes once escaped as %25
  const std::string kTooLong = "would exceed the limit of 255 bytes";
  SECTION("JSON Lines, partition and row keys") {
    const Calls calls =
        Load("names", "{\"p\": \"" + x255 + "\", \"c\": \"" + x255 + "\"}\n" + "{\"p\": \"" + x256 +
                          "\", \"c\": \"r\"}\n" + "{\"p\": \"" + percents + "\", \"c\": \"r\"}\n" +
                          "{\"p\": \"@" + std::string(254, 'x') + "\", \"c\": \"r\"}\n" +
                          "{\"p\": \"a\", \"c\": \"" + x256 + "\"}\n" +
                          "{\"p\": \"a\", \"c\": \"ok\"}\n");
    REQUIRE(calls.size() == 6);
    CHECK(calls[0] == "1: " + x255 + "|" + x255);
    for (int i = 1; i <= 3; ++i) {
      INFO(calls[static_cast<size_t>(i)]);
      CHECK_THAT(calls[static_cast<size_t>(i)],
                 StartsWith(std::to_string(i + 1) + ": NameTooLong: partition key: ") &&
                     Contains(kTooLong));
    }
    CHECK_THAT(calls[4], StartsWith("5: NameTooLong: row key: ") && Contains(kTooLong));
    CHECK(calls[5] == "6: a|ok");
  }
  SECTION("CSV, a row key") {
    const Calls calls = Load("names", "p,c\na," + std::string(300, 'c') + "\nb,ok\n");
    REQUIRE(calls.size() == 2);
    CHECK_THAT(calls[0], StartsWith("2: NameTooLong: row key: ") && Contains(kTooLong));
    CHECK(calls[1] == "3: b|ok");
  }
  SECTION("a composite partition key counts its comma-joined name") {
    // host,day: "<host>,1"; 253 + 2 bytes fit, 254 + 2 do not.
    const std::string fits(253, 'h');
    const std::string over(254, 'h');
    const Calls calls = Load("logs", "host,day,ts,seq\n" + fits + ",1,0,1\n" + over + ",1,0,1\n");
    REQUIRE(calls.size() == 2);
    CHECK(calls[0] == "2: " + fits + ",1|1970-01-01T00:00:00.000Z,1");
    CHECK_THAT(calls[1], StartsWith("3: NameTooLong: partition key: ") && Contains(kTooLong));
  }
}

TEST_CASE("after an unclosed quoted field is refused at Finish, the CSV reader starts afresh",
          "[insert_parser]") {
  TableHandle table = Table("flat");
  InsertParser parser(table, {});
  Calls calls;
  const InsertParser::Sink sink = [&](uint64_t line, Result<InsertRow>&& row) {
    calls.push_back(Render(*table, line, row));
  };
  parser.Feed("k,v\n1,\"never closed\n", sink);
  parser.Finish(sink);
  parser.Finish(sink);  // a second fsync: nothing new to report
  parser.Feed("3,after\n", sink);
  parser.Finish(sink);
  CHECK(calls == Calls{"2: InvalidArgument: a quoted field is not closed at the end of the input",
                       "3: 3 v='after'"});
}

// The JSON object {"k": 1, <member>} as an @insert line and as a row's @json
// write (row k = 1), each rendered as Render renders a record ("1: ..."), so
// that the two can be compared.
std::pair<std::string, std::string> BothPaths(const std::string& member) {
  TableHandle table = Table("types");
  const std::string json = R"({"k": 1, )" + member + "}";
  const Calls calls = Load("types", json);
  REQUIRE(calls.size() == 1);
  std::string insert = calls[0];
  std::string row;
  std::vector<ColumnValue> cells;
  const std::vector<std::string> pk = {testing::Value(*table->column(0).type, "1")};
  Status status = ParseRowJson(*table, pk, {}, json, &cells);
  if (status.ok()) {
    InsertRow as_row{.partition_key = pk, .clustering = {}, .cells = cells, .attributes = {}};
    row = Render(*table, 1, Result<InsertRow>(std::move(as_row)));
  } else {
    row = "1: " + status.ToString();
  }
  return {insert, row};
}

TEST_CASE("a JSON value reads the same as an @insert line and as a row's @json write",
          "[insert_parser][row_json]") {
  // Each once read differently by the two paths; now both follow Cassandra.
  // Both accept with the same record, or both refuse; either way `expected`
  // is in what each path says.
  auto agree = [](const std::string& member, const std::string& expected) {
    INFO(member);
    const auto [insert, row] = BothPaths(member);
    const std::string refused = "1: InvalidArgument: ";
    if (insert.starts_with(refused) || row.starts_with(refused)) {
      CHECK_THAT(insert, StartsWith(refused));
      CHECK_THAT(row, StartsWith(refused));
    } else {
      CHECK(insert == row);
    }
    CHECK_THAT(insert, Contains(expected));
    CHECK_THAT(row, Contains(expected));
  };
  SECTION("-0, an integer to Cassandra's JSON reader, is +0.0 for float and double") {
    agree(R"("t_float": -0)", "t_float=0");
    agree(R"("t_double": -0)", "t_double=0");
    agree(R"("t_double": -0.0)", "t_double=-0");
    agree(R"("t_float": "-0")", "t_float=-0");
  }
  SECTION("a UDT field given twice keeps its last value, null included") {
    agree(R"("t_udt": {"zip": 1, "zip": null})", "t_udt={street: null, city: null, zip: null}");
    agree(R"("t_udt": {"city": null, "city": "x"})", "t_udt={street: null, city: 'x', zip: null}");
  }
  SECTION("a name loses one pair of double quotes, not more") {
    agree(R"("\"t_int\"": 5)", "t_int=5");
    agree(R"("\"\"t_int\"\"": 5)", "unknown column");
    agree(R"("t_udt": {"\"\"zip\"\"": 5})", "has no field named \"\"zip\"\"");
  }
  SECTION("nesting deeper than 64 levels is refused as such") {
    agree(R"("t_list": )" + std::string(100, '[') + std::string(100, ']'), "nested deeper");
  }
}

}  // namespace
}  // namespace cellfs::fs
