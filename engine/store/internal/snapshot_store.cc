// Snapshot records: {"keyspace", "table", "reason", "created_ms", "record"},
// where "record" is the keyspace's catalog record as it was.
#include "engine/store/internal/snapshot_store.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "engine/cql/big_endian.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {
namespace {

using json = nlohmann::json;

// A boolean option's CQL text (false, 'false', FALSE) says false.
bool IsFalse(std::string text) {
  std::erase(text, '\'');
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text == "false";
}

std::string EncodeSnapshot(const SnapshotRecord& record, const std::string& keyspace_record) {
  json value = {{"keyspace", record.keyspace},
                {"table", record.table},
                {"reason", record.reason},
                {"created_ms", record.created_ms},
                {"record", keyspace_record}};
  if (record.as_of_sequence) {
    value["as_of_sequence"] = *record.as_of_sequence;
    value["as_of_ms"] = record.as_of_ms;
  }
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

Status DecodeSnapshot(std::string name, std::string_view value, SnapshotRecord* out) {
  const json parsed = json::parse(value, nullptr, /*allow_exceptions=*/false);
  const auto is_string = [&](const char* field) {
    return parsed.contains(field) && parsed[field].is_string();
  };
  if (parsed.is_discarded() || !parsed.is_object() || !is_string("keyspace") ||
      !is_string("table") || !is_string("reason") || !is_string("record") ||
      !parsed.contains("created_ms") || !parsed["created_ms"].is_number_integer()) {
    return Status::Corruption("snapshot " + name + ": malformed record");
  }
  const bool as_of = parsed.contains("as_of_sequence");
  if (as_of && (!parsed["as_of_sequence"].is_number_unsigned() || !parsed.contains("as_of_ms") ||
                !parsed["as_of_ms"].is_number_integer())) {
    return Status::Corruption("snapshot " + name + ": malformed as-of point");
  }
  out->name = std::move(name);
  out->keyspace = parsed["keyspace"].get<std::string>();
  out->table = parsed["table"].get<std::string>();
  out->reason = parsed["reason"].get<std::string>();
  out->created_ms = parsed["created_ms"].get<int64_t>();
  out->as_of_sequence.reset();
  out->as_of_ms = out->created_ms;
  if (as_of) {
    out->as_of_sequence = parsed["as_of_sequence"].get<uint64_t>();
    out->as_of_ms = parsed["as_of_ms"].get<int64_t>();
  }
  out->ids.clear();
  const Status decoded = DecodeKeyspaceRecord(
      out->keyspace, parsed["record"].get_ref<const std::string&>(), &out->keyspace_def, &out->ids);
  if (!decoded.ok()) return Status::Corruption("snapshot " + out->name + ": " + decoded.message());
  const auto table = out->keyspace_def.tables.find(out->table);
  if (table == out->keyspace_def.tables.end() || table->second.view) {
    return Status::Corruption("snapshot " + out->name + ": its keyspace has no table " +
                              out->table);
  }
  return Status::Ok();
}

// Visits every record's name and value.
template <typename Visit>
Status WalkSnapshots(Storage* storage, Visit visit) {
  const std::string space(1, kSnapshotTag);
  std::unique_ptr<Cursor> it = storage->NewCursor(nullptr, {space, {}});
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    CELLFS_RETURN_IF_ERROR(visit(std::string(it->key()), it->value()));
  }
  return it->status().WithContext("reading the snapshots");
}

}  // namespace

std::string SnapshotKey(std::string_view name) {
  std::string key(1, kSnapshotTag);
  key.append(name);
  return key;
}

Status SnapshotDroppedTables(Storage* storage, const SchemaState& before, const std::string& reason,
                             int64_t now_micros, const RemovalRuns& runs,
                             std::vector<uint32_t>* dropped, Batch* batch) {
  const int64_t now_ms = now_micros / 1000;
  for (const auto& [name, ids] : before.ids()) {
    const auto at = std::find(dropped->begin(), dropped->end(), ids.table_id);
    if (at == dropped->end()) continue;
    const KeyspaceDef* keyspace = before.catalog()->FindKeyspace(name.first);
    if (keyspace == nullptr) continue;
    const auto table = keyspace->tables.find(name.second);
    if (table == keyspace->tables.end() || table->second.view) continue;
    // The table option Cassandra 4.1 added: false drops without a snapshot.
    if (const auto allow = table->second.options.other.find("allow_auto_snapshot");
        allow != table->second.options.other.end() && IsFalse(allow->second)) {
      continue;
    }
    SnapshotRecord record;
    record.keyspace = name.first;
    record.table = name.second;
    record.reason = reason;
    record.created_ms = now_ms;
    if (const std::optional<RemovalRuns::Run> run = runs.Open(ids.table_id, now_micros)) {
      record.as_of_sequence = run->first_sequence;
      record.as_of_ms = run->started_micros / 1000;
    }
    const std::string base =
        reason + "-" + std::to_string(now_ms) + "-" + name.first + "." + name.second;
    std::string snapshot = base;
    for (int n = 2;; ++n) {
      const std::string key = SnapshotKey(snapshot);
      std::optional<std::string> existing;
      CELLFS_RETURN_IF_ERROR(storage->Get(nullptr, TaggedAddress(key), &existing));
      if (!existing) break;
      snapshot = base + "-" + std::to_string(n);
    }
    const std::string key = SnapshotKey(snapshot);
    batch->Put(TaggedAddress(key),
               EncodeSnapshot(record, EncodeKeyspaceRecord(*keyspace, before.ids())));
    dropped->erase(at);
  }
  return Status::Ok();
}

