// TestPool: a connection to the test cluster's `cellfs` pool, for the
// tests of the RADOS backend (CTest's `ceph` fixture starts the cluster
// with tools/ceph-test-cluster.sh and sets CEPH_CONF to its ceph.conf).
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <rados/librados.hpp>

namespace cellfs::rados_test {

class TestPool {
 public:
  TestPool() {
    const char* conf = std::getenv("CEPH_CONF");
    REQUIRE(conf != nullptr);
    REQUIRE(rados_.init(nullptr) == 0);
    REQUIRE(rados_.conf_read_file(conf) == 0);
    REQUIRE(rados_.connect() == 0);
    REQUIRE(rados_.ioctx_create("cellfs", io_) == 0);
  }
  ~TestPool() {
    io_.close();
    rados_.shutdown();
  }
  TestPool(const TestPool&) = delete;
  TestPool& operator=(const TestPool&) = delete;
  librados::IoCtx& io() { return io_; }

 private:
  librados::Rados rados_;
  librados::IoCtx io_;
};

}  // namespace cellfs::rados_test
