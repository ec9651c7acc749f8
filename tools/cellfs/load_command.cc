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
#include <optional>
#include <string_view>

#include "engine/engine.h"
#include "fs/formats/insert_batcher.h"
#include "fs/formats/insert_parser.h"
#include "fs/tree/virtual_name.h"
#include "tools/cellfs/control_file.h"
#include "tools/cellfs/load_errors.h"
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
// How much a load sends between two checkpoints (an fsync of @insert at a
// record boundary): what an interrupted load may have to send again.
constexpr uint64_t kCheckpointBytes = 8u << 20;

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
  bool stopped = false;  // more records were refused than --max-errors allowed
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

// Splits the input into records as the @insert parser does (JSON Lines:
// every '\n'; CSV: a '\n' outside quotes, the first record the header),
// drops the first `skip` records after the header (--skip-rows), and
// counts lines and records, so a checkpoint can be cut at a record boundary
// and named by the file's own line number. Blank lines before the first
// record are kept and are not records. With `header_given` (LoadArgs::header)
// the input is CSV whose every line is a record, after a header line of
// the mount's (or parser's) line 1 that the file does not hold.
class RecordFilter {
 public:
  RecordFilter(uint64_t skip, bool header_given) : skip_(skip) {
    if (!header_given) return;
    format_ = Format::kCsv;
    header_lines_ = 1;
    given_lines_ = 1;
  }

  // Where a block may be cut: after `offset` bytes of the filtered block,
  // the input's first `lines` lines and first `records` records (header
  // excluded) have been passed or skipped.
  struct Boundary {
    size_t offset = 0;
    uint64_t lines = 0;
    uint64_t records = 0;
  };

  // Removes the skipped bytes of `data` in place and returns how many
  // remain; `*last` is set to the last boundary in them, if any.
  size_t Filter(char* data, size_t size, std::optional<Boundary>* last) {
    size_t kept = 0;
    last->reset();
    for (size_t i = 0; i < size; ++i) {
      const char c = data[i];
      if (format_ == Format::kUnknown && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        format_ = c == '{' ? Format::kJson : Format::kCsv;
        in_header_ = format_ == Format::kCsv;
      }
      const bool skipping = format_ != Format::kUnknown && !in_header_ && skipped_ < skip_;
      if (!skipping) data[kept++] = c;
      if (format_ == Format::kCsv && c == '"') in_quotes_ = !in_quotes_;
      if (c != '\n') continue;
      ++lines_;
      skipped_lines_ += skipping ? 1 : 0;
      if (format_ == Format::kUnknown || in_quotes_) continue;
      if (in_header_) {
        in_header_ = false;
        header_lines_ = lines_;
      } else {
        ++records_;
        if (skipping) ++skipped_;
      }
      if (!skipping) *last = Boundary{kept, lines_, records_};
    }
    return kept;
  }

  // The file's line number of line `line` of what was sent.
  uint64_t FileLine(uint64_t line) const {
    return line <= header_lines_ ? line : line + skipped_lines_ - given_lines_;
  }

 private:
  enum class Format { kUnknown, kJson, kCsv };
  const uint64_t skip_;
  Format format_ = Format::kUnknown;
  bool in_header_ = false;
  bool in_quotes_ = false;
  uint64_t lines_ = 0;
  uint64_t records_ = 0;
  uint64_t skipped_ = 0;
  uint64_t skipped_lines_ = 0;
  uint64_t header_lines_ = 0;
  uint64_t given_lines_ = 0;  // header lines sent that are not in the file
};

// `report` ("line N: message\n"...) with each N turned into the file's.
std::string FileLineNumbers(const std::string& report, const RecordFilter& filter) {
  std::string out;
  size_t start = 0;
  while (start < report.size()) {
    size_t end = report.find('\n', start);
    if (end == std::string::npos) end = report.size();
    std::string_view line(report.data() + start, end - start);
    unsigned long long number = 0;
    int consumed = 0;
    if (std::sscanf(std::string(line).c_str(), "line %llu:%n", &number, &consumed) == 1 &&
        consumed > 0) {
      out += "line " + std::to_string(filter.FileLine(number)) + ":";
      out.append(line.substr(static_cast<size_t>(consumed)));
    } else {
      out.append(line);
    }
    out += '\n';
    start = end + 1;
  }
  return out;
}

