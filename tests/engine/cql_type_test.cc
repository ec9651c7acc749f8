// CqlType: names, frozenness, equality and the key-capability rule.
#include "engine/cql/cql_type.h"

#include <catch2/catch.hpp>

#include "engine/cql/cql_identifier.h"

namespace cellfs {
namespace {

TypePtr Int() { return CqlType::Native(TypeKind::kInt); }
TypePtr Text() { return CqlType::Native(TypeKind::kText); }

TEST_CASE("every native type has its CQL name and varchar is text", "[cql_type]") {
  for (const char* name :
       {"ascii",  "bigint",    "blob",     "boolean", "counter", "date",     "decimal",
        "double", "duration",  "float",    "inet",    "int",     "smallint", "text",
        "time",   "timestamp", "timeuuid", "tinyint", "uuid",    "varint"}) {
    TypePtr t = CqlType::NativeByName(name);
    REQUIRE(t != nullptr);
    CHECK(t->ToCql() == name);
    CHECK(t->is_native());
  }
  CHECK(CqlType::NativeByName("varchar")->kind() == TypeKind::kText);
  CHECK(CqlType::NativeByName("string") == nullptr);
  CHECK(CqlType::NativeByName("list") == nullptr);
}

TEST_CASE("parameterised types print as CQL writes them", "[cql_type]") {
  CHECK(CqlType::List(Int(), false)->ToCql() == "list<int>");
  CHECK(CqlType::Set(Text(), true)->ToCql() == "frozen<set<text>>");
  CHECK(CqlType::Map(Text(), CqlType::List(Int(), true), false)->ToCql() ==
        "map<text, frozen<list<int>>>");
  CHECK(CqlType::Tuple({Int(), Text()})->ToCql() == "tuple<int, text>");
  TypePtr address = CqlType::Udt("ks", "address", {"street"}, {Text()}, true);
  CHECK(address->ToCql() == "frozen<address>");
  CHECK(CqlType::Udt("ks", "Addr", {"a"}, {Text()}, false)->ToCql() == "\"Addr\"");
}

TEST_CASE("freezing a type freezes everything nested in it", "[cql_type]") {
  TypePtr inner = CqlType::Set(Int(), false);
  TypePtr outer = CqlType::Map(Text(), inner, false)->AsFrozen();
  CHECK(outer->frozen());
  CHECK(outer->params()[1]->frozen());
  CHECK(CqlType::Tuple({CqlType::List(Int(), false)})->params()[0]->frozen());
}

TEST_CASE("wrapping an already frozen type shares it instead of copying its tree", "[cql_type]") {
  // Deep copies made every use of a nested user type cost its whole tree:
  // a chain of UDTs took quadratic memory.
  TypePtr frozen_list = CqlType::List(Int(), true);
  CHECK(CqlType::List(frozen_list, true)->params()[0] == frozen_list);
  CHECK(CqlType::Tuple({frozen_list})->params()[0] == frozen_list);
  CHECK(CqlType::Map(frozen_list, frozen_list, true)->params()[1] == frozen_list);
  TypePtr address = CqlType::Udt("ks", "address", {"tags"}, {frozen_list}, true);
  CHECK(address->params()[0] == frozen_list);
  CHECK(CqlType::Udt("ks", "person", {"home"}, {address}, false)->params()[0] == address);
  // A non-frozen one is still frozen by copying.
  TypePtr open_list = CqlType::List(Int(), false);
  TypePtr wrapped = CqlType::List(open_list, true)->params()[0];
  CHECK(wrapped != open_list);
  CHECK(wrapped->frozen());
}

TEST_CASE("a type's depth counts its levels of nesting, user type fields included", "[cql_type]") {
  CHECK(Int()->depth() == 1);
  CHECK(CqlType::List(Int(), false)->depth() == 2);
  CHECK(CqlType::Map(Int(), CqlType::Set(Text(), true), true)->depth() == 3);
  CHECK(CqlType::Tuple({Int(), CqlType::Tuple({CqlType::List(Int(), true)})})->depth() == 4);
  TypePtr address =
      CqlType::Udt("ks", "address", {"a", "b"}, {Int(), CqlType::List(Int(), true)}, true);
  CHECK(address->depth() == 3);
  CHECK(CqlType::Udt("ks", "u", {}, {}, true)->depth() == 1);
}

TEST_CASE("multi-cell means a non-frozen collection or user type", "[cql_type]") {
  CHECK(CqlType::List(Int(), false)->is_multi_cell());
  CHECK_FALSE(CqlType::List(Int(), true)->is_multi_cell());
  CHECK_FALSE(CqlType::Tuple({Int()})->is_multi_cell());
  CHECK(CqlType::Udt("ks", "u", {"a"}, {Int()}, false)->is_multi_cell());
  CHECK_FALSE(Int()->is_multi_cell());
}

TEST_CASE("type equality is structural", "[cql_type]") {
  CHECK(CqlType::List(Int(), true)->Equals(*CqlType::List(Int(), true)));
  CHECK_FALSE(CqlType::List(Int(), true)->Equals(*CqlType::List(Int(), false)));
  CHECK_FALSE(CqlType::List(Int(), true)->Equals(*CqlType::Set(Int(), true)));
  CHECK_FALSE(CqlType::Udt("ks", "u", {"a"}, {Int()}, true)
                  ->Equals(*CqlType::Udt("ks", "u", {"b"}, {Int()}, true)));
  CHECK(Int()->Equals(*CqlType::NativeByName("int")));
}

TEST_CASE("key capability excludes counters, durations and non-frozen collections", "[cql_type]") {
  CHECK(Int()->CheckKeyCapable().ok());
  CHECK(CqlType::List(Int(), true)->CheckKeyCapable().ok());
  CHECK(CqlType::Tuple({Int(), Text()})->CheckKeyCapable().ok());
  CHECK_FALSE(CqlType::Native(TypeKind::kCounter)->CheckKeyCapable().ok());
  CHECK_FALSE(CqlType::Native(TypeKind::kDuration)->CheckKeyCapable().ok());
  CHECK_THAT(CqlType::Set(Int(), false)->CheckKeyCapable().message(),
             Catch::Contains("non-frozen set<int>"));
  CHECK_FALSE(CqlType::List(CqlType::Native(TypeKind::kDuration), true)->CheckKeyCapable().ok());
}

TEST_CASE("fixed widths match the serialized sizes", "[cql_type]") {
  CHECK(CqlType::Native(TypeKind::kTinyint)->FixedWidth() == 1);
  CHECK(CqlType::Native(TypeKind::kSmallint)->FixedWidth() == 2);
  CHECK(Int()->FixedWidth() == 4);
  CHECK(CqlType::Native(TypeKind::kTimestamp)->FixedWidth() == 8);
  CHECK(CqlType::Native(TypeKind::kUuid)->FixedWidth() == 16);
  CHECK(Text()->FixedWidth() == 0);
  CHECK(CqlType::Native(TypeKind::kVarint)->FixedWidth() == 0);
}

TEST_CASE("identifiers are quoted exactly when CQL needs it", "[cql_type]") {
  CHECK(QuoteIdentifier("users") == "users");
  CHECK(QuoteIdentifier("user_2") == "user_2");
  CHECK(QuoteIdentifier("Users") == "\"Users\"");
  CHECK(QuoteIdentifier("select") == "\"select\"");
  CHECK(QuoteIdentifier("2fast") == "\"2fast\"");
  CHECK(QuoteIdentifier("a\"b") == "\"a\"\"b\"");
  CHECK(QuoteIdentifier("with space") == "\"with space\"");
  CHECK(IsReservedKeyword("SELECT"));
  CHECK_FALSE(IsReservedKeyword("ttl"));
}

}  // namespace
}  // namespace cellfs
