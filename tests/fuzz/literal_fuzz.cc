// Fuzz target for value literals (engine/cql/literal.h): ParseLiteral,
// FormatLiteral and ValidateValue over every native type, collections frozen
// and not, tuples and a UDT.
//
// Input: byte 0 picks the type (modulo the list below); the rest is used
//  1. as literal text: when ParseLiteral accepts it, the value validates,
//     and FormatLiteral then ParseLiteral gives the same bytes back;
//  2. as serialized bytes: when ValidateValue accepts them, the same round
//     trip holds (literal.h: validity implies it), for non-empty values.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/literal.h"
#include "tests/fuzz/fuzz_util.h"

namespace cellfs::fuzz {
namespace {

const std::vector<TypePtr>& Types() {
  static const std::vector<TypePtr> types = [] {
    std::vector<TypePtr> out;
    for (int k = 0; k <= static_cast<int>(TypeKind::kVarint); ++k) {
      out.push_back(N(static_cast<TypeKind>(k)));
    }
    const TypePtr text = N(TypeKind::kText);
    const TypePtr integer = N(TypeKind::kInt);
    out.push_back(ListOf(integer, /*frozen=*/false));
    out.push_back(SetOf(text, /*frozen=*/false));
    out.push_back(MapOf(text, integer, /*frozen=*/false));
    out.push_back(MapOf(integer, Address(), /*frozen=*/false));
    out.push_back(ListOf(MapOf(N(TypeKind::kDate), N(TypeKind::kBlob)), /*frozen=*/false));
    out.push_back(SetOf(TupleOf({integer, text})));
    out.push_back(TupleOf({N(TypeKind::kDuration), N(TypeKind::kInet), N(TypeKind::kTime)}));
    out.push_back(ListOf(N(TypeKind::kDuration)));
    out.push_back(MapOf(N(TypeKind::kTimeuuid), ListOf(N(TypeKind::kSmallint))));
    out.push_back(CqlType::Udt(
        "ks", "Mixed Case", {"a", "B b", "select"},
        {N(TypeKind::kTimestamp), SetOf(N(TypeKind::kVarint)), ListOf(N(TypeKind::kAscii))},
        /*frozen=*/false));
    for (const TypePtr& type : KeyTypes()) {
      if (!type->is_native()) out.push_back(type);
    }
    return out;
  }();
  return types;
}

void CheckFormatParse(const CqlType& type, const std::string& value, std::string_view input) {
  if (value.empty()) return;  // the empty value of most types has no literal (literal.h)
  const std::string text = FormatLiteral(type, value);
  Result<std::string> again = ParseLiteral(type, text);
  if (!again.ok()) {
    Fail("canonical text parses", type.ToCql() + " input " + Hex(input) + " value " + Hex(value) +
                                      " text " + text + " " + again.status().ToString());
  }
  const bool same =
      *again == value || (HasRespelledValues(type) && FormatLiteral(type, *again) == text);
  if (!same) {
    Fail("canonical text parses to the same bytes", type.ToCql() + " input " + Hex(input) +
                                                        " value " + Hex(value) + " text " + text +
                                                        " parsed " + Hex(*again));
  }
}

}  // namespace
}  // namespace cellfs::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cellfs;  // NOLINT: harness shorthand
  if (size < 1) return 0;
  const CqlType& type = *fuzz::Types()[data[0] % fuzz::Types().size()];
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  Result<std::string> parsed = ParseLiteral(type, rest);
  if (parsed.ok()) {
    Status valid = ValidateValue(type, *parsed);
    if (!valid.ok()) {
      fuzz::Fail("parsed literals validate",
                 type.ToCql() + " input " + fuzz::Hex(rest) + " " + valid.ToString());
    }
    fuzz::CheckFormatParse(type, *parsed, rest);
  } else if (parsed.status().code() != StatusCode::kInvalidArgument) {
    fuzz::Fail("bad literals are InvalidArgument", type.ToCql() + " " + parsed.status().ToString());
  }
  const std::string bytes(rest);
  if (ValidateValue(type, bytes).ok()) fuzz::CheckFormatParse(type, bytes, rest);
  return 0;
}
