// Numeric literal codecs: fixed-width integers, varint, float/double and
// decimal, between CQL text and Cassandra's native-protocol bytes.
#include "engine/cql/internal/numeric_literal.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <system_error>

#include "engine/cql/big_endian.h"
#include "engine/cql/internal/big_integer.h"
#include "engine/cql/internal/decimal_digits.h"

namespace cellfs {
namespace {

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// Two's-complement reading of the low `width` bytes of `raw`.
int64_t SignExtend(uint64_t raw, size_t width) {
  if (width == 0) return 0;
  if (width < 8 && (raw >> (8 * width - 1)) & 1) raw |= ~uint64_t{0} << (8 * width);
  return static_cast<int64_t>(raw);  // modular since C++20
}

// ---- Integers ---------------------------------------------------------------

struct IntegerRange {
  size_t width;
  int64_t min;
  int64_t max;
};

IntegerRange RangeOf(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
      return {1, INT8_MIN, INT8_MAX};
    case TypeKind::kSmallint:
      return {2, INT16_MIN, INT16_MAX};
    case TypeKind::kInt:
      return {4, INT32_MIN, INT32_MAX};
    default:  // bigint, counter
      return {8, INT64_MIN, INT64_MAX};
  }
}

// ---- Decimal-number syntax shared by float, double and decimal --------------

// The pieces of [sign](digits[.digits]|.digits)[(e|E)[sign]digits].
struct NumberSyntax {
  bool negative = false;
  std::string_view int_digits;
  std::string_view frac_digits;
  bool exponent_negative = false;
  std::string_view exponent_digits;  // empty when there is no exponent
};

std::string_view TakeDigits(std::string_view* text) {
  size_t n = 0;
  while (n < text->size() && IsDigit((*text)[n])) ++n;
  std::string_view digits = text->substr(0, n);
  text->remove_prefix(n);
  return digits;
}

bool ScanNumber(std::string_view text, NumberSyntax* out) {
  NumberSyntax n;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    n.negative = text[0] == '-';
    text.remove_prefix(1);
  }
  n.int_digits = TakeDigits(&text);
  if (!text.empty() && text[0] == '.') {
    text.remove_prefix(1);
    n.frac_digits = TakeDigits(&text);
  }
  if (n.int_digits.empty() && n.frac_digits.empty()) return false;
  if (!text.empty() && (text[0] == 'e' || text[0] == 'E')) {
    text.remove_prefix(1);
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
      n.exponent_negative = text[0] == '-';
      text.remove_prefix(1);
    }
    n.exponent_digits = TakeDigits(&text);
    if (n.exponent_digits.empty()) return false;
  }
  if (!text.empty()) return false;
  *out = n;
  return true;
}

// The exponent's value, clamped to +-kExponentClamp: far beyond any scale or
// floating-point range, yet small enough to add lengths to without overflow.
constexpr int64_t kExponentClamp = int64_t{1} << 52;

int64_t ClampedExponent(const NumberSyntax& n) {
  uint64_t magnitude = 0;
  constexpr auto kLimit = static_cast<uint64_t>(kExponentClamp);
  if (!DigitsUpTo(n.exponent_digits, kLimit, &magnitude)) magnitude = kLimit;
  const auto value = static_cast<int64_t>(magnitude);
  return n.exponent_negative ? -value : value;
}

// E such that the (non-zero) number's magnitude lies in [10^(E-1), 10^E).
// Used only to tell overflow from underflow, so clamping is harmless.
int64_t DecimalExponent(const NumberSyntax& n) {
  const int64_t exponent = ClampedExponent(n);
  const size_t first_int = n.int_digits.find_first_not_of('0');
  if (first_int != std::string_view::npos) {
    return static_cast<int64_t>(n.int_digits.size() - first_int) + exponent;
  }
  const size_t first_frac = n.frac_digits.find_first_not_of('0');
  return -static_cast<int64_t>(first_frac) + exponent;
}

bool EqualsIgnoringCase(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != lower[i]) return false;
  }
  return true;
}

// ---- Floating point ---------------------------------------------------------

