// Native-protocol framing of collections, tuples and UDTs, and the order
// set elements and map keys are kept in.
#include "engine/cql/collection_codec.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <numeric>

#include "engine/cql/key_codec.h"

namespace cellfs {
namespace {

void AppendInt32(int32_t value, std::string* out) {
  const auto u = static_cast<uint32_t>(value);
  out->push_back(static_cast<char>(u >> 24));
  out->push_back(static_cast<char>((u >> 16) & 0xff));
  out->push_back(static_cast<char>((u >> 8) & 0xff));
  out->push_back(static_cast<char>(u & 0xff));
}

void AppendFramed(std::string_view bytes, std::string* out) {
  assert(bytes.size() <= static_cast<size_t>(std::numeric_limits<int32_t>::max()));
  AppendInt32(static_cast<int32_t>(bytes.size()), out);
  out->append(bytes);
}

// Reads a big-endian int32 from the front of *in; false when fewer than 4
// bytes remain.
bool ReadInt32(std::string_view* in, int32_t* value) {
  if (in->size() < 4) return false;
  uint32_t u = 0;
  for (size_t i = 0; i < 4; ++i) u = (u << 8) | static_cast<unsigned char>((*in)[i]);
  *value = static_cast<int32_t>(u);  // modular since C++20
  in->remove_prefix(4);
  return true;
}

// "element 3", or "key 3" / "value 3" in a map.
std::string ItemName(size_t index, size_t items_per_entry) {
  if (items_per_entry == 1) return "element " + std::to_string(index);
  return (index % 2 == 0 ? "key " : "value ") + std::to_string(index / 2);
}

// The sort keys of `values` in `type`'s order.
std::vector<std::string> CollationKeys(const CqlType& type,
                                       const std::vector<std::string_view>& values) {
  const bool use_key_codec = type.CheckKeyCapable().ok();
  std::vector<std::string> keys(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (use_key_codec) {
      EncodeKeyComponent(type, values[i], SortOrder::kAsc, &keys[i]);
    } else {
      keys[i] = std::string(values[i]);
    }
  }
  return keys;
}

// Indices 0..n-1 stably sorted by keys[i].
std::vector<size_t> SortedOrder(const std::vector<std::string>& keys) {
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&keys](size_t a, size_t b) { return keys[a] < keys[b]; });
  return order;
}

}  // namespace

std::string PackCollection(const std::vector<std::string>& items, size_t items_per_entry) {
  assert(items_per_entry > 0 && items.size() % items_per_entry == 0);
  std::string out;
  AppendInt32(static_cast<int32_t>(items.size() / items_per_entry), &out);
  for (const auto& item : items) AppendFramed(item, &out);
  return out;
}

Status UnpackCollection(std::string_view value, size_t items_per_entry,
                        std::vector<std::string_view>* items) {
  items->clear();
  std::string_view in = value;
  int32_t count = 0;
  if (!ReadInt32(&in, &count)) {
    return Status::InvalidArgument("truncated element count (" + std::to_string(value.size()) +
                                   " bytes)");
  }
  if (count < 0) {
    return Status::InvalidArgument("negative element count " + std::to_string(count));
  }
  // Every item takes at least its 4 length bytes: this bounds the count
  // before anything is reserved for it.
  const size_t item_count = static_cast<size_t>(count) * items_per_entry;
  if (item_count > in.size() / 4) {
    return Status::InvalidArgument("element count " + std::to_string(count) + " does not fit in " +
                                   std::to_string(value.size()) + " bytes");
  }
  items->reserve(item_count);
  for (size_t i = 0; i < item_count; ++i) {
    int32_t length = 0;
    if (!ReadInt32(&in, &length)) {
      return Status::InvalidArgument("truncated length of " + ItemName(i, items_per_entry));
    }
    if (length < 0) {
      return Status::InvalidArgument("null " + ItemName(i, items_per_entry) +
                                     " (collection elements are never null)");
    }
    if (static_cast<size_t>(length) > in.size()) {
      return Status::InvalidArgument(ItemName(i, items_per_entry) + " of " +
                                     std::to_string(length) + " bytes is truncated to " +
                                     std::to_string(in.size()));
    }
    items->push_back(in.substr(0, static_cast<size_t>(length)));
    in.remove_prefix(static_cast<size_t>(length));
  }
  if (!in.empty()) {
    return Status::InvalidArgument(std::to_string(in.size()) +
                                   " unexpected bytes after the last element");
  }
  return Status::Ok();
}

