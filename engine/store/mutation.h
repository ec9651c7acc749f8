// Mutation: a batch of CQL writes (INSERT, UPDATE, counter adds, DELETE of a
// cell, row, clustering range or partition) that Engine::Apply stores
// atomically, in one LevelDB WriteBatch. Writes are blind: nothing is read.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/row_fragment.h"
#include "engine/store/slice.h"

namespace cellfs {

class BatchPool;
struct EngineCore;

// USING TIMESTAMP / USING TTL.
struct WriteAttributes {
  // Microseconds; nullopt = the mutation's server write time.
  std::optional<int64_t> timestamp;
  // Seconds, 0..kMaxTtlSeconds; 0 = no TTL even when the table has a
  // default_time_to_live (as CQL's USING TTL 0); nullopt = the table's
  // default_time_to_live.
  std::optional<int64_t> ttl;

  bool empty() const { return !ttl && !timestamp; }
  bool operator==(const WriteAttributes&) const = default;
};

struct ColumnValue {
  size_t column = 0;  // index in TableSchema::def.columns: a static or regular column
  // Serialized value (docs/FORMAT.md "Values"); nullopt = null, which
  // deletes the cell, as `SET col = null` does.
  std::optional<std::string> value;
};

// Key arguments are serialized values, one per key column, in key order.
// Every operation validates all of its input first (component counts,
// values against their types, column kinds, TTL range, counter rules) and
// returns InvalidArgument naming the problem; on error the Mutation is
// unchanged, so a caller may skip a bad operation and keep the rest.
//
// Times: every operation without USING TIMESTAMP gets write_time(), one
// server write time for the whole mutation (as a Cassandra batch does).
// TTL expiries and deletion times count from the clock when the Mutation was
// made.
//
// Non-frozen collections and UDTs (multi-cell columns) are stored as
// Cassandra stores them, a cell per element (docs/FORMAT.md "Element
// cells"): setting the whole value (INSERT, UPDATE, null, `{}`) writes a
// collection deletion at the write time - 1 and one cell per element at the
// write time, so an empty collection is null; deleting the column
// (DeleteCells) is a collection deletion at the write time. The element
// operations below change single elements, each with its own write time
// and TTL.
//
// Thread-compatible. Made by Engine::NewMutation; the Engine must outlive it.
class Mutation {
 public:
  Mutation(Mutation&&) noexcept;
  Mutation& operator=(Mutation&&) noexcept;
  ~Mutation();

  int64_t write_time() const { return write_time_; }
  int64_t now() const { return now_; }

  // INSERT: a row marker plus the given cells. `clustering` holds every
  // clustering column (none for a table without them). Static columns among
  // `cells` are written to the partition's static row. Not for counter tables.
  Status Insert(const TableHandle& table, std::span<const std::string> partition_key,
                std::span<const std::string> clustering, std::span<const ColumnValue> cells,
                const WriteAttributes& attributes = {});

  // UPDATE ... SET: the given cells, no row marker. When every column in
  // `cells` is static, `clustering` may be empty (Cassandra's static-only
  // update); otherwise it holds every clustering column.
  Status Update(const TableHandle& table, std::span<const std::string> partition_key,
                std::span<const std::string> clustering, std::span<const ColumnValue> cells,
                const WriteAttributes& attributes = {});

  // UPDATE ... SET c = c + delta on a counter column (delta may be negative).
  // TTLs and custom timestamps are refused, as in Cassandra.
  Status AddToCounter(const TableHandle& table, std::span<const std::string> partition_key,
                      std::span<const std::string> clustering, size_t column, int64_t delta,
                      const WriteAttributes& attributes = {});

  // Element operations on a multi-cell column `column` (a non-frozen
  // collection or UDT), as CQL's UPDATE ... SET: no row marker. `clustering`
  // as for Update (empty for a static column).
  //
  // AddElements: `value` is a serialized value of the column's type: a set
  // adds its elements (s = s + {...}), a map puts its entries (m = m +
  // {...}), a list appends its elements (l = l + [...]). PrependElements:
  // lists only (l = [...] + l). RemoveElements: a set removes the elements
  // of `value` (s = s - {...}); a map removes the keys of `value`, a
  // serialized set<key type> (m = m - {...}); lists need a read first (see
  // SetElementAt). TTL as for Update; a removal takes none.
  Status AddElements(const TableHandle& table, std::span<const std::string> partition_key,
                     std::span<const std::string> clustering, size_t column, std::string_view value,
                     const WriteAttributes& attributes = {});
  Status PrependElements(const TableHandle& table, std::span<const std::string> partition_key,
                         std::span<const std::string> clustering, size_t column,
                         std::string_view value, const WriteAttributes& attributes = {});
  Status RemoveElements(const TableHandle& table, std::span<const std::string> partition_key,
                        std::span<const std::string> clustering, size_t column,
                        std::string_view value, const WriteAttributes& attributes = {});
  // One element: a map's entry under serialized key `key` (m[k] = v, and
  // DELETE m[k] when `value` is null), a UDT's field named `key` (u.f = v;
  // null deletes the field). TTL as for Update; a deletion takes none.
  Status SetElement(const TableHandle& table, std::span<const std::string> partition_key,
                    std::span<const std::string> clustering, size_t column, std::string_view key,
                    const std::optional<std::string>& value,
                    const WriteAttributes& attributes = {});
  // One list element by its stored path (ReadView::GetListElements), for
  // l[i] = v (value) and DELETE l[i] / l = l - [...] (null).
  Status SetElementAt(const TableHandle& table, std::span<const std::string> partition_key,
                      std::span<const std::string> clustering, size_t column, std::string_view path,
                      const std::optional<std::string>& value,
                      const WriteAttributes& attributes = {});

