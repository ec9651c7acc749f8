// RefusalLog: the latest refused requests of a mount with their reasons, for
// MOUNT/@errors and the daemon's log (DESIGN.md section 3: every refusal
// leaves its reason where a user looks). Bounded: the oldest go first.
// The reason a request was refused is noted where an engine Status becomes
// its errno (ErrnoFromStatus), on the request's own thread, and taken when
// the operation returns (Filesystem, fs/ops/filesystem.cc).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace cellfs::fs {

struct Refusal {
  int64_t time_micros = 0;  // wall clock, microseconds since the epoch
  std::string operation;    // the request: "write", "mkdir", "setxattr", ...
  std::string path;         // relative to the mount ("ks/t/1/v"), "." for the root
  int err = 0;              // the positive errno the caller got
  std::string reason;       // why; the errno's text when no reason was noted
};

// Thread-safe.
class RefusalLog {
 public:
  // Receives each recorded refusal's line (FormatLine, no newline): the
  // daemon's log. Called under no lock of the log, on the request's thread.
  using Sink = std::function<void(const std::string& line)>;

  static constexpr size_t kDefaultCapacity = 256;
  static constexpr size_t kMaxReasonBytes = 1024;  // longer reasons are cut, marked "..."
  static constexpr size_t kMaxPathBytes = 1024;

  explicit RefusalLog(size_t capacity = kDefaultCapacity, Sink sink = {});

  // Whether a refusal of `operation` with `err` is one a user would ask
  // about. Not: the answers of probing requests (a lookup or stat of a name
  // that does not exist, an attribute or name that is absent: ENOENT,
  // ENODATA, ERANGE, EOPNOTSUPP from reads), an EEXIST from mkdir (mkdir -p
  // meets every existing parent), an interrupted request (EINTR), the
  // EOPNOTSUPP of a system.* or security.* attribute set (the ACLs and
  // labels `cp -a` and `sed -i` copy onto whatever they write).
  static bool Worth(std::string_view operation, int err);

  // Keeps `refusal` (reason and path cut to their bounds), dropping the
  // oldest when full, and passes its line to the sink. A close that repeats
  // the latest refusal, a write of the same path with the same errno and
  // reason (the close reporting the failure its write already reported), is
  // neither kept nor passed on: one refused write is one line.
  void Record(Refusal refusal);

  // How many refusals were recorded since the mount (those dropped for
  // room included), and the latest's FormatLine (empty when none).
  struct Summary {
    uint64_t recorded = 0;
    std::string latest;
  };
  Summary Summarize() const;

  // Every refusal kept, oldest first, one FormatLine per line, each ended
  // by '\n'. Empty when there are none.
  std::string Render() const;

  // "2026-11-26T10:02:03.123Z write ks/t/1/v: EINVAL (Invalid argument): <reason>"
  // A newline or other control byte in the path or reason shows as '?'.
  static std::string FormatLine(const Refusal& refusal);

 private:
  bool RepeatsLatest(const Refusal& refusal) const;  // REQUIRES: mutex_ held

  const size_t capacity_;
  const Sink sink_;
  mutable std::mutex mutex_;  // guards kept_ and recorded_
  std::deque<Refusal> kept_;
  uint64_t recorded_ = 0;
};

// The reason for the errno the current request is about to return, noted on
// its own thread (one request runs on one thread from start to reply).
// NoteRefusalReason keeps the latest; TakeRefusalReason returns it when it
// was noted for `err` (else empty) and forgets it; ClearRefusalReason forgets
// it at a request's start, so a reason noted for a failure an operation got
// over never explains a later errno.
void NoteRefusalReason(int err, std::string_view reason);
std::string TakeRefusalReason(int err);
void ClearRefusalReason();

// Notes `reason` for `err` and returns `err`: `return Refuse(EPERM, "...")`.
inline int Refuse(int err, std::string_view reason) {
  NoteRefusalReason(err, reason);
  return err;
}

}  // namespace cellfs::fs
