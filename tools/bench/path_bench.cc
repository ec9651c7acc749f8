// Driver of the data-path benchmark (issue 13): times one of five data paths
// through a mounted cellfs with plain syscalls, one JSON line per run.
// Usage: path_bench setup MOUNT [WIDE_ROWS=1000] [KV_PARTITIONS=2000]
//        path_bench PATH MOUNT OPS     PATH: cat echo ls-wide ls-kv ls-kv-partition insert
// With DAEMON_PID set, the line also gives the CPU time the daemon process
// (all its threads, exited ones included) spent during the timed run.
// Run through tools/bench/run_path_bench.sh, which compares two binaries and
// counts requests per operation; figures in docs/BENCHMARKS.md "Data paths".
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "tools/bench/syscall_steps.h"

namespace cellfs {
namespace {

using bench::Fail;
using bench::ListEntries;

using Clock = std::chrono::steady_clock;

// The CPU time (ns) the process DAEMON_PID has used so far, all threads;
// -1 when DAEMON_PID is unset or its clock cannot be read.
long long DaemonCpuNanos() {
  const char* pid = std::getenv("DAEMON_PID");
  if (pid == nullptr) return -1;
  clockid_t clock;
  timespec now;
  if (clock_getcpuclockid(static_cast<pid_t>(std::atoll(pid)), &clock) != 0 ||
      clock_gettime(clock, &now) != 0) {
    return -1;
  }
  return static_cast<long long>(now.tv_sec) * 1'000'000'000LL + now.tv_nsec;
}

// Everything lives in keyspace pb: `cell` holds the cell read (0/0/v) and the
// cell written (0/1/v); `wide` one partition (0) of WIDE_ROWS rows; `kv`, a
// table without clustering columns, KV_PARTITIONS partitions; `ins` is where
// the @insert path writes.
constexpr const char kSchema[] =
    "CREATE KEYSPACE pb WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "CREATE TABLE pb.cell (p int, c int, v text, PRIMARY KEY (p, c));\n"
    "CREATE TABLE pb.wide (p int, c int, v text, PRIMARY KEY (p, c));\n"
    "CREATE TABLE pb.kv (k int PRIMARY KEY, a text, n bigint, d double);\n"
    "CREATE TABLE pb.ins (p int, c int, a text, n bigint, d double, PRIMARY KEY (p, c));\n";

constexpr const char kReadValue[] = "the value of the cell that is read";
constexpr int kKvPartitionListed = 7;       // the kv partition whose directory is listed
constexpr size_t kKvColumns = 3;            // a, n, d: the cells a kv partition directory lists
constexpr size_t kInsertRows = 20000;       // rows per @insert operation
constexpr size_t kWriteChunk = 128 * 1024;  // what cat(1) writes at a time

// Writes `data` to `path` as a shell redirection does (O_CREAT|O_TRUNC),
// cat's chunk at a time; every step checked, close included (cellfs reports
// a refused write or record there).
void WriteFile(const std::string& path, std::string_view data) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) Fail("open", path, errno);
  for (size_t done = 0; done < data.size();) {
    size_t chunk = std::min(kWriteChunk, data.size() - done);
    ssize_t n = write(fd, data.data() + done, chunk);
    if (n <= 0) Fail("write", path, n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0) Fail("close", path, errno);
}

// Reads `path` to its end as cat(1) does (128 KiB reads).
std::string ReadFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) Fail("open", path, errno);
  static char buf[128 * 1024];
  std::string out;
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) != 0;) {
    if (n < 0) Fail("read", path, errno);
    out.append(buf, static_cast<size_t>(n));
  }
  if (close(fd) != 0) Fail("close", path, errno);
  return out;
}

// JSON Lines for `pb.ins`: 200 partitions of 100 rows, about 250 bytes a
// line, the same bytes each time (so every operation upserts the same rows).
std::string InsertRows(size_t rows) {
  std::string out;
  std::string filler(180, 'x');
  char line[512];
  for (size_t i = 0; i < rows; ++i) {
    int n = std::snprintf(line, sizeof(line),
                          "{\"p\": %zu, \"c\": %zu, \"a\": \"row %zu %s\", \"n\": %zu, "
                          "\"d\": %zu.25}\n",
                          i / 100, i % 100, i, filler.c_str(), i * 1000003, i);
    out.append(line, static_cast<size_t>(n));
  }
  return out;
}

