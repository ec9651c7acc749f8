// The one place where an engine Status becomes the errno a shell shows.
#pragma once

#include "engine/status.h"

namespace cellfs::fs {

// 0 for ok; otherwise a positive errno:
//   InvalidArgument -> EINVAL      NotFound -> ENOENT
//   AlreadyExists   -> EEXIST      NameTooLong -> ENAMETOOLONG
//   NotSupported    -> EOPNOTSUPP  FailedPrecondition -> ENOTEMPTY
//   Corruption, IOError -> EIO     ReadOnly -> EROFS
// FailedPrecondition is what the fs reports for a directory that must be
// empty and is not (rmdir of a keyspace or table with content); the fs maps
// the engine's other FailedPrecondition uses (dropping a type in use) to
// EINVAL itself, before calling this.
// A non-ok status's message is noted as the current request's refusal
// reason (NoteRefusalReason, fs/tree/refusal_log.h): MOUNT/@errors shows it.
int ErrnoFromStatus(const Status& status);

}  // namespace cellfs::fs
