// RadosBatchLog (engine/store/storage/rados/rados_batch_log.h).
#include "engine/store/storage/rados/rados_batch_log.h"

#include <sys/time.h>

#include <cerrno>
#include <map>

#include "engine/cql/big_endian.h"
#include "engine/store/storage/rados/rados_layout.h"
#include "engine/store/storage/rados/rados_status.h"

namespace cellfs::storage {
namespace {

constexpr std::string_view kLockName = "cellfs.log";

void AppendBytes(std::string_view bytes, std::string* out) {
  out->append(BigEndianBytes(bytes.size(), 4));
  out->append(bytes);
}

bool ReadBytes(std::string_view* in, std::string* out) {
  if (in->size() < 4) return false;
  const uint64_t size = ReadBigEndian(in->substr(0, 4));
  in->remove_prefix(4);
  if (in->size() < size) return false;
  out->assign(in->substr(0, size));
  in->remove_prefix(size);
  return true;
}

std::string EntryKey(uint64_t entry) { return BigEndianBytes(entry, 8); }

}  // namespace

std::string EncodeBatch(const RadosBatch& batch) {
  std::string out;
  for (const auto& [object, writes] : batch.writes()) {
    AppendBytes(object, &out);
    out.append(BigEndianBytes(writes.size(), 4));
    for (const auto& [key, value] : writes) {
      AppendBytes(key, &out);
      out.push_back(value ? 'P' : 'D');
      if (value) AppendBytes(*value, &out);
    }
  }
  return out;
}

Status DecodeBatch(std::string_view bytes, RadosBatch* batch) {
  const Status bad = Status::Corruption("a batch log entry does not decode");
  while (!bytes.empty()) {
    std::string object;
    if (!ReadBytes(&bytes, &object) || bytes.size() < 4) return bad;
    uint64_t keys = ReadBigEndian(bytes.substr(0, 4));
    bytes.remove_prefix(4);
    for (; keys > 0; --keys) {
      std::string key;
      if (!ReadBytes(&bytes, &key) || bytes.empty()) return bad;
      const char kind = bytes[0];
      bytes.remove_prefix(1);
      if (kind == 'P') {
        std::string value;
        if (!ReadBytes(&bytes, &value)) return bad;
        batch->PutRaw(object, std::move(key), std::move(value));
      } else if (kind == 'D') {
        batch->DeleteRaw(object, std::move(key));
      } else {
        return bad;
      }
    }
  }
  return Status::Ok();
}

RadosBatchLog::RadosBatchLog(librados::IoCtx* io, std::string mount_id)
    : io_(io), object_(LogObject(mount_id)), cookie_(std::move(mount_id)) {}

Status RadosBatchLog::Open() {
  // Locked first: a log listed in the registry but not locked yet would be
  // taken for a dead mount's by another mount's replay.
  timeval duration{kLockSeconds, 0};
  CELLFS_RETURN_IF_ERROR(
      FromRados(io_->lock_exclusive(object_, std::string(kLockName), cookie_, "batch log",
                                    &duration, LIBRADOS_LOCK_FLAG_MAY_RENEW),
                "locking " + object_));
  std::map<std::string, librados::bufferlist> entry;
  entry[object_];
  librados::ObjectWriteOperation registration;
  registration.omap_set(entry);
  return FromRados(io_->operate(std::string(kLogRegistryObject), &registration),
                   "registering the batch log");
}

Status RadosBatchLog::Renew() {
  timeval duration{kLockSeconds, 0};
  const int renewed = io_->lock_exclusive(object_, std::string(kLockName), cookie_, "batch log",
                                          &duration, LIBRADOS_LOCK_FLAG_MUST_RENEW);
  if (renewed == 0) return Status::Ok();
  // The hold lapsed (this process stalled past it) and another mount may
  // have replayed and removed the log: hold and register it afresh. What
  // was logged since is replayed again if this mount dies, which is
  // harmless for an entry whose batch was applied.
  return Open();
}

Status RadosBatchLog::Record(const RadosBatch& batch, uint64_t* entry) {
  std::set<std::string> applied;
  {
    std::lock_guard lock(mutex_);
    *entry = next_entry_++;
    for (uint64_t done : done_) applied.insert(EntryKey(done));
    done_.clear();
  }
  librados::ObjectWriteOperation write;
  if (!applied.empty()) write.omap_rm_keys(applied);
  std::map<std::string, librados::bufferlist> set;
  set[EntryKey(*entry)].append(EncodeBatch(batch));
  write.omap_set(set);
  const int result = io_->operate(object_, &write);
  if (result < 0) {
    std::lock_guard lock(mutex_);  // their removal is still owed
    for (const std::string& key : applied) done_.push_back(ReadBigEndian(key));
  }
  return FromRados(result, "writing the batch log " + object_);
}

Status RadosBatchLog::Done(uint64_t entry) {
  std::set<std::string> applied = {EntryKey(entry)};
  {
    std::lock_guard lock(mutex_);
    for (uint64_t done : done_) applied.insert(EntryKey(done));
    done_.clear();
  }
  librados::ObjectWriteOperation trim;
  trim.omap_rm_keys(applied);
  const int result = io_->operate(object_, &trim);
  if (result < 0) {
    std::lock_guard lock(mutex_);  // still owed: the next log write or Close removes them
    for (const std::string& key : applied) done_.push_back(ReadBigEndian(key));
  }
  return FromRados(result, "trimming the batch log " + object_);
}

void RadosBatchLog::Failed(uint64_t entry) {
  std::lock_guard lock(mutex_);
  failed_.insert(entry);
}

Status RadosBatchLog::ReplayFailed(size_t* replayed, std::set<std::string>* objects) {
  std::lock_guard replaying(replay_mutex_);
  while (true) {
    uint64_t entry = 0;
    {
      std::lock_guard lock(mutex_);
      if (failed_.empty()) return Status::Ok();
      entry = *failed_.begin();
    }
    std::map<std::string, librados::bufferlist> found;
    const int read = io_->omap_get_vals_by_keys(object_, {EntryKey(entry)}, &found);
    if (read != -ENOENT) CELLFS_RETURN_IF_ERROR(FromRados(read, "reading " + object_));
    if (!found.empty()) {
      RadosBatch batch;
      CELLFS_RETURN_IF_ERROR(
          DecodeBatch(found.begin()->second.to_str(), &batch).WithContext(object_));
      CELLFS_RETURN_IF_ERROR(
          CommitRadosBatch(*io_, batch).WithContext("finishing a failed commit"));
      for (const auto& [object, writes] : batch.writes()) objects->insert(object);
      ++*replayed;
    }
    {
      std::lock_guard lock(mutex_);
      failed_.erase(entry);
    }
    (void)Done(entry);  // a failed trim is owed to the next log write
  }
}

Status RadosBatchLog::Replay(const std::string& log, size_t* replayed,
                             std::set<std::string>* objects) {
  std::string after;
  for (bool more = true; more;) {
    std::map<std::string, librados::bufferlist> entries;
    const int result = io_->omap_get_vals2(log, after, 64, &entries, &more);
    if (result == -ENOENT) return Status::Ok();
    CELLFS_RETURN_IF_ERROR(FromRados(result, "reading the batch log " + log));
    for (auto& [key, value] : entries) {
      RadosBatch batch;
      CELLFS_RETURN_IF_ERROR(DecodeBatch(value.to_str(), &batch).WithContext(log));
      CELLFS_RETURN_IF_ERROR(CommitRadosBatch(*io_, batch).WithContext("replaying " + log));
      for (const auto& [object, writes] : batch.writes()) objects->insert(object);
      ++*replayed;
      after = key;
    }
  }
  return Status::Ok();
}

Status RadosBatchLog::ReplayLapsed(size_t* replayed, std::set<std::string>* objects) {
  std::string after;
  for (bool more = true; more;) {
    std::set<std::string> logs;
    const int result =
        io_->omap_get_keys2(std::string(kLogRegistryObject), after, 256, &logs, &more);
    if (result == -ENOENT) return Status::Ok();
    CELLFS_RETURN_IF_ERROR(FromRados(result, "reading the batch log registry"));
    for (const std::string& log : logs) {
      after = log;
      if (log == object_) continue;
      timeval duration{kLockSeconds, 0};
      const int taken =
          io_->lock_exclusive(log, std::string(kLockName), cookie_, "replaying", &duration, 0);
      if (taken == -EBUSY || taken == -EEXIST) continue;  // its mount lives
      CELLFS_RETURN_IF_ERROR(FromRados(taken, "locking " + log));
      CELLFS_RETURN_IF_ERROR(Replay(log, replayed, objects));
      const int removed = io_->remove(log);
      if (removed < 0 && removed != -ENOENT) {
        return FromRados(removed, "removing the replayed log " + log);
      }
      librados::ObjectWriteOperation unregister;
      unregister.omap_rm_keys({log});
      CELLFS_RETURN_IF_ERROR(FromRados(io_->operate(std::string(kLogRegistryObject), &unregister),
                                       "unregistering " + log));
    }
  }
  return Status::Ok();
}

Status RadosBatchLog::Close() {
  std::set<std::string> applied;
  {
    std::lock_guard lock(mutex_);
    for (uint64_t done : done_) applied.insert(EntryKey(done));
    done_.clear();
  }
  if (!applied.empty()) {
    librados::ObjectWriteOperation write;
    write.omap_rm_keys(applied);
    CELLFS_RETURN_IF_ERROR(FromRados(io_->operate(object_, &write), "trimming " + object_));
  }
  std::set<std::string> left;
  bool more = false;
  CELLFS_RETURN_IF_ERROR(
      FromRados(io_->omap_get_keys2(object_, "", 1, &left, &more), "reading " + object_));
  if (!left.empty()) {
    // A commit failed half-way: leave the log for the next replay.
    return FromRados(io_->unlock(object_, std::string(kLockName), cookie_), "unlocking " + object_);
  }
  CELLFS_RETURN_IF_ERROR(FromRados(io_->remove(object_), "removing " + object_));
  librados::ObjectWriteOperation unregister;
  unregister.omap_rm_keys({object_});
  return FromRados(io_->operate(std::string(kLogRegistryObject), &unregister),
                   "unregistering " + object_);
}

}  // namespace cellfs::storage
