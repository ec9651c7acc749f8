// Forking into the background with a readiness pipe, and the daemon's log.
#include "tools/cellfs/daemon.h"

#include <fcntl.h>
#include <fuse3/fuse_log.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace cellfs::tools {
namespace {

// The report's first byte; an error report carries its message after it.
constexpr char kReady = 'R';
constexpr char kError = 'E';

void WriteAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone: nobody is left to tell
    done += static_cast<size_t>(n);
  }
}

std::string ReadAll(int fd) {
  std::string data;
  char buf[4096];
  while (true) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return data;
    data.append(buf, static_cast<size_t>(n));
  }
}

// The parent's side: the exit code the child's report calls for.
int AwaitReport(int read_fd, pid_t child) {
  std::string report = ReadAll(read_fd);
  close(read_fd);
  if (!report.empty() && report[0] == kReady) return 0;
  // A failed child exits right after its report: wait, so that it has let
  // go of the data directory when the command returns.
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!report.empty() && report[0] == kError) {
    std::fprintf(stderr, "cellfs: %s\n", report.c_str() + 1);
    return 1;
  }
  if (WIFSIGNALED(status)) {
    std::fprintf(stderr, "cellfs: the mount daemon died (%s) before mounting\n",
                 strsignal(WTERMSIG(status)));
  } else {
    std::fprintf(stderr, "cellfs: the mount daemon exited before mounting\n");
  }
  return 1;
}

void SyslogFuseMessage(fuse_log_level level, const char* format, va_list args) {
  vsyslog(static_cast<int>(level), format, args);
}

// Closes every descriptor above stderr but `keep_a` and `keep_b` (-1: none).
void CloseInheritedExcept(std::vector<int> keep_fds) {
  std::sort(keep_fds.begin(), keep_fds.end());
  unsigned from = 3;
  for (int keep : keep_fds) {
    if (keep < static_cast<int>(from)) continue;
    if (static_cast<unsigned>(keep) > from) close_range(from, static_cast<unsigned>(keep) - 1, 0);
    from = static_cast<unsigned>(keep) + 1;
  }
  close_range(from, ~0u, 0);
}

void DetachStdio() {
  int null_fd = open("/dev/null", O_RDWR);
  if (null_fd < 0) return;
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) dup2(null_fd, fd);
  if (null_fd > STDERR_FILENO) close(null_fd);
}

}  // namespace

Daemon Daemon::Foreground() { return Daemon(false, -1); }

Result<Daemon> Daemon::Background(std::initializer_list<int> keep_fds) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return Status::IOError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  std::fflush(nullptr);  // nothing buffered may be written twice
  pid_t pid = fork();
  if (pid < 0) {
    int err = errno;
    close(fds[0]);
    close(fds[1]);
    return Status::IOError(std::string("cannot fork: ") + std::strerror(err));
  }
  if (pid > 0) {
    close(fds[1]);
    std::exit(AwaitReport(fds[0], pid));
  }
  close(fds[0]);
  // Descriptors inherited from the caller (a test harness's pipes) would
  // stay open as long as the daemon runs.
  std::vector<int> keep(keep_fds);
  keep.push_back(fds[1]);
  CloseInheritedExcept(std::move(keep));
  Daemon daemon(true, fds[1]);
  setsid();
  if (chdir("/") != 0) {
    daemon.ReportError(std::string("cannot change to /: ") + std::strerror(errno));
    std::exit(1);
  }
  return daemon;
}

void Daemon::Report(const std::string& report) {
  if (report_fd_ < 0) return;
  WriteAll(report_fd_, report);
  close(report_fd_);
  report_fd_ = -1;
}

void Daemon::ReportReady() {
  if (ready_) return;
  ready_ = true;
  if (!background_) return;
  openlog("cellfs", LOG_PID, LOG_DAEMON);
  fuse_set_log_func(SyslogFuseMessage);
  Report(std::string(1, kReady));
  DetachStdio();
}

void Daemon::ReportError(const std::string& message) {
  if (ready_ || !background_) {
    Log(LOG_ERR, message);
    return;
  }
  Report(kError + message);
}

void Daemon::Log(int priority, const std::string& message) {
  if (background_ && ready_) {
    syslog(priority, "%s", message.c_str());
  } else if (priority <= LOG_WARNING) {
    std::fprintf(stderr, "cellfs: %s\n", message.c_str());
  }
}

}  // namespace cellfs::tools
