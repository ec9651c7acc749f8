// Element suffixes: splitting `col@key=K` and friends off a name, and what
// each means for the column's type.
#include "fs/formats/element_suffix.h"

#include <algorithm>
#include <array>
#include <vector>

#include "fs/formats/key_name.h"
#include "fs/formats/write_suffixes.h"

namespace cellfs::fs {
namespace {

constexpr std::string_view kRemove = "@remove";
constexpr std::string_view kPrepend = "@prepend";
constexpr std::string_view kKey = "@key=";
constexpr std::string_view kIndex = "@index=";
constexpr std::string_view kField = "@field=";

bool IsElementKeyword(std::string_view suffix) {
  return suffix == kRemove || suffix == kPrepend || suffix.starts_with(kKey) ||
         suffix.starts_with(kIndex) || suffix.starts_with(kField);
}

Status Refuse(const CqlType& type, std::string_view suffix, std::string_view why) {
  return Status::InvalidArgument(std::string(suffix) + " on a column of type " + type.ToCql() +
                                 ": " + std::string(why));
}

}  // namespace

bool SplitElementSuffix(std::string_view name, std::string_view* column, std::string_view* suffix) {
  const size_t at = name.find('@', 1);
  if (at == std::string_view::npos || !IsElementKeyword(name.substr(at))) return false;
  *column = name.substr(0, at);
  *suffix = name.substr(at);
  return true;
}

Status ParseElementEdit(const CqlType& type, std::string_view suffix, ElementEdit* out) {
  if (!type.is_multi_cell()) {
    return Refuse(type, suffix, "element operations need a non-frozen collection or UDT");
  }
  const TypeKind kind = type.kind();
  *out = ElementEdit();
  if (suffix == kRemove) {
    out->kind = ElementEdit::Kind::kRemove;
    if (kind == TypeKind::kUdt) return Refuse(type, suffix, "set its fields with @field=");
    out->value_type =
        kind == TypeKind::kList ? type.AsFrozen() : CqlType::Set(type.params()[0], /*frozen=*/true);
    return Status::Ok();
  }
  if (suffix == kPrepend) {
    out->kind = ElementEdit::Kind::kPrepend;
    if (kind != TypeKind::kList)
      return Refuse(type, suffix, "only lists have an order to prepend to");
    out->value_type = type.AsFrozen();
    return Status::Ok();
  }
  if (suffix.starts_with(kKey)) {
    out->kind = ElementEdit::Kind::kKey;
    if (kind != TypeKind::kMap) return Refuse(type, suffix, "only maps have keys");
    std::vector<std::string> key;
    const CqlType* key_type = type.params()[0].get();
    Status parsed = ParseKeyPrefix(std::span<const CqlType* const>(&key_type, 1),
                                   suffix.substr(kKey.size()), &key);
    if (!parsed.ok()) return parsed.WithContext("map key");
    if (key.size() != 1) return Refuse(type, suffix, "one key is needed");
    out->key = std::move(key.front());
    out->value_type = type.params()[1];
    return Status::Ok();
  }
  if (suffix.starts_with(kIndex)) {
    out->kind = ElementEdit::Kind::kIndex;
    if (kind != TypeKind::kList) return Refuse(type, suffix, "only lists have indexes");
    if (!ParseCanonicalUnsigned(suffix.substr(kIndex.size()), INT32_MAX, &out->index)) {
      return Refuse(type, suffix, "the index must be a number without sign or leading zeros");
    }
    out->value_type = type.params()[0];
    return Status::Ok();
  }
  out->kind = ElementEdit::Kind::kField;
  if (kind != TypeKind::kUdt) return Refuse(type, suffix, "only user types have fields");
  const std::string_view name = suffix.substr(kField.size());
  const auto& names = type.field_names();
  auto field = std::find(names.begin(), names.end(), name);
  if (field == names.end()) return Refuse(type, suffix, "no such field");
  out->key = std::string(name);
  out->value_type = type.params()[static_cast<size_t>(field - names.begin())];
  return Status::Ok();
}

}  // namespace cellfs::fs
