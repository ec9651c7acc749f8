// Duration literal codec: Cassandra's duration between CQL text (standard
// and ISO 8601 forms) and its serialization, three zigzag VIntCoding parts.
#include "engine/cql/internal/duration_literal.h"

#include <bit>
#include <cstdint>

#include "engine/cql/big_endian.h"
#include "engine/cql/internal/civil_time.h"
#include "engine/cql/internal/decimal_digits.h"
#include "engine/cql/internal/text_scanner.h"
#include "engine/cql/internal/varint_codec.h"

namespace cellfs {
namespace {

// Bytes of Cassandra's unsigned vint: n bytes carry 7n bits for n <= 8;
// a ninth byte makes room for all 64.
size_t VIntSize(uint64_t value) {
  const auto bits = static_cast<size_t>(64 - std::countl_zero(value | 1));
  const size_t size = (bits + 6) / 7;
  return size > 8 ? 9 : size;
}

void AppendVInt(uint64_t value, std::string* out) {
  const size_t size = VIntSize(value);
  if (size == 9) {
    out->push_back('\xff');
    out->append(BigEndianBytes(value, 8));
    return;
  }
  std::string bytes = BigEndianBytes(value, size);
  // size - 1 leading one-bits announce the bytes that follow.
  const auto marker = static_cast<unsigned char>(~(0xffu >> (size - 1)));
  bytes[0] = static_cast<char>(static_cast<unsigned char>(bytes[0]) | marker);
  out->append(bytes);
}

// Reads one minimal unsigned vint from the front of *bytes.
Status ReadVInt(std::string_view* bytes, uint64_t* value) {
  if (bytes->empty()) return Status::InvalidArgument("truncated duration: a part is missing");
  const auto first = static_cast<unsigned char>((*bytes)[0]);
  const auto extra = static_cast<size_t>(std::countl_one(first));
  if (bytes->size() < extra + 1) return Status::InvalidArgument("truncated duration vint");
  uint64_t v = extra == 8 ? 0 : (first & (0xffu >> extra));
  for (size_t i = 1; i <= extra; ++i) v = (v << 8) | static_cast<unsigned char>((*bytes)[i]);
  if (VIntSize(v) != extra + 1) return Status::InvalidArgument("non-minimal duration vint");
  bytes->remove_prefix(extra + 1);
  *value = v;
  return Status::Ok();
}

uint64_t Magnitude(int64_t value) {
  return value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
}

// Parts accumulate as magnitudes; the sign applies at the end.
struct DurationSum {
  uint64_t months = 0;
  uint64_t days = 0;
  uint64_t nanos = 0;
};

enum class DurationPart { kMonths, kDays, kNanos };

struct DurationUnit {
  std::string_view name;  // plural, for messages
  DurationPart part;
  uint64_t multiplier;
};

// Standard-form units in their required order; index = rank.
constexpr DurationUnit kUnits[] = {
    {"years", DurationPart::kMonths, 12},
    {"months", DurationPart::kMonths, 1},
    {"weeks", DurationPart::kDays, 7},
    {"days", DurationPart::kDays, 1},
    {"hours", DurationPart::kNanos, static_cast<uint64_t>(kNanosPerHour)},
    {"minutes", DurationPart::kNanos, static_cast<uint64_t>(kNanosPerMinute)},
    {"seconds", DurationPart::kNanos, static_cast<uint64_t>(kNanosPerSecond)},
    {"milliseconds", DurationPart::kNanos, static_cast<uint64_t>(kNanosPerMilli)},
    {"microseconds", DurationPart::kNanos, static_cast<uint64_t>(kNanosPerMicro)},
    {"nanoseconds", DurationPart::kNanos, 1},
};
enum UnitRank : size_t {
  kYears,
  kMonths,
  kWeeks,
  kDays,
  kHours,
  kMinutes,
  kSeconds,
  kMillis,
  kMicros,
  kNanos
};

Status AddUnit(std::string_view digits, size_t rank, DurationSum* sum) {
  const DurationUnit& unit = kUnits[rank];
  uint64_t count = 0;
  uint64_t* target = unit.part == DurationPart::kMonths ? &sum->months
                     : unit.part == DurationPart::kDays ? &sum->days
                                                        : &sum->nanos;
  uint64_t product = 0;
  if (!DigitsUpTo(digits, UINT64_MAX, &count) ||
      __builtin_mul_overflow(count, unit.multiplier, &product) ||
      __builtin_add_overflow(*target, product, target)) {
    return Status::InvalidArgument(std::string(unit.name) + " overflow");
  }
  return Status::Ok();
}

char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool StartsWithIgnoringCase(std::string_view text, std::string_view lower) {
  if (text.size() < lower.size()) return false;
  for (size_t i = 0; i < lower.size(); ++i) {
    if (LowerAscii(text[i]) != lower[i]) return false;
  }
  return true;
}

// The unit at the front of `text`: its rank and spelled length. Two-letter
// units are tried before "m" and "s" so that "mo" and "ms" win.
bool MatchUnit(std::string_view text, size_t* rank, size_t* length) {
  struct Spelling {
    std::string_view lower;
    size_t rank;
  };
  static constexpr Spelling kSpellings[] = {
      {"mo", kMonths},        {"ms", kMillis}, {"us", kMicros},
      {"\xc2\xb5s", kMicros},  // MICRO SIGN
      {"\xce\xbcs", kMicros},  // GREEK SMALL LETTER MU
      {"ns", kNanos},         {"y", kYears},   {"w", kWeeks},
      {"d", kDays},           {"h", kHours},   {"m", kMinutes},
      {"s", kSeconds},
  };
  for (const Spelling& s : kSpellings) {
    if (StartsWithIgnoringCase(text, s.lower)) {
      *rank = s.rank;
      *length = s.lower.size();
      return true;
    }
  }
  return false;
}

// 1y2mo3w4d5h6m7s8ms9us10ns, each unit at most once, in that order.
Status ScanStandardDuration(std::string_view text, DurationSum* sum) {
  TextScanner s(text);
  size_t next_rank = 0;  // units of lower rank are no longer allowed
  std::string_view previous;
  do {
    const std::string_view digits = s.Digits();
    if (digits.empty()) {
      return Status::InvalidArgument("expected a number at '" + std::string(s.rest()) + "'");
    }
    size_t rank = 0;
    size_t length = 0;
    if (!MatchUnit(s.rest(), &rank, &length)) {
      return Status::InvalidArgument("expected a unit (y, mo, w, d, h, m, s, ms, us, ns) at '" +
                                     std::string(s.rest()) + "'");
    }
    if (rank + 1 == next_rank) {
      return Status::InvalidArgument(std::string(kUnits[rank].name) + " given more than once");
    }
    if (rank < next_rank) {
      return Status::InvalidArgument(std::string(kUnits[rank].name) + " must come before " +
                                     std::string(previous));
    }
    CELLFS_RETURN_IF_ERROR(AddUnit(digits, rank, sum));
    previous = kUnits[rank].name;
    next_rank = rank + 1;
    s.Skip(length);
  } while (!s.AtEnd());
  return Status::Ok();
}

// P0001-02-03T04:05:06 (after the 'P').
Status ScanIsoAlternative(std::string_view text, DurationSum* sum) {
  TextScanner s(text);
  int64_t fields[6] = {};
  const char separators[6] = {'\0', '-', '-', 'T', ':', ':'};
  for (size_t i = 0; i < 6; ++i) {
    if (i > 0 && !(s.Consume(separators[i]) || (i == 3 && s.Consume('t')))) {
      return Status::InvalidArgument("expected the form P0001-02-03T04:05:06");
    }
    if (!s.FixedDigits(i == 0 ? 4 : 2, &fields[i])) {
      return Status::InvalidArgument("expected the form P0001-02-03T04:05:06");
    }
  }
  if (!s.AtEnd()) return Status::InvalidArgument("expected the form P0001-02-03T04:05:06");
  // The fields are at most 4 digits, so none of this can overflow.
  const auto field = [&](size_t i) { return static_cast<uint64_t>(fields[i]); };
  sum->months = field(0) * 12 + field(1);
  sum->days = field(2);
  sum->nanos = field(3) * static_cast<uint64_t>(kNanosPerHour) +
               field(4) * static_cast<uint64_t>(kNanosPerMinute) +
               field(5) * static_cast<uint64_t>(kNanosPerSecond);
  return Status::Ok();
}

// P[nY][nM][nD][T[nH][nM][nS]] or PnW (after the 'P').
Status ScanIsoDuration(std::string_view text, DurationSum* sum) {
  if (!text.empty() && LowerAscii(text.back()) == 'w') {
    TextScanner s(text.substr(0, text.size() - 1));
    const std::string_view digits = s.Digits();
    if (digits.empty() || !s.AtEnd()) return Status::InvalidArgument("expected the form PnW");
    return AddUnit(digits, kWeeks, sum);
  }
  struct Designator {
    char lower;
    size_t rank;
  };
  static constexpr Designator kDate[] = {{'y', kYears}, {'m', kMonths}, {'d', kDays}};
  static constexpr Designator kTime[] = {{'h', kHours}, {'m', kMinutes}, {'s', kSeconds}};
  TextScanner s(text);
  bool in_time = false;
  bool any = false;
  bool any_time = false;
  size_t next = 0;  // index into the current designator list
  while (!s.AtEnd()) {
    if (!in_time && (s.Consume('T') || s.Consume('t'))) {
      in_time = true;
      next = 0;
      continue;
    }
    const std::string_view digits = s.Digits();
    const char designator = LowerAscii(s.Peek());
    const auto& list = in_time ? kTime : kDate;
    size_t i = next;
    while (i < 3 && list[i].lower != designator) ++i;
    if (digits.empty() || i == 3 || !s.Consume(s.Peek())) {
      return Status::InvalidArgument("expected the form P1Y2M3DT4H5M6S");
    }
    CELLFS_RETURN_IF_ERROR(AddUnit(digits, list[i].rank, sum));
    next = i + 1;
    any = true;
    any_time = any_time || in_time;
  }
  if (!any || (in_time && !any_time)) {
    return Status::InvalidArgument("expected the form P1Y2M3DT4H5M6S");
  }
  return Status::Ok();
}

// Signs the accumulated magnitudes, checking that each part fits.
Status ToDuration(const DurationSum& sum, bool negative, DurationValue* out) {
  const uint64_t extra = negative ? 1 : 0;  // |INT_MIN| = INT_MAX + 1
  if (sum.months > uint64_t{INT32_MAX} + extra) {
    return Status::InvalidArgument("months overflow a 32-bit integer");
  }
  if (sum.days > uint64_t{INT32_MAX} + extra) {
    return Status::InvalidArgument("days overflow a 32-bit integer");
  }
  if (sum.nanos > uint64_t{INT64_MAX} + extra) {
    return Status::InvalidArgument("nanoseconds overflow a 64-bit integer");
  }
  const auto sign = [negative](uint64_t m) { return negative ? 0 - m : m; };
  out->months = static_cast<int32_t>(static_cast<int64_t>(sign(sum.months)));
  out->days = static_cast<int32_t>(static_cast<int64_t>(sign(sum.days)));
  out->nanoseconds = static_cast<int64_t>(sign(sum.nanos));
  return Status::Ok();
}

// Appends magnitude / unit_size followed by the unit, if non-zero, and
// returns the remainder.
uint64_t AppendPart(uint64_t magnitude, uint64_t unit_size, std::string_view unit,
                    std::string* out) {
  const uint64_t count = magnitude / unit_size;
  if (count != 0) out->append(std::to_string(count)).append(unit);
  return magnitude % unit_size;
}

}  // namespace

Status ParseDurationLiteral(std::string_view text, std::string* out) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view body = text.substr(negative ? 1 : 0);
  DurationSum sum;
  Status status;
  if (body.empty()) {
    status = Status::InvalidArgument("expected a duration such as 1h30m or PT1H30M");
  } else if (body[0] == 'P' || body[0] == 'p') {
    const std::string_view iso = body.substr(1);
    status = iso.find('-') != std::string_view::npos ? ScanIsoAlternative(iso, &sum)
                                                     : ScanIsoDuration(iso, &sum);
  } else {
    status = ScanStandardDuration(body, &sum);
  }
  DurationValue value;
  if (status.ok()) status = ToDuration(sum, negative, &value);
  if (!status.ok()) return status.WithContext("invalid duration '" + std::string(text) + "'");
  *out = EncodeDuration(value);
  return Status::Ok();
}

