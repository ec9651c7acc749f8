// The text cqlsh shows for each kind of value (fs/cql/cqlsh_value.h), with
// expected texts from cqlsh's rules (pylib/cqlshlib/formatting.py) and the
// outputs Cassandra's own cqlsh tests and dtests record.
#include "fs/cql/cqlsh_value.h"

#include <catch2/catch.hpp>

#include "engine/cql/literal.h"
#include "fs/cql/cqlsh_width.h"

namespace cellfs::fs {
namespace {

TypePtr Native(TypeKind kind) { return CqlType::Native(kind); }

// The serialized value that CQL literal `literal` of `type` means.
std::string Bytes(const CqlType& type, const std::string& literal) {
  Result<std::string> bytes = ParseLiteral(type, literal);
  REQUIRE(bytes.ok());
  return bytes.value();
}

// What cqlsh shows for `literal` of `type`.
std::string Show(const TypePtr& type, const std::string& literal) {
  return FormatCqlshValue(*type, Bytes(*type, literal)).text;
}

int Width(const TypePtr& type, const std::string& literal) {
  return FormatCqlshValue(*type, Bytes(*type, literal)).width;
}

TEST_CASE("text shows unquoted at the top level, quoted inside collections", "[cqlsh_value]") {
  const TypePtr text = Native(TypeKind::kText);
  CHECK(Show(text, "abc") == "abc");
  CHECK(Show(text, "it's") == "it's");
  CHECK(Show(CqlType::List(text, true), "['it''s', 'b']") == "['it''s', 'b']");
  CHECK(Show(CqlType::Set(Native(TypeKind::kAscii), true), "{'a', 'b'}") == "{'a', 'b'}");
}

TEST_CASE("text doubles backslashes and escapes control characters as Python's repr",
          "[cqlsh_value]") {
  const TypePtr text = Native(TypeKind::kText);
  CHECK(Show(text, "a\\b") == "a\\\\b");
  CHECK(Show(text, "newline:\n") == "newline:\\n");
  CHECK(Show(text, "return\rand null") == "return\\rand null");
  CHECK(Show(text, "tab\t") == "tab\\t");
  CHECK(FormatCqlshValue(*text, std::string("\0!", 2)).text == "\\x00!");
  CHECK(Show(text, "\x01\x1f\x7f") == "\\x01\\x1f\\x7f");
  CHECK(Show(text, "\xc2\x85\xc2\xa0\xc2\xa1") == "\\x85\\xa0\xc2\xa1");  // U+00A1 stays
  CHECK(Show(Native(TypeKind::kAscii), "a\nb") == "a\\nb");
}

TEST_CASE("text width counts East Asian wide characters as 2", "[cqlsh_value]") {
  const TypePtr text = Native(TypeKind::kText);
  CHECK(Width(text, "abc") == 3);
  CHECK(Width(text, "龍馭鬱") == 6);
  CHECK(Width(text, "いろはにほへと") == 14);
  CHECK(Width(text, "Voilá!") == 6);
  CHECK(Width(text, "zero width\u200bspace") == 15);
  CHECK(Width(text, "a\n") == 3);  // the escape "\n" is two columns
  CHECK(Width(CqlType::List(text, true), "['龍']") == 6);
}

TEST_CASE("cqlsh's wcwidth rules", "[cqlsh_value]") {
  CHECK(CqlshCharWidth(U'a') == 1);
  CHECK(CqlshCharWidth(0) == 0);
  CHECK(CqlshCharWidth(0x07) == -1);
  CHECK(CqlshCharWidth(0x9f) == -1);
  CHECK(CqlshCharWidth(0x0301) == 0);  // combining acute accent
  CHECK(CqlshCharWidth(0x00ad) == 1);  // soft hyphen
  CHECK(CqlshCharWidth(0x1160) == 0);  // Hangul medial vowel
  CHECK(CqlshCharWidth(0x1100) == 2);
  CHECK(CqlshCharWidth(0x303f) == 1);
  CHECK(CqlshCharWidth(0xff01) == 2);   // fullwidth !
  CHECK(CqlshCharWidth(0x1f600) == 1);  // an emoji: Unicode 5.0 knew none
  CHECK(CqlshCharWidth(0x20000) == 2);
  CHECK(CqlshTextWidth("a\x01") == -1);
  CHECK(CodePointCount("龍a") == 2);
}

TEST_CASE("booleans show as Python's True and False", "[cqlsh_value]") {
  CHECK(Show(Native(TypeKind::kBoolean), "true") == "True");
  CHECK(Show(Native(TypeKind::kBoolean), "false") == "False");
  CHECK(Show(CqlType::List(Native(TypeKind::kBoolean), true), "[true, false]") == "[True, False]");
}

TEST_CASE("integers show in decimal", "[cqlsh_value]") {
  CHECK(Show(Native(TypeKind::kTinyint), "-128") == "-128");
  CHECK(Show(Native(TypeKind::kSmallint), "32767") == "32767");
  CHECK(Show(Native(TypeKind::kInt), "-2147483648") == "-2147483648");
  CHECK(Show(Native(TypeKind::kBigint), "9223372036854775807") == "9223372036854775807");
  CHECK(Show(Native(TypeKind::kCounter), "42") == "42");
  CHECK(Show(Native(TypeKind::kVarint), "-10000000000000000000000000") ==
        "-10000000000000000000000000");
}

TEST_CASE("doubles show with cqlsh's default precision of 5", "[cqlsh_value]") {
  const TypePtr d = Native(TypeKind::kDouble);
  CHECK(Show(d, "1.0") == "1");
  CHECK(Show(d, "0.1") == "0.1");
  CHECK(Show(d, "0.5") == "0.5");
  CHECK(Show(d, "-2.1") == "-2.1");
  CHECK(Show(d, "3.14159265358979") == "3.14159");
  CHECK(Show(d, "16.12345") == "16.12345");
  CHECK(Show(d, "6.123455") == "6.12345");
  CHECK(Show(d, "11116.12345") == "11116.12345");
  CHECK(Show(d, "111116.12345") == "1.1112e+05");
  CHECK(Show(d, "123456.7") == "1.2346e+05");
  CHECK(Show(d, "1e20") == "1e+20");
  CHECK(Show(d, "0.0006") == "0.0006");
  CHECK(Show(d, "0.00006") == "6e-05");
  CHECK(Show(d, "0.00000006") == "6e-08");
  CHECK(Show(d, "1e-20") == "1e-20");
  CHECK(Show(d, "0") == "0");
  CHECK(Show(d, "-0.0") == "-0");
  CHECK(Show(d, "NaN") == "NaN");
  CHECK(Show(d, "Infinity") == "Infinity");
  CHECK(Show(d, "-Infinity") == "-Infinity");
}

TEST_CASE("floats are widened to double before formatting", "[cqlsh_value]") {
  const TypePtr f = Native(TypeKind::kFloat);
  CHECK(Show(f, "6.123455") == "6.12346");
  CHECK(Show(f, "1116.12345") == "1116.12341");
  CHECK(Show(f, "11116.12345") == "11116.12305");
  CHECK(Show(f, "-234.3") == "-234.3");
  CHECK(Show(f, "100000000.9") == "1e+08");
  CHECK(Show(f, "NaN") == "NaN");
  CHECK(Show(CqlType::List(f, true), "[1.5, 1e20]") == "[1.5, 1e+20]");
}

TEST_CASE("decimals show as Python's str(Decimal)", "[cqlsh_value]") {
  const TypePtr dec = Native(TypeKind::kDecimal);
  CHECK(Show(dec, "19952.11882") == "19952.11882");
  CHECK(Show(dec, "0.00000000000001") == "1E-14");
  CHECK(Show(dec, "10.0000000000000") == "10.0000000000000");
  CHECK(Show(dec, "0.0") == "0.0");
  CHECK(Show(dec, "0.00") == "0.00");
  CHECK(Show(dec, "-20.4") == "-20.4");
  CHECK(Show(dec, "123.4500") == "123.4500");
  CHECK(Show(dec, "0.000001") == "0.000001");
  CHECK(Show(dec, "0.0000001") == "1E-7");
  CHECK(Show(dec, "1E+3") == "1E+3");
  CHECK(Show(dec, "1.50E+5") == "1.50E+5");
  CHECK(Show(dec, "42") == "42");
}

TEST_CASE("blobs, uuids and inets", "[cqlsh_value]") {
  CHECK(Show(Native(TypeKind::kBlob), "0x000102030405fffefd") == "0x000102030405fffefd");
  CHECK(FormatCqlshValue(*Native(TypeKind::kBlob), "").text == "0x");
  CHECK(Show(Native(TypeKind::kUuid), "BD1924E1-6AF8-44AE-B5E1-F24131DBD460") ==
        "bd1924e1-6af8-44ae-b5e1-f24131dbd460");
  CHECK(Show(Native(TypeKind::kTimeuuid), "4a36c100-d8ec-11e2-a28f-0800200c9a66") ==
        "4a36c100-d8ec-11e2-a28f-0800200c9a66");
  CHECK(Show(Native(TypeKind::kInet), "192.168.0.1") == "192.168.0.1");
  CHECK(Show(Native(TypeKind::kInet), "0:0:0:0:0:0:0:1") == "::1");
  CHECK(Show(CqlType::List(Native(TypeKind::kInet), true), "['127.0.0.1']") == "['127.0.0.1']");
  CHECK(Show(CqlType::List(Native(TypeKind::kBlob), true), "[0xff]") == "[0xff]");
  CHECK(Show(CqlType::List(Native(TypeKind::kUuid), true),
             "[bd1924e1-6af8-44ae-b5e1-f24131dbd460]") == "[bd1924e1-6af8-44ae-b5e1-f24131dbd460]");
}

TEST_CASE("timestamps show in UTC with microseconds", "[cqlsh_value]") {
  const TypePtr ts = Native(TypeKind::kTimestamp);
  CHECK(Show(ts, "2018-07-23 11:04:22.432+0000") == "2018-07-23 11:04:22.432000+0000");
  CHECK(Show(ts, "2012-05-14 12:53:20+0000") == "2012-05-14 12:53:20.000000+0000");
  CHECK(Show(ts, "1943-06-19 11:21:01.123+0000") == "1943-06-19 11:21:01.123000+0000");
  CHECK(Show(ts, "2038-01-19T03:14-1200") == "2038-01-19 15:14:00.000000+0000");
  CHECK(Show(ts, "-1") == "1969-12-31 23:59:59.999000+0000");
  CHECK(Show(CqlType::List(ts, true), "['2018-07-23T11:04:22.432Z']") ==
        "['2018-07-23 11:04:22.432000+0000']");
}

TEST_CASE("timestamps keep Python's float arithmetic and datetime range", "[cqlsh_value]") {
  const TypePtr ts = Native(TypeKind::kTimestamp);
  // ms / 1000.0 is not exact this far from 1970.
  CHECK(Show(ts, "9999-12-31T23:59:59.999Z") == "9999-12-31 23:59:59.998993+0000");
  CHECK(Show(ts, "0001-01-01T00:00:00Z") == "1-01-01 00:00:00.000000+0000");  // glibc %Y
  CHECK(Show(ts, "1000-01-01T00:00:00Z") == "1000-01-01 00:00:00.000000+0000");
  CHECK(Show(ts, "+10000-01-01T00:00:00Z") == "253402300800000");
  CHECK(Show(ts, "0000-01-01T00:00:00Z") == "-62167219200000");
  CHECK(Show(CqlType::List(ts, true), "['0000-01-01T00:00:00Z']") == "['-62167219200000']");
}

TEST_CASE("dates show as yyyy-mm-dd within years 1..9999, else as days", "[cqlsh_value]") {
  const TypePtr date = Native(TypeKind::kDate);
  CHECK(Show(date, "2015-05-14") == "2015-05-14");
  CHECK(Show(date, "0001-01-01") == "0001-01-01");
  CHECK(Show(date, "9999-01-01") == "9999-01-01");
  CHECK(Show(date, "0000-01-01") == "-719528");
  CHECK(Show(date, "+10000-01-01") == "2932897");
  CHECK(Show(CqlType::List(date, true), "['2015-05-14']") == "[2015-05-14]");
}

TEST_CASE("times show with nine fraction digits, bare inside collections", "[cqlsh_value]") {
  const TypePtr time = Native(TypeKind::kTime);
  CHECK(Show(time, "11:04:22.432") == "11:04:22.432000000");
  CHECK(Show(time, "23:59:59.999999999") == "23:59:59.999999999");
  CHECK(Show(CqlType::List(time, true), "['16:30:00.555555555']") == "[16:30:00.555555555]");
}

TEST_CASE("durations show as cqlsh's duration_as_str under Python 3", "[cqlsh_value]") {
  const TypePtr dur = Native(TypeKind::kDuration);
  CHECK(Show(dur, "1h30m") == "1.5h30.0m");
  CHECK(Show(dur, "1y2mo3d") == "1.1666666666666667y2.0mo3.0d");
  CHECK(Show(dur, "-5d") == "-5.0d");
  CHECK(Show(dur, "12h") == "12.0h");
  CHECK(Show(dur, "1500ms") == "1.5s500.0ms");
  CHECK(Show(dur, "0s") == "");
  CHECK(Show(dur, "9223372036854775807ns") ==
        "2562047.7880152157h47.28091293011666m16.854775807s854.775807ms775.807us807.0ns");
  CHECK(Show(CqlType::List(dur, true), "[1d]") == "[1.0d]");
}

TEST_CASE("duration quotients are rounded once, as Python divides integers", "[cqlsh_value]") {
  const TypePtr dur = Native(TypeKind::kDuration);
  // Dividing in long double, then rounding to double, gave 147.79707200000001ms
  // and 8977.450236020806h.
  CHECK(Show(dur, "431147797072ns") ==
        "7.185796617866667m11.147797072s147.797072ms797.072us72.0ns");
  CHECK(Show(dur, "32318820849674899ns") ==
        "8977.450236020804h27.014161248316668m849.674899ms674.899us899.0ns");
}

TEST_CASE("collections join their elements", "[cqlsh_value]") {
  const TypePtr text = Native(TypeKind::kText);
  const TypePtr i = Native(TypeKind::kInt);
  CHECK(Show(CqlType::List(text, true), "['a', 'b']") == "['a', 'b']");
  CHECK(Show(CqlType::Set(i, true), "{2, 1}") == "{1, 2}");
  CHECK(Show(CqlType::Map(text, i, true), "{'k': 1, 'j': 2}") == "{'j': 2, 'k': 1}");
  CHECK(Show(CqlType::List(CqlType::Map(i, text, true), true), "[{1: 'a'}, {}]") ==
        "[{1: 'a'}, {}]");
  CHECK(Width(CqlType::Map(text, i, true), "{'k': 1, 'j': 2}") == 16);
}

TEST_CASE("an empty collection counts zero columns, as cqlsh counts it", "[cqlsh_value]") {
  const TypePtr list = CqlType::List(Native(TypeKind::kInt), true);
  CHECK(Show(list, "[]") == "[]");
  CHECK(Width(list, "[]") == 0);
  CHECK(Width(CqlType::Map(Native(TypeKind::kInt), Native(TypeKind::kInt), true), "{}") == 0);
}

TEST_CASE("set elements and map keys come in Python's order", "[cqlsh_value]") {
  const TypePtr uuid = Native(TypeKind::kUuid);
  // Cassandra orders uuids by version first; Python by their 128-bit value.
  CHECK(Show(CqlType::Set(uuid, true),
             "{ffffffff-ffff-1fff-8fff-ffffffffffff, 00000000-0000-4000-8000-000000000000}") ==
        "{00000000-0000-4000-8000-000000000000, ffffffff-ffff-1fff-8fff-ffffffffffff}");
  // Python compares inet addresses as strings.
  CHECK(Show(CqlType::Set(Native(TypeKind::kInet), true), "{'9.0.0.0', '10.0.0.1'}") ==
        "{'10.0.0.1', '9.0.0.0'}");
  CHECK(Show(CqlType::Map(Native(TypeKind::kInet), Native(TypeKind::kInt), true),
             "{'9.0.0.0': 1, '10.0.0.1': 2}") == "{'10.0.0.1': 2, '9.0.0.0': 1}");
}

TEST_CASE("tuples show every component, a null one as Python's None", "[cqlsh_value]") {
  const TypePtr i = Native(TypeKind::kInt);
  const TypePtr text = Native(TypeKind::kText);
  CHECK(Show(CqlType::Tuple({i, text}), "(1, 'a')") == "(1, 'a')");
  CHECK(Show(CqlType::Tuple({i, i}), "(1, null)") == "(1, None)");
  CHECK(Show(CqlType::Tuple({i, i}), "(1)") == "(1, None)");
  CHECK(Show(CqlType::Tuple({i, Native(TypeKind::kInet)}), "(1, null)") == "(1, 'None')");
  CHECK(Width(CqlType::Tuple({i, text}), "(1, 'a')") == 8);
}

TEST_CASE("UDTs show every field by its bare name, a missing one as null", "[cqlsh_value]") {
  const TypePtr udt =
      CqlType::Udt("ks", "person", {"name", "n", "Odd Name"},
                   {Native(TypeKind::kText), Native(TypeKind::kInt), Native(TypeKind::kInt)}, true);
  CHECK(Show(udt, "{name: 'x'}") == "{name: 'x', n: null, Odd Name: null}");
  CHECK(Show(udt, "{name: 'x', n: 3, \"Odd Name\": 4}") == "{name: 'x', n: 3, Odd Name: 4}");
  CHECK(Width(udt, "{name: 'x', n: 3, \"Odd Name\": 4}") == 30);
}

TEST_CASE("empty values show as blank, except blob (0x) and nested text ('')", "[cqlsh_value]") {
  for (TypeKind kind : {TypeKind::kInt, TypeKind::kBigint, TypeKind::kBoolean, TypeKind::kDecimal,
                        TypeKind::kDouble, TypeKind::kFloat, TypeKind::kTimestamp, TypeKind::kUuid,
                        TypeKind::kVarint, TypeKind::kText, TypeKind::kAscii}) {
    CHECK(FormatCqlshValue(*Native(kind), "").text.empty());
  }
  CHECK(FormatCqlshValue(*Native(TypeKind::kBlob), "").text == "0x");
  CHECK(FormatCqlshValue(*CqlType::List(Native(TypeKind::kInt), true), "").text.empty());
  CHECK(Show(CqlType::List(Native(TypeKind::kText), true), "['']") == "['']");
}

TEST_CASE("null and column names", "[cqlsh_value]") {
  CHECK(CqlshNull().text == "null");
  CHECK(CqlshNull().width == 4);
  CHECK(FormatCqlshName("v").text == "v");
  CHECK(FormatCqlshName("[json]").text == "[json]");
  CHECK(FormatCqlshName("a\tb").text == "a\\tb");
  CHECK(FormatCqlshName("名前").width == 4);
}

}  // namespace
}  // namespace cellfs::fs
