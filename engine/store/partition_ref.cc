// PartitionRef (engine/store/partition_ref.h): the storage prefix and token
// of a partition key, made once.
#include "engine/store/partition_ref.h"

#include "engine/store/internal/storage_keys.h"

namespace cellfs {

Result<PartitionRef> PartitionRef::Make(const TableSchema& table,
                                        std::span<const std::string> partition_key) {
  storage::PartitionKey key;
  CELLFS_RETURN_IF_ERROR(storage::EncodePartitionKey(table, partition_key, &key));
  PartitionRef ref;
  ref.table_id_ = table.id;
  ref.token_ = key.token;
  storage::AppendTablePrefix(table.id, &ref.prefix_);
  ref.position_offset_ = ref.prefix_.size();
  ref.prefix_.clear();
  storage::AppendPartitionPrefix(table.id, key, &ref.prefix_);
  return ref;
}

std::string_view PartitionRef::position() const {
  return std::string_view(prefix_).substr(position_offset_);
}

}  // namespace cellfs
