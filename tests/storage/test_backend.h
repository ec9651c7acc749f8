// TestBackend: one fresh store of the backend a storage contract test is
// built for (tests/storage/storage_contract_test.cc is compiled once per
// backend, each with its own NewTestBackend).
#pragma once

#include <memory>

#include "engine/store/storage/storage.h"

namespace cellfs::storage::test {

class TestBackend {
 public:
  virtual ~TestBackend() = default;
  // A handle on this backend's store: the first makes it, a later one
  // opens it again (a reopen; on a shared backend another mount).
  // REQUIRES for backends that are not shared: the handle before it is
  // closed.
  virtual std::unique_ptr<Storage> Open() = 0;
  // True when several handles may be open at once (several mounts).
  virtual bool shared() const = 0;
};

// A fresh, empty store of the backend under test.
std::unique_ptr<TestBackend> NewTestBackend();

}  // namespace cellfs::storage::test
