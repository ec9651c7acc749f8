// Element cells: paths of set elements, map keys, UDT fields and list
// elements; splitting a whole value into elements; assembling the live
// elements of a merged row back into one value.
#include "engine/store/internal/element_cells.h"

#include <algorithm>
#include <map>

#include "engine/cql/collection_codec.h"
#include "engine/cql/key_codec.h"

namespace cellfs::storage {
namespace {

// 2010-01-01T00:00:00Z in microseconds: Cassandra's reference time for
// list prepends (Lists.PrecisionTime.REFERENCE_TIME).
constexpr int64_t kPrependReferenceMicros = 1'262'304'000'000'000;

void AppendU64(uint64_t v, std::string* out) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

bool IsVisible(const Cell& cell, const std::optional<RowDeletion>& deletion, int64_t now) {
  return IsLive(cell, now) && !(deletion && Shadows(*deletion, cell.write_time));
}

// Decodes a set element or map key back from its path.
Status ElementOfPath(const CqlType& type, std::string_view path, std::string* element) {
  std::string_view in = path;
  CELLFS_RETURN_IF_ERROR(DecodeKeyComponent(type, SortOrder::kAsc, &in, element));
  if (!in.empty()) return Status::Corruption("element path has trailing bytes");
  return Status::Ok();
}

Status FieldOfPath(std::string_view path, size_t field_count, size_t* index) {
  if (path.size() != 2) return Status::Corruption("UDT field path is not 2 bytes");
  *index = (size_t{static_cast<uint8_t>(path[0])} << 8) | size_t{static_cast<uint8_t>(path[1])};
  if (*index >= field_count) {
    return Status::Corruption("UDT field path " + std::to_string(*index) + " past the type's " +
                              std::to_string(field_count) + " fields");
  }
  return Status::Ok();
}

// Packs the visible elements (in path order) as the type's value.
Status Pack(const CqlType& type, const std::vector<RowCell>& elements, std::string* value) {
  switch (type.kind()) {
    case TypeKind::kList: {
      std::vector<std::string> items;
      items.reserve(elements.size());
      for (const RowCell& e : elements) {
        if (e.path.size() != 16) return Status::Corruption("list element path is not 16 bytes");
        items.push_back(e.cell.value);
      }
      *value = PackCollection(items, 1);
      return Status::Ok();
    }
    case TypeKind::kSet:
    case TypeKind::kMap: {
      const bool is_map = type.kind() == TypeKind::kMap;
      std::vector<std::string> items;
      items.reserve(elements.size() * (is_map ? 2 : 1));
      for (const RowCell& e : elements) {
        CELLFS_RETURN_IF_ERROR(ElementOfPath(*type.params()[0], e.path, &items.emplace_back()));
        if (is_map) items.push_back(e.cell.value);
      }
      *value = PackCollection(items, is_map ? 2 : 1);
      return Status::Ok();
    }
    case TypeKind::kUdt: {
      std::vector<std::optional<std::string>> fields(type.params().size());
      for (const RowCell& e : elements) {
        size_t index = 0;
        CELLFS_RETURN_IF_ERROR(FieldOfPath(e.path, fields.size(), &index));
        fields[index] = e.cell.value;
      }
      *value = PackComponents(fields);
      return Status::Ok();
    }
    default:
      return Status::Corruption("element cells in a column of type " + type.ToCql());
  }
}

}  // namespace

std::string KeyElementPath(const CqlType& key_type, std::string_view element) {
  std::string path;
  EncodeKeyComponent(key_type, element, SortOrder::kAsc, &path);
  return path;
}

std::string FieldPath(size_t index) {
  std::string path;
  path.push_back(static_cast<char>(index >> 8));
  path.push_back(static_cast<char>(index & 0xFF));
  return path;
}

std::string ListElementPath(int64_t time, uint64_t order, int32_t nudge) {
  int64_t scaled = 0;
  if (__builtin_mul_overflow(time, int64_t{1024}, &scaled) ||
      __builtin_add_overflow(scaled, int64_t{nudge}, &scaled)) {
    scaled = time < 0 ? INT64_MIN : INT64_MAX;
  }
  std::string path;
  AppendU64(static_cast<uint64_t>(scaled) ^ (uint64_t{1} << 63), &path);
  AppendU64(order, &path);
  return path;
}

int64_t PrependTime(int64_t now) {
  return kPrependReferenceMicros - (now - kPrependReferenceMicros);
}

Status SplitIntoElements(const CqlType& type, std::string_view value, int64_t list_time,
                         uint64_t list_order, std::vector<ElementValue>* elements,
                         int32_t list_nudge) {
  elements->clear();
  switch (type.kind()) {
    case TypeKind::kList: {
      std::vector<std::string_view> items;
      CELLFS_RETURN_IF_ERROR(UnpackCollection(value, 1, &items));
      for (size_t i = 0; i < items.size(); ++i) {
        elements->push_back(
            {ListElementPath(list_time, list_order + i, list_nudge), std::string(items[i])});
      }
      return Status::Ok();
    }
    case TypeKind::kSet:
    case TypeKind::kMap: {
      const bool is_map = type.kind() == TypeKind::kMap;
      const size_t stride = is_map ? 2 : 1;
      std::vector<std::string_view> items;
      CELLFS_RETURN_IF_ERROR(UnpackCollection(value, stride, &items));
      // Equal elements share a path: a set keeps the first, a map the last
      // value (Cassandra's literal evaluation).
      std::map<std::string, std::string> by_path;
      for (size_t i = 0; i < items.size(); i += stride) {
        std::string path = KeyElementPath(*type.params()[0], items[i]);
        if (!is_map) {
          by_path.emplace(std::move(path), std::string());
        } else {
          by_path.insert_or_assign(std::move(path), std::string(items[i + 1]));
        }
      }
      for (auto& [path, stored] : by_path) elements->push_back({path, std::move(stored)});
      return Status::Ok();
    }
    case TypeKind::kUdt: {
      std::vector<std::optional<std::string_view>> fields;
      CELLFS_RETURN_IF_ERROR(UnpackComponents(value, type.params().size(), &fields));
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fields[i]) elements->push_back({FieldPath(i), std::string(*fields[i])});
      }
      return Status::Ok();
    }
    default:
      return Status::InvalidArgument("type " + type.ToCql() + " is not a multi-cell type");
  }
}