std::string FormatDurationLiteral(std::string_view bytes) {
  DurationValue value;
  if (!DecodeDuration(bytes, &value).ok()) return "";
  if (value.months == 0 && value.days == 0 && value.nanoseconds == 0) return "0s";
  std::string text = value.months < 0 || value.days < 0 || value.nanoseconds < 0 ? "-" : "";
  const uint64_t months = AppendPart(Magnitude(value.months), 12, "y", &text);
  AppendPart(months, 1, "mo", &text);
  AppendPart(Magnitude(value.days), 1, "d", &text);
  uint64_t nanos = Magnitude(value.nanoseconds);
  for (size_t rank = kHours; rank <= kNanos; ++rank) {
    static constexpr std::string_view kSymbols[] = {"h", "m", "s", "ms", "us", "ns"};
    nanos = AppendPart(nanos, kUnits[rank].multiplier, kSymbols[rank - kHours], &text);
  }
  return text;
}

std::string EncodeDuration(const DurationValue& value) {
  std::string bytes;
  AppendVInt(ZigZagEncode(value.months), &bytes);
  AppendVInt(ZigZagEncode(value.days), &bytes);
  AppendVInt(ZigZagEncode(value.nanoseconds), &bytes);
  return bytes;
}

Status DecodeDuration(std::string_view bytes, DurationValue* out) {
  uint64_t parts[3] = {};
  for (uint64_t& part : parts) CELLFS_RETURN_IF_ERROR(ReadVInt(&bytes, &part));
  if (!bytes.empty()) {
    return Status::InvalidArgument("duration has " + std::to_string(bytes.size()) +
                                   " trailing bytes");
  }
  const int64_t months = ZigZagDecode(parts[0]);
  const int64_t days = ZigZagDecode(parts[1]);
  const int64_t nanos = ZigZagDecode(parts[2]);
  if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX) {
    return Status::InvalidArgument("duration months or days overflow a 32-bit integer");
  }
  if (!((months >= 0 && days >= 0 && nanos >= 0) || (months <= 0 && days <= 0 && nanos <= 0))) {
    return Status::InvalidArgument("duration parts differ in sign");
  }
  out->months = static_cast<int32_t>(months);
  out->days = static_cast<int32_t>(days);
  out->nanoseconds = nanos;
  return Status::Ok();
}

}  // namespace cellfs
