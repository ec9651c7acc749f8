// GuardedUpdate and ReadOmapValue
// (engine/store/storage/rados/rados_guarded_update.h).
#include "engine/store/storage/rados/rados_guarded_update.h"

#include <cerrno>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "engine/store/storage/rados/rados_status.h"

namespace cellfs::storage {
namespace {

constexpr int kAttempts = 100;

// One read of `key` and the object's version (0 when the object is absent).
Status ReadVersioned(librados::IoCtx& io, const std::string& object, const std::string& key,
                     std::optional<std::string>* value, uint64_t* version) {
  value->reset();
  *version = 0;
  librados::ObjectReadOperation read;
  std::map<std::string, librados::bufferlist> found;
  int key_result = 0;
  read.omap_get_vals_by_keys({key}, &found, &key_result);
  std::unique_ptr<librados::AioCompletion> done(librados::Rados::aio_create_completion());
  // The version comes with the completion: IoCtx::get_last_version would be
  // another thread's when the IoCtx is shared.
  int result = io.aio_operate(object, done.get(), &read, nullptr);
  if (result >= 0) {
    done->wait_for_complete();
    result = done->get_return_value();
  }
  if (result == -ENOENT) return Status::Ok();
  if (result >= 0 && key_result < 0) result = key_result;
  CELLFS_RETURN_IF_ERROR(FromRados(result, "reading " + object));
  *version = done->get_version64();
  auto it = found.find(key);
  if (it != found.end()) *value = it->second.to_str();
  return Status::Ok();
}

}  // namespace

Status ReadOmapValue(librados::IoCtx& io, const std::string& object, const std::string& key,
                     std::optional<std::string>* value) {
  uint64_t version = 0;
  return ReadVersioned(io, object, key, value, &version);
}

Status GuardedUpdate(librados::IoCtx& io, const std::string& object, const std::string& key,
                     const DecideUpdate& decide) {
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::optional<std::string> current;
    uint64_t version = 0;
    CELLFS_RETURN_IF_ERROR(ReadVersioned(io, object, key, &current, &version));
    std::optional<std::string> next;
    CELLFS_RETURN_IF_ERROR(decide(current, &next));
    if (!next) return Status::Ok();
    librados::ObjectWriteOperation write;
    if (version == 0) {
      write.create(/*exclusive=*/true);
    } else {
      write.assert_version(version);
    }
    std::map<std::string, librados::bufferlist> set;
    set[key].append(*next);
    write.omap_set(set);
    const int result = io.operate(object, &write);
    // Lost the race: the object changed (ERANGE, EOVERFLOW) or appeared
    // (EEXIST) since the read.
    if (result == -ERANGE || result == -EOVERFLOW || result == -EEXIST) {
      std::this_thread::sleep_for(std::chrono::microseconds(100 * (attempt + 1)));
      continue;
    }
    return FromRados(result, "writing " + object);
  }
  return Status::IOError("updating " + object + ": other clients kept changing it");
}

}  // namespace cellfs::storage