Status VisibleElements(const CqlType& type, std::span<RowCell> run,
                       const std::optional<RowDeletion>& deletion, int64_t now,
                       std::vector<RowCell>* visible) {
  visible->clear();
  if (run.empty()) return Status::Ok();
  // A whole value written before element cells existed: its elements, at
  // its write time and TTL, reconcile with the element cells beside it.
  std::vector<RowCell> legacy;
  const RowCell& head = run.front();
  if (head.path.empty() && head.cell.kind == CellKind::kRegular) {
    std::vector<ElementValue> split;
    Status s =
        SplitIntoElements(type, head.cell.value, kLegacyListTime, 0, &split, kLegacyListNudge);
    if (!s.ok()) return Status::Corruption("stored whole value: " + s.message());
    for (ElementValue& e : split) {
      RowCell cell{head.column_id, head.cell, std::move(e.path)};
      cell.cell.value = std::move(e.value);
      legacy.push_back(std::move(cell));
    }
  }
  visible->reserve(run.size() + legacy.size());
  auto a = legacy.begin();
  auto b = std::find_if(run.begin(), run.end(), [](const RowCell& c) { return !c.path.empty(); });
  while (a != legacy.end() || b != run.end()) {
    RowCell* next = nullptr;
    if (b == run.end() || (a != legacy.end() && a->path < b->path)) {
      next = &*a++;
    } else if (a == legacy.end() || b->path < a->path) {
      next = &*b++;
    } else {
      ReconcileInto(&b->cell, std::move(a->cell));
      next = &*b++;
      ++a;
    }
    if (IsVisible(next->cell, deletion, now)) visible->push_back(std::move(*next));
  }
  return Status::Ok();
}

Status AssembleElements(const CqlType& type, std::span<RowCell> run,
                        const std::optional<RowDeletion>& deletion, int64_t now,
                        std::optional<RowCell>* assembled) {
  assembled->reset();
  std::vector<RowCell> visible;
  CELLFS_RETURN_IF_ERROR(VisibleElements(type, run, deletion, now, &visible));
  if (visible.empty()) return Status::Ok();
  RowCell& out = assembled->emplace();
  out.column_id = visible.front().column_id;
  out.cell.write_time = visible.front().cell.write_time;
  const Cell* first_expiring = nullptr;
  for (const RowCell& e : visible) {
    out.cell.write_time = std::max(out.cell.write_time, e.cell.write_time);
    if (e.cell.is_expiring() &&
        (first_expiring == nullptr ||
         e.cell.local_deletion_time < first_expiring->local_deletion_time)) {
      first_expiring = &e.cell;
    }
  }
  if (first_expiring != nullptr) {
    out.cell.ttl = first_expiring->ttl;
    out.cell.local_deletion_time = first_expiring->local_deletion_time;
  }
  return Pack(type, visible, &out.cell.value);
}

}  // namespace cellfs::storage
