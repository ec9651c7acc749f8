// CQL time functions evaluated where a literal is parsed: min/maxTimeuuid
// from a timestamp, now() and the current* functions from the real clock.
#include "engine/cql/internal/time_functions.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>

#include "engine/cql/big_endian.h"
#include "engine/cql/internal/civil_time.h"
#include "engine/cql/internal/temporal_literal.h"

namespace cellfs {
namespace {

// 100-ns intervals between the uuid epoch (1582-10-15) and the Unix epoch.
constexpr int64_t kUuidEpochTicks = 0x01B21DD213814000;
constexpr uint64_t kMinClockSeqAndNode = 0x8080808080808080;
constexpr uint64_t kMaxClockSeqAndNode = 0x7f7f7f7f7f7f7f7f;
// The timeuuid's 60-bit clock: millis beyond this do not fit.
constexpr int64_t kMaxTicks = (int64_t{1} << 60) - 1;

// A version 1 uuid from its 60-bit time and its low 8 bytes.
std::string Timeuuid(uint64_t ticks, uint64_t low) {
  const uint64_t high = (ticks & 0xffffffff) << 32 | ((ticks >> 32) & 0xffff) << 16 | 0x1000 |
                        ((ticks >> 48) & 0x0fff);
  return BigEndianBytes(high, 8) + BigEndianBytes(low, 8);
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const char x = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// The argument's text: a '…' string unquoted ('' for a quote), or bare.
Status Unquote(std::string_view arg, std::string* text) {
  if (arg.empty() || arg.front() != '\'') {
    *text = std::string(arg);
    return Status::Ok();
  }
  text->clear();
  for (size_t i = 1; i < arg.size(); ++i) {
    if (arg[i] != '\'') {
      text->push_back(arg[i]);
    } else if (i + 1 < arg.size() && arg[i + 1] == '\'') {
      text->push_back('\'');
      ++i;
    } else if (i + 1 == arg.size()) {
      return Status::Ok();
    } else {
      break;
    }
  }
  return Status::InvalidArgument("unterminated or malformed string " + std::string(arg));
}

Status EvaluateTimeuuidBound(std::string_view arg, bool max, std::string* out) {
  std::string text;
  CELLFS_RETURN_IF_ERROR(Unquote(arg, &text));
  std::string bytes;
  CELLFS_RETURN_IF_ERROR(ParseTimestampLiteral(text, &bytes));
  const auto millis = static_cast<int64_t>(ReadBigEndian(bytes));
  if (millis < -kUuidEpochTicks / 10'000 || millis > (kMaxTicks - kUuidEpochTicks) / 10'000 - 1) {
    return Status::InvalidArgument("timestamp " + text + " is outside a timeuuid's range");
  }
  *out = TimeuuidBound(millis, max);
  return Status::Ok();
}

// The real time. engine/cql includes nothing of the store, so not its Clock:
// these functions read the wall clock, as Cassandra's do.
int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A fresh timeuuid: the clock in 100-ns ticks, bumped past the last one
// handed out; the low bytes random once per process (variant 10).
std::string NewTimeuuid() {
  static std::atomic<int64_t> last_ticks{0};
  static const uint64_t low = [] {
    std::random_device device;
    const uint64_t bits = (uint64_t{device()} << 32) | device();
    return (bits & 0x3fffffffffffffff) | 0x8000000000000000;
  }();
  const int64_t now = NowMicros() * 10 + kUuidEpochTicks;
  int64_t last = last_ticks.load();
  int64_t next = 0;
  do {
    next = now > last ? now : last + 1;
  } while (!last_ticks.compare_exchange_weak(last, next));
  return Timeuuid(static_cast<uint64_t>(next), low);
}

struct Function {
  const char* name;  // lower case
  TypeKind result;
  bool takes_timestamp;
};

constexpr Function kFunctions[] = {
    {"mintimeuuid", TypeKind::kTimeuuid, true},
    {"maxtimeuuid", TypeKind::kTimeuuid, true},
    {"now", TypeKind::kTimeuuid, false},
    {"currenttimeuuid", TypeKind::kTimeuuid, false},
    {"currenttimestamp", TypeKind::kTimestamp, false},
    {"currentdate", TypeKind::kDate, false},
    {"currenttime", TypeKind::kTime, false},
};

void EvaluateCurrent(TypeKind kind, std::string* out) {
  const int64_t micros = NowMicros();
  int64_t millis = micros / 1000;
  if (micros % 1000 < 0) --millis;
  int64_t days = millis / kMillisPerDay;
  if (millis % kMillisPerDay < 0) --days;
  switch (kind) {
    case TypeKind::kTimeuuid:
      *out = NewTimeuuid();
      return;
    case TypeKind::kTimestamp:
      *out = BigEndianBytes(static_cast<uint64_t>(millis), 8);
      return;
    case TypeKind::kDate:
      *out = BigEndianBytes(static_cast<uint64_t>(days + (int64_t{1} << 31)), 4);
      return;
    default:  // kTime
      *out = BigEndianBytes(static_cast<uint64_t>((millis - days * kMillisPerDay) * 1'000'000), 8);
  }
}

}  // namespace

bool LooksLikeTimeFunction(std::string_view text) {
  size_t n = 0;
  while (n < text.size() && ((text[n] | 0x20) >= 'a' && (text[n] | 0x20) <= 'z')) ++n;
  return n > 0 && n < text.size() && text[n] == '(' && text.back() == ')';
}

Status ParseTimeFunction(TypeKind kind, std::string_view text, std::string* out) {
  const size_t open = text.find('(');
  if (!LooksLikeTimeFunction(text)) {
    return Status::InvalidArgument("not a function call: " + std::string(text));
  }
  const std::string_view name = text.substr(0, open);
  const std::string_view arg = Trim(text.substr(open + 1, text.size() - open - 2));
  for (const Function& f : kFunctions) {
    if (!EqualsIgnoringCase(name, f.name)) continue;
    if (f.result != kind) {
      return Status::InvalidArgument(
          "cannot assign result of function system." + std::string(f.name) + " (type " +
          std::string(NativeTypeName(f.result)) + ") to a " + std::string(NativeTypeName(kind)));
    }
    if (f.takes_timestamp != !arg.empty()) {
      return Status::InvalidArgument("invalid number of arguments in call to function system." +
                                     std::string(f.name) + ": " + (f.takes_timestamp ? "1" : "0") +
                                     " required");
    }
    if (f.takes_timestamp) {
      std::string value;
      CELLFS_RETURN_IF_ERROR(EvaluateTimeuuidBound(arg, f.name[1] == 'a', &value));
      *out = std::move(value);
      return Status::Ok();
    }
    EvaluateCurrent(kind, out);
    return Status::Ok();
  }
  return Status::InvalidArgument("unknown function " + std::string(name) + " in a " +
                                 std::string(NativeTypeName(kind)) + " value");
}

std::string TimeuuidBound(int64_t millis, bool max) {
  const int64_t ticks = (max ? millis + 1 : millis) * 10'000 + kUuidEpochTicks - (max ? 1 : 0);
  return Timeuuid(static_cast<uint64_t>(ticks), max ? kMaxClockSeqAndNode : kMinClockSeqAndNode);
}

}  // namespace cellfs
