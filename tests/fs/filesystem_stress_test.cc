// fs::Filesystem hammered from many threads at once, as a multi-threaded FUSE
// loop calls it: lookups and forgets of the same names, writers and readers
// of the same cells, listings while rows come, unlink racing open. Checks
// invariants (no torn value, sorted listings without duplicates, balanced
// lookup counts) and is meant to run under ThreadSanitizer too.
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

constexpr const char* kTables = R"(
CREATE TABLE ks.t (k text, c int, v text, b blob, PRIMARY KEY (k, c));
CREATE TABLE ks.ev (k text, ts int, v text, PRIMARY KEY (k, ts)) WITH CLUSTERING ORDER BY (ts DESC);
CREATE TABLE ks.j (k text, c int, a text, b int, PRIMARY KEY (k, c));
CREATE TABLE ks.hits (k text PRIMARY KEY, n counter);
)";

void MakeSchema(FsDriver& d) {
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl(kTables);
}

// mkdir -p below the keyspace; REQUIREs success (main thread only).
void MkdirP(FsDriver& d, const std::string& path) {
  for (size_t slash = path.find('/');; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (!d.Exists(prefix)) {
      INFO("mkdir " << prefix);
      REQUIRE(d.Mkdir(prefix) == 0);
    }
    if (slash == std::string::npos) break;
  }
}

// What worker threads saw go wrong: Catch2's assertions belong to the main
// thread, which checks this after joining. Thread-safe.
class Failures {
 public:
  void Add(const std::string& what) {
    std::lock_guard lock(mutex_);
    ++count_;
    if (examples_.size() < 10) examples_.push_back(what);
  }
  size_t count() const {
    std::lock_guard lock(mutex_);
    return count_;
  }
  std::string Examples() const {
    std::lock_guard lock(mutex_);
    std::string text;
    for (const std::string& example : examples_) text += example + "\n";
    return text;
  }

 private:
  mutable std::mutex mutex_;  // guards the two below
  size_t count_ = 0;
  std::vector<std::string> examples_;
};

#define CHECK_NO_FAILURES(failures)  \
  do {                               \
    INFO((failures).Examples());     \
    CHECK((failures).count() == 0u); \
  } while (false)

// Runs body(0) ... body(n - 1) on n threads and joins them.
void RunThreads(int n, const std::function<void(int)>& body) {
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(n));
  for (int t = 0; t < n; ++t) threads.emplace_back(body, t);
  for (std::thread& thread : threads) thread.join();
}

// The integer `text` starts with (what follows it is left to the caller,
// through *used); nullopt when it starts with none. Never throws: worker
// threads parse what may be garbage.
std::optional<int64_t> LeadingInt(std::string_view text, size_t* used = nullptr) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc()) return std::nullopt;
  if (used != nullptr) *used = static_cast<size_t>(end - text.data());
  return value;
}

// ---- Self-checking values: "wW:sS:pSIZE:" + SIZE bytes + 16 hex digits of
// FNV-1a over everything before them, so any mix of two values, any cut
// and any padding shows.

