// Temporal literal codecs: timestamp, date, time and duration, between CQL
// text and Cassandra's native-protocol bytes.
#include "engine/cql/internal/temporal_literal.h"

#include <bit>
#include <cstdint>

#include "engine/cql/internal/big_endian.h"
#include "engine/cql/internal/civil_time.h"
#include "engine/cql/internal/decimal_digits.h"

namespace cellfs {
namespace {

__extension__ using Int128 = __int128;  // GCC/Clang; pedantic mode needs the marker

constexpr int64_t kMillisPerDay = 86'400'000;
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;
constexpr int64_t kNanosPerDay = 24 * kNanosPerHour;
constexpr int64_t kNanosPerMilli = 1'000'000;
// A serialized date is days since the epoch plus 2^31, as a uint32.
constexpr int64_t kDateEpoch = int64_t{1} << 31;
constexpr int64_t kDateMax = (int64_t{1} << 32) - 1;
// Years beyond this are out of range for every type here; the bound keeps
// civil-date arithmetic far from overflow.
constexpr uint64_t kMaxYearMagnitude = 1'000'000'000'000;

// Zero-padded decimal of a non-negative number.
std::string Padded(int64_t value, size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// ISO 8601 expanded years: 4 digits within 0000..9999, signed outside.
std::string FormatYear(int64_t year) {
  if (year > 9999) return "+" + std::to_string(year);
  if (year < 0) return "-" + Padded(-year, 4);
  return Padded(year, 4);
}

std::string FormatCivilDate(const CivilDate& date) {
  return FormatYear(date.year) + "-" + Padded(date.month, 2) + "-" + Padded(date.day, 2);
}

Status Invalid(std::string_view type_name, std::string_view text, const Status& problem) {
  return problem.WithContext("invalid " + std::string(type_name) + " '" + std::string(text) + "'");
}

// A forward-only reader for the fixed-layout date and time grammars.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : rest_(text) {}

  bool AtEnd() const { return rest_.empty(); }
  char Peek() const { return rest_.empty() ? '\0' : rest_[0]; }
  std::string_view rest() const { return rest_; }

  bool Consume(char c) {
    if (Peek() != c || AtEnd()) return false;
    rest_.remove_prefix(1);
    return true;
  }

  // REQUIRES: count <= rest().size()
  void Skip(size_t count) { rest_.remove_prefix(count); }

  // Exactly `count` digits.
  bool FixedDigits(size_t count, int64_t* value) {
    if (rest_.size() < count) return false;
    int64_t v = 0;
    for (size_t i = 0; i < count; ++i) {
      if (!IsDigit(rest_[i])) return false;
      v = v * 10 + (rest_[i] - '0');
    }
    rest_.remove_prefix(count);
    *value = v;
    return true;
  }

  // The longest run of digits (possibly empty).
  std::string_view Digits() {
    size_t n = 0;
    while (n < rest_.size() && IsDigit(rest_[n])) ++n;
    std::string_view digits = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return digits;
  }

 private:
  std::string_view rest_;
};

Status ScanYear(Scanner* s, int64_t* year) {
  const char sign = s->Peek();
  if (sign != '+' && sign != '-') {
    if (!s->FixedDigits(4, year)) return Status::InvalidArgument("expected a 4-digit year");
    return Status::Ok();
  }
  s->Consume(sign);
  std::string_view digits = s->Digits();
  if (digits.size() < 4) {
    return Status::InvalidArgument("expected at least 4 digits after the year's sign");
  }
  uint64_t magnitude = 0;
  if (!DigitsUpTo(digits, kMaxYearMagnitude, &magnitude)) {
    return Status::InvalidArgument("year " + std::string(1, sign) + std::string(digits) +
                                   " is out of range");
  }
  *year = sign == '-' ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  return Status::Ok();
}

Status CheckField(std::string_view name, int64_t value, int64_t min, int64_t max) {
  if (value >= min && value <= max) return Status::Ok();
  return Status::InvalidArgument(std::string(name) + " " + Padded(value, 2) + " is out of range (" +
                                 Padded(min, 2) + ".." + Padded(max, 2) + ")");
}

// yyyy-mm-dd with an expanded year; month and day are range-checked.
Status ScanCivilDate(Scanner* s, CivilDate* date) {
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  CELLFS_RETURN_IF_ERROR(ScanYear(s, &year));
  if (!s->Consume('-') || !s->FixedDigits(2, &month)) {
    return Status::InvalidArgument("expected '-' and a 2-digit month after the year");
  }
  CELLFS_RETURN_IF_ERROR(CheckField("month", month, 1, 12));
  if (!s->Consume('-') || !s->FixedDigits(2, &day)) {
    return Status::InvalidArgument("expected '-' and a 2-digit day after the month");
  }
  const int days_in_month = DaysInMonth(year, static_cast<int>(month));
  if (day < 1 || day > days_in_month) {
    return Status::InvalidArgument("day " + Padded(day, 2) + " is out of range for " +
                                   FormatYear(year) + "-" + Padded(month, 2) + " (01.." +
                                   std::to_string(days_in_month) + ")");
  }
  date->year = year;
  date->month = static_cast<int>(month);
  date->day = static_cast<int>(day);
  return Status::Ok();
}

// 1 to 9 fraction digits after the '.', as nanoseconds (right-padded).
Status ScanFraction(Scanner* s, int64_t* nanos) {
  std::string_view digits = s->Digits();
  if (digits.empty() || digits.size() > 9) {
    return Status::InvalidArgument("expected 1 to 9 digits of fraction of a second");
  }
  int64_t value = 0;
  for (size_t i = 0; i < 9; ++i) value = value * 10 + (i < digits.size() ? digits[i] - '0' : 0);
  *nanos = value;
  return Status::Ok();
}

// HH:MM[:SS[.f{1,9}]] as nanoseconds since midnight; seconds may be
// required.
Status ScanClock(Scanner* s, bool seconds_required, int64_t* nanos_of_day) {
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t fraction = 0;
  if (!s->FixedDigits(2, &hour) || !s->Consume(':') || !s->FixedDigits(2, &minute)) {
    return Status::InvalidArgument(seconds_required ? "expected HH:MM:SS" : "expected HH:MM");
  }
  CELLFS_RETURN_IF_ERROR(CheckField("hour", hour, 0, 23));
  CELLFS_RETURN_IF_ERROR(CheckField("minute", minute, 0, 59));
  if (s->Consume(':')) {
    if (!s->FixedDigits(2, &second)) {
      return Status::InvalidArgument("expected 2-digit seconds after HH:MM:");
    }
    CELLFS_RETURN_IF_ERROR(CheckField("second", second, 0, 59));
    if (s->Consume('.')) CELLFS_RETURN_IF_ERROR(ScanFraction(s, &fraction));
  } else if (seconds_required) {
    return Status::InvalidArgument("expected HH:MM:SS");
  }
  *nanos_of_day =
      hour * kNanosPerHour + minute * kNanosPerMinute + second * kNanosPerSecond + fraction;
  return Status::Ok();
}

// Z, +HH, +HHMM or +HH:MM (or '-') as minutes east of UTC; at most 18
// hours either way, as in java.time.
Status ScanZone(Scanner* s, int64_t* offset_minutes) {
  if (s->Consume('Z') || s->Consume('z')) {
    *offset_minutes = 0;
    return Status::Ok();
  }
  const std::string_view zone = s->rest();
  const char sign = s->Peek();
  int64_t hours = 0;
  int64_t minutes = 0;
  if ((sign != '+' && sign != '-') || !s->Consume(sign) || !s->FixedDigits(2, &hours)) {
    return Status::InvalidArgument("expected a zone (Z, +HH, +HHMM or +HH:MM) at '" +
                                   std::string(zone) + "'");
  }
  if (s->Consume(':')) {
    if (!s->FixedDigits(2, &minutes)) {
      return Status::InvalidArgument("expected 2-digit minutes in the zone offset");
    }
  } else if (IsDigit(s->Peek()) && !s->FixedDigits(2, &minutes)) {
    return Status::InvalidArgument("expected 2-digit minutes in the zone offset");
  }
  CELLFS_RETURN_IF_ERROR(CheckField("zone minute", minutes, 0, 59));
  const int64_t total = hours * 60 + minutes;
  if (total > 18 * 60) {
    return Status::InvalidArgument("zone offset " + std::string(1, sign) + Padded(hours, 2) + ":" +
                                   Padded(minutes, 2) + " is out of range (-18:00..+18:00)");
  }
  *offset_minutes = sign == '-' ? -total : total;
  return Status::Ok();
}

// [sign]digits as an int64 within [min, max]; false when out of range.
bool SignedInRange(std::string_view text, int64_t min, int64_t max, int64_t* value) {
  const bool negative = text[0] == '-';
  const std::string_view digits = text.substr(text[0] == '+' || negative ? 1 : 0);
  // Magnitudes up to |min| (which may be 2^63) are representable in uint64.
  const uint64_t limit = negative ? 0 - static_cast<uint64_t>(min) : static_cast<uint64_t>(max);
  uint64_t magnitude = 0;
  if (min >= 0 && negative) {
    if (!DigitsUpTo(digits, 0, &magnitude)) return false;  // only "-0" passes
  } else if (!DigitsUpTo(digits, limit, &magnitude)) {
    return false;
  }
  *value = static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
  return true;
}

Status TimestampFromText(std::string_view text, int64_t* millis) {
  Scanner s(text);
  CivilDate date;
  CELLFS_RETURN_IF_ERROR(ScanCivilDate(&s, &date));
  int64_t nanos_of_day = 0;
  if (s.Peek() == 'T' || s.Peek() == 't' || s.Peek() == ' ') {
    s.Consume(s.Peek());
    CELLFS_RETURN_IF_ERROR(ScanClock(&s, /*seconds_required=*/false, &nanos_of_day));
  }
  if (nanos_of_day % kNanosPerMilli != 0) {
    return Status::InvalidArgument(
        "sub-millisecond precision: a timestamp holds whole milliseconds");
  }
  int64_t offset_minutes = 0;
  if (!s.AtEnd()) CELLFS_RETURN_IF_ERROR(ScanZone(&s, &offset_minutes));
  if (!s.AtEnd()) {
    return Status::InvalidArgument("unexpected '" + std::string(s.rest()) + "' at the end");
  }
  // Years are bounded by 10^12, so 128 bits hold every intermediate; the
  // extremes of int64 are reachable only by adding the time of day to a
  // day count whose product alone would not fit.
  const Int128 result = Int128{DaysFromCivil(date)} * kMillisPerDay +
                        nanos_of_day / kNanosPerMilli - offset_minutes * 60'000;
  if (result < INT64_MIN || result > INT64_MAX) {
    return Status::InvalidArgument("out of range (a timestamp is int64 milliseconds since 1970)");
  }
  *millis = static_cast<int64_t>(result);
  return Status::Ok();
}

// ---- Duration ---------------------------------------------------------------

uint64_t ZigZag(int64_t value) {
  const uint64_t shifted = static_cast<uint64_t>(value) << 1;
  return value < 0 ? ~shifted : shifted;
}

int64_t UnZigZag(uint64_t encoded) {
  return static_cast<int64_t>((encoded >> 1) ^ (0 - (encoded & 1)));
}

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
    {"microseconds", DurationPart::kNanos, 1000},
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
  Scanner s(text);
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
  Scanner s(text);
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
    Scanner s(text.substr(0, text.size() - 1));
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
  Scanner s(text);
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

Status ParseTimestampLiteral(std::string_view text, std::string* out) {
  int64_t millis = 0;
  if (IsSignedDigits(text)) {
    if (!SignedInRange(text, INT64_MIN, INT64_MAX, &millis)) {
      return Invalid("timestamp", text,
                     Status::InvalidArgument("milliseconds out of range for a 64-bit integer"));
    }
  } else {
    Status status = TimestampFromText(text, &millis);
    if (!status.ok()) return Invalid("timestamp", text, status);
  }
  *out = BigEndianBytes(static_cast<uint64_t>(millis), 8);
  return Status::Ok();
}

std::string FormatTimestampLiteral(std::string_view bytes) {
  const auto millis = static_cast<int64_t>(ReadBigEndian(bytes));
  // Floor division without forming days * kMillisPerDay, which overflows for
  // the earliest timestamps.
  int64_t days = millis / kMillisPerDay;
  int64_t ms = millis % kMillisPerDay;
  if (ms < 0) {
    ms += kMillisPerDay;
    --days;
  }
  return FormatCivilDate(CivilFromDays(days)) + "T" + Padded(ms / 3'600'000, 2) + ":" +
         Padded(ms / 60'000 % 60, 2) + ":" + Padded(ms / 1000 % 60, 2) + "." +
         Padded(ms % 1000, 3) + "Z";
}

Status ParseDateLiteral(std::string_view text, std::string* out) {
  int64_t raw = 0;
  if (IsSignedDigits(text)) {
    if (!SignedInRange(text, 0, kDateMax, &raw)) {
      return Invalid("date", text,
                     Status::InvalidArgument("a day number must be within 0..4294967295 "
                                             "(2^31 is 1970-01-01)"));
    }
  } else {
    Scanner s(text);
    CivilDate date;
    Status status = ScanCivilDate(&s, &date);
    if (status.ok() && !s.AtEnd()) {
      status = Status::InvalidArgument("unexpected '" + std::string(s.rest()) + "' at the end");
    }
    if (!status.ok()) return Invalid("date", text, status);
    raw = DaysFromCivil(date) + kDateEpoch;
    if (raw < 0 || raw > kDateMax) {
      return Invalid("date", text,
                     Status::InvalidArgument(
                         "out of range (" + FormatCivilDate(CivilFromDays(-kDateEpoch)) + ".." +
                         FormatCivilDate(CivilFromDays(kDateMax - kDateEpoch)) + ")"));
    }
  }
  *out = BigEndianBytes(static_cast<uint64_t>(raw), 4);
  return Status::Ok();
}

std::string FormatDateLiteral(std::string_view bytes) {
  const auto days = static_cast<int64_t>(ReadBigEndian(bytes.substr(0, 4))) - kDateEpoch;
  return FormatCivilDate(CivilFromDays(days));
}

Status ParseTimeLiteral(std::string_view text, std::string* out) {
  int64_t nanos = 0;
  if (IsSignedDigits(text)) {
    if (!SignedInRange(text, 0, kNanosPerDay - 1, &nanos)) {
      return Invalid("time", text,
                     Status::InvalidArgument("nanoseconds must be within 0..86399999999999"));
    }
  } else {
    Scanner s(text);
    Status status = ScanClock(&s, /*seconds_required=*/true, &nanos);
    if (status.ok() && !s.AtEnd()) {
      status = Status::InvalidArgument("unexpected '" + std::string(s.rest()) + "' at the end");
    }
    if (!status.ok()) return Invalid("time", text, status);
  }
  *out = BigEndianBytes(static_cast<uint64_t>(nanos), 8);
  return Status::Ok();
}

std::string FormatTimeLiteral(std::string_view bytes) {
  const auto nanos = static_cast<int64_t>(ReadBigEndian(bytes));
  return Padded(nanos / kNanosPerHour, 2) + ":" + Padded(nanos / kNanosPerMinute % 60, 2) + ":" +
         Padded(nanos / kNanosPerSecond % 60, 2) + "." + Padded(nanos % kNanosPerSecond, 9);
}

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
  if (!status.ok()) return Invalid("duration", text, status);
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
  AppendVInt(ZigZag(value.months), &bytes);
  AppendVInt(ZigZag(value.days), &bytes);
  AppendVInt(ZigZag(value.nanoseconds), &bytes);
  return bytes;
}

Status DecodeDuration(std::string_view bytes, DurationValue* out) {
  uint64_t parts[3] = {};
  for (uint64_t& part : parts) CELLFS_RETURN_IF_ERROR(ReadVInt(&bytes, &part));
  if (!bytes.empty()) {
    return Status::InvalidArgument("duration has " + std::to_string(bytes.size()) +
                                   " trailing bytes");
  }
  const int64_t months = UnZigZag(parts[0]);
  const int64_t days = UnZigZag(parts[1]);
  const int64_t nanos = UnZigZag(parts[2]);
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

Status ValidateTemporalValue(TypeKind kind, std::string_view bytes) {
  size_t expected = 0;
  switch (kind) {
    case TypeKind::kTimestamp:
    case TypeKind::kTime:
      expected = 8;
      break;
    case TypeKind::kDate:
      expected = 4;
      break;
    case TypeKind::kDuration: {
      DurationValue ignored;
      return DecodeDuration(bytes, &ignored);
    }
    default:
      return Status::InvalidArgument(std::string(NativeTypeName(kind)) + " is not a temporal type");
  }
  if (bytes.size() != expected) {
    return Status::InvalidArgument("a " + std::string(NativeTypeName(kind)) + " value is " +
                                   std::to_string(expected) + " bytes, got " +
                                   std::to_string(bytes.size()));
  }
  if (kind == TypeKind::kTime) {
    const auto nanos = static_cast<int64_t>(ReadBigEndian(bytes));
    if (nanos < 0 || nanos >= kNanosPerDay) {
      return Status::InvalidArgument("time " + std::to_string(nanos) +
                                     " ns is outside a day (0..86399999999999)");
    }
  }
  return Status::Ok();
}

}  // namespace cellfs
