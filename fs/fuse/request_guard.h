// RequestGuard: the one guard every FUSE request handler runs under
// (fs/fuse/fuse_binding.cc). An exception escaping a handler would unwind into
// libfuse's C loop and end the daemon, leaving a dead mount; the guard
// turns it into an error reply instead. Kernel-free, so it is unit-tested.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <utility>

namespace cellfs::fs {

// Runs handler bodies and contains what they throw: std::bad_alloc becomes
// ENOMEM, anything else EIO. A request gets exactly one reply: the body's
// own, or — when it threw before replying — the guard's error reply. The
// binding calls MarkReplied() just before each fuse_reply_* (libfuse frees
// the request in every reply, even a failed one), so an exception thrown
// after the reply sends no second one.
//
// The first escape is logged with its operation and message; later ones
// are counted and logged at each power of two, so a fault that repeats per
// request cannot flood the log.
//
// Thread-safe: the reply mark is per thread (a handler runs on one thread
// from start to reply), the count atomic, the log callback set once before
// the session starts.
class RequestGuard {
 public:
  using LogFunction = void (*)(const std::string& message);

  // Where escape reports go; null (the default) drops them. REQUIRES: no
  // request is in progress.
  static void SetLog(LogFunction log) { log_ = log; }

  // Runs `body()`; if it throws before it replied, calls `reply_error(errno)`
  // once (for forget, whose reply is fuse_reply_none, the callback ignores
  // the errno). Never throws (a throwing reply_error is swallowed: the
  // request is then lost, not the daemon).
  template <typename Body, typename ReplyError>
  static void Run(const char* operation, Body&& body, ReplyError&& reply_error) noexcept {
    Scope scope;
    int err = 0;
    std::string what;
    try {
      std::forward<Body>(body)();
      return;
    } catch (const std::bad_alloc& e) {
      err = ENOMEM;
      what = e.what();
    } catch (const std::exception& e) {
      err = EIO;
      what = e.what();
    } catch (...) {
      err = EIO;
      what = "an exception of unknown type";
    }
    const bool replied = scope.replied();
    Report(operation, what, err, replied);
    if (replied) return;
    try {
      std::forward<ReplyError>(reply_error)(err);
    } catch (...) {
    }
  }

  // The running handler has sent (or is about to send) its reply.
  static void MarkReplied() { replied_ = true; }

  // Exceptions contained since the process started.
  static uint64_t escaped() { return escaped_.load(std::memory_order_relaxed); }

 private:
  // Resets the thread's reply mark for one request; restores the outer
  // value so a nested Run (none today) cannot confuse an outer one.
  class Scope {
   public:
    Scope() : outer_(std::exchange(replied_, false)) {}
    ~Scope() { replied_ = outer_; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    bool replied() const { return replied_; }

   private:
    bool outer_;
  };

  static void Report(const char* operation, const std::string& what, int err,
                     bool replied) noexcept {
    const uint64_t count = escaped_.fetch_add(1, std::memory_order_relaxed) + 1;
    LogFunction log = log_;
    if (log == nullptr || (count & (count - 1)) != 0) return;  // the 1st, 2nd, 4th...
    try {
      std::string message = count == 1 ? "cellfs: "
                                       : "cellfs: " + std::to_string(count) +
                                             " exceptions contained so far; latest: ";
      message += std::string("exception in ") + operation + ": " + what +
                 (replied         ? " (after its reply)"
                  : err == ENOMEM ? " (replied ENOMEM)"
                                  : " (replied EIO)");
      log(message);
    } catch (...) {
    }
  }

  static inline thread_local bool replied_ = false;
  static inline std::atomic<uint64_t> escaped_{0};
  static inline LogFunction log_ = nullptr;
};

}  // namespace cellfs::fs