uint64_t Fnv1a(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ull;
  for (char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string Hex(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (size_t i = 16; i-- > 0; value >>= 4) text[i] = kDigits[value & 0xf];
  return text;
}

std::string MakeValue(int writer, int seq, size_t size, std::mt19937_64& rng, bool binary) {
  std::string value =
      "w" + std::to_string(writer) + ":s" + std::to_string(seq) + ":p" + std::to_string(size) + ":";
  static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789 -_";
  uint64_t bits = 0;
  for (size_t i = 0; i < size; ++i) {
    if (i % 8 == 0) bits = rng();
    unsigned char byte = static_cast<unsigned char>(bits >> (8 * (i % 8)));
    value += binary ? static_cast<char>(byte) : kAlphabet[byte % kAlphabet.size()];
  }
  return value + Hex(Fnv1a(value));
}

bool ValueOk(std::string_view value) {
  if (value.size() < 16 || value.substr(0, 1) != "w") return false;
  std::string_view body = value.substr(0, value.size() - 16);
  if (Hex(Fnv1a(body)) != value.substr(value.size() - 16)) return false;
  size_t p = body.find(":p");
  size_t colon = p == std::string_view::npos ? p : body.find(':', p + 2);
  if (colon == std::string_view::npos) return false;
  std::optional<int64_t> size = LeadingInt(body.substr(p + 2));
  return size && body.size() == colon + 1 + static_cast<size_t>(*size);
}

// A text cell reads back with one newline added.
std::string_view WithoutNewline(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  return text;
}

// Log-uniform from 10 B to `max`: mostly small, some spanning many reads.
size_t ValueSize(std::mt19937_64& rng, size_t max = 200 * 1024) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  return static_cast<size_t>(10.0 * std::pow(static_cast<double>(max) / 10.0, unit(rng)));
}

std::string Describe(std::string_view value) {
  return std::to_string(value.size()) + " bytes starting \"" +
         std::string(value.substr(0, std::min<size_t>(value.size(), 24))) + "\"";
}

// ---- Listings.

// The clustering ints of a listing; failures for names that are not ints,
// duplicates and order (ascending unless `descending`).
std::vector<int64_t> CheckedKeys(const std::vector<Listed>& listed, bool descending,
                                 const std::string& what, Failures* failures) {
  std::vector<int64_t> keys;
  for (const Listed& entry : listed) {
    size_t used = 0;
    std::optional<int64_t> key = LeadingInt(entry.name, &used);
    if (key && used == entry.name.size()) {
      keys.push_back(*key);
    } else {
      failures->Add(what + ": a name that is no row key: " + entry.name);
    }
  }
  for (size_t i = 1; i < keys.size(); ++i) {
    bool ordered = descending ? keys[i - 1] > keys[i] : keys[i - 1] < keys[i];
    if (!ordered) {
      failures->Add(what + ": " + std::to_string(keys[i - 1]) + " then " + std::to_string(keys[i]) +
                    (keys[i - 1] == keys[i] ? " (a duplicate)" : " (out of order)"));
      break;
    }
  }
  return keys;
}

// Looks `path` up from the root straight through the fs (not the driver's
// held entries), appending each inode acquired; the caller forgets them.
int LookupPath(fs::Filesystem& fs, const std::vector<std::string>& path,
               std::vector<uint64_t>* acquired) {
  uint64_t parent = fs::InodeTable::kRootInode;
  for (const std::string& name : path) {
    fs::Entry entry;
    if (int e = fs.Lookup(parent, name, &entry)) return e;
    acquired->push_back(entry.attr.inode);
    parent = entry.attr.inode;
  }
  return 0;
}

// Forgets what LookupPath acquired, several lookups of an inode at once as
// the kernel's batched forgets do.
void ForgetAll(fs::Filesystem& fs, const std::vector<uint64_t>& acquired) {
  std::map<uint64_t, uint64_t> counts;
  for (uint64_t inode : acquired) ++counts[inode];
  for (const auto& [inode, count] : counts) fs.Forget(inode, count);
}

// echo `text` > cell, straight through the fs: lookup, open, write, close,
// forget. 0 or an errno.
int WriteUnheld(fs::Filesystem& fs, const std::vector<std::string>& cell, std::string_view text) {
  std::vector<uint64_t> acquired;
  int e = LookupPath(fs, cell, &acquired);
  if (e == 0) {
    fs::OpenReply reply;
    e = fs.Open(acquired.back(), O_WRONLY | O_TRUNC, &reply);
    if (e == 0) {
      ssize_t wrote = fs.Write(reply.handle, 0, text);
      e = wrote < 0 ? static_cast<int>(-wrote) : fs.Flush(reply.handle);
      fs.Release(reply.handle);
    }
  }
  ForgetAll(fs, acquired);
  return e;
}

}  // namespace

// ---------------------------------------------------------------- lookups