int Setup(const std::string& mount, size_t wide_rows, size_t kv_partitions) {
  WriteFile(mount + "/@cql", kSchema);
  const std::string ks = mount + "/pb";
  std::string cells = "{\"p\": 0, \"c\": 0, \"v\": \"" + std::string(kReadValue) + "\"}\n" +
                      "{\"p\": 0, \"c\": 1, \"v\": \"v00000000\"}\n";
  WriteFile(ks + "/cell/@insert", cells);
  std::string wide;
  for (size_t i = 0; i < wide_rows; ++i) {
    wide += "{\"p\": 0, \"c\": " + std::to_string(i) + ", \"v\": \"row " + std::to_string(i) +
            " of the wide partition\"}\n";
  }
  WriteFile(ks + "/wide/@insert", wide);
  std::string kv;
  for (size_t i = 0; i < kv_partitions; ++i) {
    kv += "{\"k\": " + std::to_string(i) + ", \"a\": \"partition " + std::to_string(i) +
          "\", \"n\": " + std::to_string(i * 7) + ", \"d\": 0.5}\n";
  }
  WriteFile(ks + "/kv/@insert", kv);
  std::printf("{\"setup\":\"%s\",\"wide_rows\":%zu,\"kv_partitions\":%zu}\n", mount.c_str(),
              wide_rows, kv_partitions);
  return 0;
}

// One path: `op(i)` is operation i and returns the entries it listed (0 for
// a file path). One untimed operation first, so that the names on the path
// are looked up (and the listing counted) before the clock starts.
template <typename Op>
int Time(const char* name, size_t ops, Op op) {
  size_t entries = op(0);
  const long long cpu_start = DaemonCpuNanos();
  auto start = Clock::now();
  for (size_t i = 1; i <= ops; ++i) {
    size_t listed = op(i);
    if (listed != entries) {
      std::fprintf(stderr, "path_bench: %s listed %zu entries, then %zu\n", name, entries, listed);
      return 1;
    }
  }
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  const long long cpu_end = DaemonCpuNanos();
  const long long daemon_cpu_ns = cpu_start < 0 || cpu_end < 0 ? -1 : cpu_end - cpu_start;
  std::printf("{\"path\":\"%s\",\"ops\":%zu,\"ns\":%lld,\"entries\":%zu,\"daemon_cpu_ns\":%lld}\n",
              name, ops, static_cast<long long>(ns), entries, daemon_cpu_ns);
  return 0;
}

int RunPath(const std::string& path, const std::string& mount, size_t ops) {
  const std::string ks = mount + "/pb";
  if (path == "cat") {
    const std::string cell = ks + "/cell/0/0/v";
    const std::string expected = std::string(kReadValue) + "\n";  // text reads end in \n
    return Time("cat", ops, [&](size_t) -> size_t {
      if (ReadFile(cell) != expected) Fail("unexpected value read from", cell, EIO);
      return 0;
    });
  }
  if (path == "echo") {
    const std::string cell = ks + "/cell/0/1/v";
    return Time("echo", ops, [&](size_t i) -> size_t {
      char value[32];
      int n = std::snprintf(value, sizeof(value), "v%08zu\n", i);
      WriteFile(cell, std::string_view(value, static_cast<size_t>(n)));
      return 0;
    });
  }
  if (path == "ls-wide") {
    return Time("ls-wide", ops, [&](size_t) { return ListEntries(ks + "/wide/0"); });
  }
  if (path == "ls-kv") {
    return Time("ls-kv", ops, [&](size_t) { return ListEntries(ks + "/kv"); });
  }
  if (path == "ls-kv-partition") {
    const std::string dir = ks + "/kv/" + std::to_string(kKvPartitionListed);
    return Time("ls-kv-partition", ops, [&](size_t) {
      size_t listed = ListEntries(dir);
      if (listed != kKvColumns) Fail("unexpected listing of", dir, EIO);
      return listed;
    });
  }
  if (path == "insert") {
    const std::string data = InsertRows(kInsertRows);
    const std::string target = ks + "/ins/@insert";
    return Time("insert", ops, [&](size_t) -> size_t {
      WriteFile(target, data);
      return 0;
    });
  }
  std::fprintf(stderr, "path_bench: unknown path %s\n", path.c_str());
  return 2;
}

int Main(int argc, char** argv) {
  bench::program = "path_bench";
  const char* usage =
      "usage: path_bench setup MOUNT [WIDE_ROWS=1000] [KV_PARTITIONS=2000]\n"
      "       path_bench cat|echo|ls-wide|ls-kv|ls-kv-partition|insert MOUNT OPS\n";
  if (argc >= 3 && std::strcmp(argv[1], "setup") == 0 && argc <= 5) {
    size_t wide = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1000;
    size_t kv = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 2000;
    if (wide == 0 || kv <= kKvPartitionListed) {
      std::fprintf(stderr, "path_bench: WIDE_ROWS must be positive, KV_PARTITIONS over %d\n",
                   kKvPartitionListed);
      return 2;
    }
    return Setup(argv[2], wide, kv);
  }
  if (argc != 4) {
    std::fputs(usage, stderr);
    return 2;
  }
  size_t ops = std::strtoul(argv[3], nullptr, 10);
  if (ops == 0) {
    std::fprintf(stderr, "path_bench: OPS must be positive\n");
    return 2;
  }
  return RunPath(argv[1], argv[2], ops);
}

}  // namespace
}  // namespace cellfs

int main(int argc, char** argv) { return cellfs::Main(argc, argv); }
