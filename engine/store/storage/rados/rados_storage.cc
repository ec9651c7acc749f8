// RadosStorage (engine/store/storage/rados/rados_storage.h).
#include "engine/store/storage/rados/rados_storage.h"

#include <sys/time.h>

#include <cerrno>
#include <chrono>
#include <map>
#include <set>

#include "engine/store/storage/rados/rados_batch.h"
#include "engine/store/storage/rados/rados_cursor.h"
#include "engine/store/storage/rados/rados_forget_shards.h"
#include "engine/store/storage/rados/rados_guarded_update.h"
#include "engine/store/storage/rados/rados_layout.h"
#include "engine/store/storage/rados/rados_shard_cursor.h"
#include "engine/store/storage/rados/rados_status.h"

namespace cellfs::storage {
namespace {

// "Latest": every read at it reads the object as it is.
class LatestReadPoint final : public ReadPoint {};

constexpr std::string_view kLeaseLockName = "cellfs.lease";
constexpr auto kMaintainEvery = std::chrono::seconds(5);
// Remembered index keys beyond this are forgotten (and written again, which
// is harmless) so that the set stays bounded.
constexpr size_t kIndexedLimit = size_t{1} << 20;

// Sets a client option unless the configuration already gave it.
Status DefaultOption(librados::Rados* rados, const char* name, const char* value) {
  std::string current;
  if (rados->conf_get(name, current) == 0 && !current.empty() && current != "0") {
    return Status::Ok();
  }
  return FromRados(rados->conf_set(name, value), std::string("setting ") + name);
}

std::string IndexedKey(std::string_view space, std::string_view shard) {
  std::string key(1, static_cast<char>(space.size()));
  key.append(space);
  key.append(shard);
  return key;
}

std::string Hex(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (size_t i = 16; i-- > 0; value >>= 4) out[i] = kDigits[value & 0xF];
  return out;
}

}  // namespace

Result<std::unique_ptr<RadosStorage>> RadosStorage::Open(const StoreLocation& location,
                                                         const EngineOptions& options) {
  (void)options;
  std::unique_ptr<RadosStorage> storage(new RadosStorage());
  librados::Rados& rados = storage->rados_;
  const std::string where = "rados:" + location.pool;
  CELLFS_RETURN_IF_ERROR(FromRados(rados.init(location.id.empty() ? nullptr : location.id.c_str()),
                                   "starting the RADOS client for " + where));
  const int read = rados.conf_read_file(location.conf.empty() ? nullptr : location.conf.c_str());
  if (read < 0) {
    return FromRados(read,
                     "reading the Ceph configuration " +
                         (location.conf.empty() ? std::string("(default search)") : location.conf));
  }
  CELLFS_RETURN_IF_ERROR(FromRados(rados.conf_parse_env(nullptr), "reading CEPH_ARGS"));
  // Never hang on a cluster that is gone: fail the request instead.
  CELLFS_RETURN_IF_ERROR(DefaultOption(&rados, "rados_osd_op_timeout", "30"));
  CELLFS_RETURN_IF_ERROR(DefaultOption(&rados, "rados_mon_op_timeout", "30"));
  // client_mount_timeout's own default is 300 s: lowered unless set.
  std::string mount_timeout;
  if (rados.conf_get("client_mount_timeout", mount_timeout) != 0 ||
      mount_timeout.rfind("300", 0) == 0) {
    CELLFS_RETURN_IF_ERROR(
        FromRados(rados.conf_set("client_mount_timeout", "30"), "setting client_mount_timeout"));
  }
  CELLFS_RETURN_IF_ERROR(FromRados(rados.connect(), "connecting to the cluster of " + where));
  storage->connected_ = true;
  const int pool = rados.ioctx_create(location.pool.c_str(), storage->io_);
  if (pool == -ENOENT) return Status::IOError(where + ": the pool does not exist");
  CELLFS_RETURN_IF_ERROR(FromRados(pool, "opening the pool of " + where));
  storage->io_.set_namespace(location.ns);

  storage->mount_id_ = Hex(rados.get_instance_id());
  storage->counter_ = std::make_unique<RadosCounter>(&storage->io_);
  storage->watches_ =
      std::make_unique<RadosWatches>(&rados, &storage->io_, rados.get_instance_id());
  if (!options.read_only) {
    storage->log_ = std::make_unique<RadosBatchLog>(&storage->io_, storage->mount_id_);
    CELLFS_RETURN_IF_ERROR(storage->log_->Open().WithContext(where));
    size_t replayed = 0;
    std::set<std::string> objects;
    CELLFS_RETURN_IF_ERROR(storage->log_->ReplayLapsed(&replayed, &objects).WithContext(where));
    if (!objects.empty()) storage->watches_->Replayed(objects);
    storage->maintainer_ = std::thread([raw = storage.get()] { raw->MaintainLoop(); });
  }
  return storage;
}

RadosStorage::~RadosStorage() {
  if (maintainer_.joinable()) {
    {
      std::lock_guard lock(maintain_mutex_);
      stopping_ = true;
    }
    maintain_wake_.notify_all();
    maintainer_.join();
  }
  if (log_) (void)log_->Close();  // what it cannot trim, a later replay finishes
  watches_.reset();
  io_.close();
  if (connected_) rados_.shutdown();
}

void RadosStorage::MaintainLoop() {
  std::unique_lock lock(maintain_mutex_);
  while (!maintain_wake_.wait_for(lock, kMaintainEvery, [this] { return stopping_; })) {
    lock.unlock();
    size_t replayed = 0;
    (void)Maintain(&replayed);  // the next round tries again
    lock.lock();
  }
}

Status RadosStorage::Maintain(size_t* replayed) {
  *replayed = 0;
  if (!log_) return Status::Ok();
  CELLFS_RETURN_IF_ERROR(log_->Renew());
  std::set<std::string> objects;
  Status status = log_->ReplayFailed(replayed, &objects);
  if (status.ok()) status = log_->ReplayLapsed(replayed, &objects);
  if (!objects.empty()) watches_->Replayed(objects);
  return status;
}

std::unique_ptr<ReadPoint> RadosStorage::NewReadPoint() {
  return std::make_unique<LatestReadPoint>();
}

std::unique_ptr<Cursor> RadosStorage::NewCursor(const ReadPoint*, const ShardAddress& shard,
                                                const CursorOptions&) {
  return std::make_unique<RadosCursor>(&io_, Locate(shard));
}

std::unique_ptr<ShardCursor> RadosStorage::NewShardCursor(const ReadPoint*, std::string_view space,
                                                          ShardSplitter, const CursorOptions&) {
  return std::make_unique<RadosShardCursor>(&io_, std::string(space));
}

Status RadosStorage::Get(const ReadPoint*, const Address& address,
                         std::optional<std::string>* value) {
  RadosLocation where = Locate({address.space, address.shard});
  where.key_prefix.append(address.key);
  return ReadOmapValue(io_, where.object, where.key_prefix, value);
}

std::unique_ptr<Batch> RadosStorage::NewBatch() { return std::make_unique<RadosBatch>(); }

std::vector<std::string> RadosStorage::AddIndexKeys(RadosBatch* batch) {
  std::vector<std::string> added;
  std::lock_guard lock(indexed_mutex_);
  for (const auto& [space, shard] : batch->shards_put()) {
    std::string key = IndexedKey(space, shard);
    if (indexed_.count(key) != 0) continue;
    added.push_back(std::move(key));
  }
  for (const std::string& key : added) {
    const auto space_size = static_cast<size_t>(static_cast<unsigned char>(key[0]));
    const std::string_view space = std::string_view(key).substr(1, space_size);
    const std::string_view shard = std::string_view(key).substr(1 + space_size);
    batch->PutRaw(IndexObject(space, static_cast<unsigned char>(shard[0])), std::string(shard),
                  std::string());
  }
  return added;
}

Status RadosStorage::Commit(Batch* generic, Durability) {
  auto* batch = static_cast<RadosBatch*>(generic);
  if (batch->empty()) return Status::Ok();
  if (!log_) return Status::ReadOnly("the store is open read-only");
  std::vector<std::string> indexed = AddIndexKeys(batch);
  // Several objects: logged first, so that all of it lands or, after a
  // replay, all of it.
  const bool logged = batch->writes().size() > 1;
  uint64_t entry = 0;
  if (logged) {
    // This mount's commits that failed half-way land before this one, so
    // that none lands over a later one (catalog records are rewritten in
    // place).
    size_t replayed = 0;
    std::set<std::string> objects;
    const Status finished = log_->ReplayFailed(&replayed, &objects);
    if (!objects.empty()) watches_->Replayed(objects);
    CELLFS_RETURN_IF_ERROR(finished);
    CELLFS_RETURN_IF_ERROR(log_->Record(*batch, &entry));
  }
  bool transient = true;
  const Status applied = CommitRadosBatch(io_, *batch, &transient);
  if (!applied.ok()) {
    // Finished by Maintain, or before the next logged commit, unless it can
    // never apply (then what did land of it stays).
    if (logged && transient) log_->Failed(entry);
    if (logged && !transient) (void)log_->Done(entry);
    return applied;
  }
  if (logged) (void)log_->Done(entry);  // a failed trim is retried by the next log write
  if (!indexed.empty()) {
    std::lock_guard lock(indexed_mutex_);
    if (indexed_.size() + indexed.size() > kIndexedLimit) indexed_.clear();
    for (std::string& key : indexed) indexed_.insert(std::move(key));
  }
  watches_->Committed(batch->spaces());
  return Status::Ok();
}

Status RadosStorage::CompareAndSet(const Address& address,
                                   const std::optional<std::string>& expected,
                                   std::string_view value) {
  if (!log_) return Status::ReadOnly("the store is open read-only");
  RadosLocation where = Locate({address.space, address.shard});
  where.key_prefix.append(address.key);
  CELLFS_RETURN_IF_ERROR(GuardedUpdate(
      io_, where.object, where.key_prefix,
      [&](const std::optional<std::string>& current, std::optional<std::string>* next) {
        if (current != expected) return Status::FailedPrecondition("the value changed");
        *next = std::string(value);
        return Status::Ok();
      }));
  watches_->Committed({std::string(address.space)});
  return Status::Ok();
}

WatchId RadosStorage::Watch(std::string_view space, WatchCallback callback) {
  return watches_->Add(space, std::move(callback));
}

void RadosStorage::Unwatch(WatchId id) { watches_->Remove(id); }

bool RadosStorage::Acquire(std::string_view name, int64_t ttl_ms) {
  timeval duration{static_cast<time_t>(ttl_ms / 1000),
                   static_cast<suseconds_t>((ttl_ms % 1000) * 1000)};
  return io_.lock_exclusive(LeaseObject(name), std::string(kLeaseLockName), mount_id_, "lease",
                            &duration, LIBRADOS_LOCK_FLAG_MAY_RENEW) == 0;
}

void RadosStorage::Release(std::string_view name) {
  (void)io_.unlock(LeaseObject(name), std::string(kLeaseLockName), mount_id_);
}

void RadosStorage::Retire(std::string_view name) {
  Release(name);
  (void)io_.remove(LeaseObject(name));
}

Status RadosStorage::ForgetEmptyShards(std::string_view space, std::string_view end, size_t* budget,
                                       std::vector<std::string>* forgotten) {
  if (!log_) return Status::ReadOnly("the store is open read-only");
  const size_t before = forgotten->size();
  Status status = ForgetEmptyRadosShards(io_, space, end, budget, forgotten);
  std::lock_guard lock(indexed_mutex_);
  for (size_t i = before; i < forgotten->size(); ++i) {
    indexed_.erase(IndexedKey(space, (*forgotten)[i]));
  }
  return status;
}

}  // namespace cellfs::storage
