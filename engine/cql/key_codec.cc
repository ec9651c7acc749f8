// The order-preserving key codec: a tag byte, then a per-type body; frozen
// collections, tuples and UDTs nest components; DESC inverts every byte.
// The grammar is docs/FORMAT.md, "Key components"; the bodies live in
// engine/cql/internal/key_scalar.cc and engine/cql/internal/key_numeric.cc.
#include "engine/cql/key_codec.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "engine/cql/internal/key_numeric.h"
#include "engine/cql/internal/key_reader.h"
#include "engine/cql/internal/key_scalar.h"

namespace cellfs {
namespace {

// Component tags, ascending form. A top-level component starts with kEmpty
// or kValue only, so its first byte is never 0xFF, inverted or not; kEnd and
// kNull sort below both so that shorter sequences and nulls come first.
constexpr uint8_t kTagEnd = 0x00;    // ends a collection's or tuple's components
constexpr uint8_t kTagNull = 0x01;   // a null tuple/UDT component
constexpr uint8_t kTagEmpty = 0x02;  // Cassandra's empty value (0 bytes)
constexpr uint8_t kTagValue = 0x03;  // a value; the type's body follows

// Reads the framing of a serialized collection or tuple without ever reading
// out of bounds. Encoding REQUIRES valid values; a malformed one stops early.
class SerializedCursor {
 public:
  explicit SerializedCursor(std::string_view data) : data_(data) {}

  bool AtEnd() const { return data_.empty(); }

  bool ReadInt32(int32_t* v) {
    if (data_.size() < 4) return false;
    uint32_t u = 0;
    for (size_t i = 0; i < 4; ++i) u = (u << 8) | static_cast<uint8_t>(data_[i]);
    *v = static_cast<int32_t>(u);
    data_.remove_prefix(4);
    return true;
  }

  // A length-prefixed value; nullopt for a negative length (null).
  bool ReadValue(std::optional<std::string_view>* v) {
    int32_t length = 0;
    if (!ReadInt32(&length)) return false;
    if (length < 0) {
      v->reset();
      return true;
    }
    const auto n = static_cast<size_t>(length);
    if (n > data_.size()) return false;
    *v = data_.substr(0, n);
    data_.remove_prefix(n);
    return true;
  }

 private:
  std::string_view data_;
};

void AppendInt32(int32_t v, std::string* out) {
  const auto u = static_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8)
    out->push_back(static_cast<char>((u >> shift) & 0xFF));
}

void AppendComponentAsc(const CqlType& type, std::string_view value, std::string* out);

void AppendCollectionBody(const CqlType& type, std::string_view value, std::string* out) {
  SerializedCursor cursor(value);
  int32_t count = 0;
  if (!cursor.ReadInt32(&count)) count = 0;
  const bool is_map = type.kind() == TypeKind::kMap;
  // (key, value) encodings; value stays empty for lists and sets.
  std::vector<std::pair<std::string, std::string>> entries;
  for (int32_t i = 0; i < count; ++i) {
    std::optional<std::string_view> first;
    std::optional<std::string_view> second;
    if (!cursor.ReadValue(&first) || (is_map && !cursor.ReadValue(&second))) break;
    std::pair<std::string, std::string> entry;
    // Collections hold no nulls (REQUIRES); one would encode as empty.
    AppendComponentAsc(*type.params()[0], first.value_or(""), &entry.first);
    if (is_map) AppendComponentAsc(*type.params()[1], second.value_or(""), &entry.second);
    entries.push_back(std::move(entry));
  }
  if (type.kind() != TypeKind::kList) {
    // Sets and maps serialize sorted by element / key; sorting the encodings
    // (whose order is the comparator's) makes the key independent of the
    // producer. A duplicate (equal under the comparator) keeps its first.
    auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
    auto same_key = [](const auto& a, const auto& b) { return a.first == b.first; };
    std::stable_sort(entries.begin(), entries.end(), by_key);
    entries.erase(std::unique(entries.begin(), entries.end(), same_key), entries.end());
  }
  for (const auto& [key, mapped] : entries) {
    out->append(key);
    out->append(mapped);
  }
  out->push_back(static_cast<char>(kTagEnd));
}

void AppendTupleBody(const CqlType& type, std::string_view value, std::string* out) {
  const auto& types = type.params();
  SerializedCursor cursor(value);
  std::vector<std::optional<std::string_view>> components;
  while (components.size() < types.size() && !cursor.AtEnd()) {
    std::optional<std::string_view> component;
    if (!cursor.ReadValue(&component)) break;
    components.push_back(component);
  }
  // Cassandra (TupleType.compareCustom) ranks trailing nulls equal to absent
  // components, so both encode alike: without them. A tuple of nulls only
  // thus encodes as no components, which decodes as a single null.
  while (!components.empty() && !components.back().has_value()) components.pop_back();
  for (size_t i = 0; i < components.size(); ++i) {
    if (components[i].has_value()) {
      AppendComponentAsc(*types[i], *components[i], out);
    } else {
      out->push_back(static_cast<char>(kTagNull));
    }
  }
  out->push_back(static_cast<char>(kTagEnd));
}

void AppendBody(const CqlType& type, std::string_view value, std::string* out) {
  switch (type.kind()) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:  // not key-capable; handled like bigint
    case TypeKind::kTimestamp:
      return AppendFixedKeyBody(value, static_cast<size_t>(type.FixedWidth()), 0x80, out);
    case TypeKind::kDate:  // Cassandra compares date and time as unsigned bytes
    case TypeKind::kTime:
      return AppendFixedKeyBody(value, static_cast<size_t>(type.FixedWidth()), 0x00, out);
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return AppendFloatingKeyBody(value, static_cast<size_t>(type.FixedWidth()), out);
    case TypeKind::kBoolean:
      return AppendBooleanKeyBody(value, out);
    case TypeKind::kUuid:
      return AppendUuidKeyBody(value, out);
    case TypeKind::kTimeuuid:
      return AppendTimeuuidKeyBody(value, out);
    case TypeKind::kVarint:
      return AppendVarintKeyBody(value, out);
    case TypeKind::kDecimal:
      return AppendDecimalKeyBody(value, out);
    case TypeKind::kAscii:
    case TypeKind::kText:
    case TypeKind::kBlob:
    case TypeKind::kInet:
    case TypeKind::kDuration:  // not key-capable; kept as bytes
      return AppendEscapedKeyBody(value, out);
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return AppendCollectionBody(type, value, out);
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return AppendTupleBody(type, value, out);
  }
}

