// ForgetEmptyRadosShards (engine/store/storage/rados/rados_forget_shards.h).
#include "engine/store/storage/rados/rados_forget_shards.h"

#include <cerrno>
#include <map>
#include <memory>
#include <set>

#include "engine/store/storage/rados/rados_layout.h"
#include "engine/store/storage/rados/rados_status.h"

namespace cellfs::storage {
namespace {

constexpr unsigned kIndexPage = 256;

// What a shard's object holds: whether any key is the shard's own
// (`mine`), whether it holds any key at all, and its version (0: absent).
struct ShardObject {
  bool mine = false;
  bool any = false;
  uint64_t version = 0;
};

Status ReadShardObject(librados::IoCtx& io, const RadosLocation& where, ShardObject* out) {
  *out = ShardObject{};
  librados::ObjectReadOperation read;
  std::map<std::string, librados::bufferlist> own;
  std::set<std::string> any;
  bool more = false;
  int own_result = 0;
  int any_result = 0;
  read.omap_get_vals2("", where.key_prefix, 1, &own, &more, &own_result);
  read.omap_get_keys2("", 1, &any, &more, &any_result);
  std::unique_ptr<librados::AioCompletion> done(librados::Rados::aio_create_completion());
  // The version comes with the completion (see rados_guarded_update.cc).
  int result = io.aio_operate(where.object, done.get(), &read, nullptr);
  if (result >= 0) {
    done->wait_for_complete();
    result = done->get_return_value();
  }
  if (result == -ENOENT) return Status::Ok();
  if (result >= 0) result = own_result < 0 ? own_result : any_result;
  CELLFS_RETURN_IF_ERROR(FromRados(result, "reading " + where.object));
  out->mine = !own.empty();
  out->any = !any.empty();
  out->version = done->get_version64();
  return Status::Ok();
}

// Forgets `shard` when it is empty; sets *gone accordingly.
Status ForgetShard(librados::IoCtx& io, std::string_view space, const std::string& shard,
                   bool* gone) {
  *gone = false;
  const RadosLocation where = Locate({space, shard});
  ShardObject object;
  CELLFS_RETURN_IF_ERROR(ReadShardObject(io, where, &object));
  if (object.mine) return Status::Ok();
  if (object.version != 0 && !object.any) {
    librados::ObjectWriteOperation remove;
    remove.assert_version(object.version);
    remove.remove();
    const int removed = io.operate(where.object, &remove);
    // Written since the read (ERANGE, EOVERFLOW): it stays listed.
    if (removed == -ERANGE || removed == -EOVERFLOW) return Status::Ok();
    if (removed != -ENOENT) CELLFS_RETURN_IF_ERROR(FromRados(removed, "removing " + where.object));
  }
  const int unlisted = io.omap_rm_keys(IndexObject(space, static_cast<unsigned char>(shard[0])),
                                       std::set<std::string>{shard});
  if (unlisted != -ENOENT) {
    CELLFS_RETURN_IF_ERROR(FromRados(unlisted, "updating the index of " + where.object));
  }
  *gone = true;
  return Status::Ok();
}

// Removes a listing object left with no key, guarded by the version its
// emptiness was read at (a shard listed meanwhile keeps it).
Status RemoveIfEmpty(librados::IoCtx& io, const std::string& index) {
  const RadosLocation whole{index, std::string()};
  ShardObject object;
  CELLFS_RETURN_IF_ERROR(ReadShardObject(io, whole, &object));
  if (object.version == 0 || object.any) return Status::Ok();
  librados::ObjectWriteOperation remove;
  remove.assert_version(object.version);
  remove.remove();
  const int removed = io.operate(index, &remove);
  if (removed == -ERANGE || removed == -EOVERFLOW || removed == -ENOENT) return Status::Ok();
  return FromRados(removed, "removing " + index);
}

}  // namespace

Status ForgetEmptyRadosShards(librados::IoCtx& io, std::string_view space, std::string_view end,
                              size_t* budget, std::vector<std::string>* forgotten) {
  const unsigned last = end.empty() ? 255 : static_cast<unsigned char>(end[0]);
  for (unsigned bucket = 0; bucket <= last; ++bucket) {
    const std::string index = IndexObject(space, static_cast<unsigned char>(bucket));
    std::string after;
    bool unlisted = false;
    for (bool more = true; more;) {
      std::set<std::string> shards;
      more = false;
      const int listed = io.omap_get_keys2(index, after, kIndexPage, &shards, &more);
      if (listed == -ENOENT) break;
      CELLFS_RETURN_IF_ERROR(FromRados(listed, "listing the shards of a space"));
      for (const std::string& shard : shards) {
        if (!end.empty() && shard >= end) return Status::Ok();
        if (budget != nullptr) {
          if (*budget == 0) return Status::Ok();
          --*budget;
        }
        bool gone = false;
        CELLFS_RETURN_IF_ERROR(ForgetShard(io, space, shard, &gone));
        if (gone) forgotten->push_back(shard);
        unlisted = unlisted || gone;
      }
      if (!shards.empty()) after = *shards.rbegin();
    }
    if (unlisted) CELLFS_RETURN_IF_ERROR(RemoveIfEmpty(io, index));
  }
  return Status::Ok();
}

}  // namespace cellfs::storage
