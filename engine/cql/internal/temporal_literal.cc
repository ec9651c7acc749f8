// Temporal literal codecs: timestamp, date and time, between CQL text and
// Cassandra's native-protocol bytes (duration has its own duration_literal.cc).
#include "engine/cql/internal/temporal_literal.h"

#include <cstdint>

#include "engine/cql/big_endian.h"
#include "engine/cql/internal/civil_time.h"
#include "engine/cql/internal/decimal_digits.h"
#include "engine/cql/internal/duration_literal.h"
#include "engine/cql/internal/text_scanner.h"

namespace cellfs {
namespace {

__extension__ using Int128 = __int128;  // GCC/Clang; pedantic mode needs the marker

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

Status ScanYear(TextScanner* s, int64_t* year) {
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
Status ScanCivilDate(TextScanner* s, CivilDate* date) {
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
Status ScanFraction(TextScanner* s, int64_t* nanos) {
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
Status ScanClock(TextScanner* s, bool seconds_required, int64_t* nanos_of_day) {
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

bool IsJavaWhitespace(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

// Whether `text` starts with a number field (after any white space).
bool StartsWithNumber(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && IsJavaWhitespace(text[i])) ++i;
  return i < text.size() && IsDigit(text[i]);
}

// A run of 1 to 9 digits, as Java's lenient-width number fields read them
// (FastDateParser: "HH" takes "9" and "09" alike, after any white space).
bool ScanNumber(TextScanner* s, int64_t* value) {
  while (IsJavaWhitespace(s->Peek())) s->Skip(1);
  const std::string_view digits = s->Digits();
  if (digits.empty() || digits.size() > 9) return false;
  int64_t v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  *value = v;
  return true;
}

bool InRange(int64_t value, int64_t min, int64_t max) { return value >= min && value <= max; }

// Cassandra's date part: year-month-day with fields of any width (a signed
// year of 4 or more digits too: cellfs prints years outside 0000..9999 so).
bool ScanTimestampDate(TextScanner* s, CivilDate* date) {
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  if (s->Peek() == '+' || s->Peek() == '-') {
    if (!ScanYear(s, &year).ok()) return false;
  } else if (!ScanNumber(s, &year)) {
    return false;
  }
  if (!s->Consume('-') || !ScanNumber(s, &month) || !InRange(month, 1, 12)) return false;
  if (!s->Consume('-') || !ScanNumber(s, &day)) return false;
  if (!InRange(day, 1, DaysInMonth(year, static_cast<int>(month)))) return false;
  *date = CivilDate{year, static_cast<int>(month), static_cast<int>(day)};
  return true;
}

// HH:mm[:ss[.SSS]]: "SSS" is a count of milliseconds, as in Java
// (".5" is 5 ms, ".500" 500 ms, above 999 refused).
bool ScanTimestampClock(TextScanner* s, int64_t* millis_of_day) {
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t millis = 0;
  if (!ScanNumber(s, &hour) || !InRange(hour, 0, 23)) return false;
  if (!s->Consume(':') || !ScanNumber(s, &minute) || !InRange(minute, 0, 59)) return false;
  if (s->Consume(':')) {
    if (!ScanNumber(s, &second) || !InRange(second, 0, 59)) return false;
    if (s->Consume('.') && (!ScanNumber(s, &millis) || !InRange(millis, 0, 999))) return false;
  }
  *millis_of_day = hour * 3'600'000 + minute * 60'000 + second * 1000 + millis;
  return true;
}

// +HH[[:]MM] at `s`, hours and minutes two digits each, within 23:59 (Java's
// custom zone ids). `colon`: ':' between them required (true), refused
// (false). `minutes_required`: +HH alone refused.
bool ScanOffset(TextScanner* s, bool colon, bool minutes_required, int64_t* offset_minutes) {
  const char sign = s->Peek();
  int64_t hours = 0;
  int64_t minutes = 0;
  if ((sign != '+' && sign != '-') || !s->Consume(sign) || !s->FixedDigits(2, &hours)) {
    return false;
  }
  const bool has_minutes = colon ? s->Consume(':') : IsDigit(s->Peek());
  if (has_minutes && !s->FixedDigits(2, &minutes)) return false;
  if (minutes_required && !has_minutes) return false;
  if (!InRange(hours, 0, 23) || !InRange(minutes, 0, 59)) return false;
  *offset_minutes = (sign == '-' ? -1 : 1) * (hours * 60 + minutes);
  return true;
}

// Java's ISO 8601 zone, right after the time (patterns X, XX, XXX): Z,
// +HH, +HHMM or +HH:MM.
bool ScanIsoZone(TextScanner* s, int64_t* offset_minutes) {
  if (s->Consume('Z')) {
    *offset_minutes = 0;
    return true;
  }
  TextScanner with_colon = *s;
  if (ScanOffset(&with_colon, /*colon=*/true, /*minutes_required=*/true, offset_minutes) &&
      with_colon.AtEnd()) {
    *s = with_colon;
    return true;
  }
  return ScanOffset(s, /*colon=*/false, /*minutes_required=*/false, offset_minutes);
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  }
  return true;
}

// Java's general time zone after a space (patterns z, zz, zzz), the forms
// whose offset does not depend on a zone database: +HHMM, +HH:MM, GMT+H:MM
// or GMT+HH:MM, and the names UTC and GMT, in any case. Other zone names
// (PST, Europe/Paris) are refused: docs/CQL.md.
bool ScanGeneralZone(TextScanner* s, int64_t* offset_minutes) {
  const std::string_view zone = s->rest();
  if (EqualsIgnoringCase(zone, "UTC") || EqualsIgnoringCase(zone, "GMT")) {
    s->Skip(zone.size());
    *offset_minutes = 0;
    return true;
  }
  if (zone.size() > 3 && EqualsIgnoringCase(zone.substr(0, 3), "GMT")) {
    TextScanner rest(zone.substr(3));
    const char sign = rest.Peek();
    int64_t hours = 0;
    int64_t minutes = 0;
    if ((sign != '+' && sign != '-') || !rest.Consume(sign) || !ScanNumber(&rest, &hours) ||
        hours > 23 || !rest.Consume(':') || !rest.FixedDigits(2, &minutes) || minutes > 59) {
      return false;
    }
    if (zone.size() - 3 - rest.rest().size() > 6) return false;  // GMT+H:MM or GMT+HH:MM
    s->Skip(zone.size() - rest.rest().size());
    *offset_minutes = (sign == '-' ? -1 : 1) * (hours * 60 + minutes);
    return true;
  }
  TextScanner with_colon = *s;
  if (ScanOffset(&with_colon, /*colon=*/true, /*minutes_required=*/true, offset_minutes)) {
    *s = with_colon;
    return true;
  }
  return ScanOffset(s, /*colon=*/false, /*minutes_required=*/true, offset_minutes);
}

// The union of Cassandra's TimestampSerializer patterns: a date, then
// optionally ' ' or 'T' and a clock, then optionally a zone, attached (X)
// or after one space (z). No zone means UTC.
bool TimestampFromText(std::string_view text, int64_t* millis) {
  TextScanner s(text);
  CivilDate date;
  if (!ScanTimestampDate(&s, &date)) return false;
  int64_t millis_of_day = 0;
  TextScanner after_date = s;
  if ((s.Consume(' ') || s.Consume('T')) && StartsWithNumber(s.rest())) {
    if (!ScanTimestampClock(&s, &millis_of_day)) return false;
  } else {
    s = after_date;
  }
  int64_t offset_minutes = 0;
  if (s.Consume(' ')) {
    if (!ScanGeneralZone(&s, &offset_minutes)) return false;
  } else if (!s.AtEnd() && !ScanIsoZone(&s, &offset_minutes)) {
    return false;
  }
  if (!s.AtEnd()) return false;
  // Years are bounded by 10^12, so 128 bits hold every intermediate; the
  // extremes of int64 are reachable only by adding the time of day to a
  // day count whose product alone would not fit.
  const Int128 result =
      Int128{DaysFromCivil(date)} * kMillisPerDay + millis_of_day - offset_minutes * 60'000;
  if (result < INT64_MIN || result > INT64_MAX) return false;
  *millis = static_cast<int64_t>(result);
  return true;
}

}  // namespace

Status ParseTimestampLiteral(std::string_view text, std::string* out) {
  int64_t millis = 0;
  const bool all_digits = !text.empty() && text[0] != '+' && IsSignedDigits(text);
  if (all_digits) {
    if (!SignedInRange(text, INT64_MIN, INT64_MAX, &millis)) {
      return Status::InvalidArgument("Unable to make long (for date) from: '" + std::string(text) +
                                     "'");
    }
  } else if (!TimestampFromText(text, &millis)) {
    return Status::InvalidArgument("Unable to coerce '" + std::string(text) +
                                   "' to a formatted date (long)");
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
    TextScanner s(text);
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
    TextScanner s(text);
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
