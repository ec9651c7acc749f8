// DirListing: the children of one directory, streamed in the engine's order
// from one read view (keyspaces and tables by name, partitions in token
// order, a partition's static cells then its rows in clustering order, a
// row's cells in schema order). Virtual names are never listed.
#pragma once

#include <memory>
#include <string>

#include "engine/store/read_view.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

struct ListedEntry {
  std::string name;
  Node node;
  NodeState state;
};

// Not thread-safe (the directory handle's mutex serialises it). Holds its
// view's snapshot; memory stays flat however long the listing.
class DirListing {
 public:
  virtual ~DirListing() = default;
  // The next child; false at the end or on error (see status()).
  virtual bool Next(ListedEntry* out) = 0;
  virtual Status status() const = 0;
};

// A listing of directory `dir` at `view`. NotFound / InvalidArgument when
// the directory cannot be listed (a slice bound that does not parse).
Result<std::unique_ptr<DirListing>> NewDirListing(const TreeContext& tree, const Node& dir,
                                                  const ReadView& view);

// Whether `dir` lists at least one child now (a fresh view). False also
// when it cannot be listed.
bool HasLiveChild(const TreeContext& tree, const Node& dir);

}  // namespace cellfs::fs