std::string PackComponents(const std::vector<std::optional<std::string>>& components) {
  std::string out;
  for (const auto& c : components) {
    if (c.has_value()) {
      AppendFramed(*c, &out);
    } else {
      AppendInt32(-1, &out);
    }
  }
  return out;
}

Status UnpackComponents(std::string_view value, size_t max_components,
                        std::vector<std::optional<std::string_view>>* components) {
  components->clear();
  std::string_view in = value;
  while (!in.empty()) {
    const size_t index = components->size();
    if (index == max_components) {
      return Status::InvalidArgument("more than " + std::to_string(max_components) + " components");
    }
    int32_t length = 0;
    if (!ReadInt32(&in, &length)) {
      return Status::InvalidArgument("truncated length of component " + std::to_string(index));
    }
    if (length < -1) {
      return Status::InvalidArgument("invalid length " + std::to_string(length) + " of component " +
                                     std::to_string(index));
    }
    if (length == -1) {
      components->push_back(std::nullopt);
      continue;
    }
    if (static_cast<size_t>(length) > in.size()) {
      return Status::InvalidArgument("component " + std::to_string(index) + " of " +
                                     std::to_string(length) + " bytes is truncated to " +
                                     std::to_string(in.size()));
    }
    components->push_back(in.substr(0, static_cast<size_t>(length)));
    in.remove_prefix(static_cast<size_t>(length));
  }
  return Status::Ok();
}

void CanonicalizeSet(const CqlType& element_type, std::vector<std::string>* elements) {
  const std::vector<std::string_view> views(elements->begin(), elements->end());
  const std::vector<std::string> keys = CollationKeys(element_type, views);
  std::vector<std::string> sorted;
  const std::string* previous_key = nullptr;
  for (size_t i : SortedOrder(keys)) {
    if (previous_key != nullptr && *previous_key == keys[i]) continue;  // a later duplicate
    sorted.push_back(std::move((*elements)[i]));
    previous_key = &keys[i];
  }
  *elements = std::move(sorted);
}

void CanonicalizeMap(const CqlType& key_type, std::vector<std::string>* items) {
  assert(items->size() % 2 == 0);
  std::vector<std::string_view> key_views;
  for (size_t i = 0; i < items->size(); i += 2) key_views.push_back((*items)[i]);
  const std::vector<std::string> keys = CollationKeys(key_type, key_views);
  std::vector<std::string> sorted;
  const std::string* previous_key = nullptr;
  for (size_t entry : SortedOrder(keys)) {
    std::string& value = (*items)[2 * entry + 1];
    if (previous_key != nullptr && *previous_key == keys[entry]) {
      sorted.back() = std::move(value);  // stable order: this entry came later
      continue;
    }
    sorted.push_back(std::move((*items)[2 * entry]));
    sorted.push_back(std::move(value));
    previous_key = &keys[entry];
  }
  *items = std::move(sorted);
}

Status CheckCanonicalOrder(const CqlType& type, const std::vector<std::string_view>& items,
                           size_t stride) {
  std::vector<std::string_view> sorted_items;
  for (size_t i = 0; i < items.size(); i += stride) sorted_items.push_back(items[i]);
  const std::vector<std::string> keys = CollationKeys(type, sorted_items);
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i - 1] < keys[i]) continue;
    const std::string what = stride == 1 ? "element " : "key ";
    return Status::InvalidArgument(what + std::to_string(i) +
                                   (keys[i - 1] == keys[i] ? " duplicates " : " sorts before ") +
                                   what + std::to_string(i - 1));
  }
  return Status::Ok();
}

}  // namespace cellfs
