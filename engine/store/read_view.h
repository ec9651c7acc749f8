// ReadView: a consistent, read-only view of the whole store at one moment:
// a LevelDB snapshot plus the time at which expiry is judged.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/index_iterator.h"
#include "engine/store/partition_iterator.h"
#include "engine/store/partition_ref.h"
#include "engine/store/row_fragment.h"
#include "engine/store/row_iterator.h"
#include "engine/store/slice.h"

namespace cellfs {

struct ReadState;  // the snapshot, shared with the iterators made from it

// Every read works on a materialized view's handle too (its rows read
// through the base table: docs/ENGINE.md "Materialized views"); a view has
// no static row. A view still being built refuses reads with Aborted
// ("materialized view v is still being built": try again later); one
// dropped meanwhile with NotFound.
//
// Cheap to copy (a shared pointer); thread-safe: any number of threads may
// read through one view. Made by Engine::NewReadView; the Engine must
// outlive every view and iterator.
class ReadView {
 public:
  explicit ReadView(std::shared_ptr<const ReadState> state);

  // The time (microseconds) against which TTLs are judged in this view.
  int64_t now() const;

  // The row's live content (see RowIterator::row), or nullopt when the row
  // is not live. InvalidArgument for keys that do not fit the table.
  Result<std::optional<RowFragment>> GetRow(const TableHandle& table,
                                            std::span<const std::string> partition_key,
                                            std::span<const std::string> clustering) const;

  // The partition's live static cells; nullopt when it has none.
  Result<std::optional<RowFragment>> GetStaticRow(const TableHandle& table,
                                                  std::span<const std::string> partition_key) const;

  // True when the partition is live (a live static cell or a live row).
  Result<bool> IsPartitionLive(const TableHandle& table,
                               std::span<const std::string> partition_key) const;

  // The reads above and below with the partition key prepared once
  // (PartitionRef::Make): no validation, key encoding or hashing per read.
  // InvalidArgument when `partition` was made for another table id.
  Result<std::optional<RowFragment>> GetRow(const TableHandle& table, const PartitionRef& partition,
                                            std::span<const std::string> clustering) const;
  Result<std::optional<RowFragment>> GetStaticRow(const TableHandle& table,
                                                  const PartitionRef& partition) const;
  Result<bool> IsPartitionLive(const TableHandle& table, const PartitionRef& partition) const;

  // One live cell: column `column_id` of the row `clustering`, or of the
  // static row when the column is static (`clustering` is then ignored).
  // nullopt when the cell is not live (absent, deleted, expired, or its
  // row or partition deleted). One partition-head read and, for a regular
  // column, at most one more seek (none when the head read already stands
  // at the row, as in a table without clustering columns). InvalidArgument
  // for a bad clustering key or a column id the table does not have.
  Result<std::optional<RowCell>> GetCell(const TableHandle& table, const PartitionRef& partition,
                                         std::span<const std::string> clustering,
                                         uint32_t column_id) const;

  // The live elements of multi-cell column `column_id` (a non-frozen
  // collection or UDT) of one row (or the static row), each with its stored
  // path (docs/FORMAT.md "Element cells"), in the column's element order;
  // empty when none is live. What a list's l[i] = v, DELETE l[i] and
  // l = l - [...] need: the path of the i-th live element, or of each element
  // holding a value (Mutation::SetElementAt). InvalidArgument as for GetCell,
  // or for a column that is not multi-cell.
  Result<std::vector<RowCell>> GetElements(const TableHandle& table, const PartitionRef& partition,
                                           std::span<const std::string> clustering,
                                           uint32_t column_id) const;

  // A partition's live static cells and an iterator over the rows `slice`
  // selects, from one read of the partition's head (what GetStaticRow then
  // NewRowIterator would read twice).
  struct PartitionRead {
    std::optional<RowFragment> static_row;  // nullopt when no static cell is live
    std::unique_ptr<RowIterator> rows;
  };
  Result<PartitionRead> ReadPartition(const TableHandle& table, const PartitionRef& partition,
                                      const SliceSpec& slice = {}) const;

  // The partition's token and encoded position (as PartitionIterator's).
  Result<int64_t> Token(const TableHandle& table, std::span<const std::string> partition_key) const;

  // The rows of one partition that `slice` selects. InvalidArgument for a
  // bad key or bound (too many components, values that do not parse).
  Result<std::unique_ptr<RowIterator>> NewRowIterator(const TableHandle& table,
                                                      std::span<const std::string> partition_key,
                                                      const SliceSpec& slice = {}) const;

  // The table's live partitions in token order, starting after
  // `resume_after` (a PartitionIterator::position()) when given.
  std::unique_ptr<PartitionIterator> NewPartitionIterator(
      const TableHandle& table, std::optional<std::string> resume_after = std::nullopt) const;

  // The matches of `table`'s index `index` (its position in def.indexes)
  // within `bounds`. FailedPrecondition "The secondary index 'x' is not yet
  // available" while the index is being built; NotFound when it has been
  // dropped since `table` was looked up; InvalidArgument when a
  // bound is not a valid value of IndexedValueType, or for a range on an
  // index of collection elements (only equality, as CONTAINS, or no bounds
  // at all: a walk of the whole index).
  Result<std::unique_ptr<IndexIterator>> NewIndexIterator(const TableHandle& table, size_t index,
                                                          const IndexBounds& bounds) const;

  // The same snapshot, read without filling LevelDB's block cache: for
  // scans of a whole table (exports, statistics), which would otherwise
  // evict what point reads and listings keep hot and grow the process to
  // the cache's size (LevelDB's advice for bulk reads).
  ReadView ForScan() const;

 private:
  // The reads above for a materialized view (read_view_of_view.cc).
  Result<std::optional<RowFragment>> GetViewRow(const TableHandle& view,
                                                const PartitionRef& partition,
                                                std::span<const std::string> clustering) const;
  Result<PartitionRead> ReadViewPartition(const TableHandle& view, const PartitionRef& partition,
                                          const SliceSpec& slice) const;
  Result<std::vector<RowCell>> GetViewElements(const TableHandle& view,
                                               const PartitionRef& partition,
                                               std::span<const std::string> clustering,
                                               uint32_t column_id) const;

  std::shared_ptr<const ReadState> state_;
  bool fill_cache_ = true;
};

}  // namespace cellfs