  // DELETE c1, c2 FROM ...: a tombstone per cell. attributes.ttl must be unset.
  Status DeleteCells(const TableHandle& table, std::span<const std::string> partition_key,
                     std::span<const std::string> clustering, std::span<const size_t> columns,
                     const WriteAttributes& attributes = {});

  // DELETE FROM ... WHERE <full primary key>: a row tombstone.
  Status DeleteRow(const TableHandle& table, std::span<const std::string> partition_key,
                   std::span<const std::string> clustering, const WriteAttributes& attributes = {});

  // DELETE FROM ... WHERE pk AND <clustering bounds>: a range tombstone over
  // the rows `range.lower` / `range.upper` select (limit, reverse and
  // resume_after must be unset). Needs at least one clustering column.
  Status DeleteRange(const TableHandle& table, std::span<const std::string> partition_key,
                     const SliceSpec& range, const WriteAttributes& attributes = {});

  // DELETE FROM ... WHERE <partition key>: a partition tombstone (shadows
  // the static row and every row written at or before its time).
  Status DeletePartition(const TableHandle& table, std::span<const std::string> partition_key,
                         const WriteAttributes& attributes = {});

  // Number of successful operations so far.
  size_t operation_count() const { return operations_; }
  bool empty() const { return operations_ == 0; }
  // Bytes of the encoded batch; callers flush large bulk loads by this.
  size_t byte_size() const;

 private:
  friend class Engine;
  friend class BatchPool;
  struct Batch;  // the storage batch and the tables it touches

  // `batch` is empty: new, or recycled by the engine from an applied one.
  Mutation(EngineCore* core, int64_t write_time, int64_t now, std::unique_ptr<Batch> batch);

  // The operations' last step, after every check passed: sequences for
  // `entries` new entries, then the puts, so a failure leaves the batch as
  // it was.
  Status ReserveSequences(size_t entries, std::vector<uint64_t>* sequences);
  // Appends one fragment under `*group` (a key without its sequence, whose
  // first `prefix_size` bytes are its partition prefix) and, when it will
  // need sweeping, its expiry-index entry. The sequence is appended to
  // `*group` in place for the entry's key, then taken off again.
  void PutFragment(const TableSchema& table, std::string* group, size_t prefix_size,
                   uint64_t sequence, const RowFragment& fragment);
  // Appends a deletion entry (partition or range) and its index entry, keyed
  // by `group`, or by the whole key when `index_whole_key`.
  void PutDeletion(const TableSchema& table, std::string_view group, size_t prefix_size,
                   uint64_t sequence, bool index_whole_key, std::string_view value,
                   const RowDeletion& deletion);
  // Writes the batch's row builder (under its row_group) and static-row
  // builder (under its prefix); either may be empty.
  Status PutRowAndStatic(const TableSchema& table);
  // The end of a write of cells (UPDATE, counter add, cell deletion) whose
  // builders are filled: resolves the row's group (none when only static
  // cells were given), puts the fragments, counts the operation.
  Status FinishCellWrite(const TableSchema& table, std::span<const std::string> clustering);
  void Commit(const TableSchema& table);  // counts a finished operation
  // The element cells of `value` (a whole value of multi-cell `column`) at
  // `timestamp`, into the row or static row builder. Lists take this
  // mutation's list paths (appended, or prepended when `prepend`).
  Status AddElementCells(const TableSchema& table, size_t column, std::string_view value,
                         int64_t timestamp, uint32_t ttl, bool prepend);
  // Shared checks and set-up of the element operations: a multi-cell
  // column of `kind` (any when nullopt), the partition resolved, builders
  // reset.
  Status BeginElementWrite(const TableSchema& table, std::span<const std::string> partition_key,
                           size_t column, std::optional<TypeKind> kind, std::string_view what);
  // One element cell (a tombstone when `value` is null) at `path`.
  void PutElementCell(const TableSchema& table, size_t column, std::string path,
                      const std::optional<std::string>& value, int64_t timestamp, uint32_t ttl);

  EngineCore* core_;
  int64_t write_time_;
  int64_t now_;
  size_t operations_ = 0;
  uint64_t list_order_ = 0;  // the next list element path's order
  uint32_t prepends_ = 0;    // list prepends so far (each sorts before the last)
  std::unique_ptr<Batch> batch_;
  // Why no write time could be leased for it (a failed lease write on a
  // backend whose write fence does not latch): Apply returns it.
  Status lease_failure_;
};

}  // namespace cellfs
