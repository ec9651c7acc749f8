// The durable bound on server write times (docs/FORMAT.md, metadata
// `write_time`): read at open, raised ahead of the clock by WriteTimeSource's
// lease, so write times keep increasing across a crash and a clock step back.
#pragma once

#include <cstdint>

#include "engine/status.h"
#include "engine/store/internal/write_fence.h"

namespace cellfs::storage {
class Storage;
}

namespace cellfs::storage {

// How far ahead of the clock a lease reaches. The price of a window: after
// a crash, write times may lead the clock by up to one window; while writes
// go on, one synced write per window (docs/RELIABILITY.md "Write times
// across crashes").
inline constexpr int64_t kWriteTimeLeaseMicros = 1'000'000;

// The stored bound: every write time handed out before is below it. (Stores
// written before leases hold there the mark a clean close stored, which
// means the same.) INT64_MIN when none; Corruption when not 8 bytes.
Status LoadWriteTimeBound(Storage* storage, int64_t* bound);

// Stores `bound` (Counter::Store: lowering it is the clean close's right)
// with a synced write that passes `fence`: it is refused
// once the fence is closed, and a failure closes it. Thread-safe.
Status StoreWriteTimeBound(Storage* storage, WriteFence* fence, int64_t bound);

}  // namespace cellfs::storage
