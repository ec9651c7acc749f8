// Combining nested slice directories into one SliceSpec (fs/tree/slice_path.h).
#include "fs/tree/slice_path.h"

#include <algorithm>

#include "fs/formats/key_name.h"
#include "fs/tree/virtual_name.h"

namespace cellfs::fs {

Status BuildSlice(const TableSchema& table, std::span<const std::string> slice_names,
                  SliceSpec* out) {
  *out = SliceSpec{};
  std::vector<const CqlType*> clustering_types;
  for (size_t i = 0; i < table.clustering_count(); ++i) {
    clustering_types.push_back(table.column(table.partition_key_count() + i).type.get());
  }
  for (const std::string& name : slice_names) {
    VirtualName parsed;
    Status s = ParseVirtualName(name, &parsed);
    if (!s.ok()) return Status::InvalidArgument(s.message());
    switch (parsed.kind) {
      case VirtualName::Kind::kSliceBound: {
        ClusteringBound bound;
        bound.inclusive = parsed.inclusive;
        s = ParseKeyPrefix(clustering_types, parsed.bound_text, &bound.prefix);
        if (!s.ok()) return s.WithContext(name);
        NarrowSlice(table, std::move(bound), parsed.lower_bound, out);
        break;
      }
      case VirtualName::Kind::kLimit:
        out->limit = out->limit == 0 ? parsed.limit : std::min(out->limit, parsed.limit);
        break;
      case VirtualName::Kind::kReverse:
        out->reverse = !out->reverse;
        break;
      default:
        return Status::InvalidArgument(name + " is not a slice directory");
    }
  }
  return Status::Ok();
}

}  // namespace cellfs::fs
