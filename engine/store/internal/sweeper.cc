// The TTL sweeper: walks the expiry index up to now and folds what fell due,
// folds the rows reads found fragmented, and reclaims dropped tables' data in
// bounded batches. The contract is in sweeper.h.
#include "engine/store/internal/sweeper.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/store/cell.h"
#include "engine/store/internal/buried_reader.h"
#include "engine/store/internal/fragment_reader.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/internal/snapshot_store.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/row_fragment.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {
namespace {

constexpr size_t kGroupsPerBatch = 1000;               // folds per WriteBatch under a wide deletion
constexpr size_t kFoldsPerSweep = 1024;                // fold-queue groups taken per sweep
constexpr size_t kBuryPartitionsPerSweep = 64;         // bury-queue partitions taken per sweep
constexpr size_t kBuryRowsPerSweep = 200000;           // rows a sweep's bury passes read at most
constexpr size_t kCompactAfterBuried = 1000;           // rows buried in a partition: compact it
constexpr size_t kCompactAfterIndexEntries = 10000;    // index entries handled: compact the index
constexpr size_t kDroppedDeletesPerSweep = 10000;      // dropped-table entries deleted per sweep
constexpr int64_t kSnapshotEntryDeferSeconds = 86400;  // a kept table's due entries wait a day
constexpr size_t kHeadBytes = 1 + 4 + 8;               // 'D' || u32 table id || token
constexpr size_t kEntriesPerRenewal = 1000;            // index entries handled per lease renewal
constexpr int64_t kLeaseSlackMs = 10'000;              // a lease outlasts three sweeps by this
// The lease of the sweeper's work that is not per bucket (sweep steps 4, 5).
constexpr std::string_view kSweeperLease = "sweeper";

// Where a group (or, for a range deletion, its whole key) sits.
struct GroupParts {
  std::string_view partition_prefix;
  EntryKind kind = EntryKind::kRow;
  std::string_view rest;  // after the kind byte: a row's encoded clustering
};

Status ParseGroup(const TableSchema& table, std::string_view group, GroupParts* parts) {
  if (group.size() <= kHeadBytes) return Status::Corruption("sweeper: group too short");
  size_t key_length = 0;
  CELLFS_RETURN_IF_ERROR(
      PartitionKeyLength(table, group.substr(kHeadBytes), &key_length).WithContext("sweeper"));
  const size_t kind_at = kHeadBytes + key_length;
  if (kind_at >= group.size() ||
      static_cast<uint8_t>(group[kind_at]) > static_cast<uint8_t>(EntryKind::kRow)) {
    return Status::Corruption("sweeper: group without an entry kind");
  }
  parts->partition_prefix = group.substr(0, kind_at);
  parts->kind = static_cast<EntryKind>(group[kind_at]);
  parts->rest = group.substr(kind_at + 1);
  return Status::Ok();
}

// The key (inside a partition) of a group of `kind`; no clustering follows
// for the non-row kinds.
std::string GroupKey(EntryKind kind) {
  std::string key;
  AppendEntryKind(kind, &key);
  return key;
}

// True when `key` (inside a partition) is of `kind`.
bool IsKind(std::string_view key, EntryKind kind) {
  return !key.empty() && static_cast<uint8_t>(key[0]) == static_cast<uint8_t>(kind);
}

// True when `it` is at a fragment of exactly `group`.
bool AtGroup(const Cursor& it, std::string_view group) {
  if (!it.Valid()) return false;
  const std::string_view key = it.key();
  return key.size() == group.size() + kSequenceBytes && key.starts_with(group);
}

// The static row's fragments, as ReadPartitionHeader (with keys) found them.
FragmentGroup StaticGroup(PartitionHeader* header) {
  FragmentGroup statics;
  statics.group = GroupKey(EntryKind::kStaticRow);
  statics.merged = std::move(header->static_row);
  for (const std::string& key : header->keys) {
    if (IsKind(key, EntryKind::kStaticRow)) statics.keys.push_back(key);
  }
  statics.fragments = statics.keys.size();
  return statics;
}

// Drops what a partition or range deletion shadows from a row, so that the
// row no longer depends on it: once the deletion is purged, nothing it
// shadowed can surface. The deletion itself stays with its partition.
void DropShadowed(const std::optional<RowDeletion>& inherited, RowFragment* row) {
  if (!inherited) return;
  if (row->deletion && Shadows(*inherited, row->deletion->write_time)) row->deletion.reset();
  if (row->marker && Shadows(*inherited, row->marker->write_time)) row->marker.reset();
  std::erase_if(row->cells,
                [&](const RowCell& c) { return Shadows(*inherited, c.cell.write_time); });
}

void DropDroppedColumns(const TableSchema& table, RowFragment* row) {
  std::erase_if(row->cells,
                [&](const RowCell& c) { return !table.ColumnIndexById(c.column_id).has_value(); });
}

uint32_t GcGrace(const TableSchema& table) {
  return static_cast<uint32_t>(std::clamp<int64_t>(table.def.options.gc_grace_seconds, 0,
                                                   std::numeric_limits<uint32_t>::max()));
}

// One sweep's state and steps. Every fold reads through a cursor made for
// it, so it sees the folds written before it; each replaces exactly the keys
// it read, so concurrent writers' new fragments are never lost or merged
// twice.
class Sweep {
 public:
  Sweep(EngineCore* core, int64_t now, SweepStats* stats)
      : core_(core), now_(now), now_s_(FloorSeconds(now)), stats_(stats) {}