template <typename Float, typename Bits>
Status ParseFloating(std::string_view type_name, std::string_view text, std::string* out) {
  Float value{};
  std::string_view unsigned_text = text;
  const bool has_sign = !text.empty() && (text[0] == '+' || text[0] == '-');
  if (has_sign) unsigned_text.remove_prefix(1);
  const bool negative = has_sign && text[0] == '-';

  if (EqualsIgnoringCase(unsigned_text, "nan")) {
    if (has_sign) {
      return Status::InvalidArgument(Quoted(text) + " is not a valid " + std::string(type_name) +
                                     ": NaN takes no sign");
    }
    value = std::numeric_limits<Float>::quiet_NaN();
  } else if (EqualsIgnoringCase(unsigned_text, "infinity")) {
    value =
        negative ? -std::numeric_limits<Float>::infinity() : std::numeric_limits<Float>::infinity();
  } else {
    NumberSyntax syntax;
    if (!ScanNumber(text, &syntax)) {
      return Status::InvalidArgument(
          Quoted(text) + " is not a valid " + std::string(type_name) +
          ": expected decimal digits with an optional fraction and exponent, NaN or Infinity");
    }
    // from_chars takes no '+', and neither its "inf"/"nan" nor hex forms can
    // reach it: ScanNumber admitted only digits, '.', 'e' and signs.
    const char* begin = text.data() + (has_sign && !negative ? 1 : 0);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, value, std::chars_format::general);
    if (ec == std::errc::result_out_of_range) {
      if (DecimalExponent(syntax) > 0) {
        return Status::InvalidArgument(Quoted(text) + " is out of range for " +
                                       std::string(type_name));
      }
      value = negative ? -Float{0} : Float{0};  // underflow: rounds to zero, as in Java
    } else if (ec != std::errc() || ptr != end) {
      return Status::InvalidArgument(Quoted(text) + " is not a valid " + std::string(type_name));
    }
  }
  *out = BigEndianBytes(std::bit_cast<Bits>(value), sizeof(Bits));
  return Status::Ok();
}

template <typename Float, typename Bits>
std::string FormatFloating(std::string_view bytes) {
  const auto value = std::bit_cast<Float>(static_cast<Bits>(ReadBigEndian(bytes)));
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-Infinity" : "Infinity";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  assert(ec == std::errc());
  (void)ec;
  return std::string(buffer, end);
}

}  // namespace

Status ParseIntegerLiteral(TypeKind kind, std::string_view text, std::string* out) {
  const std::string type_name(NativeTypeName(kind));
  if (!IsSignedDigits(text)) {
    return Status::InvalidArgument(Quoted(text) + " is not a valid " + type_name +
                                   ": expected an optional sign and decimal digits");
  }
  if (kind == TypeKind::kVarint) return DecimalDigitsToVarint(text, out);

  const IntegerRange range = RangeOf(kind);
  const bool negative = text[0] == '-';
  const std::string_view digits = text.substr(text[0] == '+' || negative ? 1 : 0);
  // The largest magnitude allowed: |min| = max + 1 for negatives.
  const uint64_t limit = static_cast<uint64_t>(range.max) + (negative ? 1 : 0);
  uint64_t magnitude = 0;
  if (!DigitsUpTo(digits, limit, &magnitude)) {
    return Status::InvalidArgument("value " + std::string(text) + " is out of range for " +
                                   type_name + " (" + std::to_string(range.min) + ".." +
                                   std::to_string(range.max) + ")");
  }
  const uint64_t twos_complement = negative ? 0 - magnitude : magnitude;
  *out = BigEndianBytes(twos_complement, range.width);
  return Status::Ok();
}

std::string FormatIntegerLiteral(TypeKind kind, std::string_view bytes) {
  if (kind == TypeKind::kVarint) return VarintToDecimalDigits(bytes);
  return std::to_string(SignExtend(ReadBigEndian(bytes), std::min<size_t>(bytes.size(), 8)));
}

Status ParseFloatingLiteral(TypeKind kind, std::string_view text, std::string* out) {
  if (kind == TypeKind::kFloat) return ParseFloating<float, uint32_t>("float", text, out);
  return ParseFloating<double, uint64_t>("double", text, out);
}

