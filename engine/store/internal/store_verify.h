// VerifyStore: the offline check behind `cellfs verify` (docs/ENGINE.md
// "Verifying a store"): every data, index, view and expiry-index entry of
// the store read once and decoded against the schema.
#pragma once

#include "engine/status.h"
#include "engine/store/verify_report.h"

namespace cellfs {

struct EngineCore;

namespace storage {

// Walks the whole store at one read point, with memory flat in its size.
// Faults go into `*report`; the Status is a failure to read (IOError), not
// a fault found.
Status VerifyStore(EngineCore* core, VerifyReport* report);

}  // namespace storage
}  // namespace cellfs
