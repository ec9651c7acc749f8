// Removals that are CQL deletions of more than one cell: rmdir of a row or
// partition (a row or partition tombstone, at the timestamp its name or a
// directory above it carries), and slices, whose removal is ONE range
// tombstone however many rows they hold (docs/FILESYSTEM.md, "Deleting").
#pragma once

#include <string_view>

#include "fs/files/file_context.h"
#include "fs/tree/node.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

// Thread-safe: keeps no state of its own; the marks it leaves are the
// tree's kept identities (fs/tree/tree_context.h). Every method returns 0
// or an errno.
class Removal {
 public:
  // `tree` and `files` must outlive the Removal.
  Removal(TreeContext* tree, FileContext* files) : tree_(tree), files_(files) {}

  // The child `name` of `dir` that an rmdir or unlink removes: the exact
  // name when it is live (or kept), else the name less its write suffixes
  // (`ROW@timestamp=T`), which need not be live: a deletion at T is written
  // whatever is listed now. The key parser's errors otherwise.
  Status Target(const Node& dir, std::string_view name, Node* child) const;

  // rmdir of row or partition `child` of `dir` (`name` as the kernel gave
  // it): ENOTEMPTY when it lists a live child, unless its write attributes
  // carry a timestamp T; then the tombstone at T (DELETE … USING
  // TIMESTAMP T), which what is newer survives. A row reached through a
  // slice directory is RemoveBeneathSlice's.
  int RemoveKeyDirectory(const Node& dir, std::string_view name, const Node& child);

  // rmdir of slice directory `slice`: its range tombstone (DELETE … WHERE
  // pk = … AND <bounds>, at its write attributes' timestamp), or nothing
  // when a removal beneath it wrote that tombstone already (`rm -r`).
  // ENOTEMPTY as RemoveKeyDirectory; EINVAL for a slice with @limit or
  // @reverse (no range tombstone can say it, as Cassandra refuses DELETE
  // with LIMIT).
  int RemoveSlice(const Node& slice);

  // Unlink of cell `target` of row `row`, or rmdir of row `target` (then
  // `row` is the same node), where the row was reached through a slice
  // directory: the first removal of something live beneath a slice is the
  // slice's range tombstone; what is already gone, or what is newer than
  // the tombstone and survived it, is 0 with nothing written, so that
  // `rm -r SLICE` writes exactly one. REQUIRES: !row.id.slice.empty().
  int RemoveBeneathSlice(const Node& row, const Node& target);

 private:
  // Writes the range tombstone of `slice` (a kSlice node) at its write
  // attributes' timestamp; EINVAL for @limit or @reverse.
  int WriteRangeTombstone(const Node& slice);

  TreeContext* const tree_;
  FileContext* const files_;
};

}  // namespace cellfs::fs
