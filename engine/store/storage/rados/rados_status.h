// A librados return code as a Status: what the RADOS backend's calls give
// back (the seam's errors: IOError for a cluster that failed or timed out).
#pragma once

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

}  // namespace cellfs::storage
