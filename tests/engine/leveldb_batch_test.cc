// LevelDbBatch hands LevelDB its entries in key order: keys sorted bytewise
// (unsigned, as LevelDB's comparator), entries of one key in the order they
// were put, so the last write of a key still wins; and a batch reused after
// Clear starts empty.
#include "engine/store/storage/leveldb/leveldb_batch.h"

#include <leveldb/write_batch.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace cellfs::storage {
namespace {

// Records a WriteBatch as "put key=value" / "del key" lines.
struct Recorder : leveldb::WriteBatch::Handler {
  std::vector<std::string> lines;
  void Put(const leveldb::Slice& key, const leveldb::Slice& value) override {
    lines.push_back("put " + key.ToString() + "=" + value.ToString());
  }
  void Delete(const leveldb::Slice& key) override { lines.push_back("del " + key.ToString()); }
};

std::vector<std::string> Lines(LevelDbBatch* batch) {
  Recorder recorder;
  REQUIRE(batch->rep()->Iterate(&recorder).ok());
  return recorder.lines;
}

Address At(const std::string& space, const std::string& shard, const std::string& key) {
  return {space, shard, key};
}

TEST_CASE("a batch reaches LevelDB in key order, equal keys in put order") {
  LevelDbBatch batch;
  batch.Put(At("D", "p9", "k"), "1");
  batch.Delete(At("D", "p1", "k"));
  batch.Put(At("D", "p1", "k"), "2");  // the same key after its delete: the put stays last
  batch.Put(At("D", "p10", "k"), "3");
  batch.Put(At("D", "p1", "k"), "4");  // and a second put of it after that
  batch.Put(At("A", "", "x"), "5");
  CHECK(Lines(&batch) == std::vector<std::string>{"put Ax=5", "put Dp10k=3", "del Dp1k",
                                                  "put Dp1k=2", "put Dp1k=4", "put Dp9k=1"});
  // The spaces, in first-write order, for watches.
  CHECK(batch.spaces() == std::vector<std::string>{"D", "A"});
  // The size is the LevelDB batch's own, deletes and long keys included.
  CHECK(batch.ApproximateSize() == batch.rep()->ApproximateSize());
  batch.Put(At("L", std::string(200, 'k'), ""), std::string(20000, 'v'));
  CHECK(batch.ApproximateSize() == batch.rep()->ApproximateSize());
}

TEST_CASE("the order is LevelDB's: unsigned bytes, and a key before its extensions") {
  LevelDbBatch batch;
  const std::string high = "\xff", low = "\x01";
  batch.Put(At("", "", high), "h");
  batch.Put(At("", "", "abcdefghij"), "long");  // shares 8 bytes with the next key
  batch.Put(At("", "", "abcdefgh"), "short");   // its prefix: sorts first
  batch.Put(At("", "", "abcdefghia"), "mid");
  batch.Put(At("", "", low), "l");
  batch.Put(At("", "", ""), "empty");
  CHECK(Lines(&batch) == std::vector<std::string>{"put =empty", "put \x01=l", "put abcdefgh=short",
                                                  "put abcdefghia=mid", "put abcdefghij=long",
                                                  "put \xff=h"});
}

TEST_CASE("a cleared batch is empty and takes new entries; rep() is stable between changes") {
  LevelDbBatch batch;
  CHECK(batch.empty());
  CHECK(Lines(&batch).empty());
  batch.Put(At("D", "b", ""), "1");
  batch.Put(At("D", "a", ""), "2");
  CHECK_FALSE(batch.empty());
  CHECK(batch.ApproximateSize() == batch.rep()->ApproximateSize());
  CHECK(Lines(&batch) == std::vector<std::string>{"put Da=2", "put Db=1"});
  CHECK(Lines(&batch) == std::vector<std::string>{"put Da=2", "put Db=1"});
  batch.Put(At("D", "0", ""), "3");  // a change after rep(): the next rep() includes it
  CHECK(Lines(&batch) == std::vector<std::string>{"put D0=3", "put Da=2", "put Db=1"});
  batch.Clear();
  CHECK(batch.empty());
  CHECK(batch.spaces().empty());
  CHECK(Lines(&batch).empty());
  batch.Delete(At("E", "z", ""));
  CHECK(Lines(&batch) == std::vector<std::string>{"del Ez"});
  CHECK(batch.spaces() == std::vector<std::string>{"E"});
}

}  // namespace
}  // namespace cellfs::storage
