// Fuzz target for key names (fs/formats/key_name.h): the percent-escaped directory
// names of keys, parsed and printed over key shapes of one to four columns.
//
// Input: byte 0 picks the key shape (modulo the number of shapes below; the
// seeds use printable bytes); the rest is used three ways:
//  1. as a directory name for ParseKeyName;
//  2. as a slice bound for ParseKeyPrefix;
//  3. as '\n'-separated literal texts, one per key column, for ParseLiteral
//     then FormatKeyName.
// Properties: nothing crashes; whatever parses validates; FormatKeyName of
// parsed values succeeds (ParseKeyName refuses keys too long to name), is a
// legal listed name, and parses back to the same bytes; prefixes likewise.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/literal.h"
#include "fs/formats/key_name.h"
#include "tests/fuzz/fuzz_util.h"

namespace cellfs::fuzz {
namespace {

using Shape = std::vector<const CqlType*>;
using Values = std::vector<std::string>;

const std::vector<Shape>& Shapes() {
  static const std::vector<Shape> shapes = [] {
    const std::vector<TypePtr>& owned = KeyTypes();  // static: the pointers stay valid
    std::vector<Shape> out;
    for (const TypePtr& type : owned) out.push_back({type.get()});
    auto native = [](TypeKind kind) { return N(kind).get(); };  // shared instances live forever
    out.push_back({native(TypeKind::kText), native(TypeKind::kInt)});
    out.push_back({native(TypeKind::kTimestamp), native(TypeKind::kText)});
    out.push_back({native(TypeKind::kText), native(TypeKind::kText), native(TypeKind::kText)});
    out.push_back({native(TypeKind::kDecimal), native(TypeKind::kVarint)});
    out.push_back({native(TypeKind::kBlob), native(TypeKind::kInet), native(TypeKind::kAscii)});
    out.push_back({native(TypeKind::kUuid), native(TypeKind::kTimeuuid), native(TypeKind::kDate),
                   native(TypeKind::kTime)});
    out.push_back({owned[owned.size() - 1].get(), native(TypeKind::kText)});
    return out;
  }();
  return shapes;
}

// The input being checked, described only when a property fails.
struct Context {
  const Shape* shape;
  std::string_view input;

  std::string Where(std::string_view more) const {
    std::string text = "shape (";
    for (size_t i = 0; i < shape->size(); ++i) {
      text += (i > 0 ? ", " : "") + (*shape)[i]->ToCql();
    }
    return text + ") input " + Hex(input) + " " + std::string(more);
  }
};

void CheckValid(std::span<const CqlType* const> types, const Values& values,
                const Context& context) {
  if (values.size() != types.size()) Fail("one value per component", context.Where(""));
  for (size_t i = 0; i < values.size(); ++i) {
    if (!ValidateValue(*types[i], values[i]).ok()) {
      Fail("parsed key values validate", context.Where("value " + Hex(values[i])));
    }
  }
}

// What the fs may list: non-empty, at most kMaxNameBytes, no '/' or NUL, not
// starting with '@' or '.', no text that reads as a write suffix.
void CheckListable(std::string_view name, const Context& context) {
  const bool legal = !name.empty() && name.size() <= fs::kMaxNameBytes &&
                     name.find('/') == std::string_view::npos &&
                     name.find('\0') == std::string_view::npos && name[0] != '@' &&
                     name[0] != '.' && name.find("@ttl=") == std::string_view::npos &&
                     name.find("@timestamp=") == std::string_view::npos;
  if (!legal) Fail("formatted names are listable", context.Where("name " + Hex(name)));
}

// `values` (valid for `types`) name a key: the name is listable and parses
// back to the same values; a second round gives the same name.
void CheckRoundTrip(const Shape& types, const Values& values, const Context& context) {
  Result<std::string> name = fs::FormatKeyName(types, values);
  if (!name.ok()) {
    if (name.status().code() == StatusCode::kNameTooLong) return;
    Fail("FormatKeyName of valid values succeeds", context.Where(name.status().ToString()));
  }
  CheckListable(*name, context);
  Values again;
  Status parsed = fs::ParseKeyName(types, *name, &again);
  if (!parsed.ok()) Fail("formatted names parse", context.Where(*name + " " + parsed.ToString()));
  bool respelled = false;
  for (const CqlType* type : types) respelled = respelled || HasRespelledValues(*type);
  if (again != values && !respelled) {
    Fail("names parse back to the same bytes", context.Where("name " + *name));
  }
  Result<std::string> name_again = fs::FormatKeyName(types, again);
  if (!name_again.ok() || *name_again != *name) Fail("formatting is stable", context.Where(*name));
}

void CheckParseKeyName(const Shape& types, std::string_view input, const Context& context) {
  Values values;
  if (!fs::ParseKeyName(types, input, &values).ok()) return;
  CheckValid(types, values, context);
  Result<std::string> name = fs::FormatKeyName(types, values);
  if (!name.ok()) Fail("a parsed key can be named", context.Where(name.status().ToString()));
  CheckRoundTrip(types, values, context);
}

void CheckParseKeyPrefix(const Shape& types, std::string_view input, const Context& context) {
  Values values;
  if (!fs::ParseKeyPrefix(types, input, &values).ok()) return;
  if (values.empty() || values.size() > types.size()) {
    Fail("a prefix has 1..n components", context.Where(""));
  }
  const std::span<const CqlType* const> prefix(types.data(), values.size());
  CheckValid(prefix, values, context);
  Values whole;
  if (values.size() == types.size() && fs::ParseKeyName(types, input, &whole).ok() &&
      whole != values) {
    Fail("a whole-key prefix reads as the name does", context.Where(""));
  }
  Result<std::string> name = fs::FormatKeyName(prefix, values);
  if (!name.ok()) return;  // a bound is never stored, so it may be too long to name
  Values again;
  if (!fs::ParseKeyPrefix(types, *name, &again).ok()) {
    Fail("a formatted prefix parses", context.Where("name " + *name));
  }
  bool respelled = false;
  for (const CqlType* type : prefix) respelled = respelled || HasRespelledValues(*type);
  if (again != values && !respelled) {
    Fail("a formatted prefix parses back to the same bytes", context.Where("name " + *name));
  }
  // A respelled value (a decimal of negative scale) parses back to an equal
  // value in other bytes, whose name is the same text.
  Result<std::string> name_again = fs::FormatKeyName(prefix, again);
  if (!name_again.ok() || *name_again != *name) {
    Fail("a prefix's name is stable", context.Where("name " + *name));
  }
}

// The input as '\n'-separated literals, one per column.
void CheckFormatFromLiterals(const Shape& types, std::string_view input, const Context& context) {
  Values values;
  size_t start = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    const size_t end = i + 1 < types.size() ? input.find('\n', start) : input.size();
    if (end == std::string_view::npos) return;
    Result<std::string> value = ParseLiteral(*types[i], input.substr(start, end - start));
    if (!value.ok()) return;
    values.push_back(std::move(value).value());
    start = end + 1;
  }
  CheckRoundTrip(types, values, context);
}

}  // namespace
}  // namespace cellfs::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cellfs::fuzz;  // NOLINT: harness shorthand
  if (size < 1) return 0;
  const Shape& shape = Shapes()[data[0] % Shapes().size()];
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const Context context{&shape, rest};
  CheckParseKeyName(shape, rest, context);
  CheckParseKeyPrefix(shape, rest, context);
  CheckFormatFromLiterals(shape, rest, context);
  return 0;
}
