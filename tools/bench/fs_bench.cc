// Benchmark of a mounted filesystem under issue 4's small-cell workload, run
// with plain syscalls on up to four table-shaped directories in the same run:
// create, stat, read, list, stat again after an idle pause, delete. The
// rounds interleave the targets, each going first in turn.
// Usage: fs_bench ROWS ROUNDS NAME=DIR [NAME=DIR [NAME=DIR [NAME=DIR]]];
// ratios are of the first to each other: of the medians, then the median
// [min-max] of the per-round ratios. Figures: docs/BENCHMARKS.md
// "Filesystem (issue 4)".
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tools/bench/syscall_steps.h"

namespace cellfs {
namespace {

using bench::Fail;
using bench::ListEntries;

using Clock = std::chrono::steady_clock;

// The tree under a table directory: DIR/<partition>/<row>/v, names that are
// valid keys of `(p int, c int, v text, PRIMARY KEY (p, c))`.
constexpr const char kCell[] = "v";

enum Phase : size_t { kCreate, kStat, kRead, kList, kRestat, kDelete, kPhases };

// Longer than passthrough_ll's default 1 s entry and attribute timeouts, so
// the extra stat phase shows what a filesystem's own timeouts keep cached.
constexpr auto kIdle = std::chrono::milliseconds(1500);

// Listings per round: one takes only milliseconds, too short to time alone.
constexpr int kListings = 5;

// run_fs_bench.sh's: cellfs, two passthrough_ll mounts and TableFS.
constexpr int kMaxTargets = 4;

struct PhaseInfo {
  const char* name;
  const char* unit;
  double goal;  // issue 4: first target / second target at least this; 0 = none
};

constexpr PhaseInfo kPhaseInfo[kPhases] = {
    {"create (mkdir row + create/write/close cell)", "rows/s", 0.95},
    {"stat cell", "stats/s", 3.0},
    {"read cell (open/read/close)", "reads/s", 2.0},
    {"list partition (opendir/readdir, 5 times)", "entries/s", 1.0},
    {"extra: stat cell again after 1.5 s idle", "stats/s", 0.0},
    {"delete (unlink cell + rmdir row)", "rows/s", 0.0},
};

struct Target {
  std::string name;
  std::string dir;
  std::vector<double> rates[kPhases];
};

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Of an even count, the mean of the middle two (as mount_wait.sh's
// median_range).
double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t half = v.size() / 2;
  return v.size() % 2 != 0 ? v[half] : (v[half - 1] + v[half]) / 2;
}

// The same bytes on every filesystem; the trailing newline is the one
// cellfs drops on write and adds on read for text, so reads compare equal.
std::string CellValue(size_t row) { return "cell value " + std::to_string(row) + "\n"; }

struct Paths {
  std::string partition;
  std::vector<std::string> rows;
  std::vector<std::string> cells;
};

Paths MakePaths(const std::string& dir, int partition, size_t rows) {
  Paths p;
  p.partition = dir + "/" + std::to_string(partition);
  for (size_t i = 0; i < rows; ++i) {
    p.rows.push_back(p.partition + "/" + std::to_string(i));
    p.cells.push_back(p.rows.back() + "/" + kCell);
  }
  return p;
}

void WriteCell(const std::string& path, const std::string& value) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) Fail("create", path, errno);
  ssize_t n = write(fd, value.data(), value.size());
  if (n != static_cast<ssize_t>(value.size())) Fail("write", path, n < 0 ? errno : EIO);
  if (close(fd) != 0) Fail("close", path, errno);
}

void ReadCell(const std::string& path, const std::string& expected) {
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) Fail("open", path, errno);
  char buf[4096];
  size_t got = 0;
  for (ssize_t n; (n = read(fd, buf + got, sizeof(buf) - got)) != 0;
       got += static_cast<size_t>(n)) {
    if (n < 0) Fail("read", path, errno);
  }
  if (close(fd) != 0) Fail("close", path, errno);
  if (std::string(buf, got) != expected) Fail("read back of", path, EIO);
}

// Seconds to stat every cell, checking type and size.
double StatCells(const Paths& p, const std::vector<std::string>& values) {
  auto start = Clock::now();
  for (size_t i = 0; i < p.cells.size(); ++i) {
    struct stat st {};
    if (stat(p.cells[i].c_str(), &st) != 0) Fail("stat", p.cells[i], errno);
    if (!S_ISREG(st.st_mode) || static_cast<size_t>(st.st_size) != values[i].size()) {
      Fail("size of", p.cells[i], EIO);
    }
  }
  return Seconds(start);
}

// One round on one target: every phase over `rows` rows of a fresh
// partition, each phase timed as a whole.
void RunRound(Target& target, int partition, size_t rows) {
  const Paths p = MakePaths(target.dir, partition, rows);
  std::vector<std::string> values;
  for (size_t i = 0; i < rows; ++i) values.push_back(CellValue(i));
  // cellfs stores nothing for an empty partition directory: it is made
  // untimed, and may already exist.
  if (mkdir(p.partition.c_str(), 0755) != 0 && errno != EEXIST) Fail("mkdir", p.partition, errno);
  const double n = static_cast<double>(rows);

  auto start = Clock::now();
  for (size_t i = 0; i < rows; ++i) {
    if (mkdir(p.rows[i].c_str(), 0755) != 0) Fail("mkdir", p.rows[i], errno);
    WriteCell(p.cells[i], values[i]);
  }
  target.rates[kCreate].push_back(n / Seconds(start));

  target.rates[kStat].push_back(n / StatCells(p, values));

  start = Clock::now();
  for (size_t i = 0; i < rows; ++i) ReadCell(p.cells[i], values[i]);
  target.rates[kRead].push_back(n / Seconds(start));

  start = Clock::now();
  for (int i = 0; i < kListings; ++i) {
    size_t listed = ListEntries(p.partition);
    if (listed != rows) {
      std::fprintf(stderr, "fs_bench: %s lists %zu entries, not %zu\n", p.partition.c_str(), listed,
                   rows);
      std::exit(1);
    }
  }
  target.rates[kList].push_back(n * kListings / Seconds(start));

  std::this_thread::sleep_for(kIdle);
  target.rates[kRestat].push_back(n / StatCells(p, values));

  start = Clock::now();
  for (size_t i = 0; i < rows; ++i) {
    if (unlink(p.cells[i].c_str()) != 0) Fail("unlink", p.cells[i], errno);
    if (rmdir(p.rows[i].c_str()) != 0) Fail("rmdir", p.rows[i], errno);
  }
  target.rates[kDelete].push_back(n / Seconds(start));
  // On cellfs the emptied partition no longer exists: ENOENT is fine.
  if (rmdir(p.partition.c_str()) != 0 && errno != ENOENT) Fail("rmdir", p.partition, errno);
}