TEST_CASE("lookups and forgets of the same names from many threads stay balanced", "[stress]") {
  FsDriver d;
  MakeSchema(d);
  for (int row = 1; row <= 4; ++row) {
    std::string path = "ks/t/p/" + std::to_string(row);
    MkdirP(d, path);
    REQUIRE(d.Write(path + "/v", "x\n") == 0);
  }
  d.DropCaches();
  REQUIRE(d.fs().inodes().size() == 1);
  // The main thread holds row 1's cell (as an open shell would), so its
  // inode, and its ancestors', must be the one every thread's lookup gets.
  std::vector<uint64_t> held_chain;
  for (const char* path : {"ks", "ks/t", "ks/t/p", "ks/t/p/1", "ks/t/p/1/v"}) {
    uint64_t inode = 0;
    REQUIRE(d.Resolve(path, &inode) == 0);
    held_chain.push_back(inode);
  }
  const size_t base = d.fs().inodes().size();
  fs::Filesystem& fs = d.fs();
  Failures failures;
  constexpr int kLookupThreads = 6;
  constexpr int kRounds = 300;
  std::atomic<int> lookers_done{0};

  RunThreads(kLookupThreads + 1, [&](int t) {
    if (t == kLookupThreads) {  // rewrites the cells the others look up
      for (int i = 0; lookers_done.load() < kLookupThreads; ++i) {
        std::string row = std::to_string(1 + i % 4);
        if (int e = WriteUnheld(fs, {"ks", "t", "p", row, "v"}, "value " + std::to_string(i))) {
          failures.Add("write row " + row + ": errno " + std::to_string(e));
        }
      }
      return;
    }
    std::mt19937_64 rng(static_cast<uint64_t>(t));
    for (int round = 0; round < kRounds; ++round) {
      std::string row = std::to_string(1 + (round + t) % 4);
      std::vector<uint64_t> acquired;
      int e = LookupPath(fs, {"ks", "t", "p", row, "v"}, &acquired);
      if (e != 0) failures.Add("lookup of row " + row + "'s cell: errno " + std::to_string(e));
      bool ok = e == 0;
      if (ok && row == "1" && acquired != held_chain) {
        failures.Add("a name the kernel holds came back under another inode");
      }
      // Held inodes answer getattr and xattrs, whatever the writer does.
      for (uint64_t inode : acquired) {
        fs::NodeAttr attr;
        double timeout = 0;
        if (int got = fs.GetAttr(inode, &attr, &timeout)) {
          failures.Add("getattr of a held inode: errno " + std::to_string(got));
        }
      }
      if (ok) {
        std::string writetime;
        if (int got = fs.GetXattr(acquired.back(), "user.cellfs.writetime", &writetime)) {
          failures.Add("writetime of a held cell: errno " + std::to_string(got));
        }
      }
      if (ok && rng() % 4 == 0) {  // readdirplus of the row: each entry a lookup
        uint64_t handle = 0;
        if (fs.OpenDir(acquired[3], &handle) == 0) {
          (void)fs.ReadDir(handle, 0, true, [&](const fs::DirEntry& entry) {
            if (entry.name != "." && entry.name != "..") acquired.push_back(entry.entry.attr.inode);
            return true;
          });
          fs.ReleaseDir(handle);
        }
      }
      ForgetAll(fs, acquired);
    }
    lookers_done.fetch_add(1);
  });

  CHECK_NO_FAILURES(failures);
  CHECK(d.fs().inodes().size() == base);
  d.DropCaches();
  CHECK(d.fs().inodes().size() == 1);
}

TEST_CASE("a directory made by mkdir stays visible while some thread holds it", "[stress]") {
  // mkdir -p of the same empty partitions from many processes, each
  // letting go as soon as it is done: whoever still holds the directory
  // must still find it, though another's forget dropped an older inode.
  // (Impl::Forgotten once asked the inode table whether the identity was held
  // again before it took Impl::mutex, so a MkDir's Acquire + Keep in between
  // was undone.)
  FsDriver d;
  MakeSchema(d);
  uint64_t table = 0;
  REQUIRE(d.Resolve("ks/t", &table) == 0);
  const size_t base = d.fs().inodes().size();
  fs::Filesystem& fs = d.fs();
  Failures failures;
  constexpr int kThreads = 6;
  constexpr int kRounds = 2000;
  RunThreads(kThreads, [&](int t) {
    for (int round = 0; round < kRounds; ++round) {
      std::string name = "e" + std::to_string((round + t) % 2);
      fs::Entry made;
      int e = fs.MkDir(table, name, &made);
      if (e == EEXIST) e = fs.Lookup(table, name, &made);
      if (e != 0) {
        failures.Add("mkdir " + name + ": errno " + std::to_string(e));
        continue;
      }
      fs::Entry again;
      if (int found = fs.Lookup(table, name, &again)) {
        failures.Add("lookup of " + name + ", held since its mkdir: errno " +
                     std::to_string(found));
      } else {
        fs.Forget(again.attr.inode, 1);
      }
      fs.Forget(made.attr.inode, 1);
    }
  });
  CHECK_NO_FAILURES(failures);
  CHECK(d.fs().inodes().size() == base);
}

// ---------------------------------------------------------------- values

