// Daemon: how `cellfs mount` runs, in the foreground or forked into the
// background, with the caller waiting until the mount is live or has failed.
#pragma once

#include <atomic>
#include <initializer_list>
#include <string>

#include "engine/status.h"

namespace cellfs::tools {

// The child half of the start-up handshake, and where the daemon logs.
// The mount command's main thread drives it; Log may be called from any
// thread (the refusals of requests).
class Daemon {
 public:
  // Stays in this process; errors and logs go to stderr.
  static Daemon Foreground();

  // Forks. Returns only in the child, which runs in a session of its own
  // with "/" as its directory and, of the descriptors above stderr, only
  // `keep_fds` (the data directory's and its parent's; -1s are ignored); the parent waits for the
  // child's report and exits: 0 once the child reports ready, 1 (printing
  // the message) when it reports an error or dies first. IOError when fork
  // or pipe fails (in the original process). Call before any thread exists:
  // threads do not survive fork.
  static Result<Daemon> Background(std::initializer_list<int> keep_fds = {});

  // The mount is live. The waiting parent exits 0; a background daemon
  // then points stdin, stdout and stderr at /dev/null and logs to syslog
  // ("cellfs", LOG_DAEMON), libfuse's messages included.
  void ReportReady();

  // Before ReportReady: `message` is the command's failure, printed on the
  // caller's stderr after "cellfs: ". After: logged as an error.
  void ReportError(const std::string& message);

  // One line for the log, `priority` a syslog priority: syslog once a
  // background daemon is ready; before that, and in the foreground,
  // warnings and errors go to stderr ("cellfs: " first), the rest nowhere.
  void Log(int priority, const std::string& message);

  // Moved only before any thread logs (returned by Foreground / Background).
  Daemon(Daemon&& other) noexcept
      : background_(other.background_), report_fd_(other.report_fd_), ready_(other.ready_.load()) {}

 private:
  Daemon(bool background, int report_fd) : background_(background), report_fd_(report_fd) {}

  void Report(const std::string& report);

  bool background_;
  int report_fd_;                    // write end of the pipe the parent waits on; -1 once used
  std::atomic<bool> ready_ = false;  // read by Log on the request threads
};

}  // namespace cellfs::tools
