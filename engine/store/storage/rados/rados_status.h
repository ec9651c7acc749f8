// A librados return code as a Status: what the RADOS backend's calls give
// back (the seam's errors: IOError for a cluster that failed or timed out).
#pragma once

#include <cerrno>
#include <cstring>
#include <string>

#include "engine/status.h"

namespace cellfs::storage {

// `result` is a librados return code (negative errno on failure); `what`
// names the call and object for the message.
inline Status FromRados(int result, const std::string& what) {
  if (result >= 0) return Status::Ok();
  return Status::IOError(what + ": " + std::strerror(-result));
}

// Whether a failed call may succeed if made again unchanged: the cluster
// or the network failed or timed out, or the pool was full. Anything else
// (a bad name, a value too big) fails every time.
inline bool IsTransientRadosError(int result) {
  switch (-result) {
    case ETIMEDOUT:
    case ENOTCONN:
    case ECONNRESET:
    case ECONNREFUSED:
    case ESHUTDOWN:
    case EAGAIN:
    case EINTR:
    case EIO:
    case ENOSPC:
    case EDQUOT:
      return true;
    default:
      return false;
  }
}

}  // namespace cellfs::storage