TEST_CASE("writers and readers of the same cells never see a torn value", "[stress]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/p/1");
  const std::vector<std::string> cells = {"ks/t/p/1/v", "ks/t/p/1/b"};  // text, blob
  {
    std::mt19937_64 rng(0);
    for (const std::string& cell : cells) {
      REQUIRE(d.Write(cell, MakeValue(0, 0, 100, rng, cell.back() == 'b')) == 0);
    }
  }
  constexpr int kWriters = 4;
  constexpr int kReaders = 3;
  constexpr int kWrites = 30;
  Failures failures;
  std::atomic<int> writers_done{0};
  std::atomic<int> reads{0};
  // Per writer and cell: the hash of the last value it was acknowledged.
  std::vector<std::map<std::string, uint64_t>> last(kWriters);

  RunThreads(kWriters + kReaders, [&](int t) {
    std::mt19937_64 rng(static_cast<uint64_t>(100 + t));
    if (t < kWriters) {
      for (int seq = 1; seq <= kWrites; ++seq) {
        const std::string& cell = cells[rng() % cells.size()];
        std::string value = MakeValue(t + 1, seq, ValueSize(rng), rng, cell.back() == 'b');
        const size_t chunks[] = {4096, 65536, value.size()};
        if (int e = d.Write(cell, value, FsDriver::kWriteFlags, chunks[rng() % 3])) {
          failures.Add("write " + cell + ": errno " + std::to_string(e));
        } else {
          last[static_cast<size_t>(t)][cell] = Fnv1a(value);
        }
      }
      writers_done.fetch_add(1);
      return;
    }
    while (writers_done.load() < kWriters) {
      const std::string& cell = cells[rng() % cells.size()];
      std::string content;
      const size_t chunks[] = {4096, 65536, 1 << 20};
      if (int e = d.Read(cell, &content, chunks[rng() % 3])) {
        failures.Add("read " + cell + ": errno " + std::to_string(e));
        continue;
      }
      reads.fetch_add(1);
      std::string_view value = cell.back() == 'v' ? WithoutNewline(content) : content;
      if (!ValueOk(value)) failures.Add("torn read of " + cell + ": " + Describe(value));
    }
  });

  CHECK_NO_FAILURES(failures);
  CHECK(reads.load() > 0);
  // Last write wins: what stays is some writer's last acknowledged value.
  for (const std::string& cell : cells) {
    std::string content = d.Cat(cell);
    std::string_view value = cell.back() == 'v' ? WithoutNewline(content) : content;
    INFO(cell << ": " << Describe(value));
    CHECK(ValueOk(value));
    std::set<uint64_t> lasts;
    for (const auto& writer : last) {
      if (auto it = writer.find(cell); it != writer.end()) lasts.insert(it->second);
    }
    if (!lasts.empty()) CHECK(lasts.count(Fnv1a(value)) == 1);
  }
}

TEST_CASE("counter increments from many threads all add up", "[stress]") {
  FsDriver d;
  MakeSchema(d);
  REQUIRE(d.Mkdir("ks/hits/h") == 0);
  REQUIRE(d.Write("ks/hits/h/n", "0\n") == 0);
  constexpr int kWriters = 6;
  constexpr int kReaders = 2;
  constexpr int kIncrements = 100;
  Failures failures;
  std::atomic<int64_t> acknowledged{0};
  std::atomic<int> writers_done{0};
  RunThreads(kWriters + kReaders, [&](int t) {
    std::mt19937_64 rng(static_cast<uint64_t>(t));
    if (t < kWriters) {
      for (int i = 0; i < kIncrements; ++i) {
        int64_t delta = static_cast<int64_t>(rng() % 201) - 60;
        if (int e = d.Write("ks/hits/h/n", std::to_string(delta) + "\n")) {
          failures.Add("increment: errno " + std::to_string(e));
        } else {
          acknowledged.fetch_add(delta);
        }
      }
      writers_done.fetch_add(1);
      return;
    }
    while (writers_done.load() < kWriters) {
      std::string content;
      if (int e = d.Read("ks/hits/h/n", &content)) {
        failures.Add("read: errno " + std::to_string(e));
        continue;
      }
      size_t used = 0;
      if (!LeadingInt(content, &used) || content.substr(used) != "\n") {
        failures.Add("counter read as " + content);
      }
    }
  });
  CHECK_NO_FAILURES(failures);
  CHECK(d.Cat("ks/hits/h/n") == std::to_string(acknowledged.load()) + "\n");
}

// ---------------------------------------------------------------- listings

