// Combining nested slice directories into one SliceSpec (fs/tree/slice_path.h).
#include "fs/tree/slice_path.h"

#include <algorithm>

#include "engine/cql/key_codec.h"
#include "fs/formats/key_name.h"
#include "fs/tree/virtual_name.h"

namespace cellfs::fs {
namespace {

// <0, 0, >0 as a's first n values compare with b's in natural (ASC) order.
int ComparePrefix(std::span<const CqlType* const> types, const std::vector<std::string>& a,
                  const std::vector<std::string>& b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    std::string ea, eb;
    EncodeKeyComponent(*types[i], a[i], SortOrder::kAsc, &ea);
    EncodeKeyComponent(*types[i], b[i], SortOrder::kAsc, &eb);
    if (int c = ea.compare(eb); c != 0) return c;
  }
  return 0;
}

// Whether bound `a` admits fewer rows than `b` (both lower when `lower`).
bool Tighter(std::span<const CqlType* const> types, const ClusteringBound& a,
             const ClusteringBound& b, bool lower) {
  size_t common = std::min(a.prefix.size(), b.prefix.size());
  if (int c = ComparePrefix(types, a.prefix, b.prefix, common); c != 0) {
    return lower ? c > 0 : c < 0;
  }
  if (a.prefix.size() == b.prefix.size()) return !a.inclusive && b.inclusive;
  // Equal on the shorter one's columns: an exclusive short bound excludes
  // every row sharing those values; an inclusive one admits them all.
  const ClusteringBound& shorter = a.prefix.size() < b.prefix.size() ? a : b;
  bool shorter_wins = !shorter.inclusive;
  return (&shorter == &a) == shorter_wins;
}

void Intersect(std::span<const CqlType* const> types, ClusteringBound bound, bool lower,
               std::optional<ClusteringBound>* current) {
  if (!*current || Tighter(types, bound, **current, lower)) *current = std::move(bound);
}

}  // namespace

Status BuildSlice(std::span<const CqlType* const> clustering_types,
                  std::span<const std::string> slice_names, SliceSpec* out) {
  *out = SliceSpec{};
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
        Intersect(clustering_types, std::move(bound), parsed.lower_bound,
                  parsed.lower_bound ? &out->lower : &out->upper);
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
