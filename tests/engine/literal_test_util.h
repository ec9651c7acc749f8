// Shared helpers for the literal tests: type shorthands, hex conversion and
// parse-or-fail wrappers.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql_type.h"
#include "engine/literal.h"

namespace cellfs::literal_test {

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

// "00 7f" -> the bytes 0x00 0x7f; spaces are ignored.
inline std::string FromHex(std::string_view hex) {
  std::string bytes;
  int high = -1;
  for (char c : hex) {
    if (c == ' ') continue;
    const int nibble = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    if (high < 0) {
      high = nibble;
    } else {
      bytes.push_back(static_cast<char>(high * 16 + nibble));
      high = -1;
    }
  }
  return bytes;
}

// Bytes as "00 7f", for readable failure messages.
inline std::string ToHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    if (!hex.empty()) hex += ' ';
    hex += kDigits[b >> 4];
    hex += kDigits[b & 0xf];
  }
  return hex;
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