TEST_CASE("a partition listed while rows are added shows every row added before, in order, once",
          "[stress]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/q/0");
  MkdirP(d, "ks/ev/q/0");
  constexpr int kWriters = 4;
  constexpr int kReaders = 3;
  constexpr int kRows = 150;
  constexpr int64_t kStride = 100000;  // writer w makes rows w * kStride + 1 ...
  Failures failures;
  // Per writer: the last row whose mkdir returned (in both tables).
  std::vector<std::atomic<int>> made(kWriters);
  for (auto& count : made) count.store(0);
  std::atomic<int> writers_done{0};
  std::atomic<int> listings{0};
  constexpr int kMinListings = 20;  // per reader, some perhaps after the writers end

  RunThreads(kWriters + kReaders, [&](int t) {
    std::mt19937_64 rng(static_cast<uint64_t>(t));
    if (t < kWriters) {
      for (int i = 1; i <= kRows; ++i) {
        std::string key = std::to_string(t * kStride + i);
        for (const std::string table : {"ks/t/q/", "ks/ev/q/"}) {
          if (int e = d.Mkdir(table + key)) {
            failures.Add("mkdir " + table + key + ": errno " + std::to_string(e));
          }
        }
        if (i % 3 == 0 && d.Write("ks/t/q/" + key + "/v", "row " + key + "\n") != 0) {
          failures.Add("write ks/t/q/" + key + "/v");
        }
        made[static_cast<size_t>(t)].store(i);
      }
      writers_done.fetch_add(1);
      return;
    }
    for (int mine = 0; writers_done.load() < kWriters || mine < kMinListings; ++mine) {
      bool descending = rng() % 2 == 0;
      std::string path = descending ? "ks/ev/q" : "ks/t/q";
      int64_t lower = 0;
      if (rng() % 4 == 0) {  // a slice holds the same rules within its bound
        lower = static_cast<int64_t>(rng() % kWriters) * kStride + 50;
        path += "/@ge=" + std::to_string(lower);
      }
      std::vector<int> before(kWriters);
      for (size_t w = 0; w < before.size(); ++w) before[w] = made[w].load();
      std::vector<Listed> listed;
      ListOptions options;
      options.plus = rng() % 2 == 0;
      options.chunk = 1 + rng() % 16;
      if (int e = d.List(path, &listed, options)) {
        failures.Add("list " + path + ": errno " + std::to_string(e));
        continue;
      }
      listings.fetch_add(1);
      std::vector<int64_t> keys = CheckedKeys(listed, descending, path, &failures);
      std::set<int64_t> seen(keys.begin(), keys.end());
      for (int w = 0; w < kWriters; ++w) {
        for (int i = 1; i <= before[static_cast<size_t>(w)]; ++i) {
          int64_t key = w * kStride + i;
          if (key >= lower && seen.count(key) == 0) {
            failures.Add(path + " misses row " + std::to_string(key) + ", made before it began");
            break;
          }
        }
      }
      for (int64_t key : keys) {
        bool possible =
            key == 0 || (key % kStride >= 1 && key % kStride <= kRows && key / kStride < kWriters);
        if (!possible || key < lower) failures.Add(path + " shows row " + std::to_string(key));
      }
    }
  });

  CHECK_NO_FAILURES(failures);
  CHECK(listings.load() > 0);
  CHECK(d.Ls("ks/t/q").size() == static_cast<size_t>(kWriters * kRows + 1));
  CHECK(d.Ls("ks/ev/q").size() == static_cast<size_t>(kWriters * kRows + 1));
  d.DropCaches();
  CHECK(d.fs().inodes().size() == 1);
}

TEST_CASE("a table listed while partitions are added lists each once, in token order", "[stress]") {
  FsDriver d;
  MakeSchema(d);
  constexpr int kWriters = 3;
  constexpr int kPartitions = 60;
  Failures failures;
  std::vector<std::atomic<int>> made(kWriters);
  for (auto& count : made) count.store(0);
  std::atomic<int> writers_done{0};
  constexpr int kMinListings = 20;  // per reader
  RunThreads(kWriters + 2, [&](int t) {
    if (t < kWriters) {
      for (int i = 1; i <= kPartitions; ++i) {
        std::string partition = "ks/t/p" + std::to_string(t) + "_" + std::to_string(i);
        if (d.Mkdir(partition) != 0 || d.Mkdir(partition + "/1") != 0) {
          failures.Add("mkdir -p " + partition + "/1");
        }
        made[static_cast<size_t>(t)].store(i);
      }
      writers_done.fetch_add(1);
      return;
    }
    for (int mine = 0; writers_done.load() < kWriters || mine < kMinListings; ++mine) {
      std::vector<int> before(kWriters);
      for (size_t w = 0; w < before.size(); ++w) before[w] = made[w].load();
      std::vector<Listed> listed;
      ListOptions options;
      options.chunk = 5;
      if (d.List("ks/t", &listed, options) != 0) {
        failures.Add("list ks/t");
        continue;
      }
      std::set<std::string> names;
      for (const Listed& entry : listed) {
        if (!names.insert(entry.name).second) failures.Add("ks/t lists twice " + entry.name);
      }
      for (int w = 0; w < kWriters; ++w) {
        for (int i = 1; i <= before[static_cast<size_t>(w)]; ++i) {
          std::string name = "p" + std::to_string(w) + "_" + std::to_string(i);
          if (names.count(name) == 0) failures.Add("ks/t misses partition " + name);
        }
      }
    }
  });
  CHECK_NO_FAILURES(failures);
  // Token order, as user.cellfs.token tells each partition's token.
  std::vector<std::string> names = d.Ls("ks/t");
  CHECK(names.size() == static_cast<size_t>(kWriters * kPartitions));
  int64_t previous = INT64_MIN;
  for (const std::string& name : names) {
    std::string token;
    REQUIRE(d.GetXattr("ks/t/" + name, "user.cellfs.token", &token) == 0);
    INFO(name << " token " << token);
    CHECK(std::stoll(token) >= previous);
    previous = std::stoll(token);
  }
}

