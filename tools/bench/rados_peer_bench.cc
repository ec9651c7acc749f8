// The raw-librados peer of cellfs on RADOS (issue 19's benchmark, run by
// run_rados_bench.sh): the object operations cellfs sends for a bulk load and
// for small cells, on keys and values of the sizes cellfs writes, and nothing
// else. Usage: see Usage(); figures: docs/BENCHMARKS.md "Scale-out on RADOS".
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <rados/librados.hpp>
#include <set>
#include <string>
#include <vector>

namespace cellfs {
namespace {

using Clock = std::chrono::steady_clock;

// @insert applies a batch once its encoding holds 1 MiB
// (fs/formats/insert_batcher.h); the peer cuts its batches once their keys
// and values hold as much.
constexpr size_t kBatchBytes = size_t{1} << 20;

int Usage() {
  std::fprintf(stderr,
               "usage: rados_peer_bench bulk CONF POOL NAMESPACE RUN ROWS PARTITIONS KEY_BYTES "
               "VALUE_BYTES [logged]\n"
               "         ROWS rows, partition after partition, in batches of 1 MiB of keys and\n"
               "         values: per batch one omap_set per partition object, all in flight\n"
               "         together (aio); `logged` adds what cellfs adds: the batch written to a\n"
               "         log object first when it spans objects, and a partition index key\n"
               "         per new partition\n"
               "       rados_peer_bench cells CONF POOL NAMESPACE RUN CELLS KEY_BYTES VALUE_BYTES\n"
               "         CELLS keys of one partition object, one synchronous operation at a\n"
               "         time: every create (omap_set of one key), then every stat, then\n"
               "         every read (omap_get_vals_by_keys of the key)\n"
               "RUN tags the object names, so each run writes fresh objects; the objects are\n"
               "removed after the timing. KEY_BYTES >= 9. Prints one line of name=value.\n");
  return 2;
}

[[noreturn]] void Fail(const char* what, const std::string& object, int result) {
  std::fprintf(stderr, "rados_peer_bench: %s %s: %s\n", what, object.c_str(),
               std::strerror(-result));
  std::exit(1);
}

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

std::string BigEndian(uint64_t v, size_t width) {
  std::string out(width, '\0');
  for (size_t i = width; i-- > 0; v >>= 8) out[i] = static_cast<char>(v & 0xFF);
  return out;
}

std::string Hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 0xF]);
  }
  return out;
}

