// Loads one wide partition into a cellfs data directory (not mounted) for
// fs_bench's listing test: ROWS rows of `(p int, c int, v text)`, 1000 per
// mutation. Usage: fs_bench_load DATADIR KEYSPACE.TABLE PARTITION ROWS.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/engine.h"

namespace cellfs {
namespace {

constexpr size_t kBatch = 1000;

// The serialized form of an int (docs/FORMAT.md "Values"): 4 bytes,
// big-endian two's complement.
std::string SerializeInt(int32_t v) {
  uint32_t bits = static_cast<uint32_t>(v);
  std::string out(4, '\0');
  for (size_t i = 4; i-- > 0; bits >>= 8) out[i] = static_cast<char>(bits & 0xFF);
  return out;
}

int Fail(const std::string& what, const Status& s) {
  std::fprintf(stderr, "fs_bench_load: %s: %s\n", what.c_str(), s.ToString().c_str());
  return 1;
}

int Main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: fs_bench_load DATADIR KEYSPACE.TABLE PARTITION ROWS\n");
    return 2;
  }
  const std::string qualified = argv[2];
  const size_t dot = qualified.find('.');
  const int32_t partition = static_cast<int32_t>(std::atol(argv[3]));
  const size_t rows = std::strtoul(argv[4], nullptr, 10);
  if (dot == std::string::npos || rows == 0 || rows > INT32_MAX) {
    std::fprintf(stderr, "fs_bench_load: want KEYSPACE.TABLE and 1 <= ROWS <= 2^31-1\n");
    return 2;
  }
  EngineOptions options;
  options.create_if_missing = false;
  options.background_sweeper = false;
  Result<std::unique_ptr<Engine>> engine = Engine::Open(argv[1], options);
  if (!engine.ok()) return Fail(argv[1], engine.status());
  Result<TableHandle> table =
      (*engine)->FindTable(qualified.substr(0, dot), qualified.substr(dot + 1));
  if (!table.ok()) return Fail(qualified, table.status());
  const ColumnDef* v = (*table)->def.FindColumn("v");
  if (v == nullptr) return Fail(qualified, Status::NotFound("no column v"));
  const size_t v_index = static_cast<size_t>(v - (*table)->def.columns.data());

  auto start = std::chrono::steady_clock::now();
  const std::string pk[] = {SerializeInt(partition)};
  for (size_t done = 0; done < rows;) {
    Mutation m = (*engine)->NewMutation();
    for (size_t j = 0; j < kBatch && done < rows; ++j, ++done) {
      const std::string ck[] = {SerializeInt(static_cast<int32_t>(done))};
      const ColumnValue cells[] = {{v_index, "cell value " + std::to_string(done)}};
      if (Status s = m.Insert(*table, pk, ck, cells); !s.ok()) return Fail("insert", s);
    }
    if (Status s = (*engine)->Apply(std::move(m)); !s.ok()) return Fail("apply", s);
  }
  if (Status s = (*engine)->Sync(); !s.ok()) return Fail("sync", s);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fs_bench_load: %zu rows into %s partition %d in %.1f s (%.0f rows/s)\n", rows,
              qualified.c_str(), partition, seconds, static_cast<double>(rows) / seconds);
  return 0;
}

}  // namespace
}  // namespace cellfs

int main(int argc, char** argv) { return cellfs::Main(argc, argv); }
