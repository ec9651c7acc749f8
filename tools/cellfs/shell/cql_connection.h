// CqlConnection: the shell's one open MOUNT/@cql — its session keeps the
// keyspace in use — sending a statement at a time and reading its
// transcript entries back as they come (fs/formats/cql_session.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cellfs::tools::shell {

// One transcript entry. kOutput entries come a block at a time (a SELECT
// sends a page of rows per block), so a result of any size streams.
struct TranscriptEntry {
  enum class Kind { kOk, kError, kOutput };
  Kind kind = Kind::kOk;
  std::string text;                // kOk, kError: the line without '\n'
  std::vector<std::string> lines;  // kOutput: the block's lines without '\n'
};

// Thread-compatible. The descriptor is closed by the destructor.
class CqlConnection {
 public:
  // Opens MOUNT/@cql for reading and writing; null, with `*error` set to a
  // sentence for the user, when it cannot.
  static std::unique_ptr<CqlConnection> Open(const std::string& mount_point, std::string* error);
  ~CqlConnection();
  CqlConnection(const CqlConnection&) = delete;
  CqlConnection& operator=(const CqlConnection&) = delete;

  // Writes `statement` (complete: ended by ';') and a '\n', then reads the
  // transcript from where the last read stopped to its end, handing each
  // entry to `sink` as soon as it is read (the daemon makes a SELECT's next
  // page only when it is read, so a sink that waits holds the result back).
  // An ERROR's "line L:C" is made relative to `statement`'s first line.
  // Returns false, with `*error` set, when the file fails (not when the
  // statement does: that is an kError entry).
  bool Run(std::string_view statement, const std::function<void(TranscriptEntry&&)>& sink,
           std::string* error);

 private:
  CqlConnection(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  bool ReadEntries(uint64_t first_line, const std::function<void(TranscriptEntry&&)>& sink,
                   std::string* error);

  int fd_;
  std::string path_;
  uint64_t read_offset_ = 0;  // how far the transcript was read
  uint64_t lines_sent_ = 0;   // lines written so far: where the next statement starts
};

// "ERROR line L:C: message" with L made relative to a statement that began
// on line `first_line` (1-based) of the session; other text as it is.
std::string RelativeErrorLine(std::string_view text, uint64_t first_line);

}  // namespace cellfs::tools::shell