uint64_t Mix(uint64_t x) {  // splitmix64's finalizer: token-like spread
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A partition's shard as cellfs spells an int partition key's: an 8-byte
// token, then the key (13 bytes).
std::string Shard(uint64_t partition) {
  return BigEndian(Mix(partition), 8) + '\x03' + BigEndian(partition ^ 0x80000000u, 4);
}

// Objects named as cellfs names them (engine/store/storage/rados/rados_layout.h),
// under a table id of the run's own.
std::string TableId(uint64_t run) { return BigEndian(0x7000 + run, 4); }
std::string PartitionObject(uint64_t run, const std::string& shard) {
  return "p." + Hex(TableId(run)) + "." + Hex(shard);
}
std::string IndexObject(uint64_t run, const std::string& shard) {
  return "i." + Hex("D" + TableId(run)) + "." + Hex(shard.substr(0, 1));
}

// Key `n` of `size` bytes (size >= 9): a data tag, filler, then n
// big-endian, so keys sort as their rows do.
std::string Key(uint64_t n, size_t size) {
  std::string key(size - 8, '\x03');
  key[0] = 'D';
  return key + BigEndian(n, 8);
}

std::string Value(uint64_t n, size_t size) {
  std::string value(size, '\0');
  uint64_t bits = 0;
  for (size_t i = 0; i < size; ++i) {
    if (i % 8 == 0) bits = Mix(n * 131 + i);
    value[i] = static_cast<char>((bits >> (i % 8 * 8)) & 0xFF);
  }
  return value;
}

struct Cluster {
  librados::Rados rados;
  librados::IoCtx io;
};

// Connects as client.admin through CONF, with cellfs's 30 s op timeouts.
std::unique_ptr<Cluster> Connect(const char* conf, const char* pool, const char* ns) {
  auto cluster = std::make_unique<Cluster>();
  int r = cluster->rados.init(nullptr);
  if (r < 0) Fail("init", conf, r);
  if ((r = cluster->rados.conf_read_file(conf)) < 0) Fail("reading", conf, r);
  // No admin socket: a cellfs daemon of the same client name may hold it.
  (void)cluster->rados.conf_set("admin_socket", "");
  (void)cluster->rados.conf_set("rados_osd_op_timeout", "30");
  (void)cluster->rados.conf_set("rados_mon_op_timeout", "30");
  if ((r = cluster->rados.connect()) < 0) Fail("connecting through", conf, r);
  if ((r = cluster->rados.ioctx_create(pool, cluster->io)) < 0) Fail("opening pool", pool, r);
  cluster->io.set_namespace(ns);
  return cluster;
}

void RemoveAll(librados::IoCtx& io, const std::set<std::string>& objects) {
  for (const std::string& object : objects) {
    const int r = io.remove(object);
    if (r < 0 && r != -ENOENT) Fail("removing", object, r);
  }
}

// One batch: per object, the omap keys to set.
using Batch = std::map<std::string, std::map<std::string, librados::bufferlist>>;

// Submits every object's omap_set at once and waits for all, as
// CommitRadosBatch does.
void CommitTogether(librados::IoCtx& io, const Batch& batch) {
  std::vector<librados::ObjectWriteOperation> ops(batch.size());
  std::vector<std::unique_ptr<librados::AioCompletion>> done;
  size_t i = 0;
  for (const auto& [object, keys] : batch) {
    ops[i].omap_set(keys);
    done.emplace_back(librados::Rados::aio_create_completion());
    const int r = io.aio_operate(object, done.back().get(), &ops[i]);
    if (r < 0) Fail("submitting", object, r);
    ++i;
  }
  i = 0;
  for (const auto& [object, keys] : batch) {
    done[i]->wait_for_complete();
    const int r = done[i++]->get_return_value();
    if (r < 0) Fail("writing", object, r);
  }
}

// What RadosBatchLog::Record writes before a batch that spans objects: the
// batch encoded (EncodeBatch's size: lengths, tags and bytes) under a new
// entry key, with the previous entry's removal.
void RecordInLog(librados::IoCtx& io, const std::string& log, const Batch& batch, uint64_t entry) {
  size_t bytes = 0;
  for (const auto& [object, keys] : batch) {
    bytes += 4 + object.size() + 4;
    for (const auto& [key, value] : keys) bytes += 4 + key.size() + 1 + 4 + value.length();
  }
  librados::ObjectWriteOperation op;
  if (entry > 0) op.omap_rm_keys({BigEndian(entry - 1, 8)});
  std::map<std::string, librados::bufferlist> set;
  set[BigEndian(entry, 8)].append(std::string(bytes, 'b'));
  op.omap_set(set);
  const int r = io.operate(log, &op);
  if (r < 0) Fail("writing the log", log, r);
}

struct BulkFigures {
  size_t batches = 0;
  size_t logged = 0;
  double seconds = 0;
};

// The rows' batches, built before the timing: the peer spends no time on
// parsing or encoding. With `logged`, each batch also carries the index
// keys of the partitions it meets first.
std::vector<Batch> BuildBatches(uint64_t run, uint64_t rows, uint64_t partitions, size_t key_bytes,
                                size_t value_bytes, bool logged, std::set<std::string>* objects) {
  const uint64_t per_partition = (rows + partitions - 1) / partitions;
  std::vector<Batch> batches(1);
  size_t bytes = 0;
  for (uint64_t row = 0; row < rows; ++row) {
    if (bytes >= kBatchBytes) {
      batches.emplace_back();
      bytes = 0;
    }
    const uint64_t partition = row / per_partition;
    const std::string shard = Shard(partition);
    const std::string object = PartitionObject(run, shard);
    if (logged && row % per_partition == 0) {
      const std::string index = IndexObject(run, shard);
      batches.back()[index][shard];
      objects->insert(index);
    }
    batches.back()[object][Key(row, key_bytes)].append(Value(row, value_bytes));
    objects->insert(object);
    bytes += key_bytes + value_bytes;
  }
  return batches;
}

BulkFigures Bulk(librados::IoCtx& io, uint64_t run, uint64_t rows, uint64_t partitions,
                 size_t key_bytes, size_t value_bytes, bool logged) {
  std::set<std::string> objects;
  const std::vector<Batch> batches =
      BuildBatches(run, rows, partitions, key_bytes, value_bytes, logged, &objects);
  const std::string log = "log.peer" + std::to_string(run);
  if (logged) objects.insert(log);
  BulkFigures figures;
  const auto start = Clock::now();
  for (const Batch& batch : batches) {
    if (logged && batch.size() > 1) RecordInLog(io, log, batch, figures.logged++);
    CommitTogether(io, batch);
    ++figures.batches;
  }
  figures.seconds = Seconds(start);
  RemoveAll(io, objects);
  return figures;
}

int RunBulk(librados::IoCtx& io, char** argv, bool logged) {
  const uint64_t run = std::strtoull(argv[0], nullptr, 10);
  const uint64_t rows = std::strtoull(argv[1], nullptr, 10);
  const uint64_t partitions = std::strtoull(argv[2], nullptr, 10);
  const size_t key_bytes = std::strtoul(argv[3], nullptr, 10);
  const size_t value_bytes = std::strtoul(argv[4], nullptr, 10);
  if (rows == 0 || partitions == 0 || partitions > rows || key_bytes < 9) return Usage();
  const BulkFigures f = Bulk(io, run, rows, partitions, key_bytes, value_bytes, logged);
  std::printf(
      "rados_peer_bench bulk rows=%llu partitions=%llu key_bytes=%zu value_bytes=%zu "
      "batch_bytes=%zu batches=%zu logged_batches=%zu seconds=%.3f rows_per_s=%.0f\n",
      static_cast<unsigned long long>(rows), static_cast<unsigned long long>(partitions), key_bytes,
      value_bytes, kBatchBytes, f.batches, f.logged, f.seconds,
      static_cast<double>(rows) / f.seconds);
  return 0;
}

// Reads `key` of `object` (one omap_get_vals_by_keys) and checks its bytes.
void ReadKey(librados::IoCtx& io, const std::string& object, const std::string& key,
             const std::string& expected) {
  std::map<std::string, librados::bufferlist> values;
  const int r = io.omap_get_vals_by_keys(object, {key}, &values);
  if (r < 0) Fail("reading", object, r);
  auto found = values.find(key);
  if (found == values.end() || found->second.to_str() != expected) Fail("checking", object, -EIO);
}

int RunCells(librados::IoCtx& io, char** argv) {
  const uint64_t run = std::strtoull(argv[0], nullptr, 10);
  const uint64_t cells = std::strtoull(argv[1], nullptr, 10);
  const size_t key_bytes = std::strtoul(argv[2], nullptr, 10);
  const size_t value_bytes = std::strtoul(argv[3], nullptr, 10);
  if (cells == 0 || key_bytes < 9) return Usage();
  const std::string object = PartitionObject(run, Shard(1));
  std::vector<std::string> keys, values;
  for (uint64_t i = 0; i < cells; ++i) {
    keys.push_back(Key(i, key_bytes));
    values.push_back(Value(i, value_bytes));
  }
  auto start = Clock::now();
  for (uint64_t i = 0; i < cells; ++i) {
    librados::ObjectWriteOperation op;
    std::map<std::string, librados::bufferlist> set;
    set[keys[i]].append(values[i]);
    op.omap_set(set);
    const int r = io.operate(object, &op);
    if (r < 0) Fail("writing", object, r);
  }
  const double create = Seconds(start);
  start = Clock::now();
  for (uint64_t i = 0; i < cells; ++i) ReadKey(io, object, keys[i], values[i]);
  const double stat = Seconds(start);
  start = Clock::now();
  for (uint64_t i = 0; i < cells; ++i) ReadKey(io, object, keys[i], values[i]);
  const double read = Seconds(start);
  RemoveAll(io, {object});
  const auto n = static_cast<double>(cells);
  std::printf(
      "rados_peer_bench cells cells=%llu key_bytes=%zu value_bytes=%zu create_us=%.1f "
      "stat_us=%.1f read_us=%.1f create_per_s=%.0f stat_per_s=%.0f read_per_s=%.0f\n",
      static_cast<unsigned long long>(cells), key_bytes, value_bytes, create / n * 1e6,
      stat / n * 1e6, read / n * 1e6, n / create, n / stat, n / read);
  return 0;
}

int Main(int argc, char** argv) {
  if (argc < 2) return Usage();
  const std::string mode = argv[1];
  const bool bulk = mode == "bulk" && (argc == 10 || argc == 11);
  const bool cells = mode == "cells" && argc == 9;
  if (!bulk && !cells) return Usage();
  bool logged = false;
  if (argc == 11) {
    if (std::strcmp(argv[10], "logged") != 0) return Usage();
    logged = true;
  }
  std::unique_ptr<Cluster> cluster = Connect(argv[2], argv[3], argv[4]);
  const int rc = bulk ? RunBulk(cluster->io, argv + 5, logged) : RunCells(cluster->io, argv + 5);
  cluster->io.close();
  cluster->rados.shutdown();
  return rc;
}

}  // namespace
}  // namespace cellfs

int main(int argc, char** argv) { return cellfs::Main(argc, argv); }
