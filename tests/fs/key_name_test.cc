// Tests for fs/formats/key_name.h: key values <-> directory names, escaping, the
// empty value, the 255-byte limit and the errors lookups and writes report.
#include "fs/formats/key_name.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "fs/tree/virtual_name.h"
#include "tests/engine/literal_test_util.h"
#include "tests/engine/random_value.h"

namespace cellfs::fs {
namespace {

using literal_test::Address;
using literal_test::ListOf;
using literal_test::MapOf;
using literal_test::N;
using literal_test::SetOf;
using literal_test::ToHex;
using literal_test::TupleOf;

// The column types of a key, owned, with the raw view the API takes.
class KeyShape {
 public:
  explicit KeyShape(std::vector<TypePtr> types) : owned_(std::move(types)) {
    for (const TypePtr& t : owned_) raw_.push_back(t.get());
  }
  std::span<const CqlType* const> types() const { return raw_; }
  const CqlType& operator[](size_t i) const { return *owned_[i]; }
  size_t size() const { return owned_.size(); }
  std::string ToString() const {
    std::string out;
    for (const TypePtr& t : owned_) out += (out.empty() ? "" : ", ") + t->ToCql();
    return "(" + out + ")";
  }

 private:
  std::vector<TypePtr> owned_;
  std::vector<const CqlType*> raw_;
};

// Serialized values from literals, one per column of `shape`.
std::vector<std::string> Values(const KeyShape& shape, const std::vector<std::string>& literals) {
  REQUIRE(literals.size() == shape.size());
  std::vector<std::string> values;
  for (size_t i = 0; i < literals.size(); ++i) {
    values.push_back(literal_test::Parse(shape[i], literals[i]));
  }
  return values;
}

std::string NameOf(const KeyShape& shape, const std::vector<std::string>& values) {
  Result<std::string> name = FormatKeyName(shape.types(), values);
  INFO(shape.ToString() << ": " << name.status().ToString());
  REQUIRE(name.ok());
  return *name;
}

std::vector<std::string> ParseName(const KeyShape& shape, std::string_view name) {
  std::vector<std::string> values;
  Status status = ParseKeyName(shape.types(), name, &values);
  INFO(shape.ToString() << " name '" << name << "': " << status.ToString());
  REQUIRE(status.ok());
  return values;
}

Status ParseNameError(const KeyShape& shape, std::string_view name) {
  std::vector<std::string> values;
  Status status = ParseKeyName(shape.types(), name, &values);
  INFO(shape.ToString() << " name '" << name << "'");
  CHECK_FALSE(status.ok());
  return status;
}

std::string Hex(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += "[" + ToHex(v) + "]";
  return out;
}

// A single text column, the shape most escaping tests use.
const KeyShape& TextKey() {
  static const KeyShape shape({N(TypeKind::kText)});
  return shape;
}

TEST_CASE("a key's name is the canonical text of its values joined by commas", "[key_name]") {
  SECTION("text and int, DESIGN's MPLS2,20180723") {
    const KeyShape shape({N(TypeKind::kText), N(TypeKind::kInt)});
    const auto values = Values(shape, {"MPLS2", "20180723"});
    CHECK(NameOf(shape, values) == "MPLS2,20180723");
    CHECK(Hex(ParseName(shape, "MPLS2,20180723")) == Hex(values));
  }
  SECTION("timestamp and text, DESIGN's 2018-07-23T11:04:22.432Z,aaronp") {
    const KeyShape shape({N(TypeKind::kTimestamp), N(TypeKind::kText)});
    const auto values = Values(shape, {"1532343862432", "aaronp"});
    CHECK(NameOf(shape, values) == "2018-07-23T11:04:22.432Z,aaronp");
    CHECK(Hex(ParseName(shape, "2018-07-23T11:04:22.432Z,aaronp")) == Hex(values));
  }
  SECTION("one canonical spelling per type") {
    const KeyShape shape({N(TypeKind::kUuid), N(TypeKind::kBlob), N(TypeKind::kBoolean),
                          N(TypeKind::kDate), N(TypeKind::kTime), N(TypeKind::kInet),
                          N(TypeKind::kDouble)});
    const auto values = Values(shape, {"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "0xCAFE", "TRUE",
                                       "2018-07-23", "11:04:22.5", "::1", "1.5e0"});
    CHECK(NameOf(shape, values) ==
          "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,0xcafe,true,2018-07-23,11:04:22.500000000,::1,1.5");
  }
}

TEST_CASE("lookup accepts every spelling CQL accepts and resolves it to the canonical key",
          "[key_name]") {
  SECTION("a timestamp with a space and a zone offset, or in milliseconds") {
    const KeyShape shape({N(TypeKind::kTimestamp), N(TypeKind::kText)});
    const auto canonical = ParseName(shape, "2018-07-23T11:04:22.432Z,aaronp");
    CHECK(Hex(ParseName(shape, "2018-07-23 11:04:22.432+0000,aaronp")) == Hex(canonical));
    CHECK(Hex(ParseName(shape, "1532343862432,aaronp")) == Hex(canonical));
  }
  SECTION("a decimal keeps the scale it was written with") {
    const KeyShape shape({N(TypeKind::kDecimal)});
    const auto scaled = ParseName(shape, "1.00");
    CHECK(NameOf(shape, scaled) == "1.00");
    CHECK(Hex(scaled) != Hex(ParseName(shape, "1")));
  }
  SECTION("a decimal key stored normalised as 1E+1 is named 10, and both spellings resolve") {
    const KeyShape shape({N(TypeKind::kDecimal)});
    const auto stored = Values(shape, {"1E+1"});  // what the key codec keeps for 10
    CHECK(NameOf(shape, stored) == "10");
    std::string a;
    std::string b;
    EncodeKeyComponent(shape[0], ParseName(shape, "10")[0], SortOrder::kAsc, &a);
    EncodeKeyComponent(shape[0], ParseName(shape, "1E+1")[0], SortOrder::kAsc, &b);
    CHECK(ToHex(a) == ToHex(b));
    CHECK(NameOf(shape, Values(shape, {"1E-7"})) == "0.0000001");
  }
  SECTION("Cassandra's timestamp patterns and time functions in names and bounds") {
    const KeyShape shape({N(TypeKind::kTimestamp)});
    const auto six = ParseName(shape, "2018-07-23T06:00:00.000Z");
    CHECK(Hex(ParseName(shape, "2018-07-23 6:00")) == Hex(six));
    CHECK(Hex(ParseName(shape, "2018-07-23 07:00 GMT+1:00")) == Hex(six));
    const KeyShape uuids({N(TypeKind::kTimeuuid)});
    CHECK(NameOf(uuids, ParseName(uuids, "minTimeuuid('2018-07-23 06:00')")) ==
          "a22ff000-8e3d-11e8-8080-808080808080");
    CHECK(NameOf(uuids, ParseName(uuids, "maxTimeuuid(2018-07-23 06:00)")) ==
          "a230170f-8e3d-11e8-7f7f-7f7f7f7f7f7f");
  }
  SECTION("an upper-case uuid") {
    const KeyShape shape({N(TypeKind::kUuid)});
    const auto upper = ParseName(shape, "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11");
    CHECK(Hex(upper) == Hex(ParseName(shape, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")));
    CHECK(NameOf(shape, upper) == "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
  }
  SECTION("escapes in lower-case hex, and bytes escaped that need not be") {
    const auto plain = ParseName(TextKey(), "a/b");  // not a file name, but a literal byte
    CHECK(Hex(ParseName(TextKey(), "a%2fb")) == Hex(plain));
    CHECK(Hex(ParseName(TextKey(), "%61%2F%62")) == Hex(plain));
    const KeyShape shape({N(TypeKind::kText), N(TypeKind::kInt)});
    CHECK(Hex(ParseName(shape, "%4dPLS2,%32%30180723")) ==
          Hex(Values(shape, {"MPLS2", "20180723"})));
  }
  SECTION("an '@' that would start a write suffix is escaped; other '@'s are not") {
    CHECK(ParseName(TextKey(), "x%40ttl=5") == std::vector<std::string>{"x@ttl=5"});
    CHECK(NameOf(TextKey(), {"x@ttl=5"}) == "x%40ttl=5");
    CHECK(NameOf(TextKey(), {"a@timestamp=1@ttl=2"}) == "a%40timestamp=1%40ttl=2");
    CHECK(NameOf(TextKey(), {"ann@example.com"}) == "ann@example.com");
    CHECK(NameOf(TextKey(), {"x@ttl"}) == "x@ttl");
  }
  SECTION("an unescaped leading '.' is data") {
    CHECK(ParseName(TextKey(), ".hidden") == std::vector<std::string>{".hidden"});
    CHECK(NameOf(TextKey(), {".hidden"}) == "%2Ehidden");
  }
}

TEST_CASE("hostile text is escaped so that every name lists and parses back", "[key_name]") {
  struct Case {
    std::string value;
    std::string name;
  };
  const std::vector<Case> cases = {
      {"%", "%25"},
      {"100%", "100%25"},
      {"%25", "%2525"},
      {"a/b", "a%2Fb"},
      {"a,b", "a%2Cb"},
      {",", "%2C"},
      {"@json", "%40json"},
      {"a@json", "a@json"},
      {".", "%2E"},
      {"..", "%2E."},
      {".hidden", "%2Ehidden"},
      {"a.b.", "a.b."},
      {std::string("a\0b", 3), "a%00b"},
      {std::string(1, '\0'), "%00"},
      {"line\nbreak", "line\nbreak"},
      {"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},
      {"%-", "%25-"},
      {"-", "-"},
      {"'quoted' \"too\" {} [] ()", "'quoted' \"too\" {} [] ()"},
  };
  for (const Case& c : cases) {
    INFO("value '" << c.value << "'");
    CHECK(NameOf(TextKey(), {c.value}) == c.name);
    CHECK(ParseName(TextKey(), c.name) == std::vector<std::string>{c.value});
  }
}

TEST_CASE("a leading '@' or '.' is escaped only at the start of the whole name", "[key_name]") {
  const KeyShape shape({N(TypeKind::kText), N(TypeKind::kText)});
  SECTION("in the first component") {
    CHECK(NameOf(shape, {"@a", ".b"}) == "%40a,.b");
    CHECK(NameOf(shape, {".a", "@b"}) == "%2Ea,@b");
  }
  SECTION("after the first byte") { CHECK(NameOf(shape, {"a@", "b."}) == "a@,b."); }
  SECTION("both spellings of a later component parse alike") {
    CHECK(ParseName(shape, "a,@b") == std::vector<std::string>{"a", "@b"});
    CHECK(ParseName(shape, "a,%40b") == std::vector<std::string>{"a", "@b"});
  }
}

TEST_CASE("the empty value is written %- and an empty component is refused", "[key_name]") {
  SECTION("empty text") {
    CHECK(NameOf(TextKey(), {""}) == "%-");
    CHECK(ParseName(TextKey(), "%-") == std::vector<std::string>{""});
  }
  SECTION("empty components of a composite key") {
    const KeyShape shape({N(TypeKind::kText), N(TypeKind::kAscii), N(TypeKind::kInt)});
    const std::vector<std::string> values = {"", "", ""};
    CHECK(NameOf(shape, values) == "%-,%-,%-");
    CHECK(ParseName(shape, "%-,%-,%-") == values);
  }
  SECTION("an int's empty value, which no literal spells") {
    const KeyShape shape({N(TypeKind::kInt)});
    CHECK(NameOf(shape, {""}) == "%-");
    CHECK(ParseName(shape, "%-") == std::vector<std::string>{""});
  }
  SECTION("an empty blob keeps its canonical 0x and reads %- alike") {
    const KeyShape shape({N(TypeKind::kBlob)});
    CHECK(NameOf(shape, {""}) == "0x");
    CHECK(ParseName(shape, "0x") == std::vector<std::string>{""});
    CHECK(ParseName(shape, "%-") == std::vector<std::string>{""});
  }
  SECTION("the text '%-' is not the empty value") {
    CHECK(ParseName(TextKey(), "%25-") == std::vector<std::string>{"%-"});
  }
  SECTION("a component of zero bytes is an error, never the empty value") {
    const KeyShape shape({N(TypeKind::kText), N(TypeKind::kText), N(TypeKind::kText)});
    for (const char* name : {"a,,b", ",a,b", "a,b,", ",,"}) {
      const Status status = ParseNameError(shape, name);
      CHECK(status.code() == StatusCode::kInvalidArgument);
      CHECK_THAT(status.message(), Catch::Contains("empty component"));
    }
    CHECK(ParseNameError(TextKey(), "").code() == StatusCode::kInvalidArgument);
  }
  SECTION("%- is a whole component or an error") {
    for (const char* name : {"%-x", "x%-", "%--", "%-%-"}) {
      CHECK(ParseNameError(TextKey(), name).code() == StatusCode::kInvalidArgument);
    }
  }
}

TEST_CASE("a name over 255 bytes is NameTooLong both ways", "[key_name]") {
  SECTION("the limit counts escaped bytes") {
    CHECK(NameOf(TextKey(), {std::string(255, 'a')}).size() == 255);
    CHECK(NameOf(TextKey(), {std::string(85, '/')}).size() == 255);
    const Result<std::string> long_text =
        FormatKeyName(TextKey().types(), std::vector<std::string>{std::string(256, 'a')});
    CHECK(long_text.status().code() == StatusCode::kNameTooLong);
    const Result<std::string> escapes =
        FormatKeyName(TextKey().types(), std::vector<std::string>{std::string(86, '/')});
    CHECK(escapes.status().code() == StatusCode::kNameTooLong);
  }
  SECTION("and the commas between components") {
    const KeyShape shape({N(TypeKind::kText), N(TypeKind::kText)});
    const std::vector<std::string> fits = {std::string(127, 'a'), std::string(127, 'b')};
    CHECK(ParseName(shape, NameOf(shape, fits)) == fits);
    const std::vector<std::string> over = {std::string(127, 'a'), std::string(128, 'b')};
    CHECK(FormatKeyName(shape.types(), over).status().code() == StatusCode::kNameTooLong);
  }
  SECTION("multi-byte text of 200 bytes and more") {
    std::string euros;
    while (euros.size() < 200) euros += "\xE2\x82\xAC";  // 3 bytes each
    CHECK(ParseName(TextKey(), NameOf(TextKey(), {euros})) == std::vector<std::string>{euros});
    const std::string fill(kMaxNameBytes - euros.size(), 'x');
    CHECK(NameOf(TextKey(), {euros + fill}).size() == 255);
    const Result<std::string> over =
        FormatKeyName(TextKey().types(), std::vector<std::string>{euros + fill + "x"});
    CHECK(over.status().code() == StatusCode::kNameTooLong);
  }
  SECTION("a name given longer than the limit") {
    const Status status = ParseNameError(TextKey(), std::string(256, 'a'));
    CHECK(status.code() == StatusCode::kNameTooLong);
    std::vector<std::string> values;
    CHECK(ParseKeyPrefix(TextKey().types(), std::string(256, 'a'), &values).code() ==
          StatusCode::kNameTooLong);
  }
  SECTION("a short spelling of a key whose canonical name is too long") {
    // "0" is 1 byte; its canonical 1970-01-01T00:00:00.000Z is 24.
    const KeyShape shape(std::vector<TypePtr>(11, N(TypeKind::kTimestamp)));
    const std::string name = "0,0,0,0,0,0,0,0,0,0,0";
    CHECK(ParseNameError(shape, name).code() == StatusCode::kNameTooLong);
    const KeyShape fewer(std::vector<TypePtr>(10, N(TypeKind::kTimestamp)));
    CHECK(NameOf(fewer, ParseName(fewer, "0,0,0,0,0,0,0,0,0,0")).size() == 249);
  }
}

TEST_CASE("malformed names are InvalidArgument naming the problem", "[key_name]") {
  auto check_invalid = [](const KeyShape& shape, std::string_view name, std::string_view words) {
    const Status status = ParseNameError(shape, name);
    INFO("name '" << name << "': " << status.ToString());
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains(std::string(words)));
  };
  const KeyShape pair({N(TypeKind::kText), N(TypeKind::kInt)});
  SECTION("a wrong number of components") {
    check_invalid(pair, "MPLS2", "1 comma-separated components where 2 are expected");
    check_invalid(pair, "MPLS2,1,2", "3 comma-separated components where 2 are expected");
    check_invalid(TextKey(), "a,b", "2 comma-separated components where 1 are expected");
  }
  SECTION("a '%' without two hex digits") {
    for (const char* name : {"%", "a%", "%4", "a%4", "%zz", "%4g", "%%41", "%G1"}) {
      check_invalid(TextKey(), name, "two hex digits");
    }
  }
  SECTION("a value that does not parse for its type") {
    check_invalid(pair, "MPLS2,12x", "key component 2 of 2 (int)");
    check_invalid(pair, "MPLS2,99999999999", "key component 2 of 2 (int)");
    check_invalid(KeyShape({N(TypeKind::kTimestamp)}), "yesterday", "timestamp");
    check_invalid(KeyShape({N(TypeKind::kUuid)}), "a0eebc99", "uuid");
    check_invalid(KeyShape({N(TypeKind::kBlob)}), "0xabc", "blob");
  }
  SECTION("text that is not valid UTF-8, ascii that is not ASCII") {
    check_invalid(TextKey(), "%FF", "key component 1 of 1 (text)");
    check_invalid(TextKey(), "caf%C3", "key component 1 of 1 (text)");
    check_invalid(TextKey(), "\xC3", "key component 1 of 1 (text)");
    check_invalid(TextKey(), "%ED%A0%80", "key component 1 of 1 (text)");  // a surrogate
    check_invalid(KeyShape({N(TypeKind::kAscii)}), "caf%C3%A9", "(ascii)");
    check_invalid(KeyShape({N(TypeKind::kAscii)}), "caf\xC3\xA9", "(ascii)");
  }
  SECTION("names the fs reserves") {
    check_invalid(TextKey(), "@json", "virtual");
    check_invalid(TextKey(), "@", "virtual");
    check_invalid(TextKey(), ".", "not a key name");
    check_invalid(TextKey(), "..", "not a key name");
  }
}

TEST_CASE("commas inside collection and tuple values stay inside their component", "[key_name]") {
  SECTION("a frozen set") {
    const KeyShape shape({SetOf(N(TypeKind::kInt)), N(TypeKind::kText)});
    const auto values = Values(shape, {"{2, 1}", "x,y"});
    CHECK(NameOf(shape, values) == "{1%2C 2},x%2Cy");
    CHECK(Hex(ParseName(shape, "{1%2C 2},x%2Cy")) == Hex(values));
    CHECK(Hex(ParseName(shape, "{2%2C1%2C2},x%2cy")) == Hex(values));
  }
  SECTION("a tuple and a UDT holding text with commas and slashes") {
    const KeyShape shape({TupleOf({N(TypeKind::kInt), N(TypeKind::kText)}), Address()});
    const auto values = Values(shape, {"(1, 'a,b/c')", "{street: '1/2 Main', zip: 5}"});
    const std::string name = NameOf(shape, values);
    CHECK(name == "(1%2C 'a%2Cb%2Fc'),{street: '1%2F2 Main'%2C city: null%2C zip: 5}");
    CHECK(Hex(ParseName(shape, name)) == Hex(values));
  }
  SECTION("an unescaped comma splits, and the pieces do not parse") {
    const KeyShape shape({SetOf(N(TypeKind::kInt))});
    const Status status = ParseNameError(shape, "{1, 2}");
    CHECK(status.code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("a slice bound takes a prefix of 1 to N clustering components", "[key_name]") {
  const KeyShape shape({N(TypeKind::kTimestamp), N(TypeKind::kText), N(TypeKind::kInt)});
  std::vector<std::string> values;
  SECTION("every prefix length") {
    REQUIRE(ParseKeyPrefix(shape.types(), "2018-07-23T06:00:00.000Z", &values).ok());
    CHECK(Hex(values) ==
          Hex(Values(KeyShape({N(TypeKind::kTimestamp)}), {"2018-07-23T06:00:00.000Z"})));
    REQUIRE(ParseKeyPrefix(shape.types(), "0,%40x", &values).ok());
    CHECK(values.size() == 2);
    CHECK(values[1] == "@x");
    REQUIRE(ParseKeyPrefix(shape.types(), "0,%-,7", &values).ok());
    CHECK(values.size() == 3);
    CHECK(values[1].empty());
  }
  SECTION("the first byte of a bound is plain data") {
    REQUIRE(ParseKeyPrefix(TextKey().types(), "@x", &values).ok());
    CHECK(values == std::vector<std::string>{"@x"});
    REQUIRE(ParseKeyPrefix(TextKey().types(), "..", &values).ok());
    CHECK(values == std::vector<std::string>{".."});
  }
  SECTION("too many components, an empty one, a bad value") {
    const Status too_many = ParseKeyPrefix(shape.types(), "0,a,1,2", &values);
    CHECK(too_many.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(too_many.message(), Catch::Contains("1 to 3 are expected"));
    CHECK(ParseKeyPrefix(shape.types(), "", &values).code() == StatusCode::kInvalidArgument);
    CHECK(ParseKeyPrefix(shape.types(), "0,", &values).code() == StatusCode::kInvalidArgument);
    CHECK(ParseKeyPrefix(shape.types(), "0,a,x", &values).code() == StatusCode::kInvalidArgument);
  }
}

// Every key-capable native type, then frozen collections, tuples and UDTs.
std::vector<TypePtr> KeyTypesUnderTest() {
  std::vector<TypePtr> types;
  for (int k = 0; k <= static_cast<int>(TypeKind::kVarint); ++k) {
    const TypePtr type = N(static_cast<TypeKind>(k));
    if (type->CheckKeyCapable().ok()) types.push_back(type);
  }
  types.push_back(SetOf(N(TypeKind::kText)));
  types.push_back(SetOf(N(TypeKind::kDecimal)));
  types.push_back(ListOf(N(TypeKind::kBlob)));
  types.push_back(MapOf(N(TypeKind::kText), ListOf(N(TypeKind::kInt))));
  types.push_back(TupleOf({N(TypeKind::kInt), N(TypeKind::kText), N(TypeKind::kTimestamp)}));
  types.push_back(Address());
  return types;
}

// The invariants of one key: its name is safe to list, parses back to the
// same values, and re-formats to itself. Returns false when the key's name
// is too long (then FormatKeyName must have said NameTooLong).
bool ContainsUdt(const CqlType& type) {
  if (type.kind() == TypeKind::kUdt) return true;
  for (const auto& param : type.params()) {
    if (ContainsUdt(*param)) return true;
  }
  return false;
}

bool HasUdt(const KeyShape& shape) {
  for (const CqlType* type : shape.types()) {
    if (ContainsUdt(*type)) return true;
  }
  return false;
}

bool CheckRoundTrip(const KeyShape& shape, const std::vector<std::string>& values) {
  INFO(shape.ToString() << " values " << Hex(values));
  Result<std::string> name = FormatKeyName(shape.types(), values);
  if (!name.ok()) {
    CHECK(name.status().code() == StatusCode::kNameTooLong);
    return false;
  }
  INFO("name '" << *name << "'");
  CHECK(!name->empty());
  CHECK(name->size() <= kMaxNameBytes);
  CHECK(name->find('/') == std::string::npos);
  CHECK(name->find('\0') == std::string::npos);
  CHECK(name->front() != '@');
  CHECK(name->front() != '.');
  // A listed name never reads as a base plus write suffixes.
  std::string_view base;
  WriteAttributes suffixes;
  CHECK(SplitWriteSuffixes(*name, &base, &suffixes).ok());
  CHECK(base == *name);
  std::vector<std::string> parsed;
  const Status status = ParseKeyName(shape.types(), *name, &parsed);
  INFO(status.ToString());
  REQUIRE(status.ok());
  // A UDT stored with fewer fields than its type comes back with every
  // field (engine/cql/literal.h): the same value, compared below by the codec.
  if (!HasUdt(shape)) CHECK(Hex(parsed) == Hex(values));
  // The key codec's sense of "the same key" too, for what the engine stores.
  for (size_t i = 0; i < values.size(); ++i) {
    std::string expected;
    std::string actual;
    EncodeKeyComponent(shape[i], values[i], SortOrder::kAsc, &expected);
    EncodeKeyComponent(shape[i], parsed[i], SortOrder::kAsc, &actual);
    CHECK(ToHex(actual) == ToHex(expected));
  }
  return true;
}

TEST_CASE("every key-capable type round-trips through its name", "[key_name][property]") {
  RandomValues random(20180723);
  for (const TypePtr& type : KeyTypesUnderTest()) {
    const KeyShape shape({type});
    size_t listed = 0;
    for (int iteration = 0; iteration < 300; ++iteration) {
      const std::vector<std::string> values = {random.Value(*type)};
      REQUIRE(ValidateValue(*type, values[0]).ok());
      if (CheckRoundTrip(shape, values)) ++listed;
    }
    INFO(type->ToCql());
    CHECK(listed > 200);  // most random values fit; the rest tested NameTooLong
  }
}

TEST_CASE("random keys of random shapes round-trip and their names are safe",
          "[key_name][property]") {
  RandomValues random(4);
  const std::vector<TypePtr> pool = KeyTypesUnderTest();
  size_t listed = 0;
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::vector<TypePtr> types;
    for (size_t n = 1 + random.Below(4); n > 0; --n) {
      types.push_back(pool[random.Below(pool.size())]);
    }
    const KeyShape shape(types);
    std::vector<std::string> values;
    for (const TypePtr& type : types) {
      // Empty components of every type, as CQL's conversion functions can write.
      values.push_back(random.Chance(10) ? "" : random.Value(*type));
    }
    if (CheckRoundTrip(shape, values)) ++listed;
  }
  CHECK(listed > 1000);
}

TEST_CASE("whatever name parses names a key whose canonical name parses back to it",
          "[key_name][property]") {
  // Random names built from the pieces that matter to the grammar: every
  // parse either fails cleanly or yields values that format and parse again.
  const std::vector<std::string> pieces = {
      "a",   "Z",   "7",      "-1",       "0x",           "0X",  "ff",  ",",  ",",
      "%",   "%2C", "%2c",    "%25",      "%2F",          "%00", "%41", "%-", "%4",
      "%zz", "%FF", "%C3%A9", "\xC3\xA9", "\xC3",         "@",   ".",   "..", "'",
      "{",   "}",   " ",      "\n",       "{'a'%2C 'b'}", "{}"};
  const KeyShape text_int({N(TypeKind::kText), N(TypeKind::kInt)});
  const KeyShape blob_text({N(TypeKind::kBlob), N(TypeKind::kText)});
  const KeyShape set_of_text({SetOf(N(TypeKind::kText))});
  const KeyShape ascii({N(TypeKind::kAscii)});
  RandomValues random(7);
  size_t parsed_count = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string name;
    for (size_t n = random.Below(6); n > 0; --n) name += pieces[random.Below(pieces.size())];
    for (const KeyShape* shape : {&text_int, &blob_text, &set_of_text, &ascii}) {
      std::vector<std::string> values;
      const Status status = ParseKeyName(shape->types(), name, &values);
      INFO(shape->ToString() << " name '" << name << "': " << status.ToString());
      if (!status.ok()) {
        CHECK(status.code() == StatusCode::kInvalidArgument);
        continue;
      }
      ++parsed_count;
      REQUIRE(values.size() == shape->size());
      for (size_t i = 0; i < values.size(); ++i) {
        CHECK(ValidateValue((*shape)[i], values[i]).ok());
      }
      CHECK(CheckRoundTrip(*shape, values));
    }
  }
  CHECK(parsed_count > 3000);
}

TEST_CASE("KeyNameAlwaysFits holds only where no value's name can be too long", "[key_name]") {
  using Types = std::vector<TypePtr>;
  CHECK(KeyNameAlwaysFits(KeyShape(Types{N(TypeKind::kInt), N(TypeKind::kInt)}).types()));
  CHECK(KeyNameAlwaysFits(KeyShape(Types{N(TypeKind::kUuid), N(TypeKind::kTimestamp)}).types()));
  CHECK_FALSE(KeyNameAlwaysFits(TextKey().types()));
  CHECK_FALSE(KeyNameAlwaysFits(KeyShape(Types{N(TypeKind::kInt), N(TypeKind::kBlob)}).types()));
  CHECK_FALSE(KeyNameAlwaysFits(KeyShape(Types{N(TypeKind::kVarint)}).types()));
  CHECK_FALSE(KeyNameAlwaysFits(KeyShape(Types{N(TypeKind::kDecimal)}).types()));
  // Ten timestamps' names can reach 249 bytes (above), eleven cannot fit.
  CHECK_FALSE(KeyNameAlwaysFits(KeyShape(Types(11, N(TypeKind::kTimestamp))).types()));

  // For each type it bounds, the widest shape of that type it accepts
  // formats every random and extreme value within the limit.
  RandomValues random(20261128);
  for (const TypePtr& type : KeyTypesUnderTest()) {
    size_t widest = 0;
    while (widest < 64 && KeyNameAlwaysFits(KeyShape(Types(widest + 1, type)).types())) ++widest;
    if (widest == 0) continue;
    INFO(type->ToCql() << " x" << widest);
    const KeyShape shape(Types(widest, type));
    for (int iteration = 0; iteration < 200; ++iteration) {
      std::vector<std::string> values;
      for (size_t i = 0; i < widest; ++i) values.push_back(random.Value(*type));
      CHECK(FormatKeyName(shape.types(), values).ok());
    }
    for (const std::string& extreme :
         {std::string(8, '\x80'), std::string(8, '\xff'), std::string(8, '\x7f'),
          std::string(4, '\x80'), std::string(16, '\xff'), std::string(2, '\x80'),
          std::string(1, '\x80')}) {
      if (!ValidateValue(*type, extreme).ok()) continue;
      CHECK(FormatKeyName(shape.types(), std::vector<std::string>(widest, extreme)).ok());
    }
  }
}

}  // namespace
}  // namespace cellfs::fs
