// RefusalLog and the per-request refusal reason (fs/tree/refusal_log.h).
#include "fs/tree/refusal_log.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <utility>

namespace cellfs::fs {
namespace {

// Requests that ask whether something exists: their "no" is an answer, not
// a refusal.
bool IsProbe(std::string_view operation) {
  static constexpr std::string_view kProbes[] = {"lookup",  "getattr", "open",     "read",
                                                 "opendir", "readdir", "getxattr", "listxattr"};
  for (std::string_view probe : kProbes) {
    if (operation == probe) return true;
  }
  return false;
}

void Bound(std::string* text, size_t limit) {
  if (text->size() <= limit) return;
  text->resize(limit);
  text->append("...");
}

void AppendPrintable(std::string_view text, std::string* out) {
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out->push_back(byte < 0x20 || byte == 0x7f ? '?' : c);
  }
}

std::string IsoTime(int64_t micros) {
  const time_t seconds = static_cast<time_t>(micros / 1'000'000);
  struct tm utc {};
  gmtime_r(&seconds, &utc);
  char text[96];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(micros % 1'000'000 / 1000));
  return text;
}

struct NotedReason {
  int err = 0;
  std::string reason;
};
thread_local NotedReason noted;

}  // namespace

RefusalLog::RefusalLog(size_t capacity, Sink sink)
    : capacity_(capacity == 0 ? 1 : capacity), sink_(std::move(sink)) {}

bool RefusalLog::Worth(std::string_view operation, int err) {
  if (err == EINTR) return false;
  if (operation == "mkdir" && err == EEXIST) return false;
  if (operation == "access") return false;  // a question (`test -w`), not a refusal
  // The ACLs and security labels that `cp -a`, `sed -i` and `rsync -A`
  // copy onto every file they write: cellfs has none, and those tools go
  // on without them.
  if (err == EOPNOTSUPP &&
      (operation.starts_with("setxattr(system.") || operation.starts_with("setxattr(security.") ||
       operation.starts_with("removexattr(system."))) {
    return false;
  }
  if (IsProbe(operation)) {
    return err != ENOENT && err != ENODATA && err != ERANGE && err != EOPNOTSUPP && err != EEXIST &&
           err != ENOTDIR;
  }
  return true;
}

void RefusalLog::Record(Refusal refusal) {
  Bound(&refusal.reason, kMaxReasonBytes);
  Bound(&refusal.path, kMaxPathBytes);
  std::string line = sink_ ? FormatLine(refusal) : std::string();
  {
    std::lock_guard lock(mutex_);
    if (RepeatsLatest(refusal)) return;
    if (kept_.size() == capacity_) kept_.pop_front();
    kept_.push_back(std::move(refusal));
    ++recorded_;
  }
  if (sink_) sink_(line);
}

bool RefusalLog::RepeatsLatest(const Refusal& refusal) const {
  if (refusal.operation != "close" || kept_.empty()) return false;
  const Refusal& latest = kept_.back();
  return latest.operation == "write" && latest.path == refusal.path && latest.err == refusal.err &&
         latest.reason == refusal.reason;
}

RefusalLog::Summary RefusalLog::Summarize() const {
  std::lock_guard lock(mutex_);
  Summary summary;
  summary.recorded = recorded_;
  if (!kept_.empty()) summary.latest = FormatLine(kept_.back());
  return summary;
}

std::string RefusalLog::Render() const {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const Refusal& refusal : kept_) {
    out += FormatLine(refusal);
    out.push_back('\n');
  }
  return out;
}

std::string RefusalLog::FormatLine(const Refusal& refusal) {
  std::string line = IsoTime(refusal.time_micros);
  line.push_back(' ');
  line += refusal.operation;
  line.push_back(' ');
  AppendPrintable(refusal.path, &line);
  line += ": ";
  const char* name = strerrorname_np(refusal.err);
  line += name != nullptr ? name : "E" + std::to_string(refusal.err);
  line += " (";
  line += std::strerror(refusal.err);
  line += ")";
  if (!refusal.reason.empty()) {
    line += ": ";
    AppendPrintable(refusal.reason, &line);
  }
  return line;
}

void NoteRefusalReason(int err, std::string_view reason) {
  noted.err = err;
  noted.reason.assign(reason);
}

std::string TakeRefusalReason(int err) {
  std::string reason;
  if (noted.err == err && err != 0) reason = std::move(noted.reason);
  ClearRefusalReason();
  return reason;
}

void ClearRefusalReason() {
  noted.err = 0;
  noted.reason.clear();
}

}  // namespace cellfs::fs
