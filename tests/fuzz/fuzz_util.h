// Shared by the fuzz targets: property checks that abort (so libFuzzer and the
// replay driver both report the input), hex for messages, type shorthands.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/cql/cql_type.h"

namespace cellfs::fuzz {

// Prints what broke and aborts: a failed property is a finding, as a crash is.
[[noreturn]] inline void Fail(const char* property, std::string_view detail) {
  std::fprintf(stderr, "fuzz property failed: %s\n%.*s\n", property,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// Bytes as "61 00 ff", capped so a long input does not flood the log.
// Whether a value of `type` may print to text that parses back to the same
// value in other bytes (engine/cql/literal.h): a decimal of negative scale
// (10 for 1E+1), a UDT holding fewer fields than its type. For those the
// round-trip property is a stable text, not equal bytes.
inline bool HasRespelledValues(const CqlType& type) {
  if (type.kind() == TypeKind::kDecimal || type.kind() == TypeKind::kUdt) return true;
  for (const auto& param : type.params()) {
    if (HasRespelledValues(*param)) return true;
  }
  return false;
}

inline std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  const size_t shown = bytes.size() < 256 ? bytes.size() : 256;
  for (size_t i = 0; i < shown; ++i) {
    const auto byte = static_cast<unsigned char>(bytes[i]);
    if (i > 0) out += ' ';
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0xF];
  }
  if (shown < bytes.size()) out += " ...";
  return out;
}

// Text for a failure message: printable ASCII and newlines as they are,
// other bytes as \xNN.
inline std::string Printable(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 0x20 && byte < 0x7F && c != '\\') || c == '\n') {
      out += c;
    } else {
      out += "\\x";
      out += kDigits[byte >> 4];
      out += kDigits[byte & 0xF];
    }
  }
  return out;
}

inline TypePtr N(TypeKind kind) { return CqlType::Native(kind); }
inline TypePtr ListOf(TypePtr e, bool frozen = true) { return CqlType::List(std::move(e), frozen); }
inline TypePtr SetOf(TypePtr e, bool frozen = true) { return CqlType::Set(std::move(e), frozen); }
inline TypePtr MapOf(TypePtr k, TypePtr v, bool frozen = true) {
  return CqlType::Map(std::move(k), std::move(v), frozen);
}
inline TypePtr TupleOf(std::vector<TypePtr> c) { return CqlType::Tuple(std::move(c)); }

// address(street text, city text, zip int), frozen: the UDT of the tests.
inline TypePtr Address() {
  return CqlType::Udt("ks", "address", {"street", "city", "zip"},
                      {N(TypeKind::kText), N(TypeKind::kText), N(TypeKind::kInt)}, true);
}

// Key-capable types: every native kind a key may hold, then frozen
// collections, tuples and a UDT, nested a little. Shared by the key codec
// and key name targets, whose first input byte picks one (modulo the size).
inline const std::vector<TypePtr>& KeyTypes() {
  static const std::vector<TypePtr> types = [] {
    std::vector<TypePtr> out;
    for (int k = 0; k <= static_cast<int>(TypeKind::kVarint); ++k) {
      const TypePtr type = N(static_cast<TypeKind>(k));
      if (type->CheckKeyCapable().ok()) out.push_back(type);
    }
    const TypePtr text = N(TypeKind::kText);
    const TypePtr integer = N(TypeKind::kInt);
    const TypePtr decimal = N(TypeKind::kDecimal);
    out.push_back(SetOf(integer));
    out.push_back(ListOf(text));
    out.push_back(MapOf(text, integer));
    out.push_back(SetOf(decimal));
    out.push_back(TupleOf({integer, text}));
    out.push_back(TupleOf({decimal, TupleOf({integer, N(TypeKind::kDouble)}), text}));
    out.push_back(Address());
    out.push_back(SetOf(Address()));
    out.push_back(MapOf(TupleOf({text, integer}), ListOf(N(TypeKind::kVarint))));
    out.push_back(ListOf(SetOf(N(TypeKind::kTimestamp))));
    out.push_back(MapOf(N(TypeKind::kTimeuuid), SetOf(N(TypeKind::kFloat))));
    out.push_back(SetOf(N(TypeKind::kBlob)));
    return out;
  }();
  return types;
}

}  // namespace cellfs::fuzz
