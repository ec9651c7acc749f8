// PartitionRef: a partition key validated, encoded and hashed once, so that
// a caller that reads one partition many times (the filesystem, per node)
// pays for the key codec and xxHash once instead of on every read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/cql/table_schema.h"
#include "engine/status.h"

namespace cellfs {

// A plain value type (cheap to move, copyable); thread-compatible. It names
// a partition of one table id: reads through a TableHandle of another id
// (the table dropped and made again) are refused with InvalidArgument.
class PartitionRef {
 public:
  // Validates `partition_key` (count, and each value against its column's
  // type: InvalidArgument naming the column otherwise), computes the token
  // from the canonical values and encodes the partition's storage prefix.
  static Result<PartitionRef> Make(const TableSchema& table,
                                   std::span<const std::string> partition_key);

  uint32_t table_id() const { return table_id_; }
  // The partition's token (docs/FORMAT.md "Tokens").
  int64_t token() const { return token_; }
  // The partition's position, as PartitionIterator::position() gives it:
  // the encoded token and key.
  std::string_view position() const;
  // The storage prefix of the partition's entries (docs/FORMAT.md "Storage
  // layout"): table prefix, then position().
  const std::string& prefix() const { return prefix_; }

 private:
  PartitionRef() = default;

  uint32_t table_id_ = 0;
  int64_t token_ = 0;
  std::string prefix_;
  size_t position_offset_ = 0;  // where position() starts in prefix_
};

}  // namespace cellfs