std::string FormatFloatingLiteral(TypeKind kind, std::string_view bytes) {
  if (kind == TypeKind::kFloat) return FormatFloating<float, uint32_t>(bytes);
  return FormatFloating<double, uint64_t>(bytes);
}

Status ParseDecimalLiteral(std::string_view text, std::string* out) {
  NumberSyntax syntax;
  if (!ScanNumber(text, &syntax)) {
    return Status::InvalidArgument(
        Quoted(text) +
        " is not a valid decimal: expected decimal digits with an optional fraction and exponent");
  }
  // value = digits * 10^(exponent - fraction length), and scale is the
  // negated power of ten.
  const int64_t scale = static_cast<int64_t>(syntax.frac_digits.size()) - ClampedExponent(syntax);
  if (scale < INT32_MIN || scale > INT32_MAX) {
    return Status::InvalidArgument(Quoted(text) + " is not a valid decimal: its scale " +
                                   std::to_string(scale) + " does not fit in 32 bits");
  }
  std::string digits = syntax.negative ? "-" : "";
  digits.append(syntax.int_digits).append(syntax.frac_digits);
  std::string unscaled;
  CELLFS_RETURN_IF_ERROR(DecimalDigitsToVarint(digits, &unscaled));
  *out = BigEndianBytes(static_cast<uint32_t>(static_cast<int32_t>(scale)), 4) + unscaled;
  return Status::Ok();
}

std::string FormatDecimalLiteral(std::string_view bytes) {
  const auto scale = static_cast<int32_t>(ReadBigEndian(bytes.substr(0, 4)));
  std::string coefficient = VarintToDecimalDigits(bytes.size() > 4 ? bytes.substr(4) : "");
  std::string result;
  if (coefficient[0] == '-') {
    result = "-";
    coefficient.erase(0, 1);
  }
  const auto length = static_cast<int64_t>(coefficient.size());
  if (scale == 0) return result + coefficient;
  if (scale >= -kMaxPlainScale && scale <= kMaxPlainScale) {
    // Java's toPlainString: trailing zeros for a negative scale, a point
    // (and leading zeros) for a positive one. Zero keeps no sign.
    if (scale < 0) {
      if (coefficient == "0") return "0";
      return result + coefficient + std::string(static_cast<size_t>(-scale), '0');
    }
    if (length > scale) {
      coefficient.insert(static_cast<size_t>(length - scale), ".");
      return result + coefficient;
    }
    return result + "0." + std::string(static_cast<size_t>(scale - length), '0') + coefficient;
  }
  // Java's toString, for scales whose plain form would be too long to print.
  const int64_t adjusted = length - 1 - scale;
  result += coefficient[0];
  if (length > 1) result.append(".").append(coefficient, 1);
  if (adjusted != 0) result += (adjusted > 0 ? "E+" : "E") + std::to_string(adjusted);
  return result;
}

Status ValidateNumericValue(TypeKind kind, std::string_view bytes) {
  size_t expected = 0;
  switch (kind) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      expected = RangeOf(kind).width;
      break;
    case TypeKind::kFloat:
      expected = 4;
      break;
    case TypeKind::kDouble:
      expected = 8;
      break;
    case TypeKind::kVarint:
      if (!bytes.empty()) return Status::Ok();
      return Status::InvalidArgument("a varint value needs at least 1 byte, got 0");
    case TypeKind::kDecimal:
      if (bytes.size() >= 4) return Status::Ok();
      return Status::InvalidArgument("a decimal value needs at least 4 bytes, got " +
                                     std::to_string(bytes.size()));
    default:
      return Status::InvalidArgument(std::string(NativeTypeName(kind)) + " is not a numeric type");
  }
  if (bytes.size() == expected) return Status::Ok();
  return Status::InvalidArgument("a " + std::string(NativeTypeName(kind)) + " value is " +
                                 std::to_string(expected) + " bytes, got " +
                                 std::to_string(bytes.size()));
}

}  // namespace cellfs