// ---------------------------------------------------------------- unlink

TEST_CASE("unlink racing with open and read: a reader gets a whole value or ENOENT", "[stress]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/u/1");
  const std::string cell = "ks/t/u/1/v";
  constexpr int kWriters = 2;
  constexpr int kReaders = 3;
  constexpr int kWrites = 100;
  Failures failures;
  std::atomic<int> writers_done{0};
  std::atomic<int> whole_reads{0};
  uint64_t held = 0;  // as a shell that keeps a descriptor's inode
  {
    std::mt19937_64 rng(0);
    REQUIRE(d.Write(cell, MakeValue(0, 0, 50, rng, false)) == 0);
    REQUIRE(d.Resolve(cell, &held) == 0);
  }
  RunThreads(kWriters + 1 + kReaders, [&](int t) {
    std::mt19937_64 rng(static_cast<uint64_t>(t));
    if (t < kWriters) {
      for (int seq = 1; seq <= kWrites; ++seq) {
        std::string value = MakeValue(t + 1, seq, ValueSize(rng, 20000), rng, false);
        if (int e = d.Write(cell, value, FsDriver::kWriteFlags, 4096)) {
          failures.Add("write while unlinked: errno " + std::to_string(e) + " at " + d.last_step());
        }
      }
      writers_done.fetch_add(1);
      return;
    }
    if (t == kWriters) {  // rm, again and again
      while (writers_done.load() < kWriters) {
        int e = d.Rm(cell);
        if (e != 0 && e != ENOENT) failures.Add("rm: errno " + std::to_string(e));
      }
      return;
    }
    while (writers_done.load() < kWriters) {
      std::string content;
      int e = 0;
      if (rng() % 2 == 0) {
        e = d.Read(cell, &content, 4096);  // lookup, open, read
      } else {  // open by the held inode, as a descriptor kept from before
        fs::OpenReply reply;
        e = d.fs().Open(held, O_RDONLY, &reply);
        if (e == 0) {
          for (std::string piece;
               (e = d.fs().Read(reply.handle, content.size(), 4096, &piece)) == 0 && !piece.empty();
               piece.clear()) {
            content += piece;
          }
          d.fs().Release(reply.handle);
        }
      }
      if (e == ENOENT) continue;
      if (e != 0) {
        failures.Add("read: errno " + std::to_string(e));
        continue;
      }
      std::string_view value = WithoutNewline(content);
      // Empty: a writer's create(2) of the name, not yet closed.
      if (value.empty()) continue;
      if (!ValueOk(value)) failures.Add("torn read after unlink: " + Describe(value));
      whole_reads.fetch_add(1);
    }
  });
  CHECK_NO_FAILURES(failures);
  CHECK(whole_reads.load() > 0);
  fs::NodeAttr attr;
  double timeout = 0;
  int e = d.fs().GetAttr(held, &attr, &timeout);
  CHECK((e == 0 || e == ESTALE));  // ESTALE: gone, the kernel is to look the name up again
  d.DropCaches();
  CHECK(d.fs().inodes().size() == 1);
}

// ---------------------------------------------------------------- attributes