  // A step that fails on bad bytes leaves the others to run (one corrupt
  // entry must not stop all reclaiming); a storage failure ends the sweep.
  Status Run() {
    Status first;
    for (Status (Sweep::*step)() : {&Sweep::SweepIndex, &Sweep::FoldQueued, &Sweep::BuryQueued,
                                    &Sweep::ForgetPastBuckets, &Sweep::ReclaimDroppedTables}) {
      // The index is swept a bucket at a time under each bucket's lease
      // (WalkByBucket), and the queues hold what this process's reads
      // found; what is left is one mount's work at a time, under the
      // "sweeper" lease (always held on a store only this process writes).
      if (step == &Sweep::ForgetPastBuckets &&
          !core_->storage->lease().Acquire(kSweeperLease, LeaseHoldMs())) {
        break;
      }
      Status status = (this->*step)();
      if (step == &Sweep::SweepIndex && stats_->index_entries >= kCompactAfterIndexEntries &&
          core_->expiry.layout() == ExpiryIndex::Layout::kByDue) {
        // Every handled entry was deleted: without a compaction each later
        // sweep's walk from the index's start steps over all of their
        // deletion markers (a mass expiry of 100,000 rows left the idle
        // daemon using 2% of a core).
        const std::string space(1, kExpiryTag);
        core_->storage->CompactShard({space, {}});
      }
      if (status.code() == StatusCode::kIOError) return status;
      if (!status.ok() && first.ok()) first = status;
    }
    return first;
  }

 private:
  Status SweepIndex();
  // The entries due by now: one walk of the index from its start (by due
  // second), or each live table's buckets up to now's (by table and bucket).
  Status WalkByDue();
  Status WalkByBucket();
  // Handles the entries of `shard` of the index's `space` from where
  // `entries` stands, in due order, up to the first due after now (then
  // *later is set). `lease`, when not empty, is renewed every
  // kEntriesPerRenewal entries, and the walk stops when it is lost. A bad
  // entry's error goes to *first and the walk goes on; IOError ends it.
  Status HandleDue(std::string_view space, std::string_view shard, const std::string& lease,
                   Cursor* entries, bool* later, Status* first);
  // Forgets the buckets past by a whole bucket that were swept empty
  // (ExpiryIndex::PastBucketsToForget says when), and retires their leases.
  Status ForgetPastBuckets();
  // Retires the leases of table `table_id`'s expiry buckets `shards`.
  void RetireBucketLeases(uint32_t table_id, const std::vector<std::string>& shards) {
    for (const std::string& shard : shards) {
      int64_t bucket = 0;
      if (ExpiryIndex::ParseBucketShard(shard, &bucket)) {
        core_->storage->lease().Retire(ExpiryIndex::LeaseName(table_id, bucket));
      }
    }
  }
  // The ids of the tables whose data the sweeper walks: the live tables, not
  // the views.
  std::vector<uint32_t> SweptTables() const;
  // How long a lease the sweeper takes is held: three sweeps and a margin.
  int64_t LeaseHoldMs() const {
    return int64_t{std::max(core_->options.sweep_interval_ms, 1)} * 3 + kLeaseSlackMs;
  }
  Status HandleEntry(std::string_view index_key, std::string_view group);
  // `batched`: into pending_ (the index walk's folds), else committed alone.
  Status FoldOne(std::string_view group, const GroupParts& parts, std::string_view index_key,
                 bool batched);
  // Makes pending_ ready to take a fold of `group` of table `table_id`:
  // commits it first when it holds another table's folds, a fold of the
  // same group (which must see it) or kGroupsPerBatch folds.
  Status PrepareFold(uint32_t table_id, std::string_view group);
  // Commits pending_ (a removal run begun meanwhile refuses it: its
  // entries wait for a later sweep).
  Status FlushPending();
  // A row's fold for the index walk, into pending_, read through pending_'s
  // cursors (FoldOne makes two cursors a row).
  Status FoldRowBatched(std::string_view group, const GroupParts& parts,
                        std::string_view index_key);
  // Moves `shards` to `shard`; *entries is its entries there, or nullptr
  // when the space has no such shard.
  static Status PositionShard(ShardCursor* shards, std::string_view shard, Cursor** entries);
  Status SweepPartitionDeletion(std::string_view group, const GroupParts& parts,
                                std::string_view index_key);
  Status SweepRangeDeletion(std::string_view key, const GroupParts& parts,
                            std::string_view index_key);
  Status Reindex(std::string_view index_key, int64_t due, std::string_view group);
  Status DropIndexEntry(std::string_view index_key);
  Status FoldRows(const TableSchema& table, const PartitionHeader& header, std::string_view prefix,
                  const RangeDeletion* range, Cursor* it, Batch* batch);
  Status Replace(const TableSchema& table, std::string_view prefix, FragmentGroup&& group,
                 const std::optional<RowDeletion>& inherited, bool index_unchanged, Batch* batch);
  void Index(const TableSchema& table, const RowFragment& row, std::string_view group,
             Batch* batch);
  Status FoldQueued();
  Status BuryQueued();
  Status BuryPartition(std::string_view prefix, size_t* budget);
  Status ReclaimDroppedTables();
  Status DeferSnapshotEntry(std::string_view index_key, std::string_view group);
  bool KeptBySnapshot(std::string_view group);
  Status ReclaimTable(std::string_view dropped_key, uint32_t table_id, size_t* budget);
  // Deletes up to `*budget` entries of a dropped id's `space`; *empty when
  // none is left.
  Status DeleteSpace(const std::string& space, size_t* budget, bool* empty);

  // The table a key belongs to, from the schema as of now. Looked up after
  // the fold's cursor is made: a column added before a write the cursor
  // sees is then known, so its cells are never taken for a dropped column's.
  TableHandle FindTable(std::string_view key) const {
    uint32_t table_id = 0;
    if (!ParseTableId(key, &table_id)) return nullptr;
    return core_->CurrentSchema()->FindTableById(table_id);
  }

  // A cursor over the partition at `prefix`, at its first entry, reading
  // the latest state.
  std::unique_ptr<Cursor> OpenPartition(std::string_view prefix) const {
    std::unique_ptr<Cursor> it = core_->storage->NewCursor(nullptr, PartitionShard(prefix));
    it->SeekToFirst();
    return it;
  }

  // The buried rows of the partition at `prefix` (buried_reader.h), read
  // at the latest state as OpenPartition's cursor.
  BuriedReader OpenBuried(uint32_t table_id, std::string_view prefix) const {
    return BuriedReader(core_->storage.get(), nullptr, table_id, prefix,
                        core_->buried_tables.MayHave(table_id, core_->storage.get()),
                        /*fill_cache=*/false);
  }