Status ReadSnapshots(Storage* storage, std::vector<SnapshotRecord>* out,
                     std::vector<std::string>* unreadable) {
  out->clear();
  return WalkSnapshots(storage, [&](std::string name, std::string_view value) {
    SnapshotRecord record;
    if (Status s = DecodeSnapshot(std::move(name), value, &record); !s.ok()) {
      if (unreadable != nullptr) unreadable->push_back(s.message());
      return Status::Ok();
    }
    out->push_back(std::move(record));
    return Status::Ok();
  });
}

std::optional<uint32_t> SnapshotTableIdOf(std::string_view value) {
  const json parsed = json::parse(value, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("record") ||
      !parsed["record"].is_string() || !parsed.contains("table") || !parsed["table"].is_string()) {
    return std::nullopt;
  }
  const json record = json::parse(parsed["record"].get_ref<const std::string&>(), nullptr, false);
  const std::string& table = parsed["table"].get_ref<const std::string&>();
  if (record.is_discarded() || !record.is_object() || !record.contains("tables") ||
      !record["tables"].is_object() || !record["tables"].contains(table)) {
    return std::nullopt;
  }
  const json& entry = record["tables"][table];
  if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_number_unsigned()) {
    return std::nullopt;
  }
  const uint64_t id = entry["id"].get<uint64_t>();
  if (id == 0 || id > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  return static_cast<uint32_t>(id);
}

Status ReadSnapshotValue(Storage* storage, const std::string& name, std::string* value) {
  const std::string key = SnapshotKey(name);
  std::optional<std::string> stored;
  CELLFS_RETURN_IF_ERROR(storage->Get(nullptr, TaggedAddress(key), &stored));
  if (!stored) return Status::NotFound("no snapshot named " + name);
  *value = std::move(*stored);
  return Status::Ok();
}

Status ReadSnapshot(Storage* storage, const std::string& name, SnapshotRecord* out) {
  std::string value;
  CELLFS_RETURN_IF_ERROR(ReadSnapshotValue(storage, name, &value));
  return DecodeSnapshot(name, value, out);
}

Status SnapshotTableIds(Storage* storage, std::set<uint32_t>* ids) {
  return WalkSnapshots(storage, [&](const std::string&, std::string_view value) {
    if (std::optional<uint32_t> id = SnapshotTableIdOf(value)) ids->insert(*id);
    return Status::Ok();
  });
}

namespace {

Status DeleteSpaceEntriesFrom(Storage* storage, WriteFence* fence, const std::string& space,
                              uint64_t first) {
  constexpr size_t kDeletesPerBatch = 10000;
  std::unique_ptr<Cursor> it = storage->NewCursor(nullptr, {space, {}}, {false});
  std::unique_ptr<Batch> batch = storage->NewBatch();
  size_t in_batch = 0;
  const auto write = [&] {
    CELLFS_RETURN_IF_ERROR(fence->Check());
    return fence->Record(storage->Commit(batch.get(), Durability::kSynced)
                             .WithContext("deleting what a removal run wrote"));
  };
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string_view key = it->key();
    if (key.size() < kSequenceBytes) {
      return Status::Corruption("snapshot data key too short for a sequence");
    }
    if (ReadBigEndian(key.substr(key.size() - kSequenceBytes)) < first) continue;
    batch->Delete({space, {}, key});
    if (++in_batch == kDeletesPerBatch) {
      CELLFS_RETURN_IF_ERROR(write());
      batch->Clear();
      in_batch = 0;
    }
  }
  CELLFS_RETURN_IF_ERROR(it->status().WithContext("reading the snapshot's data"));
  return in_batch == 0 ? Status::Ok() : write();
}

}  // namespace

Status DeleteEntriesFrom(Storage* storage, WriteFence* fence, uint32_t table_id, uint64_t first) {
  // The data space, then the buried one (the sweeper buries under new
  // sequences, though never during a removal run).
  std::string spaces[2];
  AppendTablePrefix(table_id, &spaces[0]);
  AppendBuriedPrefix(table_id, &spaces[1]);
  for (const std::string& space : spaces) {
    CELLFS_RETURN_IF_ERROR(DeleteSpaceEntriesFrom(storage, fence, space, first));
  }
  return Status::Ok();
}

}  // namespace cellfs::storage