// "median [min-max]" of the per-round ratios of a's rate to b's in `phase`:
// a round's two rates come from the same stretch of machine time.
std::string RatioRange(const Target& a, const Target& b, size_t phase) {
  std::vector<double> ratios;
  for (size_t r = 0; r < a.rates[phase].size(); ++r) {
    ratios.push_back(a.rates[phase][r] / b.rates[phase][r]);
  }
  const auto [min, max] = std::minmax_element(ratios.begin(), ratios.end());
  char out[64];
  std::snprintf(out, sizeof(out), "%.2f [%.2f-%.2f]", Median(ratios), *min, *max);
  return out;
}

void PrintRounds(const Target& target) {
  for (size_t phase = 0; phase < kPhases; ++phase) {
    std::printf("  %-14s %-46s", target.name.c_str(), kPhaseInfo[phase].name);
    for (double rate : target.rates[phase]) std::printf(" %9.0f", rate);
    std::printf("\n");
  }
}

// Medians per target, then the first target's ratio to each other one; the
// issue's goals are judged against the second target.
void PrintTable(const std::vector<Target>& targets) {
  std::printf("\n%-46s", "phase (medians)");
  for (const Target& t : targets) std::printf(" %14s", t.name.c_str());
  for (size_t k = 1; k < targets.size(); ++k) {
    std::printf(" %16s", ("/" + targets[k].name).c_str());
    if (k == 1) std::printf(" %-14s", "  goal");
  }
  std::printf("\n");
  for (size_t phase = 0; phase < kPhases; ++phase) {
    const PhaseInfo& info = kPhaseInfo[phase];
    std::printf("%-46s", info.name);
    for (const Target& t : targets) std::printf(" %14.0f", Median(t.rates[phase]));
    for (size_t k = 1; k < targets.size(); ++k) {
      double ratio = Median(targets[0].rates[phase]) / Median(targets[k].rates[phase]);
      std::printf(" %15.2fx", ratio);
      if (k != 1) continue;
      char goal[32] = "";
      if (info.goal > 0) {
        std::snprintf(goal, sizeof(goal), ">=%.2fx %s", info.goal,
                      ratio >= info.goal ? "met" : "MISSED");
      }
      std::printf("   %-14s", goal);
    }
    std::printf("   %s\n", info.unit);
  }
}

// The first target's per-round ratio to each other one, per phase.
void PrintRoundRatios(const std::vector<Target>& targets) {
  std::printf("\nper-round ratios, first target / each other: median [min-max]\n%-46s", "phase");
  for (size_t k = 1; k < targets.size(); ++k) {
    std::printf(" %22s", (targets[0].name + "/" + targets[k].name).c_str());
  }
  std::printf("\n");
  for (size_t phase = 0; phase < kPhases; ++phase) {
    std::printf("%-46s", kPhaseInfo[phase].name);
    for (size_t k = 1; k < targets.size(); ++k) {
      std::printf(" %22s", RatioRange(targets[0], targets[k], phase).c_str());
    }
    std::printf("\n");
  }
}

int Main(int argc, char** argv) {
  bench::program = "fs_bench";
  if (argc < 4 || argc > 3 + kMaxTargets) {
    std::fprintf(stderr, "usage: fs_bench ROWS ROUNDS NAME=DIR [NAME=DIR [NAME=DIR [NAME=DIR]]]\n");
    return 2;
  }
  const size_t rows = std::strtoul(argv[1], nullptr, 10);
  const int rounds = std::atoi(argv[2]);
  if (rows == 0 || rounds <= 0) {
    std::fprintf(stderr, "fs_bench: ROWS and ROUNDS must be positive\n");
    return 2;
  }
  std::vector<Target> targets;
  for (int i = 3; i < argc; ++i) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "fs_bench: %s is not NAME=DIR\n", argv[i]);
      return 2;
    }
    targets.push_back({arg.substr(0, eq), arg.substr(eq + 1), {}});
  }
  std::printf("fs_bench: %zu rows x %d rounds; partition per round; rates per round:\n", rows,
              rounds);
  for (int round = 0; round < rounds; ++round) {
    // The targets take turns going first, so neither always runs on a
    // machine warmed (or tired) by the other.
    for (size_t k = 0; k < targets.size(); ++k) {
      size_t which = (k + static_cast<size_t>(round)) % targets.size();
      RunRound(targets[which], round + 1, rows);
    }
  }
  for (const Target& t : targets) PrintRounds(t);
  PrintTable(targets);
  PrintRoundRatios(targets);
  return 0;
}

}  // namespace
}  // namespace cellfs

int main(int argc, char** argv) { return cellfs::Main(argc, argv); }
