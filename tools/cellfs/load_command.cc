// `cellfs load`: the @insert protocol from the outside (a write fails with
// EINVAL when a record it completed was refused, fsync flushes the last
// record, a read from offset 0 returns the report), or, offline, the same
// parser and batcher the daemon runs, over an engine of our own.
#include "tools/cellfs/load_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "engine/engine.h"
#include "fs/insert_batcher.h"
#include "fs/insert_parser.h"
#include "fs/virtual_name.h"
#include "tools/cellfs/control_file.h"
#include "tools/cellfs/offline_store.h"
#include "tools/cellfs/progress.h"

namespace cellfs::tools {
namespace {

// One write is one FUSE request: the mount's max_write is 1 MiB and the
// buffer is page-aligned, so the kernel never splits a write. (A split
// write that failed part-way would come back short, not as EINVAL, and the
// refused part would be sent again.)
constexpr size_t kChunk = 1u << 20;
constexpr size_t kAlignment = 64 * 1024;  // a multiple of any page size

std::string ErrnoText(int err) { return std::strerror(err); }

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<char, FreeDeleter>;

Buffer NewBuffer() { return Buffer(static_cast<char*>(std::aligned_alloc(kAlignment, kChunk))); }

// What loading one file came to.
struct FileResult {
  bool usable = true;  // false: the file, the mount or the store failed (already said)
  bool refused = false;
  uint64_t stored = 0;
  uint64_t refused_count = 0;
  std::string refusals;  // "line N: message\n" per refused record
};

std::string Label(const std::string& file) { return file == "-" ? "stdin" : file; }

// The input's descriptor (stdin for "-"), or -1 after a message.
int OpenInput(const std::string& file) {
  if (file == "-") return STDIN_FILENO;
  int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) std::fprintf(stderr, "cellfs: %s: %s\n", file.c_str(), ErrnoText(errno).c_str());
  return fd;
}

void CloseInput(int fd) {
  if (fd != STDIN_FILENO) close(fd);
}

// The size of a regular file; 0 (unknown) for pipes and terminals.
uint64_t InputSize(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<uint64_t>(st.st_size);
}

// Reads until `size` bytes or the end of the input; -1 (errno set) on error.
ssize_t ReadFull(int fd, char* buf, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, buf + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

uint64_t CountLines(const char* data, size_t size) {
  return static_cast<uint64_t>(std::count(data, data + size, '\n'));
}

// Prints what became of one file; true when all of it was stored.
bool Conclude(const std::string& file, ProgressMeter& meter, const FileResult& result) {
  meter.Clear();
  std::string label = Label(file);
  size_t start = 0;
  while (start < result.refusals.size()) {
    size_t end = result.refusals.find('\n', start);
    if (end == std::string::npos) end = result.refusals.size();
    std::fprintf(stderr, "%s: %.*s\n", label.c_str(), static_cast<int>(end - start),
                 result.refusals.data() + start);
    start = end + 1;
  }
  if (!result.usable) return false;
  std::printf("%s\n",
              FormatLoadSummary(label, result.stored, result.refused_count, meter.State()).c_str());
  std::fflush(stdout);
  return !result.refused && result.refused_count == 0;
}

// ---- Through a mount.

// Sends `size` bytes; EINVAL (a refused record) takes the whole rest, as
// the @insert protocol says. False, with `*err` set, when the write fails.
bool WriteChunk(int fd, const char* data, size_t size, bool* refused, int* err) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL) {
      *refused = true;
      return true;
    }
    if (n <= 0) {
      *err = n < 0 ? errno : EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

// Streams the input into @insert and flushes its last record. False after a
// message when the input or @insert fails.
bool SendInput(int in, int out, const std::string& file, const std::string& insert_path,
               ProgressMeter& meter, FileResult* result) {
  Buffer buffer = NewBuffer();
  while (true) {
    ssize_t n = ReadFull(in, buffer.get(), kChunk);
    if (n < 0) {
      std::fprintf(stderr, "cellfs: %s: %s\n", file.c_str(), ErrnoText(errno).c_str());
      return false;
    }
    if (n == 0) break;
    auto size = static_cast<size_t>(n);
    int err = 0;
    if (!WriteChunk(out, buffer.get(), size, &result->refused, &err)) {
      std::fprintf(stderr, "cellfs: writing %s: %s\n", insert_path.c_str(), ErrnoText(err).c_str());
      return false;
    }
    meter.Advance(size, CountLines(buffer.get(), size));
  }
  while (fsync(out) != 0) {
    if (errno == EINTR) continue;
    if (errno == EINVAL) {
      result->refused = true;
      break;
    }
    std::fprintf(stderr, "cellfs: syncing %s: %s\n", insert_path.c_str(), ErrnoText(errno).c_str());
    return false;
  }
  return true;
}

// Splits a report, "line N: message" lines then "N rows stored, M lines
// refused", into `result`. False when its last line is not that summary.
bool ParseReport(const std::string& report, FileResult* result) {
  std::string text = report;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  size_t last = text.rfind('\n');
  std::string summary = last == std::string::npos ? text : text.substr(last + 1);
  unsigned long long stored = 0, refused = 0;
  int consumed = 0;
  if (std::sscanf(summary.c_str(), "%llu rows stored, %llu lines refused%n", &stored, &refused,
                  &consumed) != 2 ||
      static_cast<size_t>(consumed) != summary.size()) {
    return false;
  }
  result->stored = stored;
  result->refused_count = refused;
  result->refusals = last == std::string::npos ? "" : text.substr(0, last + 1);
  return true;
}

FileResult LoadFileThroughMount(const std::string& file, const std::string& insert_path,
                                ProgressMeter& meter, int in) {
  FileResult result;
  int out = open(insert_path.c_str(), O_RDWR | O_CLOEXEC);
  if (out < 0) {
    int err = errno;
    std::fprintf(stderr, "cellfs: %s: %s%s\n", insert_path.c_str(), ErrnoText(err).c_str(),
                 err == ENOENT ? " (no such table on this mount, or not a cellfs mount)" : "");
    result.usable = false;
    return result;
  }
  std::string report;
  result.usable = SendInput(in, out, file, insert_path, meter, &result) &&
                  ReadWholeFile(out, insert_path, &report);
  if (close(out) != 0 && result.usable) {
    if (errno == EINVAL) {
      result.refused = true;
    } else {
      std::fprintf(stderr, "cellfs: closing %s: %s\n", insert_path.c_str(),
                   ErrnoText(errno).c_str());
      result.usable = false;
    }
  }
  if (result.usable && !ParseReport(report, &result)) {
    std::fprintf(stderr, "cellfs: %s: no load report in what it returned: %s\n",
                 insert_path.c_str(), report.c_str());
    result.usable = false;
  }
  return result;
}

int LoadThroughMount(const LoadArgs& args, const fs::WriteSuffixes& suffixes) {
  std::string insert_path = args.target + "/" + args.keyspace + "/" + args.table + "/@insert" +
                            fs::FormatWriteSuffixes(suffixes);
  bool all_stored = true;
  for (const std::string& file : args.files) {
    int in = OpenInput(file);
    if (in < 0) {
      all_stored = false;
      continue;
    }
    ProgressMeter meter(Label(file), InputSize(in), StderrIsTerminal());
    FileResult result = LoadFileThroughMount(file, insert_path, meter, in);
    CloseInput(in);
    all_stored = Conclude(file, meter, result) && all_stored;
  }
  return all_stored ? 0 : 1;
}

// ---- Offline.

FileResult LoadFileOffline(Engine* engine, const TableHandle& table,
                           const fs::WriteSuffixes& suffixes, const std::string& file,
                           ProgressMeter& meter, int in) {
  FileResult result;
  fs::InsertParser parser(table, suffixes);
  fs::InsertBatcher batcher(engine, table);
  auto sink = [&batcher](uint64_t line, Result<fs::InsertRow>&& row) {
    batcher.Add(line, std::move(row));
  };
  Buffer buffer = NewBuffer();
  while (true) {
    ssize_t n = read(in, buffer.get(), kChunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::fprintf(stderr, "cellfs: %s: %s\n", file.c_str(), ErrnoText(errno).c_str());
      result.usable = false;
      break;
    }
    if (n == 0) break;
    auto size = static_cast<size_t>(n);
    parser.Feed(std::string_view(buffer.get(), size), sink);
    meter.Advance(size, CountLines(buffer.get(), size));
  }
  if (result.usable) parser.Finish(sink);
  Status flushed = batcher.Flush();
  if (!flushed.ok()) {
    meter.Clear();
    std::fprintf(stderr, "cellfs: %s: %s\n", Label(file).c_str(), flushed.message().c_str());
    result.usable = false;
  }
  result.stored = batcher.rows_stored();
  result.refused_count = batcher.error_count();
  result.refusals = batcher.errors();
  return result;
}

// The store in `dir`, for this command alone; null after a message.

int LoadOffline(const LoadArgs& args, const fs::WriteSuffixes& suffixes) {
  std::unique_ptr<Engine> engine = OpenOfflineStore(args.target, false, "load");
  if (engine == nullptr) return 1;
  Result<TableHandle> table = engine->FindTable(args.keyspace, args.table);
  if (!table.ok()) {
    std::fprintf(stderr, "cellfs: %s: %s\n", args.target.c_str(), table.status().message().c_str());
    return 1;
  }
  bool all_stored = true;
  for (const std::string& file : args.files) {
    int in = OpenInput(file);
    if (in < 0) {
      all_stored = false;
      continue;
    }
    ProgressMeter meter(Label(file), InputSize(in), StderrIsTerminal());
    FileResult result = LoadFileOffline(engine.get(), *table, suffixes, file, meter, in);
    CloseInput(in);
    all_stored = Conclude(file, meter, result) && all_stored;
  }
  Status synced = engine->Sync();
  if (!synced.ok()) {
    std::fprintf(stderr, "cellfs: syncing %s: %s\n", args.target.c_str(), synced.message().c_str());
    return 1;
  }
  return all_stored ? 0 : 1;
}

Result<fs::WriteSuffixes> ParseSuffixes(const LoadArgs& args) {
  fs::WriteSuffixes suffixes;
  int64_t value = 0;
  if (!args.ttl.empty()) {
    CELLFS_RETURN_IF_ERROR(fs::ParseTtlText(args.ttl, &value).WithContext("--ttl"));
    suffixes.ttl = value;
  }
  if (!args.timestamp.empty()) {
    CELLFS_RETURN_IF_ERROR(
        fs::ParseTimestampText(args.timestamp, &value).WithContext("--timestamp"));
    suffixes.timestamp = value;
  }
  return suffixes;
}

}  // namespace

int RunLoad(const LoadArgs& args) {
  Result<fs::WriteSuffixes> suffixes = ParseSuffixes(args);
  if (!suffixes.ok()) {
    std::fprintf(stderr, "cellfs: %s\n", suffixes.status().message().c_str());
    return 2;
  }
  return args.offline ? LoadOffline(args, *suffixes) : LoadThroughMount(args, *suffixes);
}

}  // namespace cellfs::tools