void AppendComponentAsc(const CqlType& type, std::string_view value, std::string* out) {
  if (value.empty()) {
    out->push_back(static_cast<char>(kTagEmpty));
    return;
  }
  out->push_back(static_cast<char>(kTagValue));
  AppendBody(type, value, out);
}

Status ReadBody(const CqlType& type, KeyReader* in, std::string* value);

// Reads a tag no lower than `lowest_allowed` (kEnd inside sequences, kEmpty
// where a value must follow).
Status ReadTag(KeyReader* in, uint8_t lowest_allowed, uint8_t* tag) {
  if (!in->ReadByte(tag)) return Status::Corruption("truncated: missing a component tag");
  if (*tag < lowest_allowed || *tag > kTagValue) {
    return Status::Corruption("bad component tag " + KeyByteHex(*tag));
  }
  return Status::Ok();
}

// Reads an element after its tag (kEmpty or kValue) and appends it to
// `*value` with its int32 length prefix.
Status ReadFramedElement(const CqlType& type, uint8_t tag, KeyReader* in, std::string* value) {
  std::string element;
  if (tag == kTagValue) CELLFS_RETURN_IF_ERROR(ReadBody(type, in, &element));
  if (element.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::Corruption("element too large");
  }
  AppendInt32(static_cast<int32_t>(element.size()), value);
  value->append(element);
  return Status::Ok();
}

Status ReadCollectionBody(const CqlType& type, KeyReader* in, std::string* value) {
  const bool is_map = type.kind() == TypeKind::kMap;
  const bool sorted = type.kind() != TypeKind::kList;
  value->assign(4, '\0');  // the count, filled in at the end
  int32_t count = 0;
  size_t previous_begin = 0;
  size_t previous_end = 0;
  while (true) {
    const size_t begin = in->position();
    uint8_t tag = 0;
    CELLFS_RETURN_IF_ERROR(ReadTag(in, kTagEnd, &tag));
    if (tag == kTagEnd) break;
    if (tag == kTagNull) return Status::Corruption("null element in a collection");
    if (count == std::numeric_limits<int32_t>::max())
      return Status::Corruption("too many elements");
    CELLFS_RETURN_IF_ERROR(ReadFramedElement(*type.params()[0], tag, in, value));
    const size_t end = in->position();
    if (sorted && count > 0 && in->CompareSpans(previous_begin, previous_end, begin, end) >= 0) {
      return Status::Corruption(is_map ? "map keys out of order" : "set elements out of order");
    }
    previous_begin = begin;
    previous_end = end;
    if (is_map) {
      CELLFS_RETURN_IF_ERROR(ReadTag(in, kTagEmpty, &tag));
      CELLFS_RETURN_IF_ERROR(ReadFramedElement(*type.params()[1], tag, in, value));
    }
    ++count;
  }
  std::string count_bytes;
  AppendInt32(count, &count_bytes);
  value->replace(0, 4, count_bytes);
  return Status::Ok();
}

