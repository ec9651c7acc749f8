// GuardedUpdate: a read-modify-write of one omap value that no other
// client's write to the same object can slip between (RADOS has no
// multi-step transaction): the compare-and-set and counters of the RADOS
// backend are built on it.
#pragma once

#include <functional>
#include <optional>
#include <rados/librados.hpp>
#include <string>

#include "engine/status.h"

namespace cellfs::storage {

// Given the current value (nullopt: absent), sets *next to the value to
// store, or leaves it nullopt to store nothing; a non-ok status stops the
// update and is returned. May be called more than once (once per attempt).
using DecideUpdate = std::function<Status(const std::optional<std::string>& current,
                                          std::optional<std::string>* next)>;

// Reads `key` of `object` with the object's version, calls `decide`, and
// writes its value guarded by that version (or by an exclusive create when
// the object did not exist); when another client wrote the object in
// between, starts over. The write is durable when it returns (acknowledged
// by every replica the pool requires). IOError when the cluster fails, or
// when 100 attempts in a row lost the race.
Status GuardedUpdate(librados::IoCtx& io, const std::string& object, const std::string& key,
                     const DecideUpdate& decide);

// The current value of `key` in `object`; nullopt when absent.
Status ReadOmapValue(librados::IoCtx& io, const std::string& object, const std::string& key,
                     std::optional<std::string>* value);

}  // namespace cellfs::storage
