// Status -> errno, in one place (fs/tree/errno_map.h).
#include "fs/tree/errno_map.h"

#include <cerrno>

#include "fs/tree/refusal_log.h"

namespace cellfs::fs {
namespace {

int ErrnoOf(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return 0;
    case StatusCode::kInvalidArgument:
      return EINVAL;
    case StatusCode::kNotFound:
      return ENOENT;
    case StatusCode::kAlreadyExists:
      return EEXIST;
    case StatusCode::kNameTooLong:
      return ENAMETOOLONG;
    case StatusCode::kNotSupported:
      return EOPNOTSUPP;
    case StatusCode::kFailedPrecondition:
      return ENOTEMPTY;
    case StatusCode::kReadOnly:
      return EROFS;
    case StatusCode::kNoSpace:
      return ENOSPC;
    case StatusCode::kAborted:
      return EAGAIN;
    case StatusCode::kCorruption:
    case StatusCode::kIOError:
      return EIO;
  }
  return EIO;
}

}  // namespace

int ErrnoFromStatus(const Status& status) {
  const int err = ErrnoOf(status);
  if (err != 0) NoteRefusalReason(err, status.message());
  return err;
}

}  // namespace cellfs::fs
