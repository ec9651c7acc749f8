// VerifyStore: every stored entry decoded against the schema, at one read
// point, space by space.
#include "engine/store/internal/store_verify.h"

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/cql/key_codec.h"
#include "engine/store/index_iterator.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/snapshot_store.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/row_fragment.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {
namespace {

constexpr size_t kIdBytes = 4;     // the u32 after a space's tag
constexpr size_t kTokenBytes = 8;  // token_bytes (docs/FORMAT.md "Tokens")

std::string Hex(std::string_view bytes) {
  constexpr size_t kShown = 48;
  std::string out;
  char digits[3];
  for (size_t i = 0; i < bytes.size() && i < kShown; ++i) {
    std::snprintf(digits, sizeof digits, "%02x", static_cast<unsigned char>(bytes[i]));
    out += digits;
  }
  if (bytes.size() > kShown) out += "...";
  return out;
}

uint32_t IdOf(std::string_view four) {
  uint32_t id = 0;
  for (char c : four.substr(0, kIdBytes)) id = id << 8 | static_cast<unsigned char>(c);
  return id;
}

class Verifier {
 public:
  Verifier(EngineCore* core, VerifyReport* report)
      : core_(core),
        report_(report),
        schema_(core->CurrentSchema()),
        point_(core->storage->NewReadPoint()) {
    for (const auto& [name, ids] : schema_->ids()) {
      TableHandle table = schema_->FindTable(name.first, name.second);
      if (table == nullptr) continue;
      for (const IndexSchema& index : table->indexes) indexes_[index.id] = {table, &index};
    }
  }

  Status Run() {
    CELLFS_RETURN_IF_ERROR(LoadDropped());
    CELLFS_RETURN_IF_ERROR(LoadSnapshots());
    CELLFS_RETURN_IF_ERROR(
        WalkIds(kDataTag, [this](uint32_t id, std::string_view key, std::string_view value) {
          CheckData(id, key, value);
        }));
    CELLFS_RETURN_IF_ERROR(
        WalkIds(kBuriedTag, [this](uint32_t id, std::string_view key, std::string_view value) {
          CheckBuried(id, key, value);
        }));
    CELLFS_RETURN_IF_ERROR(WalkIds(kIndexTag, [this](uint32_t id, std::string_view key,
                                                     std::string_view) { CheckIndex(id, key); }));
    CELLFS_RETURN_IF_ERROR(WalkIds(kViewTag, [this](uint32_t id, std::string_view key,
                                                    std::string_view) { CheckView(id, key); }));
    return WalkExpiry();
  }

 private:
  void Fault(const char* what, std::string_view key, const std::string& reason) {
    ++report_->faults;
    if (report_->fault_lines.size() < VerifyReport::kMaxFaultLines) {
      report_->fault_lines.push_back(std::string(what) + " " + Hex(key) + ": " + reason);
    }
  }

  // An entry of an id the schema does not know: a dropped one's is waiting
  // for the sweeper; any other is a fault.
  void Unknown(const char* what, uint32_t id, std::string_view key) {
    if (dropped_.count(id) != 0) {
      ++report_->dropped_entries;
      return;
    }
    if (snapshot_ids_.count(id) != 0) {
      ++report_->snapshot_entries;
      return;
    }
    Fault(what, key, "id " + std::to_string(id) + " is neither in the schema nor dropped");
  }

  Status LoadDropped() {
    const std::string space(1, kDroppedTag);
    std::unique_ptr<Cursor> cursor = core_->storage->NewCursor(point_.get(), {space, {}});
    std::string key;
    for (cursor->SeekToFirst(); cursor->Valid(); cursor->Next()) {
      key.assign(space).append(cursor->key());
      uint32_t id = 0;
      if (ParseDroppedTableKey(key, &id)) {
        dropped_.insert(id);
      } else {
        Fault("dropped-marker", key, "not a dropped table's marker");
      }
    }
    return cursor->status();
  }

  // Each snapshot's table, as a schema of its own keyspace as it was.
  Status LoadSnapshots() {
    std::vector<SnapshotRecord> records;
    std::vector<std::string> unreadable;
    CELLFS_RETURN_IF_ERROR(ReadSnapshots(core_->storage.get(), &records, &unreadable));
    for (const std::string& why : unreadable) Fault("snapshot", std::string(1, kSnapshotTag), why);
    // An unreadable record's data is still its, counted undecoded.
    CELLFS_RETURN_IF_ERROR(SnapshotTableIds(core_->storage.get(), &snapshot_ids_));
    for (SnapshotRecord& record : records) {
      auto catalog = std::make_shared<Catalog>();
      catalog->Restore(record.keyspace_def);
      const uint32_t id = record.table_ids().table_id;
      auto kept = std::make_shared<const SchemaState>(catalog, record.ids, id + 1);
      snapshot_schemas_.push_back(kept);
      snapshot_tables_[id] = kept->FindTableById(id);
    }
    return Status::Ok();
  }

