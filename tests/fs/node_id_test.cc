// NodeId encoding: round trips, distinct ids stay distinct, garbage refused.
#include "fs/tree/node_id.h"

#include <catch2/catch.hpp>
#include <random>

#include "fs/tree/errno_map.h"

namespace cellfs::fs {
namespace {

NodeId RandomId(std::mt19937_64& rng) {
  auto text = [&] {
    std::string s(rng() % 4, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 3);
    return s;
  };
  auto list = [&] {
    std::vector<std::string> l(rng() % 3);
    for (auto& s : l) s = text();
    return l;
  };
  NodeId id;
  id.kind = static_cast<NodeKind>(rng() % 8);
  id.keyspace = text();
  id.table = text();
  id.table_id = static_cast<uint32_t>(rng() % 3);
  id.partition_key = list();
  id.slice = list();
  id.clustering = list();
  id.column_id = static_cast<uint32_t>(rng() % 3);
  if (rng() % 2) id.write.ttl = static_cast<int64_t>(rng() % 3);
  if (rng() % 2) id.write.timestamp = -static_cast<int64_t>(rng() % 3);
  id.file = static_cast<VirtualName::Kind>(rng() % 9);
  id.directory = static_cast<NodeKind>(rng() % 8);
  return id;
}

TEST_CASE("node ids round-trip and equal bytes mean equal ids", "[node_id]") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 3000; ++i) {
    NodeId a = RandomId(rng), b = RandomId(rng);
    NodeId back;
    REQUIRE(DecodeNodeId(EncodeNodeId(a), &back).ok());
    CHECK(back == a);
    CHECK((EncodeNodeId(a) == EncodeNodeId(b)) == (a == b));
  }
}

TEST_CASE("list boundaries are part of the identity", "[node_id]") {
  NodeId a, b;
  a.partition_key = {"ab"};
  b.partition_key = {"a", "b"};
  CHECK(EncodeNodeId(a) != EncodeNodeId(b));
  a.partition_key = {"a"};
  a.clustering = {};
  b.partition_key = {};
  b.clustering = {"a"};
  CHECK(EncodeNodeId(a) != EncodeNodeId(b));
}

TEST_CASE("bytes that are not an identity are corruption", "[node_id]") {
  NodeId id;
  CHECK(DecodeNodeId("", &id).code() == StatusCode::kCorruption);
  std::string good = EncodeNodeId(NodeId{});
  CHECK(DecodeNodeId(good + "x", &id).code() == StatusCode::kCorruption);
  CHECK(DecodeNodeId(good.substr(0, good.size() - 1), &id).code() == StatusCode::kCorruption);
  std::string bad_kind = good;
  bad_kind[0] = 42;
  CHECK(DecodeNodeId(bad_kind, &id).code() == StatusCode::kCorruption);
}

TEST_CASE("every status code maps to the errno the design names", "[errno_map]") {
  CHECK(ErrnoFromStatus(Status::Ok()) == 0);
  CHECK(ErrnoFromStatus(Status::InvalidArgument("x")) == EINVAL);
  CHECK(ErrnoFromStatus(Status::NotFound("x")) == ENOENT);
  CHECK(ErrnoFromStatus(Status::AlreadyExists("x")) == EEXIST);
  CHECK(ErrnoFromStatus(Status::NameTooLong("x")) == ENAMETOOLONG);
  CHECK(ErrnoFromStatus(Status::NotSupported("x")) == EOPNOTSUPP);
  CHECK(ErrnoFromStatus(Status::FailedPrecondition("x")) == ENOTEMPTY);
  CHECK(ErrnoFromStatus(Status::ReadOnly("x")) == EROFS);
  CHECK(ErrnoFromStatus(Status::IOError("x")) == EIO);
  CHECK(ErrnoFromStatus(Status::Corruption("x")) == EIO);
}

}  // namespace
}  // namespace cellfs::fs