TEST_CASE("getattr and xattrs of cells being rewritten always describe a whole value", "[stress]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/t/x/1");
  const std::vector<size_t> sizes = {50, 3000, 30000};
  std::mt19937_64 seed_rng(0);
  REQUIRE(d.Write("ks/t/x/1/v", MakeValue(0, 0, sizes[0], seed_rng, false)) == 0);
  std::string token;
  REQUIRE(d.GetXattr("ks/t/x", "user.cellfs.token", &token) == 0);
  constexpr int kWriters = 3;
  constexpr int kReaders = 2;
  constexpr int kWrites = 40;
  // Every length a whole value (and its newline) can have: stat must show one.
  std::set<uint64_t> lengths;
  for (int writer = 0; writer <= kWriters; ++writer) {
    for (int seq = 0; seq <= kWrites; ++seq) {
      for (size_t size : sizes) {
        std::mt19937_64 unused(0);
        lengths.insert(MakeValue(writer, seq, size, unused, false).size() + 1);
      }
    }
  }
  Failures failures;
  std::atomic<int> writers_done{0};
  RunThreads(kWriters + kReaders, [&](int t) {
    std::mt19937_64 rng(static_cast<uint64_t>(t));
    if (t < kWriters) {
      for (int seq = 1; seq <= kWrites; ++seq) {
        std::string value = MakeValue(t + 1, seq, sizes[rng() % sizes.size()], rng, false);
        std::string name = rng() % 3 == 0 ? "ks/t/x/1/v@ttl=100" : "ks/t/x/1/v";
        if (int e = d.Write(name, value)) failures.Add("write: errno " + std::to_string(e));
      }
      writers_done.fetch_add(1);
      return;
    }
    int64_t newest = 0;
    while (writers_done.load() < kWriters) {
      fs::NodeAttr attr;
      if (int e = d.Stat("ks/t/x/1/v", &attr)) {
        failures.Add("stat: errno " + std::to_string(e));
        continue;
      }
      if (!S_ISREG(attr.mode) || lengths.count(attr.size) == 0) {
        failures.Add("stat size " + std::to_string(attr.size));
      }
      std::string text;
      if (int e = d.GetXattr("ks/t/x/1/v", "user.cellfs.writetime", &text)) {
        failures.Add("writetime: errno " + std::to_string(e));
      } else {
        // Last write wins with strictly increasing write times: the
        // visible write time never goes back.
        int64_t writetime = LeadingInt(text).value_or(-1);
        if (writetime < newest) failures.Add("writetime went back (or unreadable): " + text);
        newest = std::max(newest, writetime);
      }
      int e = d.GetXattr("ks/t/x/1/v", "user.cellfs.ttl", &text);
      if (e == 0) {
        int64_t ttl = LeadingInt(text).value_or(-1);
        if (ttl < 0 || ttl > 100) failures.Add("ttl " + text);
      } else if (e != ENODATA) {
        failures.Add("ttl: errno " + std::to_string(e));
      }
      std::string again;
      if (d.GetXattr("ks/t/x", "user.cellfs.token", &again) != 0 || again != token) {
        failures.Add("the partition's token changed: " + again);
      }
      std::vector<std::string> names;
      if (d.ListXattr("ks/t/x/1/v", &names) != 0 ||
          std::find(names.begin(), names.end(), "user.cellfs.writetime") == names.end()) {
        failures.Add("listxattr lacks user.cellfs.writetime");
      }
    }
  });
  CHECK_NO_FAILURES(failures);
  std::string content = d.Cat("ks/t/x/1/v");
  CHECK(ValueOk(WithoutNewline(content)));
  fs::NodeAttr attr;
  REQUIRE(d.Stat("ks/t/x/1/v", &attr) == 0);
  CHECK(attr.size == content.size());
  d.DropCaches();
  CHECK(d.fs().inodes().size() == 1);
}

// ---------------------------------------------------------------- bulk