  // Every entry under `tag`, by the u32 id after the tag: `visit(id, whole
  // key, value)`.
  Status WalkIds(char tag,
                 const std::function<void(uint32_t, std::string_view, std::string_view)>& visit) {
    const std::string space(1, tag);
    auto split = [](std::string_view shard_and_key, size_t* length) {
      if (shard_and_key.size() < kIdBytes) return Status::Corruption("a key shorter than its id");
      *length = kIdBytes;
      return Status::Ok();
    };
    std::unique_ptr<ShardCursor> ids =
        core_->storage->NewShardCursor(point_.get(), space, split, {/*fill_cache=*/false});
    std::string key;
    for (ids->Seek({}); ids->Valid(); ids->Next()) {
      const uint32_t id = IdOf(ids->shard());
      Cursor& entries = ids->entries();
      for (; entries.Valid(); entries.Next()) {
        key.assign(space).append(ids->shard()).append(entries.key());
        visit(id, key, entries.value());
      }
      CELLFS_RETURN_IF_ERROR(ReadStatus(entries.status(), space));
    }
    return ReadStatus(ids->status(), space);
  }

  // A read error is the walk's failure; Corruption (a key the walk cannot
  // split) is a fault, after which this space is not read further.
  Status ReadStatus(const Status& status, const std::string& space) {
    if (status.ok() || status.code() != StatusCode::kCorruption) return status;
    Fault("space", space, status.message() + " (the rest of this space was not read)");
    return Status::Ok();
  }

  void CheckData(uint32_t id, std::string_view key, std::string_view value) {
    TableHandle table = schema_->FindTableById(id);
    if (table == nullptr || table->view) {
      // A snapshot's data is decoded against the table as it was.
      const auto kept = snapshot_tables_.find(id);
      if (kept == snapshot_tables_.end()) return Unknown("data", id, key);
      table = kept->second;
      ++report_->snapshot_entries;
    } else {
      ++report_->data_entries;
    }
    DataKey parsed;
    if (Status s = ParseDataKey(*table, key, &parsed); !s.ok()) {
      return Fault("data", key, s.message());
    }
    Status decoded;
    if (parsed.kind == EntryKind::kRangeDeletion) {
      RangeDeletion range;
      decoded = DecodeRangeDeletion(value, &range);
    } else {
      RowFragment fragment;
      decoded = DecodeRowFragment(value, &fragment);
    }
    if (!decoded.ok()) Fault("data", key, "value: " + decoded.message());
  }

  // A buried row (buried_reader.h): a row fragment under a data key whose
  // tag is the buried space's, holding nothing live at the verify's time.
  void CheckBuried(uint32_t id, std::string_view key, std::string_view value) {
    ++report_->buried_entries;
    std::string as_data(key);
    as_data[0] = kDataTag;
    TableHandle table = schema_->FindTableById(id);
    if (table == nullptr || table->view) {
      const auto kept = snapshot_tables_.find(id);
      if (kept == snapshot_tables_.end()) return Unknown("buried", id, key);
      table = kept->second;
    }
    DataKey parsed;
    if (Status s = ParseDataKey(*table, as_data, &parsed); !s.ok()) {
      return Fault("buried", key, s.message());
    }
    if (parsed.kind != EntryKind::kRow) return Fault("buried", key, "not a row's entry");
    RowFragment fragment;
    if (Status s = DecodeRowFragment(value, &fragment); !s.ok()) {
      return Fault("buried", key, "value: " + s.message());
    }
    if (IsRowLive(fragment, core_->clock->NowMicros())) {
      Fault("buried", key, "a buried row holds a live marker or cell");
    }
  }

  void CheckIndex(uint32_t id, std::string_view key) {
    auto found = indexes_.find(id);
    if (found == indexes_.end()) return Unknown("index", id, key);
    ++report_->index_entries;
    const TableSchema& table = *found->second.table;
    const IndexSchema& index = *found->second.index;
    std::string_view rest = key.substr(1 + kIdBytes);
    std::string scratch;
    TypePtr type = IndexedValueType(table, index);
    const bool entries = index.target == IndexTargetKind::kEntries;
    Status s =
        DecodeKeyComponent(entries ? *type->params()[0] : *type, SortOrder::kAsc, &rest, &scratch);
    if (s.ok() && entries)
      s = DecodeKeyComponent(*type->params()[1], SortOrder::kAsc, &rest, &scratch);
    if (s.ok()) s = CheckRowAddress(table, rest, /*has_kind=*/true);
    if (!s.ok()) Fault("index", key, s.message());
  }

  void CheckView(uint32_t id, std::string_view key) {
    TableHandle view = schema_->FindTableById(id);
    if (view == nullptr || !view->view) return Unknown("view", id, key);
    ++report_->view_entries;
    if (Status s = CheckRowAddress(*view, key.substr(1 + kIdBytes), false); !s.ok()) {
      Fault("view", key, s.message());
    }
  }

