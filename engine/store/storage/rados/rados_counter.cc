// RadosCounter (engine/store/storage/rados/rados_counter.h).
#include "engine/store/storage/rados/rados_counter.h"

#include <limits>

#include "engine/cql/big_endian.h"
#include "engine/store/storage/rados/rados_guarded_update.h"
#include "engine/store/storage/rados/rados_layout.h"

namespace cellfs::storage {
namespace {

constexpr size_t kCounterBytes = 8;

Status Decode(std::string_view name, const std::optional<std::string>& bytes,
              std::optional<uint64_t>* value) {
  value->reset();
  if (!bytes) return Status::Ok();
  if (bytes->size() != kCounterBytes) {
    return Status::Corruption(std::string(name) + " is not 8 bytes");
  }
  *value = ReadBigEndian(*bytes);
  return Status::Ok();
}

}  // namespace

RadosCounter::RadosCounter(librados::IoCtx* io) : io_(io), object_(Locate({"M", ""}).object) {}

Status RadosCounter::Load(std::string_view name, std::optional<uint64_t>* value) {
  std::optional<std::string> bytes;
  CELLFS_RETURN_IF_ERROR(ReadOmapValue(*io_, object_, std::string(name), &bytes));
  return Decode(name, bytes, value);
}

Status RadosCounter::Update(std::string_view name, const Step& step) {
  return GuardedUpdate(
      *io_, object_, std::string(name),
      [&](const std::optional<std::string>& current, std::optional<std::string>* next) {
        std::optional<uint64_t> value;
        CELLFS_RETURN_IF_ERROR(Decode(name, current, &value));
        std::optional<uint64_t> stored;
        CELLFS_RETURN_IF_ERROR(step(value, &stored));
        if (stored) *next = BigEndianBytes(*stored, kCounterBytes);
        return Status::Ok();
      });
}

Status RadosCounter::Raise(std::string_view name, uint64_t at_least, uint64_t* bound) {
  CELLFS_RETURN_IF_ERROR(
      Update(name, [&](std::optional<uint64_t> current, std::optional<uint64_t>* next) {
        *bound = current && *current >= at_least ? *current : at_least;
        if (!current || *current < at_least) *next = at_least;
        return Status::Ok();
      }));
  return Status::Ok();
}

Status RadosCounter::Reserve(std::string_view name, uint64_t initial, uint64_t count,
                             uint64_t* start) {
  CELLFS_RETURN_IF_ERROR(
      Update(name, [&](std::optional<uint64_t> current, std::optional<uint64_t>* next) {
        *start = current.value_or(initial);
        if (*start > std::numeric_limits<uint64_t>::max() - count) {
          return Status::Corruption(std::string(name) + " would overflow");
        }
        *next = *start + count;
        return Status::Ok();
      }));
  return Status::Ok();
}

Status RadosCounter::Store(std::string_view name, uint64_t value) {
  return Update(name, [&](std::optional<uint64_t>, std::optional<uint64_t>* next) {
    *next = value;
    return Status::Ok();
  });
}

}  // namespace cellfs::storage
