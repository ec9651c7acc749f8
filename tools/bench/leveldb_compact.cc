// Compacts a LevelDB database directory as a whole (DB::CompactRange over
// every key), so that a space comparison (run_disk_bytes_bench.sh) measures
// each store after compaction: one version of each key, tombstones
// dropped. Works on any LevelDB directory with the default comparator: a
// cellfs data directory (not mounted) and TableFS's metadata store alike.
// The tables it writes take the options given, which should be the
// store's own (cellfs: Bloom filters of 10 bits a key, Snappy; TableFS:
// 12 bits, no compression).
// Usage: leveldb_compact [--bloom-bits=N] [--no-compression] DIR
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

int main(int argc, char** argv) {
  leveldb::Options options;  // create_if_missing stays false: DIR must hold a database
  std::unique_ptr<const leveldb::FilterPolicy> filter;
  const char* dir = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--bloom-bits=")) {
      filter.reset(leveldb::NewBloomFilterPolicy(std::atoi(argv[i] + 13)));
      options.filter_policy = filter.get();
    } else if (arg == "--no-compression") {
      options.compression = leveldb::kNoCompression;
    } else if (dir == nullptr && !arg.starts_with("-")) {
      dir = argv[i];
    } else {
      dir = nullptr;
      break;
    }
  }
  if (dir == nullptr) {
    std::fprintf(stderr, "usage: leveldb_compact [--bloom-bits=N] [--no-compression] DIR\n");
    return 2;
  }
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, dir, &raw);
  if (!s.ok()) {
    std::fprintf(stderr, "leveldb_compact: %s: %s\n", dir, s.ToString().c_str());
    return 1;
  }
  std::unique_ptr<leveldb::DB> db(raw);
  db->CompactRange(nullptr, nullptr);
  return 0;
}