// Prints what became of one file, its refused rows into `errfile` (may be
// null); true when all of it was stored.
bool Conclude(const std::string& file, ProgressMeter& meter, const FileResult& result,
              const LoadArgs& args, ErrFile* errfile) {
  meter.Clear();
  std::string label = Label(file);
  PrintRefusals(label, result.refusals, errfile != nullptr ? errfile->path() : "");
  if (errfile != nullptr && !errfile->AddRows(file, RefusedLines(result.refusals), args.header)) {
    return false;
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

// Splits a report, "line N: message" lines then "N rows stored, M lines
// refused", into `result`. False when its last line is not that summary.
bool ParseReport(const std::string& report, FileResult* result);

// fsync of @insert; EINVAL (a record refused, the rest applied) is success.
int SyncInsert(int out, bool* refused) {
  while (fsync(out) != 0) {
    if (errno == EINTR) continue;
    if (errno == EINVAL) {
      *refused = true;
      return 0;
    }
    return errno;
  }
  return 0;
}

// What the last checkpoint knows stored.
struct Checkpoint {
  uint64_t lines = 0;    // the file's lines up to here were sent and stored
  uint64_t records = 0;  // records among them, a CSV header not counted
  uint64_t rows = 0;     // rows the mount reported stored
};

void SayInterrupted(const std::string& file, int err, const std::optional<Checkpoint>& done) {
  std::string label = Label(file);
  if (!done) {
    std::fprintf(stderr,
                 "cellfs load: %s: interrupted (%s): no rows are known to be stored; load it "
                 "again\n",
                 label.c_str(), ErrnoText(err).c_str());
    return;
  }
  std::fprintf(stderr,
               "cellfs load: %s: interrupted (%s): rows up to line %llu (%llu rows) are stored; "
               "resume with --skip-rows %llu\n",
               label.c_str(), ErrnoText(err).c_str(), static_cast<unsigned long long>(done->lines),
               static_cast<unsigned long long>(done->rows),
               static_cast<unsigned long long>(done->records));
}

// Streams the input into @insert and flushes its last record. Every
// kCheckpointBytes it cuts a write at a record boundary and fsyncs, which
// applies what came before: the checkpoint a failed mount is reported
// from. False after a message when the input or @insert fails.
bool SendInput(int in, int out, const std::string& file, const std::string& insert_path,
               RecordFilter& filter, ProgressMeter& meter, uint64_t allowance, FileResult* result) {
  Buffer buffer = NewBuffer();
  std::optional<Checkpoint> done;
  uint64_t since_checkpoint = 0;
  size_t carried = 0;  // bytes after the last cut, moved to the buffer's start
  auto fail = [&](const std::string& what, int err) {
    meter.Clear();
    std::fprintf(stderr, "cellfs: %s %s: %s\n", what.c_str(), insert_path.c_str(),
                 ErrnoText(err).c_str());
    SayInterrupted(file, err, done);
    return false;
  };
  while (true) {
    ssize_t n = ReadFull(in, buffer.get() + carried, kChunk - carried);
    if (n < 0) {
      std::fprintf(stderr, "cellfs: %s: %s\n", file.c_str(), ErrnoText(errno).c_str());
      return false;
    }
    if (n == 0 && carried == 0) break;
    char* fresh = buffer.get() + carried;
    meter.Advance(static_cast<size_t>(n), CountLines(fresh, static_cast<size_t>(n)));
    std::optional<RecordFilter::Boundary> boundary;
    size_t kept = filter.Filter(fresh, static_cast<size_t>(n), &boundary);
    const size_t base = carried;
    size_t size = base + kept;
    carried = 0;
    if (size == 0) {
      if (n == 0) break;
      continue;
    }
    since_checkpoint += kept;
    size_t cut = size;
    const bool checkpoint = since_checkpoint >= kCheckpointBytes && boundary.has_value();
    if (checkpoint) cut = base + boundary->offset;
    int err = 0;
    if (!WriteChunk(out, buffer.get(), cut, &result->refused, &err)) return fail("writing", err);
    if (checkpoint) {
      if (int e = SyncInsert(out, &result->refused)) return fail("syncing", e);
      std::string report;
      FileResult so_far;
      if (ReadWholeFile(out, insert_path, &report) && ParseReport(report, &so_far)) {
        done = Checkpoint{boundary->lines, boundary->records, so_far.stored};
        if (so_far.refused_count > allowance) {  // --max-errors: send no more
          result->stopped = true;
          break;
        }
      }
      since_checkpoint = size - cut;
      carried = size - cut;
      std::memmove(buffer.get(), buffer.get() + cut, carried);
    }
    if (n == 0) break;
  }
  if (int e = SyncInsert(out, &result->refused)) return fail("syncing", e);
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
                                const LoadArgs& args, ProgressMeter& meter, int in,
                                uint64_t allowance) {
  RecordFilter filter(args.skip_rows, !args.header.empty());
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
  int err = 0;
  if (!args.header.empty()) {
    const std::string header = args.header + "\n";
    if (!WriteChunk(out, header.data(), header.size(), &result.refused, &err)) {
      std::fprintf(stderr, "cellfs: writing %s: %s\n", insert_path.c_str(), ErrnoText(err).c_str());
      close(out);
      result.usable = false;
      return result;
    }
  }
  result.usable = SendInput(in, out, file, insert_path, filter, meter, allowance, &result) &&
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
  result.refusals = FileLineNumbers(result.refusals, filter);
  return result;
}

// Loads every input file of `args` in turn with `load_file(file, meter,
// descriptor, allowance)`, each with its own progress meter and summary,
// until more records than --max-errors were refused (`allowance`: how many
// more refusals the file may have); true when every file opened and every
// row of each was stored.
template <typename LoadFile>
bool LoadEachFile(const LoadArgs& args, const LoadFile& load_file) {
  std::unique_ptr<ErrFile> errfile;
  if (!args.errfile.empty()) {
    errfile = ErrFile::Create(args.errfile);
    if (!errfile) return false;
  }
  bool all_stored = true;
  uint64_t refused = 0;
  for (const std::string& file : args.files) {
    int in = OpenInput(file);
    if (in < 0) {
      all_stored = false;
      continue;
    }
    const uint64_t allowance =
        args.max_errors < 0 ? UINT64_MAX : static_cast<uint64_t>(args.max_errors) - refused;
    ProgressMeter meter(Label(file), InputSize(in), StderrIsTerminal());
    FileResult result = load_file(file, meter, in, allowance);
    CloseInput(in);
    all_stored = Conclude(file, meter, result, args, errfile.get()) && all_stored;
    refused += result.refused_count;
    if (args.max_errors >= 0 &&
        (result.stopped || refused > static_cast<uint64_t>(args.max_errors))) {
      std::fprintf(stderr,
                   "cellfs load: stopped: more than %lld records refused (--max-errors); what "
                   "was read before is stored, %s\n",
                   static_cast<long long>(args.max_errors),
                   result.stopped ? "the rest of this file and any later file are not"
                                  : "any later file is not");
      return false;
    }
  }
  return all_stored;
}

int LoadThroughMount(const LoadArgs& args, const WriteAttributes& suffixes) {
  std::string insert_path = args.target + "/" + args.keyspace + "/" + args.table + "/@insert" +
                            fs::FormatWriteSuffixes(suffixes);
  bool all_stored = LoadEachFile(
      args, [&](const std::string& file, ProgressMeter& meter, int in, uint64_t allowance) {
        return LoadFileThroughMount(file, insert_path, args, meter, in, allowance);
      });
  return all_stored ? 0 : 1;
}

// ---- Offline.

FileResult LoadFileOffline(Engine* engine, const TableHandle& table,
                           const WriteAttributes& suffixes, const std::string& file,
                           const LoadArgs& args, ProgressMeter& meter, int in, uint64_t allowance) {
  FileResult result;
  RecordFilter filter(args.skip_rows, !args.header.empty());
  std::optional<RecordFilter::Boundary> unused;
  fs::InsertParser parser(table, suffixes);
  fs::InsertBatcher batcher(engine, table, /*track_touched=*/false);
  auto sink = [&batcher](uint64_t line, Result<fs::InsertRow>&& row) {
    batcher.Add(line, std::move(row));
  };
  if (!args.header.empty()) parser.Feed(args.header + "\n", sink);
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
    meter.Advance(size, CountLines(buffer.get(), size));
    size_t kept = filter.Filter(buffer.get(), size, &unused);
    parser.Feed(std::string_view(buffer.get(), kept), sink);
    if (batcher.error_count() > allowance) {  // --max-errors: read no more
      result.stopped = true;
      break;
    }
  }
  if (result.usable && !result.stopped) parser.Finish(sink);
  Status flushed = batcher.Flush();
  if (!flushed.ok()) {
    meter.Clear();
    std::fprintf(stderr, "cellfs: %s: %s\n", Label(file).c_str(), flushed.message().c_str());
    result.usable = false;
  }
  result.stored = batcher.rows_stored();
  result.refused_count = batcher.error_count();
  result.refusals = FileLineNumbers(batcher.errors(), filter);
  return result;
}

int LoadOffline(const LoadArgs& args, const WriteAttributes& suffixes) {
  std::unique_ptr<Engine> engine = OpenOfflineStore(args.target, false, "load");
  if (engine == nullptr) return 1;
  Result<TableHandle> table = engine->FindTable(args.keyspace, args.table);
  if (!table.ok()) {
    std::fprintf(stderr, "cellfs: %s: %s\n", args.target.c_str(), table.status().message().c_str());
    return 1;
  }
  bool all_stored = LoadEachFile(
      args, [&](const std::string& file, ProgressMeter& meter, int in, uint64_t allowance) {
        return LoadFileOffline(engine.get(), *table, suffixes, file, args, meter, in, allowance);
      });
  Status synced = engine->Sync();
  if (!synced.ok()) {
    std::fprintf(stderr, "cellfs: syncing %s: %s\n", args.target.c_str(), synced.message().c_str());
    return 1;
  }
  return all_stored ? 0 : 1;
}

Result<WriteAttributes> ParseSuffixes(const LoadArgs& args) {
  WriteAttributes suffixes;
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
  if (args.max_errors < -1) {
    std::fprintf(stderr, "cellfs: --max-errors takes a number of records, or -1 for no limit\n");
    return 2;
  }
  Result<WriteAttributes> suffixes = ParseSuffixes(args);
  if (!suffixes.ok()) {
    std::fprintf(stderr, "cellfs: %s\n", suffixes.status().message().c_str());
    return 2;
  }
  return args.offline ? LoadOffline(args, *suffixes) : LoadThroughMount(args, *suffixes);
}

}  // namespace cellfs::tools
