// Index reads: entries in value order, each validated against the row it
// names, so stale entries (a value overwritten, deleted or expired since)
// never show (docs/FORMAT.md "Index entries").
#include "engine/store/internal/index_iterator_impl.h"

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/internal/element_cells.h"
#include "engine/store/internal/index_entries.h"
#include "engine/store/internal/read_state.h"
#include "engine/store/internal/storage_keys.h"

namespace cellfs {
namespace {

constexpr size_t kTokenBytes = 8;

bool IsElementIndex(const TableSchema& table, const IndexSchema& index) {
  return table.column(index.column).type->is_multi_cell();
}

}  // namespace

TypePtr IndexedValueType(const TableSchema& table, const IndexSchema& index) {
  const TypePtr& type = table.column(index.column).type;
  if (!type->is_multi_cell()) return type;
  switch (index.target) {
    case IndexTargetKind::kKeys:
      return type->params()[0];
    case IndexTargetKind::kEntries:
      return CqlType::Map(type->params()[0], type->params()[1], true);
    default:
      return type->kind() == TypeKind::kMap ? type->params()[1] : type->params()[0];
  }
}

Status IndexComponentOf(const TableSchema& table, const IndexSchema& index, std::string_view value,
                        std::string* out) {
  TypePtr type = IndexedValueType(table, index);
  CELLFS_RETURN_IF_ERROR(ValidateValue(*type, value));
  if (index.target != IndexTargetKind::kEntries) {
    EncodeKeyComponent(*type, value, SortOrder::kAsc, out);
    return Status::Ok();
  }
  std::vector<storage::ElementValue> entries;
  CELLFS_RETURN_IF_ERROR(
      storage::SplitIntoElements(*table.column(index.column).type, value, 0, 0, &entries));
  if (entries.size() != 1) {
    return Status::InvalidArgument("an entry of an ENTRIES index is a map of one entry");
  }
  out->append(entries[0].path);
  EncodeKeyComponent(*type->params()[1], entries[0].value, SortOrder::kAsc, out);
  return Status::Ok();
}

IndexIteratorImpl::IndexIteratorImpl(std::shared_ptr<const ReadState> state, ReadView view,
                                     TableHandle table, const IndexSchema& index,
                                     std::optional<std::string> lower, bool lower_inclusive,
                                     std::optional<std::string> upper, bool upper_inclusive,
                                     std::function<bool(std::string_view)> accept, bool fill_cache)
    : state_(std::move(state)),
      view_(std::move(view)),
      table_(std::move(table)),
      index_(index),
      upper_(std::move(upper)),
      upper_inclusive_(upper_inclusive),
      accept_(std::move(accept)) {
  storage::AppendIndexPrefix(index_.id, &space_);
  TypePtr type = IndexedValueType(*table_, index_);
  value_type_ = type;
  const bool entries = index_.target == IndexTargetKind::kEntries;
  const TypePtr key_type = entries ? type->params()[0] : type;
  const TypePtr value_type = entries ? type->params()[1] : nullptr;
  storage::ShardSplitter split = [key_type, value_type](std::string_view bytes, size_t* length) {
    std::string_view rest = bytes;
    std::string scratch;
    CELLFS_RETURN_IF_ERROR(DecodeKeyComponent(*key_type, SortOrder::kAsc, &rest, &scratch));
    if (value_type) {
      CELLFS_RETURN_IF_ERROR(DecodeKeyComponent(*value_type, SortOrder::kAsc, &rest, &scratch));
    }
    *length = bytes.size() - rest.size();
    return Status::Ok();
  };
  shards_ = state_->core->storage->NewShardCursor(state_->point.get(), space_, std::move(split),
                                                  {fill_cache});
  // An exclusive bound seeks to the value and steps past its shard: the
  // row keys after a value may start with 0xFF (a token's first byte), so
  // value + 0xFF is not above every entry of the value.
  shards_->Seek(lower ? std::string_view(*lower) : std::string_view());
  if (lower && !lower_inclusive && shards_->Valid() && shards_->shard() == *lower) {
    shards_->Next();
  }
  Settle();
}

bool IndexIteratorImpl::ShardInRange() const {
  if (!upper_) return true;
  const int order = shards_->shard().compare(*upper_);
  return order < 0 || (order == 0 && upper_inclusive_);
}

Result<bool> IndexIteratorImpl::ShardAccepted() const {
  if (!accept_) return true;
  std::string_view encoded = shards_->shard();
  std::string value;
  CELLFS_RETURN_IF_ERROR(DecodeKeyComponent(*value_type_, SortOrder::kAsc, &encoded, &value));
  return accept_(value);
}

void IndexIteratorImpl::Settle() {
  valid_ = false;
  while (shards_->Valid() && ShardInRange()) {
    Result<bool> accepted = ShardAccepted();
    if (!accepted.ok()) {
      status_ = accepted.status();
      return;
    }
    if (!accepted.value()) {
      shards_->Next();
      continue;
    }
    storage::Cursor& entries = shards_->entries();
    for (; entries.Valid(); entries.Next()) {
      Result<bool> ok = Check(shards_->shard(), entries.key());
      if (!ok.ok()) {
        status_ = ok.status();
        return;
      }
      if (ok.value()) {
        valid_ = true;
        return;
      }
    }
    if (!entries.status().ok()) {
      status_ = entries.status();
      return;
    }
    shards_->Next();
  }
  status_ = shards_->status();
}

void IndexIteratorImpl::Next() {
  storage::Cursor& entries = shards_->entries();
  entries.Next();
  // Continue within this shard first, then the following ones.
  for (; entries.Valid(); entries.Next()) {
    Result<bool> ok = Check(shards_->shard(), entries.key());
    if (!ok.ok()) {
      valid_ = false;
      status_ = ok.status();
      return;
    }
    if (ok.value()) return;
  }
  if (!entries.status().ok()) {
    valid_ = false;
    status_ = entries.status();
    return;
  }
  shards_->Next();
  Settle();
}

bool IndexIteratorImpl::CellHolds(const RowFragment& row, std::string_view component) const {
  const RowCell* cell = row.FindCell(table_->column_ids[index_.column]);
  if (cell == nullptr || cell->cell.kind != CellKind::kRegular) return false;
  std::string made;
  if (!IsElementIndex(*table_, index_)) {
    storage::AppendIndexValue(*table_, index_, *cell, &made);
    return made == component;
  }
  std::vector<storage::ElementValue> elements;
  if (!storage::SplitIntoElements(*table_->column(index_.column).type, cell->cell.value, 0, 0,
                                  &elements)
           .ok()) {
    return false;
  }
  RowCell element = *cell;
  for (storage::ElementValue& e : elements) {
    element.path = std::move(e.path);
    element.cell.value = std::move(e.value);
    made.clear();
    storage::AppendIndexValue(*table_, index_, element, &made);
    if (made == component) return true;
  }
  return false;
}

Result<bool> IndexIteratorImpl::Check(std::string_view component, std::string_view key) {
  const TableSchema& table = *table_;
  if (key.size() < kTokenBytes + 1) return Status::Corruption("index entry too short");
  std::string_view rest = key.substr(kTokenBytes);
  size_t pk_length = 0;
  CELLFS_RETURN_IF_ERROR(storage::PartitionKeyLength(table, rest, &pk_length));
  CELLFS_RETURN_IF_ERROR(
      storage::DecodePartitionKey(table, rest.substr(0, pk_length), &partition_key_));
  rest.remove_prefix(pk_length);
  if (rest.empty()) return Status::Corruption("index entry without a kind");
  const auto kind = static_cast<storage::EntryKind>(rest[0]);
  rest.remove_prefix(1);
  clustering_.clear();
  const ColumnDef& column = table.column(index_.column);
  if (kind == storage::EntryKind::kStaticRow) {
    partition_match_ = true;
    Result<std::optional<RowFragment>> statics = view_.GetStaticRow(table_, partition_key_);
    if (!statics.ok()) return statics.status();
    row_ = statics.value() ? std::move(*statics.value()) : RowFragment{};
    if (column.kind == ColumnKind::kStatic) return CellHolds(row_, component);
    Result<bool> live = view_.IsPartitionLive(table_, partition_key_);
    if (!live.ok()) return live.status();
    return live.value();
  }
  if (kind != storage::EntryKind::kRow) return Status::Corruption("index entry of a bad kind");
  partition_match_ = false;
  CELLFS_RETURN_IF_ERROR(storage::DecodeClustering(table, rest, &clustering_));
  Result<std::optional<RowFragment>> row = view_.GetRow(table_, partition_key_, clustering_);
  if (!row.ok()) return row.status();
  if (!row.value()) return false;
  row_ = std::move(*row.value());
  if (column.kind == ColumnKind::kClustering) return true;
  return CellHolds(row_, component);
}

Result<std::unique_ptr<IndexIterator>> ReadView::NewIndexIterator(const TableHandle& table,
                                                                  size_t index,
                                                                  const IndexBounds& bounds) const {
  if (index >= table->indexes.size()) return Status::InvalidArgument("no such index");
  const IndexSchema& stored = table->indexes[index];
  if (!stored.built) {
    return Status::FailedPrecondition("The secondary index '" + table->def.indexes[index].name +
                                      "' is not yet available");
  }
  // The sweeper reclaims an index's entries only once its id has left the
  // schema: while the id is live, this view's (older) snapshot holds all
  // of them. A handle taken before a DROP INDEX can get here after it.
  if (!state_->core->CurrentSchema()->IsLiveId(stored.id)) {
    return Status::NotFound("The secondary index '" + table->def.indexes[index].name +
                            "' was dropped");
  }
  std::optional<std::string> lower;
  std::optional<std::string> upper;
  if (bounds.lower) {
    lower.emplace();
    CELLFS_RETURN_IF_ERROR(IndexComponentOf(*table, stored, *bounds.lower, &*lower));
  }
  if (bounds.upper) {
    upper.emplace();
    CELLFS_RETURN_IF_ERROR(IndexComponentOf(*table, stored, *bounds.upper, &*upper));
  }
  const bool equality =
      lower && upper && *lower == *upper && bounds.lower_inclusive && bounds.upper_inclusive;
  // A walk of the whole index (statistics) is allowed on any index.
  if (!equality && (lower || upper) && IsElementIndex(*table, stored)) {
    return Status::InvalidArgument("an index on collection elements answers equality only");
  }
  if (bounds.accept && stored.target == IndexTargetKind::kEntries) {
    return Status::InvalidArgument("an ENTRIES index takes no value test");
  }
  return std::unique_ptr<IndexIterator>(std::make_unique<IndexIteratorImpl>(
      state_, *this, table, stored, std::move(lower), bounds.lower_inclusive, std::move(upper),
      bounds.upper_inclusive, bounds.accept, fill_cache_));
}

}  // namespace cellfs
