// StoreLocation: where a store lives, as the user spells it on every
// command: a data directory, or `rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE]` for a
// pool of a Ceph cluster (docs/SCALEOUT.md), with `&ns=NAME` for a store
// kept in one RADOS namespace of the pool (several stores per pool).
#pragma once

#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs::storage {

struct StoreLocation {
  enum class Kind { kDirectory, kRados };
  Kind kind = Kind::kDirectory;
  std::string directory;  // kDirectory: the spelling as given
  // kRados: the pool, and the cluster's ceph.conf and client id (empty:
  // librados's defaults, i.e. $CEPH_CONF or /etc/ceph/ceph.conf, and
  // client.admin).
  std::string pool;
  std::string conf;
  std::string id;
  std::string ns;  // the RADOS namespace; empty: the pool's default one
};

// True when `spelling` names a RADOS pool (starts with "rados:").
bool IsRadosSpelling(std::string_view spelling);

// Parses a store's spelling. Anything not starting with "rados:" is a
// directory. InvalidArgument, naming what is wrong, for a rados spelling
// without a pool, with an unknown or repeated parameter, or with an empty
// value.
Result<StoreLocation> ParseStoreLocation(std::string_view spelling);

}  // namespace cellfs::storage