  // token || pk || [kind] || clustering, as the table's.
  Status CheckRowAddress(const TableSchema& table, std::string_view rest, bool has_kind) {
    size_t shard = 0;
    CELLFS_RETURN_IF_ERROR(PartitionShardLength(table, rest, &shard));
    std::vector<std::string> values;
    CELLFS_RETURN_IF_ERROR(
        DecodePartitionKey(table, rest.substr(kTokenBytes, shard - kTokenBytes), &values));
    rest.remove_prefix(shard);
    if (has_kind) {
      if (rest.empty()) return Status::Corruption("no entry kind");
      const auto kind = static_cast<EntryKind>(rest[0]);
      rest.remove_prefix(1);
      if (kind == EntryKind::kStaticRow) {
        return rest.empty() ? Status::Ok() : Status::Corruption("bytes after a static row's kind");
      }
      if (kind != EntryKind::kRow) return Status::Corruption("an entry kind that is not a row's");
    }
    return DecodeClustering(table, rest, &values);
  }

  Status WalkExpiry() {
    const std::string space(1, kExpiryTag);
    auto split = [](std::string_view shard_and_key, size_t* length) {
      if (shard_and_key.size() < kDueBytes) return Status::Corruption("an expiry key too short");
      *length = kDueBytes;
      return Status::Ok();
    };
    std::unique_ptr<ShardCursor> buckets =
        core_->storage->NewShardCursor(point_.get(), space, split, {false});
    std::string key;
    for (buckets->Seek({}); buckets->Valid(); buckets->Next()) {
      Cursor& entries = buckets->entries();
      for (; entries.Valid(); entries.Next()) {
        key.assign(space).append(buckets->shard()).append(entries.key());
        ++report_->expiry_entries;
        CELLFS_RETURN_IF_ERROR(CheckExpiry(key));
      }
      CELLFS_RETURN_IF_ERROR(ReadStatus(entries.status(), space));
    }
    return ReadStatus(buckets->status(), space);
  }

  Status CheckExpiry(std::string_view key) {
    int64_t due = 0;
    std::string_view group;
    uint32_t id = 0;
    if (!ParseExpiryKey(key, &due, &group) || !ParseTableId(group, &id)) {
      Fault("expiry", key, "not an expiry-index entry of a data group");
      return Status::Ok();
    }
    TableHandle table = schema_->FindTableById(id);
    if (table == nullptr || table->view) {
      // An id below the next table id was a table's, whose data is gone
      // (reclaimed): its entries are harmless, each goes when due.
      if (id < schema_->next_table_id() && dropped_.count(id) == 0 &&
          snapshot_ids_.count(id) == 0) {
        ++report_->dangling_expiry_entries;
      } else if (dropped_.count(id) == 0 && snapshot_ids_.count(id) == 0) {
        Fault("expiry", key, "names table id " + std::to_string(id) + ", which does not exist");
      }
      return Status::Ok();
    }
    size_t shard = 0;
    std::string_view after_table = group.substr(kTablePrefixBytes);
    if (!PartitionShardLength(*table, after_table, &shard).ok()) {
      Fault("expiry", key, "its group does not decode");
      return Status::Ok();
    }
    // Points somewhere when an entry of the group is stored.
    std::unique_ptr<Cursor> cursor = core_->storage->NewCursor(
        point_.get(), {group.substr(0, kTablePrefixBytes), after_table.substr(0, shard)}, {false});
    const std::string_view rest = after_table.substr(shard);
    cursor->Seek(rest);
    if (cursor->Valid() && cursor->key().starts_with(rest)) return Status::Ok();
    CELLFS_RETURN_IF_ERROR(cursor->status());
    // Or buried (buried_reader.h), under the same shard and key.
    std::string buried_space;
    AppendBuriedPrefix(id, &buried_space);
    std::unique_ptr<Cursor> buried = core_->storage->NewCursor(
        point_.get(), {buried_space, after_table.substr(0, shard)}, {false});
    buried->Seek(rest);
    if (!buried->Valid() || !buried->key().starts_with(rest)) ++report_->dangling_expiry_entries;
    return buried->status();
  }

  struct IndexOf {
    TableHandle table;
    const IndexSchema* index;
  };

  EngineCore* core_;
  VerifyReport* report_;
  std::shared_ptr<const SchemaState> schema_;
  std::unique_ptr<ReadPoint> point_;
  std::map<uint32_t, IndexOf> indexes_;
  std::set<uint32_t> dropped_;
  std::vector<std::shared_ptr<const SchemaState>> snapshot_schemas_;  // own snapshot_tables_
  std::map<uint32_t, TableHandle> snapshot_tables_;
  std::set<uint32_t> snapshot_ids_;  // every record's, decodable or not
};

}  // namespace

Status VerifyStore(EngineCore* core, VerifyReport* report) {
  *report = VerifyReport{};
  return Verifier(core, report).Run();
}

}  // namespace cellfs::storage