Status ReadTupleBody(const CqlType& type, KeyReader* in, std::string* value) {
  const auto& types = type.params();
  value->clear();
  bool last_was_null = false;
  for (size_t i = 0;; ++i) {
    uint8_t tag = 0;
    CELLFS_RETURN_IF_ERROR(ReadTag(in, kTagEnd, &tag));
    if (tag == kTagEnd) break;
    if (i >= types.size()) {
      return Status::Corruption("more than " + std::to_string(types.size()) + " components");
    }
    last_was_null = tag == kTagNull;
    if (last_was_null) {
      AppendInt32(-1, value);
    } else {
      CELLFS_RETURN_IF_ERROR(ReadFramedElement(*types[i], tag, in, value));
    }
  }
  if (last_was_null) return Status::Corruption("trailing null component (never encoded)");
  // No components left means all were null; zero bytes would read as the
  // empty value, which sorts apart, so give back a single null.
  if (value->empty()) AppendInt32(-1, value);
  return Status::Ok();
}

Status ReadBodyBytes(const CqlType& type, KeyReader* in, std::string* value);

Status ReadBody(const CqlType& type, KeyReader* in, std::string* value) {
  CELLFS_RETURN_IF_ERROR(ReadBodyBytes(type, in, value));
  // The encoder writes the empty value as its own tag, never as VALUE with
  // an empty byte string; accepting both would give one key two encodings.
  if (value->empty()) return Status::Corruption("empty value under a VALUE tag");
  return Status::Ok();
}

Status ReadBodyBytes(const CqlType& type, KeyReader* in, std::string* value) {
  switch (type.kind()) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kTimestamp:
      return ReadFixedKeyBody(in, static_cast<size_t>(type.FixedWidth()), 0x80, value);
    case TypeKind::kDate:
    case TypeKind::kTime:
      return ReadFixedKeyBody(in, static_cast<size_t>(type.FixedWidth()), 0x00, value);
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return ReadFloatingKeyBody(in, static_cast<size_t>(type.FixedWidth()), value);
    case TypeKind::kBoolean:
      return ReadBooleanKeyBody(in, value);
    case TypeKind::kUuid:
      return ReadUuidKeyBody(in, value);
    case TypeKind::kTimeuuid:
      return ReadTimeuuidKeyBody(in, value);
    case TypeKind::kVarint:
      return ReadVarintKeyBody(in, value);
    case TypeKind::kDecimal:
      return ReadDecimalKeyBody(in, value);
    case TypeKind::kAscii:
    case TypeKind::kText:
    case TypeKind::kBlob:
    case TypeKind::kInet:
    case TypeKind::kDuration:
      return ReadEscapedKeyBody(in, value);
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return ReadCollectionBody(type, in, value);
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return ReadTupleBody(type, in, value);
  }
  return Status::Corruption("unknown type kind");
}

}  // namespace

void EncodeKeyComponent(const CqlType& type, std::string_view value, SortOrder order,
                        std::string* out) {
  const size_t start = out->size();
  AppendComponentAsc(type, value, out);
  if (order == SortOrder::kDesc) {
    // The ascending encoding is prefix-free, so inverting it reverses order.
    for (size_t i = start; i < out->size(); ++i) {
      (*out)[i] = static_cast<char>(~static_cast<uint8_t>((*out)[i]));
    }
  }
}

Status DecodeKeyComponent(const CqlType& type, SortOrder order, std::string_view* in,
                          std::string* value) {
  KeyReader reader(*in, order == SortOrder::kDesc);
  uint8_t tag = 0;
  Status status = ReadTag(&reader, kTagEmpty, &tag);
  if (status.ok()) {
    if (tag == kTagEmpty) {
      value->clear();
    } else {
      status = ReadBody(type, &reader, value);
    }
  }
  if (!status.ok()) return status.WithContext("key component of type " + type.ToCql());
  in->remove_prefix(reader.position());
  return Status::Ok();
}

std::string PrefixSuccessor(std::string_view prefix) {
  std::string successor(prefix);
  successor.push_back('\xFF');
  return successor;
}

}  // namespace cellfs
