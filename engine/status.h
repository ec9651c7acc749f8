// Status: the engine's one error type. Every fallible engine call returns a
// [[nodiscard]] Status (or a Result<T> carrying one); the fs layer turns it
// into an errno in exactly one place.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace cellfs {

// A small, closed set of error kinds, after abseil's status codes. Callers
// branch on the code; the message is for people and names the problem.
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // malformed input: a value, a name, a statement
  kNotFound,            // a keyspace, table, type, column or key is absent
  kAlreadyExists,       // create of something that exists (without IF NOT EXISTS)
  kNameTooLong,         // a key's name would exceed the filesystem's limit
  kNotSupported,        // valid CQL that cellfs does not implement
  kFailedPrecondition,  // the state forbids it: dropping a used type, a non-empty directory
  kCorruption,          // stored bytes do not decode
  kIOError,             // the storage layer failed
  kReadOnly,            // a write to a store opened read-only, or on a read-only device
  kNoSpace,             // the storage device is full
  kAborted,             // a write raced a schema change and was not applied, or a read of a
                        // view still being built: retry it
};

// Status is a value type: cheap to copy when ok (no allocation), carrying a
// code and a message otherwise. Thread-compatible.
class [[nodiscard]] Status {
 public:
  Status() = default;  // ok
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {
    assert(code != StatusCode::kOk);
  }

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status NameTooLong(std::string m) { return {StatusCode::kNameTooLong, std::move(m)}; }
  static Status NotSupported(std::string m) { return {StatusCode::kNotSupported, std::move(m)}; }
  static Status FailedPrecondition(std::string m) {
    return {StatusCode::kFailedPrecondition, std::move(m)};
  }
  static Status Corruption(std::string m) { return {StatusCode::kCorruption, std::move(m)}; }
  static Status IOError(std::string m) { return {StatusCode::kIOError, std::move(m)}; }
  static Status ReadOnly(std::string m) { return {StatusCode::kReadOnly, std::move(m)}; }
  static Status NoSpace(std::string m) { return {StatusCode::kNoSpace, std::move(m)}; }
  static Status Aborted(std::string m) { return {StatusCode::kAborted, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "InvalidArgument: <message>", or "OK".
  std::string ToString() const;

  // Returns a copy whose message is `prefix` + ": " + message(); ok stays ok.
  Status WithContext(std::string_view prefix) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Result<T> holds either a T or a non-ok Status. Accessing value() of a
// failed result is a precondition violation (asserted).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    assert(!status_.ok());
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok()
  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace cellfs

// Returns early from the enclosing function when `expr` yields a non-ok Status.
// The temporary's name is unique per line so that nested uses do not shadow.
#define CELLFS_STATUS_CONCAT_INNER(a, b) a##b
#define CELLFS_STATUS_CONCAT(a, b) CELLFS_STATUS_CONCAT_INNER(a, b)
#define CELLFS_RETURN_IF_ERROR(expr) \
  CELLFS_RETURN_IF_ERROR_IMPL(CELLFS_STATUS_CONCAT(cellfs_status_, __COUNTER__), expr)
#define CELLFS_RETURN_IF_ERROR_IMPL(var, expr) \
  do {                                         \
    ::cellfs::Status var = (expr);             \
    if (!var.ok()) return var;                 \
  } while (false)