TEST_CASE("@insert batches, row @json writes and cell writes in one partition all land",
          "[stress]") {
  FsDriver d;
  MakeSchema(d);
  MkdirP(d, "ks/j/bulk/0");
  constexpr int kLoaders = 2;
  constexpr int kBatches = 8;
  constexpr int kRowsPerBatch = 150;
  constexpr int kCellWriters = 2;
  constexpr int kJsonWriters = 2;
  constexpr int kEdits = 80;
  constexpr int64_t kStride = 100000;
  Failures failures;
  std::atomic<int> busy{kLoaders + kCellWriters + kJsonWriters};
  std::atomic<int> exports{0};
  // Rows 1..40 of writer slot s (keys (10 + s) * kStride + i) are made
  // first; cell writers set `b`, @json writers `a`, of their own rows.
  for (int s = 0; s < kCellWriters + kJsonWriters; ++s) {
    for (int i = 1; i <= 40; ++i)
      REQUIRE(d.Mkdir("ks/j/bulk/" + std::to_string((10 + s) * kStride + i)) == 0);
  }
  std::vector<std::map<int64_t, std::string>> last(kCellWriters + kJsonWriters);

  RunThreads(kLoaders + kCellWriters + kJsonWriters + 1, [&](int t) {
    std::mt19937_64 rng(static_cast<uint64_t>(t));
    if (t < kLoaders) {
      for (int batch = 0; batch < kBatches; ++batch) {
        std::string lines;
        for (int i = 1; i <= kRowsPerBatch; ++i) {
          int64_t key = t * kStride + batch * kRowsPerBatch + i;
          lines += R"({"k": "bulk", "c": )" + std::to_string(key) + R"(, "a": "loaded )" +
                   std::to_string(key) + R"(", "b": )" + std::to_string(key % 1000) + "}\n";
        }
        if (int e = d.Write("ks/j/@insert", lines, FsDriver::kWriteFlags, 4096)) {
          failures.Add("@insert: errno " + std::to_string(e) + " at " + d.last_step());
        }
      }
    } else if (t < kLoaders + kCellWriters + kJsonWriters) {
      int slot = t - kLoaders;
      bool json = slot >= kCellWriters;
      for (int edit = 0; edit < kEdits; ++edit) {
        int64_t key = (10 + slot) * kStride + 1 + static_cast<int64_t>(rng() % 40);
        std::string row = "ks/j/bulk/" + std::to_string(key);
        std::string text = "edit " + std::to_string(edit);
        int e = json ? d.Write(row + "/@json", R"({"a": ")" + text + R"("})")
                     : d.Write(row + "/b", std::to_string(edit) + "\n");
        if (e != 0) {
          failures.Add("write " + row + ": errno " + std::to_string(e));
        } else {
          last[static_cast<size_t>(slot)][key] = json ? text : std::to_string(edit);
        }
      }
    } else {
      while (busy.load() > 0) {  // the partition's @json: one snapshot, in order
        std::string text;
        if (int e = d.Read("ks/j/bulk/@json", &text, 65536)) {
          failures.Add("read @json: errno " + std::to_string(e));
          continue;
        }
        exports.fetch_add(1);
        int64_t previous = -1;
        for (size_t at = text.find(R"("c": )"); at != std::string::npos;
             at = text.find(R"("c": )", at + 1)) {
          int64_t key = LeadingInt(std::string_view(text).substr(at + 5)).value_or(-1);
          if (key <= previous) {
            failures.Add("@json rows out of order or repeated at " + std::to_string(key));
            break;
          }
          previous = key;
        }
      }
      return;
    }
    busy.fetch_sub(1);
  });

  CHECK_NO_FAILURES(failures);
  CHECK(exports.load() > 0);
  std::vector<std::string> rows = d.Ls("ks/j/bulk");
  CHECK(rows.size() == static_cast<size_t>(1 + kLoaders * kBatches * kRowsPerBatch +
                                           (kCellWriters + kJsonWriters) * 40));
  CHECK(d.Cat("ks/j/bulk/" + std::to_string(kStride + 17) + "/a") ==
        "loaded " + std::to_string(kStride + 17) + "\n");
  for (int slot = 0; slot < kCellWriters + kJsonWriters; ++slot) {
    bool json = slot >= kCellWriters;
    for (const auto& [key, value] : last[static_cast<size_t>(slot)]) {
      INFO("row " << key);
      CHECK(d.Cat("ks/j/bulk/" + std::to_string(key) + (json ? "/a" : "/b")) == value + "\n");
    }
  }
}

// ---------------------------------------------------------------- DDL

// Under TSan this shows a use-after-free (reported): StateOf of a keyspace
// keeps a KeyspaceDef* from engine->catalog(), a temporary shared_ptr, so a
// concurrent DDL can free the catalog before it is read.
TEST_CASE("tables created through @cql while others list and look up the keyspace", "[stress]") {
  FsDriver d;
  REQUIRE(d.Mkdir("ks") == 0);
  constexpr int kTables = 30;
  Failures failures;
  std::atomic<int> created{0};
  std::atomic<bool> done{false};
  RunThreads(4, [&](int t) {
    if (t == 0) {
      for (int i = 0; i < kTables; ++i) {
        std::string transcript;
        std::string name = "t" + std::to_string(100 + i);
        if (d.Cql("CREATE TABLE ks." + name + " (k int PRIMARY KEY, v text);", &transcript) != 0) {
          failures.Add("CREATE TABLE " + name + ": " + transcript);
        }
        created.store(i + 1);
      }
      done.store(true);
      return;
    }
    while (!done.load()) {
      int before = created.load();
      std::vector<Listed> listed;
      if (d.List("ks", &listed, ListOptions{t == 1, 4, false, {}}) != 0) {
        failures.Add("list ks");
        continue;
      }
      std::vector<std::string> names;
      for (const Listed& entry : listed) names.push_back(entry.name);
      if (!std::is_sorted(names.begin(), names.end()) ||
          std::adjacent_find(names.begin(), names.end()) != names.end()) {
        failures.Add("ks lists tables out of order or twice");
      }
      if (names.size() < static_cast<size_t>(before)) {
        failures.Add("ks lists " + std::to_string(names.size()) + " tables after " +
                     std::to_string(before) + " were made");
      }
      if (before > 0) {
        std::string schema;
        std::string name = "ks/t" + std::to_string(100 + before - 1);
        if (d.Read(name + "/@schema", &schema) != 0 ||
            schema.find("CREATE TABLE") == std::string::npos) {
          failures.Add("@schema of " + name + ": " + schema);
        }
      }
    }
  });
  CHECK_NO_FAILURES(failures);
  CHECK(d.Ls("ks").size() == static_cast<size_t>(kTables));
}

}  // namespace cellfs::testing
