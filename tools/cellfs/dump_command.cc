// `cellfs dump`: copies TABLE/@json or @csv to the output in 64 KiB reads,
// or, offline, runs fs::ExportTable (what those files serve) over a
// read-only engine of our own.
#include "tools/cellfs/dump_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>

#include "engine/engine.h"
#include "fs/formats/table_export.h"
#include "tools/cellfs/offline_store.h"

namespace cellfs::tools {
namespace {

constexpr size_t kChunk = 64 * 1024;

std::string ErrnoText(int err) { return std::strerror(err); }

bool ToStdout(const DumpArgs& args) { return args.output.empty() || args.output == "-"; }

std::string OutputName(const DumpArgs& args) { return ToStdout(args) ? "stdout" : args.output; }

// The output's descriptor (stdout for "" or "-"), or -1 after a message.
int OpenOutput(const DumpArgs& args) {
  if (ToStdout(args)) return STDOUT_FILENO;
  int fd = open(args.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    std::fprintf(stderr, "cellfs: %s: %s\n", args.output.c_str(), ErrnoText(errno).c_str());
  return fd;
}

// Closes a file we opened; false after a message when its last writes failed.
bool CloseOutput(const DumpArgs& args, int fd) {
  if (ToStdout(args)) return true;
  if (close(fd) == 0) return true;
  std::fprintf(stderr, "cellfs: %s: %s\n", args.output.c_str(), ErrnoText(errno).c_str());
  return false;
}

// False, with errno set, when a write fails.
bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Copies `in` to `out`; false after a message.
bool Copy(int in, const std::string& in_path, int out, const DumpArgs& args) {
  auto buf = std::make_unique<char[]>(kChunk);
  while (true) {
    ssize_t n = read(in, buf.get(), kChunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::fprintf(stderr, "cellfs: reading %s: %s\n", in_path.c_str(), ErrnoText(errno).c_str());
      return false;
    }
    if (n == 0) return true;
    if (!WriteAll(out, std::string_view(buf.get(), static_cast<size_t>(n)))) {
      std::fprintf(stderr, "cellfs: writing %s: %s\n", OutputName(args).c_str(),
                   ErrnoText(errno).c_str());
      return false;
    }
  }
}

int DumpThroughMount(const DumpArgs& args) {
  std::string path =
      args.source + "/" + args.keyspace + "/" + args.table + (args.csv ? "/@csv" : "/@json");
  int in = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    int err = errno;
    std::fprintf(stderr, "cellfs: %s: %s%s\n", path.c_str(), ErrnoText(err).c_str(),
                 err == ENOENT ? " (no such table on this mount, or not a cellfs mount)" : "");
    return 1;
  }
  int out = OpenOutput(args);
  bool ok = out >= 0 && Copy(in, path, out, args);
  if (out >= 0) ok = CloseOutput(args, out) && ok;
  close(in);
  return ok ? 0 : 1;
}

// The store in `dir`, read-only, for this command alone; null after a
// message.

int DumpOffline(const DumpArgs& args) {
  std::unique_ptr<Engine> engine = OpenOfflineStore(args.source, true, "dump");
  if (engine == nullptr) return 1;
  Result<TableHandle> table = engine->FindTable(args.keyspace, args.table);
  if (!table.ok()) {
    std::fprintf(stderr, "cellfs: %s: %s\n", args.source.c_str(), table.status().message().c_str());
    return 1;
  }
  int out = OpenOutput(args);
  if (out < 0) return 1;
  int write_error = 0;
  Status exported =
      fs::ExportTable(*engine, args.keyspace, args.table, args.csv, [&](std::string_view piece) {
        if (WriteAll(out, piece)) return true;
        write_error = errno;
        return false;
      });
  bool ok = CloseOutput(args, out);
  if (write_error != 0) {
    std::fprintf(stderr, "cellfs: writing %s: %s\n", OutputName(args).c_str(),
                 ErrnoText(write_error).c_str());
    return 1;
  }
  if (!exported.ok()) {
    std::fprintf(stderr, "cellfs: %s: %s\n", args.source.c_str(), exported.message().c_str());
    return 1;
  }
  return ok ? 0 : 1;
}

}  // namespace

int RunDump(const DumpArgs& args) {
  return args.offline ? DumpOffline(args) : DumpThroughMount(args);
}

}  // namespace cellfs::tools