  std::unique_ptr<Batch> NewBatch() const { return core_->storage->NewBatch(); }

  // The sweeper's writes are never acknowledged to anyone: the commit
  // policy's periodic sync covers them, and a lost one is redone.
  Status Write(Batch* batch) {
    CELLFS_RETURN_IF_ERROR(core_->write_fence.Check());
    return core_->write_fence.Record(core_->storage->Commit(batch, Durability::kNone));
  }

  // A rewrite of table `table_id`'s data: Aborted, unwritten, while a
  // removal run is open in the table (removal_runs.h), so a snapshot taken
  // during the run still finds the entries it is kept as of.
  Status WriteData(Batch* batch, uint32_t table_id) {
    return core_->removal_runs->CommitUnlessOpen(table_id, core_->clock->NowMicros(),
                                                 [&] { return Write(batch); });
  }

  // True when the table has a removal run open: its entries wait for the
  // next sweep.
  bool InRemovalRun(uint32_t table_id) const {
    return core_->removal_runs->Open(table_id, core_->clock->NowMicros()).has_value();
  }

  // The index walk's folds, one commit per table and kGroupsPerBatch
  // groups rather than one a group.
  struct PendingFolds {
    std::unique_ptr<Batch> batch;
    uint32_t table_id = 0;
    size_t folds = 0;
    std::set<std::string, std::less<>> groups;
    // Cursors over table cursor_table's data and buried spaces, made after
    // the last commit (so at a state holding every fold before them) and
    // dropped at the next; the partition head the data cursor last read.
    uint32_t cursor_table = 0;
    std::string data_space, buried_space;
    std::unique_ptr<ShardCursor> data, buried;
    std::string header_shard;
    PartitionHeader header;

    void DropCursors() {
      data.reset();
      buried.reset();
      header_shard.clear();
    }
  };

