// cqlsh's text for floats, decimals and temporal values. The bytes are read
// through the engine's canonical text (FormatLiteral) of the value, or of
// the same bytes seen as an integer type (a timestamp is a bigint of
// milliseconds, a decimal's scale an int and its unscaled part a varint),
// so no serialization is decoded twice in cellfs.
#include "fs/cql/cqlsh_native.h"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "engine/cql/literal.h"

namespace cellfs::fs {
namespace {

const CqlType& Native(TypeKind kind) { return *CqlType::Native(kind); }

// The integer the canonical text `text` spells. REQUIRES: it is one.
template <typename Int>
Int ParseInt(const std::string& text) {
  Int value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

int64_t ReadBigint(std::string_view bytes) {
  return ParseInt<int64_t>(FormatLiteral(Native(TypeKind::kBigint), bytes));
}

std::string BigintBytes(int64_t value) {
  Result<std::string> bytes = ParseLiteral(Native(TypeKind::kBigint), std::to_string(value));
  return bytes.ok() ? bytes.value() : std::string();
}

// Python's str() of a float in [1, 1e16): shortest round trip, fixed, with
// ".0" when integral.
std::string PythonFloatText(double value) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  std::string text(buffer, result.ptr);
  if (text.find('.') == std::string::npos) text += ".0";
  return text;
}

// --- timestamp ---

constexpr int64_t kMicrosPerSecond = 1'000'000;
// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z, Python's datetime range.
constexpr int64_t kMinMicros = -62'135'596'800 * kMicrosPerSecond;
constexpr int64_t kMaxMicros = 253'402'300'800 * kMicrosPerSecond - 1;

// The microseconds since the epoch of datetime_from_timestamp(ms / 1000.0):
// Python's timedelta(seconds=float) keeps the whole seconds and rounds the
// fraction's microseconds half to even.
int64_t MicrosViaPythonFloat(int64_t millis) {
  const double seconds = static_cast<double>(millis) / 1000.0;
  double whole = 0;
  const double fraction = std::modf(seconds, &whole);
  return static_cast<int64_t>(whole) * kMicrosPerSecond +
         static_cast<int64_t>(std::nearbyint(fraction * 1e6));
}

// --- duration ---

struct DurationParts {
  uint64_t months = 0;  // magnitudes; `negative` carries the sign
  uint64_t days = 0;
  uint64_t nanos = 0;
  bool negative = false;
};

// Reads the canonical text [-]NyNmoNdNhNmNsNmsNusNns back into its parts.
DurationParts ReadDuration(const std::string& text) {
  DurationParts parts;
  size_t pos = 0;
  if (!text.empty() && text[0] == '-') {
    parts.negative = true;
    pos = 1;
  }
  while (pos < text.size()) {
    uint64_t number = 0;
    const auto result = std::from_chars(text.data() + pos, text.data() + text.size(), number);
    pos = static_cast<size_t>(result.ptr - text.data());
    size_t end = pos;
    while (end < text.size() && (text[end] < '0' || text[end] > '9')) ++end;
    const std::string_view unit(text.data() + pos, end - pos);
    pos = end;
    if (unit == "y") parts.months += number * 12;
    if (unit == "mo") parts.months += number;
    if (unit == "d") parts.days += number;
    if (unit == "h") parts.nanos += number * 3'600'000'000'000;
    if (unit == "m") parts.nanos += number * 60'000'000'000;
    if (unit == "s") parts.nanos += number * 1'000'000'000;
    if (unit == "ms") parts.nanos += number * 1'000'000;
    if (unit == "us") parts.nanos += number * 1'000;
    if (unit == "ns") parts.nanos += number;
  }
  return parts;
}

// amount / unit_size rounded once, to nearest even, as Python 3 divides
// integers: long division to 53 significant bits, rounded by the
// remainder. REQUIRES: amount >= unit_size >= 1, unit_size < 2^63.
double RoundedQuotient(uint64_t amount, uint64_t unit_size) {
  constexpr uint64_t kLow = uint64_t{1} << 52;
  if (amount / unit_size >= kLow) {  // a huge quotient (unit 1): exact enough
    return static_cast<double>(amount) / static_cast<double>(unit_size);
  }
  uint64_t mantissa = amount / unit_size;
  uint64_t remainder = amount % unit_size;
  int shift = 0;
  while (mantissa < kLow) {  // one more quotient bit by long division
    remainder <<= 1;
    mantissa = (mantissa << 1) | (remainder >= unit_size ? 1 : 0);
    if (remainder >= unit_size) remainder -= unit_size;
    ++shift;
  }
  if (remainder > unit_size - remainder ||
      (remainder == unit_size - remainder && mantissa % 2 == 1)) {
    ++mantissa;
  }
  return std::ldexp(static_cast<double>(mantissa), -shift);
}

// cqlsh's append(): when `amount` reaches one `unit_size`, writes the
// Python 3 true quotient and the unit; returns what remains.
uint64_t AppendDurationPart(uint64_t amount, uint64_t unit_size, const char* unit,
                            std::string* text) {
  if (amount == 0 || amount < unit_size) return amount;
  const double quotient = RoundedQuotient(amount, unit_size);
  *text += PythonFloatText(quotient);
  *text += unit;
  return amount % unit_size;
}

}  // namespace

std::string CqlshFloating(bool is_float, std::string_view value, int precision) {
  const std::string canonical =
      FormatLiteral(Native(is_float ? TypeKind::kFloat : TypeKind::kDouble), value);
  if (canonical == "NaN" || canonical == "Infinity" || canonical == "-Infinity") return canonical;
  double v = 0;
  if (is_float) {
    float f = 0;
    std::from_chars(canonical.data(), canonical.data() + canonical.size(), f);
    v = f;
  } else {
    std::from_chars(canonical.data(), canonical.data() + canonical.size(), v);
  }
  const int exponent =
      std::fabs(v) > DBL_EPSILON ? static_cast<int>(std::log10(std::fabs(v))) : INT_MIN;
  if (exponent >= -4 && exponent < precision) precision += exponent + 1;
  char buffer[400];
  std::snprintf(buffer, sizeof buffer, "%.*g", precision, v);
  return buffer;
}

std::string CqlshDecimal(std::string_view value) {
  const auto scale = ParseInt<int32_t>(FormatLiteral(Native(TypeKind::kInt), value.substr(0, 4)));
  std::string digits = FormatLiteral(Native(TypeKind::kVarint), value.substr(4));
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  // Python's Decimal.__str__ (to-scientific-string), exponent = -scale.
  const int64_t exponent = -static_cast<int64_t>(scale);
  const int64_t left_digits = exponent + static_cast<int64_t>(digits.size());
  const int64_t dot = exponent <= 0 && left_digits > -6 ? left_digits : 1;
  std::string text = negative ? "-" : "";
  if (dot <= 0) {
    text += "0." + std::string(static_cast<size_t>(-dot), '0') + digits;
  } else if (dot >= static_cast<int64_t>(digits.size())) {
    text += digits + std::string(static_cast<size_t>(dot) - digits.size(), '0');
  } else {
    text +=
        digits.substr(0, static_cast<size_t>(dot)) + "." + digits.substr(static_cast<size_t>(dot));
  }
  if (left_digits != dot) {
    const int64_t shown = left_digits - dot;
    text += (shown < 0 ? "E-" : "E+") + std::to_string(shown < 0 ? -shown : shown);
  }
  return text;
}

std::string CqlshTimestamp(std::string_view value) {
  const int64_t millis = ReadBigint(value);
  // Far outside the range, the float arithmetic below could overflow.
  constexpr int64_t kMargin = 1000;
  if (millis < kMinMicros / 1000 - kMargin || millis > kMaxMicros / 1000 + kMargin) {
    return std::to_string(millis);
  }
  const int64_t micros = MicrosViaPythonFloat(millis);
  if (micros < kMinMicros || micros > kMaxMicros) return std::to_string(millis);
  int64_t sub_second = micros % kMicrosPerSecond;
  if (sub_second < 0) sub_second += kMicrosPerSecond;
  const int64_t whole_seconds = (micros - sub_second) / kMicrosPerSecond;
  // The engine's calendar: 2018-07-23T11:04:22.000Z for the whole second.
  const std::string iso =
      FormatLiteral(Native(TypeKind::kTimestamp), BigintBytes(whole_seconds * 1000));
  std::string year = iso.substr(0, 4);
  year.erase(0, std::min(year.find_first_not_of('0'), size_t{3}));  // glibc %Y
  char fraction[8];
  std::snprintf(fraction, sizeof fraction, "%06d", static_cast<int>(sub_second));
  return year + iso.substr(4, 6) + " " + iso.substr(11, 8) + "." + fraction + "+0000";
}

std::string CqlshDate(std::string_view value) {
  const std::string canonical = FormatLiteral(Native(TypeKind::kDate), value);
  if (canonical.size() == 10 && canonical.compare(0, 4, "0000") != 0) return canonical;
  // Out of Python's range: days since the epoch (the value is 2^31 + days).
  const auto as_int = ParseInt<int32_t>(FormatLiteral(Native(TypeKind::kInt), value));
  const int64_t days = static_cast<int64_t>(static_cast<uint32_t>(as_int)) - (int64_t{1} << 31);
  return std::to_string(days);
}

std::string CqlshDuration(std::string_view value) {
  const DurationParts parts = ReadDuration(FormatLiteral(Native(TypeKind::kDuration), value));
  std::string text = parts.negative ? "-" : "";
  const uint64_t months = AppendDurationPart(parts.months, 12, "y", &text);
  AppendDurationPart(months, 1, "mo", &text);
  AppendDurationPart(parts.days, 1, "d", &text);
  if (parts.nanos != 0) {
    uint64_t nanos = AppendDurationPart(parts.nanos, 3'600'000'000'000, "h", &text);
    nanos = AppendDurationPart(nanos, 60'000'000'000, "m", &text);
    nanos = AppendDurationPart(nanos, 1'000'000'000, "s", &text);
    nanos = AppendDurationPart(nanos, 1'000'000, "ms", &text);
    nanos = AppendDurationPart(nanos, 1'000, "us", &text);
    AppendDurationPart(nanos, 1, "ns", &text);
  }
  return text;
}

}  // namespace cellfs::fs
