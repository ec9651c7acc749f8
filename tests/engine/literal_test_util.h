// Shared helpers for the literal tests: type shorthands, hex conversion and
// parse-or-fail wrappers.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/cql/literal.h"
#include "tests/engine/hex_test_util.h"

namespace cellfs::literal_test {

using testing::FromHex;

// Bytes as "00 7f", for readable failure messages.
inline std::string ToHex(std::string_view bytes) { return testing::ToHex(bytes, " "); }

inline TypePtr N(TypeKind kind) { return CqlType::Native(kind); }
inline TypePtr ListOf(TypePtr e) { return CqlType::List(std::move(e), true); }
inline TypePtr SetOf(TypePtr e) { return CqlType::Set(std::move(e), true); }
inline TypePtr MapOf(TypePtr k, TypePtr v) {
  return CqlType::Map(std::move(k), std::move(v), true);
}
inline TypePtr TupleOf(std::vector<TypePtr> c) { return CqlType::Tuple(std::move(c)); }

// address(street text, city text, zip int): a UDT for the tests.
inline TypePtr Address() {
  return CqlType::Udt("ks", "address", {"street", "city", "zip"},
                      {N(TypeKind::kText), N(TypeKind::kText), N(TypeKind::kInt)}, true);
}

// The bytes of a literal that must parse.
inline std::string Parse(const CqlType& type, std::string_view text) {
  Result<std::string> r = ParseLiteral(type, text);
  INFO(type.ToCql() << " literal: " << text << " -> " << r.status().ToString());
  REQUIRE(r.ok());
  return *r;
}

// The error message of a literal that must not parse.
inline std::string ParseError(const CqlType& type, std::string_view text) {
  Result<std::string> r = ParseLiteral(type, text);
  INFO(type.ToCql() << " literal: " << text);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  return r.status().message();
}

// The canonical text of a literal that must parse.
inline std::string Canonical(const CqlType& type, std::string_view text) {
  return FormatLiteral(type, Parse(type, text));
}

}  // namespace cellfs::literal_test