  EngineCore* const core_;
  PendingFolds pending_;
  const int64_t now_;
  const int64_t now_s_;
  SweepStats* const stats_;
  std::optional<std::set<uint32_t>> snapshot_ids_;  // KeptBySnapshot's, read once
};

Status Sweep::SweepIndex() {
  Status walked =
      core_->expiry.layout() == ExpiryIndex::Layout::kByDue ? WalkByDue() : WalkByBucket();
  Status flushed = FlushPending();
  return walked.ok() ? flushed : walked;
}

Status Sweep::PrepareFold(uint32_t table_id, std::string_view group) {
  if (pending_.folds > 0 && (pending_.table_id != table_id || pending_.groups.contains(group) ||
                             pending_.folds >= kGroupsPerBatch)) {
    CELLFS_RETURN_IF_ERROR(FlushPending());
  }
  if (pending_.batch == nullptr) pending_.batch = NewBatch();
  pending_.table_id = table_id;
  pending_.groups.emplace(group);
  ++pending_.folds;
  return Status::Ok();
}

Status Sweep::FlushPending() {
  if (pending_.folds == 0) return Status::Ok();
  Status written = WriteData(pending_.batch.get(), pending_.table_id);
  pending_.batch->Clear();
  pending_.folds = 0;
  pending_.groups.clear();
  pending_.DropCursors();
  if (written.code() == StatusCode::kAborted) return Status::Ok();
  return written;
}

Status Sweep::WalkByDue() {
  // A cursor made with no read point reads the state of its creation (LevelDB:
  // an implicit snapshot), so this walk never meets the entries the sweep
  // itself adds (all due after now) and ends; entries users add meanwhile
  // wait for the next sweep. Reading the entries at the latest state would
  // gain nothing: each is handled by re-reading its data, so one already
  // made stale is only a cheap no-op.
  const std::string space(1, kExpiryTag);
  auto due_bytes = [](std::string_view shard_and_key, size_t* length) {
    if (shard_and_key.size() < kDueBytes)
      return Status::Corruption("sweeper: bad expiry index key");
    *length = kDueBytes;
    return Status::Ok();
  };
  std::unique_ptr<ShardCursor> seconds = core_->storage->NewShardCursor(nullptr, space, due_bytes);
  Status first;
  for (seconds->Seek({}); seconds->Valid(); seconds->Next()) {
    bool later = false;
    CELLFS_RETURN_IF_ERROR(
        HandleDue(space, seconds->shard(), {}, &seconds->entries(), &later, &first));
    if (later) return first;
  }
  CELLFS_RETURN_IF_ERROR(seconds->status());
  return first;
}

Status Sweep::WalkByBucket() {
  auto bucket_bytes = [](std::string_view shard_and_key, size_t* length) {
    if (shard_and_key.size() < ExpiryIndex::BucketShard(0).size())
      return Status::Corruption("sweeper: bad expiry index key");
    *length = ExpiryIndex::BucketShard(0).size();
    return Status::Ok();
  };
  // Buckets after now's hold nothing due (an entry goes into the bucket of
  // its due second, or of its writer's now when that is later).
  const std::string end = ExpiryIndex::BucketShard(ExpiryIndex::Bucket(now_s_) + 1);
  Status first;
  std::string key;
  for (uint32_t table_id : SweptTables()) {
    const std::string space = ExpiryIndex::TableSpace(table_id);
    std::unique_ptr<ShardCursor> buckets =
        core_->storage->NewShardCursor(nullptr, space, bucket_bytes, {/*fill_cache=*/false});
    buckets->SetUpperBound(end);
    for (buckets->Seek({}); buckets->Valid(); buckets->Next()) {
      Cursor& entries = buckets->entries();
      key.assign(space);
      key.append(buckets->shard());
      key.append(entries.key());
      int64_t due = 0;
      int64_t bucket = 0;
      std::string_view group;
      // Nothing due yet in the bucket: no lease to take.
      if (core_->expiry.Parse(key, &due, &group) && due > now_s_) continue;
      if (!ExpiryIndex::ParseBucketShard(buckets->shard(), &bucket)) continue;
      const std::string lease = ExpiryIndex::LeaseName(table_id, bucket);
      if (!core_->storage->lease().Acquire(lease, LeaseHoldMs())) continue;  // another mount's
      bool later = false;
      Status walked = HandleDue(space, buckets->shard(), lease, &entries, &later, &first);
      // Each bucket's folds are committed while its lease is surely held.
      Status flushed = FlushPending();
      CELLFS_RETURN_IF_ERROR(walked);
      if (flushed.code() == StatusCode::kIOError) return flushed;
      if (!flushed.ok() && first.ok()) first = flushed;
    }
    CELLFS_RETURN_IF_ERROR(buckets->status());
  }
  return first;
}

Status Sweep::HandleDue(std::string_view space, std::string_view shard, const std::string& lease,
                        Cursor* entries, bool* later, Status* first) {
  std::string key;
  size_t handled = 0;
  for (; entries->Valid(); entries->Next()) {
    key.assign(space);
    key.append(shard);
    key.append(entries->key());
    int64_t due = 0;
    std::string_view group;
    Status status;
    if (!core_->expiry.Parse(key, &due, &group)) {
      status = Status::Corruption("sweeper: bad expiry index key");
    } else if (due > now_s_) {
      *later = true;
      return Status::Ok();
    } else {
      if (!lease.empty() && ++handled % kEntriesPerRenewal == 0 &&
          !core_->storage->lease().Acquire(lease, LeaseHoldMs())) {
        return Status::Ok();  // lapsed and taken: its new holder goes on
      }
      ++stats_->index_entries;
      status = HandleEntry(key, group);
      // A removal run began in the table meanwhile: nothing was written,
      // and the entry waits for a later sweep.
      if (status.code() == StatusCode::kAborted) status = Status::Ok();
    }
    if (status.code() == StatusCode::kIOError) return status;
    if (!status.ok() && first->ok()) *first = status;
  }
  return entries->status();
}

Status Sweep::ForgetPastBuckets() {
  if (core_->expiry.layout() != ExpiryIndex::Layout::kByTableAndBucket ||
      !core_->expiry.PastBucketsToForget(now_s_)) {
    return Status::Ok();
  }
  const std::string end = ExpiryIndex::BucketShard(ExpiryIndex::Bucket(now_s_) - 1);
  for (uint32_t table_id : SweptTables()) {
    std::vector<std::string> forgotten;
    const Status status = core_->storage->ForgetEmptyShards(ExpiryIndex::TableSpace(table_id), end,
                                                            /*budget=*/nullptr, &forgotten);
    RetireBucketLeases(table_id, forgotten);
    if (!status.ok()) {
      core_->expiry.ForgetFailed();  // tried again at the next sweep
      return status;
    }
  }
  return Status::Ok();
}

std::vector<uint32_t> Sweep::SweptTables() const {
  const std::shared_ptr<const SchemaState> schema = core_->CurrentSchema();
  std::vector<uint32_t> ids;
  for (const auto& [name, table_ids] : schema->ids()) {
    const TableHandle table = schema->FindTableById(table_ids.table_id);
    if (table != nullptr && !table->view) ids.push_back(table_ids.table_id);
  }
  return ids;
}

// Deletes the processed index entry alone: its group's data is gone.
Status Sweep::DropIndexEntry(std::string_view index_key) {
  std::unique_ptr<Batch> batch = NewBatch();
  batch->Delete(core_->expiry.AddressOf(index_key));
  return Write(batch.get());
}

// A due entry of a table a snapshot keeps: filed again a day later, so a
// restored table's cells and deletions are still swept (a cleared
// snapshot's entries then go as any unknown table's).
Status Sweep::DeferSnapshotEntry(std::string_view index_key, std::string_view group) {
  std::string deferred;
  core_->expiry.AppendKey(now_s_ + kSnapshotEntryDeferSeconds, group, now_s_, &deferred);
  std::unique_ptr<Batch> batch = NewBatch();
  batch->Delete(core_->expiry.AddressOf(index_key));
  batch->Put(core_->expiry.AddressOf(deferred), {});
  return Write(batch.get());
}

bool Sweep::KeptBySnapshot(std::string_view group) {
  uint32_t table_id = 0;
  if (!ParseTableId(group, &table_id)) return false;
  if (!snapshot_ids_) {  // read once a sweep, when first needed
    snapshot_ids_.emplace();
    if (!SnapshotTableIds(core_->storage.get(), &*snapshot_ids_).ok()) snapshot_ids_->clear();
  }
  return snapshot_ids_->count(table_id) != 0;
}

Status Sweep::HandleEntry(std::string_view index_key, std::string_view group) {
  const TableHandle table = FindTable(group);
  if (table == nullptr) {
    if (KeptBySnapshot(group)) return DeferSnapshotEntry(index_key, group);
    return DropIndexEntry(index_key);  // its data goes with the table
  }
  if (InRemovalRun(table->id)) return Status::Ok();  // the entry stays for a later sweep
  GroupParts parts;
  CELLFS_RETURN_IF_ERROR(ParseGroup(*table, group, &parts));
  switch (parts.kind) {
    case EntryKind::kPartitionDeletion:
      // These read and rewrite whole partitions: after the pending folds.
      CELLFS_RETURN_IF_ERROR(FlushPending());
      return SweepPartitionDeletion(group, parts, index_key);
    case EntryKind::kRangeDeletion:
      CELLFS_RETURN_IF_ERROR(FlushPending());
      return SweepRangeDeletion(group, parts, index_key);
    case EntryKind::kRow:
      return FoldRowBatched(group, parts, index_key);
    case EntryKind::kStaticRow:
      break;
  }
  return FoldOne(group, parts, index_key, /*batched=*/true);
}

Status Sweep::PositionShard(ShardCursor* shards, std::string_view shard, Cursor** entries) {
  *entries = nullptr;
  if (!shards->Valid() || shards->shard() != shard) shards->Seek(shard);
  if (!shards->Valid()) return shards->status();
  if (shards->shard() == shard) *entries = &shards->entries();
  return Status::Ok();
}

Status Sweep::FoldRowBatched(std::string_view group, const GroupParts& parts,
                             std::string_view index_key) {
  uint32_t table_id = 0;
  if (!ParseTableId(group, &table_id)) return Status::Corruption("sweeper: not a data group");
  CELLFS_RETURN_IF_ERROR(PrepareFold(table_id, group));
  Batch* batch = pending_.batch.get();
  if (pending_.data != nullptr && pending_.cursor_table != table_id) pending_.DropCursors();
  if (pending_.data == nullptr) {
    // Partition keys never change, so any schema of the table splits shards.
    const TableHandle splits = FindTable(group);
    if (splits == nullptr) return Status::Ok();  // dropped meanwhile: HandleEntry's next time
    ShardSplitter split = [splits](std::string_view shard_and_key, size_t* length) {
      return PartitionShardLength(*splits, shard_and_key, length);
    };
    pending_.cursor_table = table_id;
    pending_.data_space.clear();
    AppendTablePrefix(table_id, &pending_.data_space);
    pending_.buried_space.clear();
    AppendBuriedPrefix(table_id, &pending_.buried_space);
    pending_.data =
        core_->storage->NewShardCursor(nullptr, pending_.data_space, split, {/*fill_cache=*/false});
    if (core_->buried_tables.MayHave(table_id, core_->storage.get())) {
      pending_.buried = core_->storage->NewShardCursor(nullptr, pending_.buried_space, split,
                                                       {/*fill_cache=*/false});
    }
  }
  // After the cursors (see FindTable).
  const TableHandle table = FindTable(group);
  batch->Delete(core_->expiry.AddressOf(index_key));
  if (table == nullptr) return Status::Ok();

  const std::string_view prefix = parts.partition_prefix;
  const std::string_view shard = prefix.substr(kTablePrefixBytes);
  const std::string_view in_partition = group.substr(prefix.size());
  FragmentGroup row;
  row.group.assign(in_partition);
  std::optional<RowDeletion> inherited;
  Cursor* entries = nullptr;
  CELLFS_RETURN_IF_ERROR(PositionShard(pending_.data.get(), shard, &entries));
  if (entries != nullptr) {
    if (pending_.header_shard != shard) {
      entries->SeekToFirst();
      CELLFS_RETURN_IF_ERROR(ReadPartitionHeader(entries, /*keep_keys=*/false, &pending_.header));
      stats_->entries_read += pending_.header.entries;
      pending_.header_shard.assign(shard);
    }
    entries->Seek(in_partition);
    if (AtGroup(*entries, in_partition)) {
      CELLFS_RETURN_IF_ERROR(ReadGroupForward(entries, /*keep_keys=*/true, &row));
    }
    CELLFS_RETURN_IF_ERROR(entries->status());
    inherited = InheritedDeletion(pending_.header, parts.rest);
  }
  if (pending_.buried != nullptr) {
    Cursor* buried_entries = nullptr;
    CELLFS_RETURN_IF_ERROR(PositionShard(pending_.buried.get(), shard, &buried_entries));
    BuriedReader buried(buried_entries);
    CELLFS_RETURN_IF_ERROR(buried.MergeInto(/*keep_keys=*/true, &row));
  }
  stats_->entries_read += row.fragments;
  if (row.fragments > 0) {
    CELLFS_RETURN_IF_ERROR(
        Replace(*table, prefix, std::move(row), inherited, /*index_unchanged=*/true, batch));
  }
  return pending_.folds >= kGroupsPerBatch ? FlushPending() : Status::Ok();
}

// Folds one row or static row; `index_key`, when not empty, is the
// processed entry, deleted in the same batch.
Status Sweep::FoldOne(std::string_view group, const GroupParts& parts, std::string_view index_key,
                      bool batched) {
  const std::string_view prefix = parts.partition_prefix;
  std::unique_ptr<Batch> own;
  Batch* batch = nullptr;
  if (batched) {
    // Before the cursor: one made after a commit of this group's earlier
    // fold sees it.
    uint32_t table_id = 0;
    if (!ParseTableId(group, &table_id)) return Status::Corruption("sweeper: not a data group");
    CELLFS_RETURN_IF_ERROR(PrepareFold(table_id, group));
    batch = pending_.batch.get();
  } else {
    own = NewBatch();
    batch = own.get();
  }
  // Commits what the fold added: alone, or with the pending folds.
  const auto finish = [&](uint32_t table_id) {
    if (!batched) return WriteData(batch, table_id);
    return pending_.folds >= kGroupsPerBatch ? FlushPending() : Status::Ok();
  };
  std::unique_ptr<Cursor> it = OpenPartition(prefix);
  const TableHandle table = FindTable(group);
  if (!index_key.empty()) batch->Delete(core_->expiry.AddressOf(index_key));
  if (table == nullptr) return batched ? Status::Ok() : Write(batch);

  const bool is_static = parts.kind == EntryKind::kStaticRow;
  PartitionHeader header;
  CELLFS_RETURN_IF_ERROR(ReadPartitionHeader(it.get(), /*keep_keys=*/is_static, &header));
  stats_->entries_read += header.entries;
  if (is_static) {
    FragmentGroup statics = StaticGroup(&header);
    if (statics.fragments > 0) {
      CELLFS_RETURN_IF_ERROR(Replace(*table, prefix, std::move(statics), header.deletion,
                                     /*index_unchanged=*/true, batch));
    }
    return finish(table->id);
  }
  const std::string_view in_partition = group.substr(prefix.size());
  it->Seek(in_partition);
  FragmentGroup row;
  if (AtGroup(*it, in_partition)) {
    CELLFS_RETURN_IF_ERROR(ReadGroupForward(it.get(), /*keep_keys=*/true, &row));
  } else {
    row.group.assign(in_partition);
  }
  CELLFS_RETURN_IF_ERROR(it->status());
  // A buried row is swept where it lies (its tombstones purged in time).
  BuriedReader buried = OpenBuried(table->id, prefix);
  CELLFS_RETURN_IF_ERROR(buried.MergeInto(/*keep_keys=*/true, &row));
  stats_->entries_read += row.fragments;
  if (row.fragments > 0) {
    CELLFS_RETURN_IF_ERROR(Replace(*table, prefix, std::move(row),
                                   InheritedDeletion(header, parts.rest),
                                   /*index_unchanged=*/true, batch));
  }
  return finish(table->id);
}

// Replaces the processed entry by one at `due`: the table's gc_grace_seconds
// was raised since the deletion was indexed.
Status Sweep::Reindex(std::string_view index_key, int64_t due, std::string_view group) {
  std::unique_ptr<Batch> batch = NewBatch();
  batch->Delete(core_->expiry.AddressOf(index_key));
  std::string key;
  core_->expiry.AppendKey(due, group, now_s_, &key);
  batch->Put(core_->expiry.AddressOf(key), {});
  return Write(batch.get());
}

Status Sweep::SweepPartitionDeletion(std::string_view group, const GroupParts& parts,
                                     std::string_view index_key) {
  const std::string_view prefix = parts.partition_prefix;
  std::unique_ptr<Cursor> it = OpenPartition(prefix);
  const TableHandle table = FindTable(group);
  if (table == nullptr) return DropIndexEntry(index_key);
  std::unique_ptr<Batch> batch = NewBatch();
  PartitionHeader header;
  CELLFS_RETURN_IF_ERROR(ReadPartitionHeader(it.get(), /*keep_keys=*/true, &header));
  stats_->entries_read += header.entries;
  if (header.deletion) {
    const int64_t due = header.deletion->local_deletion_time + GcGrace(*table);
    if (due > now_s_) return Reindex(index_key, due, group);
    // What the deletion shadows goes first, so that nothing it shadowed
    // survives it. Its index entry goes last: a sweep cut short starts over.
    FragmentGroup statics = StaticGroup(&header);
    if (statics.fragments > 0) {
      CELLFS_RETURN_IF_ERROR(Replace(*table, prefix, std::move(statics), header.deletion,
                                     /*index_unchanged=*/false, batch.get()));
    }
    CELLFS_RETURN_IF_ERROR(
        FoldRows(*table, header, prefix, /*range=*/nullptr, it.get(), batch.get()));
    const ShardAddress shard = PartitionShard(prefix);
    for (const std::string& key : header.keys) {
      if (!IsKind(key, EntryKind::kPartitionDeletion)) continue;
      batch->Delete({shard.space, shard.shard, key});
      ++stats_->entries_deleted;
    }
  }
  batch->Delete(core_->expiry.AddressOf(index_key));
  return WriteData(batch.get(), table->id);
}

Status Sweep::SweepRangeDeletion(std::string_view key, const GroupParts& parts,
                                 std::string_view index_key) {
  const std::string_view prefix = parts.partition_prefix;
  const std::string_view in_partition = key.substr(prefix.size());
  std::unique_ptr<Cursor> it = OpenPartition(prefix);
  const TableHandle table = FindTable(key);
  it->Seek(in_partition);
  if (table == nullptr || !it->Valid() || it->key() != in_partition) {  // gone already
    CELLFS_RETURN_IF_ERROR(it->status());
    return DropIndexEntry(index_key);
  }
  RangeDeletion range;
  CELLFS_RETURN_IF_ERROR(DecodeRangeDeletion(it->value(), &range).WithContext("sweeper"));
  const int64_t due = range.deletion.local_deletion_time + GcGrace(*table);
  if (due > now_s_) return Reindex(index_key, due, key);

  std::unique_ptr<Batch> batch = NewBatch();
  PartitionHeader header;
  it->SeekToFirst();
  CELLFS_RETURN_IF_ERROR(ReadPartitionHeader(it.get(), /*keep_keys=*/false, &header));
  stats_->entries_read += header.entries;
  CELLFS_RETURN_IF_ERROR(FoldRows(*table, header, prefix, &range, it.get(), batch.get()));
  batch->Delete(DataAddress(key, prefix.size()));
  ++stats_->entries_deleted;
  batch->Delete(core_->expiry.AddressOf(index_key));
  return WriteData(batch.get(), table->id);
}

// Folds every row of the partition at `prefix` (those `range` covers, when
// given) with the deletions of `header`, writing `*batch` every
// kGroupsPerBatch rows; the rest stays in `*batch` for the caller.
Status Sweep::FoldRows(const TableSchema& table, const PartitionHeader& header,
                       std::string_view prefix, const RangeDeletion* range, Cursor* it,
                       Batch* batch) {
  const std::string rows = GroupKey(EntryKind::kRow);
  it->Seek(rows + (range != nullptr ? range->start : std::string()));
  size_t in_batch = 0;
  while (it->Valid()) {
    const std::string_view key = it->key();
    if (!key.starts_with(rows)) break;
    if (key.size() < rows.size() + kSequenceBytes) {
      return Status::Corruption("sweeper: data key too short for a row");
    }
    const std::string clustering(
        key.substr(rows.size(), key.size() - rows.size() - kSequenceBytes));
    if (range != nullptr && std::string_view(clustering) >= std::string_view(range->end)) break;
    FragmentGroup row;
    CELLFS_RETURN_IF_ERROR(ReadGroupForward(it, /*keep_keys=*/true, &row));
    stats_->entries_read += row.fragments;
    if (range != nullptr && !Covers(*range, clustering)) continue;
    CELLFS_RETURN_IF_ERROR(Replace(table, prefix, std::move(row),
                                   InheritedDeletion(header, clustering),
                                   /*index_unchanged=*/false, batch));
    if (++in_batch == kGroupsPerBatch) {
      CELLFS_RETURN_IF_ERROR(WriteData(batch, table.id));
      batch->Clear();
      in_batch = 0;
    }
  }
  return it->status();
}

// Adds to `*batch` what replaces the fragments of `group` (read with their
// keys, data and buried, in the partition at `prefix`): nothing when it is
// one fragment that the purge leaves as it is, in the space it belongs in
// (then only, when `index_unchanged`, its expiry entry); else the deletion
// of every key read and, unless nothing is left, the purged merge under a
// new sequence with its expiry entry: in the data space when anything in
// it is live at the sweep's time, else buried (rows of kRow only: static
// rows stay with their partition's head).
Status Sweep::Replace(const TableSchema& table, std::string_view prefix, FragmentGroup&& group,
                      const std::optional<RowDeletion>& inherited, bool index_unchanged,
                      Batch* batch) {
  const ShardAddress shard = PartitionShard(prefix);
  std::string buried_space;
  AppendBuriedPrefix(table.id, &buried_space);
  const ShardAddress buried_shard = BuriedShard(buried_space, prefix);
  const std::string full_group = std::string(prefix) + group.group;
  RowFragment row = std::move(group.merged);
  std::optional<RowFragment> before;
  if (group.fragments == 1) before = row;
  DropShadowed(inherited, &row);
  DropDroppedColumns(table, &row);
  PurgeRowFragment(&row, now_, GcGrace(table));
  // A bury writes two spaces in one batch and reads merge them: only on a
  // backend that commits and reads across shards as one (LevelDB).
  const StorageCapabilities can = core_->storage->capabilities();
  const bool bury = can.atomic_across_shards && can.consistent_across_shards &&
                    IsKind(group.group, EntryKind::kRow) && !IsRowLive(row, now_);
  const bool was_buried = group.keys.empty();
  if (before && row == *before && bury == was_buried) {
    if (index_unchanged) Index(table, row, full_group, batch);
    return Status::Ok();
  }
  for (const std::string& key : group.keys) batch->Delete({shard.space, shard.shard, key});
  for (const std::string& key : group.buried_keys) {
    batch->Delete({buried_shard.space, buried_shard.shard, key});
  }
  stats_->entries_deleted += group.keys.size() + group.buried_keys.size();
  if (row.empty()) {
    ++stats_->rows_removed;
    return Status::Ok();
  }
  uint64_t sequence = 0;
  CELLFS_RETURN_IF_ERROR(core_->sequences.Next(&sequence));
  std::string key = group.group;
  AppendSequence(sequence, &key);
  std::string value;
  EncodeRowFragment(row, &value);
  if (bury) {
    // Announced before the commit: a reader whose read point follows it
    // merges buried rows in.
    core_->buried_tables.WillBury(table.id);
    batch->Put({buried_shard.space, buried_shard.shard, key}, value);
    ++stats_->rows_buried;
  } else {
    batch->Put({shard.space, shard.shard, key}, value);
    ++stats_->rows_rewritten;
  }
  Index(table, row, full_group, batch);
  return Status::Ok();
}

void Sweep::Index(const TableSchema& table, const RowFragment& row, std::string_view group,
                  Batch* batch) {
  const std::optional<int64_t> due = NextSweepSecond(row, GcGrace(table));
  if (!due) return;
  // Purged at now, the row holds nothing due before the next second; an
  // entry in the past would bring the row back at every sweep.
  std::string key;
  core_->expiry.AppendKey(std::max(*due, now_s_ + 1), group, now_s_, &key);
  batch->Put(core_->expiry.AddressOf(key), {});
}

Status Sweep::FoldQueued() {
  Status first;
  for (const std::string& group : core_->fold_queue.Take(kFoldsPerSweep)) {
    const TableHandle table = FindTable(group);
    if (table == nullptr || InRemovalRun(table->id)) continue;  // a later read queues it again
    GroupParts parts;
    Status status = ParseGroup(*table, group, &parts);
    if (status.ok() && (parts.kind == EntryKind::kRow || parts.kind == EntryKind::kStaticRow)) {
      status = FoldOne(group, parts, /*index_key=*/{}, /*batched=*/false);
    }
    if (status.code() == StatusCode::kAborted) continue;  // a removal run began meanwhile
    if (status.code() == StatusCode::kIOError) return status;
    if (!status.ok() && first.ok()) first = status;
  }
  return first;
}

Status Sweep::BuryQueued() {
  const StorageCapabilities can = core_->storage->capabilities();
  if (!can.atomic_across_shards || !can.consistent_across_shards) {
    core_->bury_queue.Take(FoldQueue::kCapacity);  // Replace would bury nothing
    return Status::Ok();
  }
  Status first;
  size_t budget = kBuryRowsPerSweep;
  for (const std::string& prefix : core_->bury_queue.Take(kBuryPartitionsPerSweep)) {
    if (budget == 0) {
      core_->bury_queue.Add(prefix);  // the next sweep's
      continue;
    }
    Status status = BuryPartition(prefix, &budget);
    if (status.code() == StatusCode::kAborted) continue;  // a removal run began meanwhile
    if (status.code() == StatusCode::kIOError) return status;
    if (!status.ok() && first.ok()) first = status;
  }
  return first;
}

// Buries the dead rows of the partition at `prefix` that lie in the data
// space, reading at most `*budget` rows (then queueing the partition again:
// the next pass starts over, past what this one buried).
Status Sweep::BuryPartition(std::string_view prefix, size_t* budget) {
  const std::unique_ptr<Cursor> it = OpenPartition(prefix);
  const TableHandle table = FindTable(prefix);
  if (table == nullptr || InRemovalRun(table->id)) return Status::Ok();
  PartitionHeader header;
  CELLFS_RETURN_IF_ERROR(ReadPartitionHeader(it.get(), /*keep_keys=*/false, &header));
  stats_->entries_read += header.entries;
  BuriedReader buried = OpenBuried(table->id, prefix);
  const std::string rows = GroupKey(EntryKind::kRow);
  std::unique_ptr<Batch> batch = NewBatch();
  size_t in_batch = 0;
  const uint64_t buried_before = stats_->rows_buried + stats_->rows_removed;
  while (it->Valid() && it->key().starts_with(rows)) {
    if (*budget == 0) {
      core_->bury_queue.Add(prefix);
      break;
    }
    --*budget;
    FragmentGroup row;
    CELLFS_RETURN_IF_ERROR(ReadGroupForward(it.get(), /*keep_keys=*/true, &row));
    CELLFS_RETURN_IF_ERROR(buried.MergeInto(/*keep_keys=*/true, &row));
    stats_->entries_read += row.fragments;
    const std::string_view clustering = std::string_view(row.group).substr(rows.size());
    const std::optional<RowDeletion> inherited = InheritedDeletion(header, clustering);
    RowFragment live = row.merged;
    bool is_live = false;
    CELLFS_RETURN_IF_ERROR(KeepLive(*table, inherited, now_, &live, &is_live));
    if (is_live) continue;
    CELLFS_RETURN_IF_ERROR(Replace(*table, prefix, std::move(row), inherited,
                                   /*index_unchanged=*/false, batch.get()));
    if (++in_batch == kGroupsPerBatch) {
      CELLFS_RETURN_IF_ERROR(WriteData(batch.get(), table->id));
      batch->Clear();
      in_batch = 0;
    }
  }
  CELLFS_RETURN_IF_ERROR(it->status());
  if (in_batch != 0) CELLFS_RETURN_IF_ERROR(WriteData(batch.get(), table->id));
  // Many deleted keys left behind: let storage drop its markers, or every
  // walk of the partition steps over them until a compaction would.
  if (stats_->rows_buried + stats_->rows_removed - buried_before >= kCompactAfterBuried) {
    core_->storage->CompactShard(PartitionShard(prefix));
  }
  return Status::Ok();
}

Status Sweep::ReclaimDroppedTables() {
  size_t budget = kDroppedDeletesPerSweep;
  const std::string space(1, kDroppedTag);
  std::unique_ptr<Cursor> dropped = core_->storage->NewCursor(nullptr, {space, {}}, {false});
  std::string key;
  for (dropped->SeekToFirst(); dropped->Valid() && budget > 0; dropped->Next()) {
    key.assign(space);
    key.append(dropped->key());
    uint32_t table_id = 0;
    if (!ParseDroppedTableKey(key, &table_id)) continue;
    // Engine::Execute stores the entry before the schema swap that hides the
    // table; until then a write may still land in it, so wait for the swap.
    if (core_->CurrentSchema()->IsLiveId(table_id)) continue;
    CELLFS_RETURN_IF_ERROR(ReclaimTable(key, table_id, &budget));
  }
  return dropped->status();
}

// Deletes up to `*budget` of the table's entries, and its dropped-table
// entry once none is left. An id is a table's (its data and buried spaces
// and, on a shared store, its expiry buckets), an index's or a view's (its
// entries' space).
Status Sweep::ReclaimTable(std::string_view dropped_key, uint32_t table_id, size_t* budget) {
  std::string spaces[5];
  AppendTablePrefix(table_id, &spaces[0]);
  AppendBuriedPrefix(table_id, &spaces[1]);
  AppendIndexPrefix(table_id, &spaces[2]);
  AppendViewPrefix(table_id, &spaces[3]);
  spaces[4] = ExpiryIndex::TableSpace(table_id);
  for (const std::string& space : spaces) {
    bool empty = false;
    CELLFS_RETURN_IF_ERROR(DeleteSpace(space, budget, &empty));
    if (!empty) return Status::Ok();  // the rest in later sweeps
  }
  // What listed the emptied shards goes too (RADOS: their objects), as many
  // shards a sweep as entries.
  size_t shards = kDroppedDeletesPerSweep;
  for (const std::string& space : spaces) {
    std::vector<std::string> forgotten;
    const Status forgot = core_->storage->ForgetEmptyShards(space, {}, &shards, &forgotten);
    if (space == spaces[4]) RetireBucketLeases(table_id, forgotten);
    CELLFS_RETURN_IF_ERROR(forgot);
    if (shards == 0) return Status::Ok();  // maybe more: the next sweep looks again
  }
  std::unique_ptr<Batch> batch = NewBatch();
  batch->Delete(TaggedAddress(dropped_key));
  CELLFS_RETURN_IF_ERROR(Write(batch.get()));
  ++stats_->tables_cleaned;
  return Status::Ok();
}

Status Sweep::DeleteSpace(const std::string& space, size_t* budget, bool* empty) {
  *empty = false;
  // Deletes the entries from where `it` stands; *left: the budget ran out
  // before them.
  bool left = false;
  auto remove = [&](Cursor& it, std::string_view shard) {
    std::unique_ptr<Batch> batch = NewBatch();
    for (; it.Valid(); it.Next()) {
      if (*budget == 0) {
        left = true;
        break;
      }
      batch->Delete({space, shard, it.key()});
      --*budget;
      ++stats_->entries_read;
      ++stats_->entries_deleted;
    }
    CELLFS_RETURN_IF_ERROR(it.status());
    return batch->empty() ? Status::Ok() : Write(batch.get());
  };
  // The schema that told where shards end is gone. A backend that keeps a
  // space as one key range (LevelDB) walks it as one shard; one that keeps
  // shards apart (RADOS) finds nothing there, and lists them instead, each
  // key its own shard for the splitter (deleted a shard, one commit, at a
  // time). Each walk starts after the other's deletions are committed.
  std::unique_ptr<Cursor> range = core_->storage->NewCursor(nullptr, {space, {}}, {false});
  range->SeekToFirst();
  CELLFS_RETURN_IF_ERROR(remove(*range, {}));
  if (left) return Status::Ok();
  auto whole_key = [](std::string_view shard_and_key, size_t* length) {
    *length = shard_and_key.size();
    return Status::Ok();
  };
  std::unique_ptr<ShardCursor> shards =
      core_->storage->NewShardCursor(nullptr, space, whole_key, {/*fill_cache=*/false});
  for (shards->Seek({}); shards->Valid(); shards->Next()) {
    const std::string shard(shards->shard());
    CELLFS_RETURN_IF_ERROR(remove(shards->entries(), shard));
    if (left) return Status::Ok();
  }
  CELLFS_RETURN_IF_ERROR(shards->status());
  *empty = true;
  return Status::Ok();
}

}  // namespace

Status SweepOnce(EngineCore* core, int64_t now, SweepStats* stats) {
  SweepStats local;
  SweepStats* out = stats != nullptr ? stats : &local;
  *out = SweepStats{};
  return Sweep(core, now, out).Run();
}

}  // namespace cellfs::storage
