// SELECT's native scalar functions and casts: the signatures, Cassandra's
// resolution messages, and the conversions (Java's numeric narrowing and
// Number/BigInteger/BigDecimal conversions as CastFcts uses them, time
// arithmetic on timeuuids, dates and timestamps, toString for casts to text).
#include "fs/cql/select_functions.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "engine/cql/big_endian.h"
#include "engine/cql/literal.h"
#include "fs/cql/exact_number.h"
#include "fs/cql/fixed_number.h"

namespace cellfs::fs {
namespace {

using Kind = ScalarFunction::Kind;

constexpr int64_t kUuidEpochTicks = 0x01B21DD213814000;  // 100 ns, 1582-10-15 to 1970-01-01
constexpr int64_t kMillisPerDay = 86'400'000;
constexpr int64_t kDateEpoch = int64_t{1} << 31;  // the date of 1970-01-01

struct Signature {
  std::string_view name;
  Kind kind;
  std::vector<TypeKind> params;
  TypeKind result;
};

const std::vector<Signature>& Signatures() {
  using T = TypeKind;
  static const std::vector<Signature> signatures = {
      {"now", Kind::kNow, {}, T::kTimeuuid},
      {"currenttimeuuid", Kind::kNow, {}, T::kTimeuuid},
      {"currenttimestamp", Kind::kCurrentTimestamp, {}, T::kTimestamp},
      {"currentdate", Kind::kCurrentDate, {}, T::kDate},
      {"currenttime", Kind::kCurrentTime, {}, T::kTime},
      {"uuid", Kind::kUuid, {}, T::kUuid},
      {"mintimeuuid", Kind::kMinTimeuuid, {T::kTimestamp}, T::kTimeuuid},
      {"maxtimeuuid", Kind::kMaxTimeuuid, {T::kTimestamp}, T::kTimeuuid},
      {"dateof", Kind::kToTimestamp, {T::kTimeuuid}, T::kTimestamp},
      {"unixtimestampof", Kind::kToUnixTimestamp, {T::kTimeuuid}, T::kBigint},
      {"todate", Kind::kToDate, {T::kTimeuuid}, T::kDate},
      {"todate", Kind::kToDate, {T::kTimestamp}, T::kDate},
      {"totimestamp", Kind::kToTimestamp, {T::kTimeuuid}, T::kTimestamp},
      {"totimestamp", Kind::kToTimestamp, {T::kDate}, T::kTimestamp},
      {"tounixtimestamp", Kind::kToUnixTimestamp, {T::kTimeuuid}, T::kBigint},
      {"tounixtimestamp", Kind::kToUnixTimestamp, {T::kTimestamp}, T::kBigint},
      {"tounixtimestamp", Kind::kToUnixTimestamp, {T::kDate}, T::kBigint},
  };
  return signatures;
}

std::string SignatureText(const Signature& s) {
  std::string text = "system." + std::string(s.name) + " : (";
  for (size_t i = 0; i < s.params.size(); ++i) {
    text += (i > 0 ? ", " : "") + std::string(NativeTypeName(s.params[i]));
  }
  return text + ") -> " + std::string(NativeTypeName(s.result));
}

bool IsInteger(TypeKind kind) {
  return kind == TypeKind::kTinyint || kind == TypeKind::kSmallint || kind == TypeKind::kInt ||
         kind == TypeKind::kBigint || kind == TypeKind::kCounter;
}
bool IsFloating(TypeKind kind) { return kind == TypeKind::kFloat || kind == TypeKind::kDouble; }
bool IsNumeric(TypeKind kind) {
  return IsInteger(kind) || IsFloating(kind) || kind == TypeKind::kVarint ||
         kind == TypeKind::kDecimal;
}

// Java's (int) / (long) of a double: NaN is 0, out of range saturates.
int64_t JavaTruncate(double value, int64_t min, int64_t max) {
  if (std::isnan(value)) return 0;
  if (value <= static_cast<double>(min)) return min;
  if (value >= static_cast<double>(max)) return max;
  return static_cast<int64_t>(value);
}

// An integer of `kind` from a wider one, as Java's narrowing casts wrap it.
std::string WriteInteger(TypeKind kind, int64_t value) {
  return BigEndianBytes(static_cast<uint64_t>(value), static_cast<size_t>(FixedWidthOf(kind)));
}

// The minimal two's-complement bytes of `value` (a varint).
std::string Varint(int64_t value) {
  std::string out = BigEndianBytes(static_cast<uint64_t>(value), 8);
  size_t start = 0;
  while (start + 1 < out.size()) {
    const auto first = static_cast<unsigned char>(out[start]);
    const auto next = static_cast<unsigned char>(out[start + 1]);
    if ((first == 0x00 && next < 0x80) || (first == 0xff && next >= 0x80)) {
      ++start;
    } else {
      break;
    }
  }
  return out.substr(start);
}

// The timeuuid's time in milliseconds since the epoch (floored).
int64_t TimeuuidMillis(std::string_view bytes) {
  const uint64_t high = ReadBigEndian(bytes.substr(0, 8));
  const uint64_t ticks = ((high & 0x0fff) << 48) | (((high >> 16) & 0xffff) << 32) | (high >> 32);
  const int64_t since_epoch = static_cast<int64_t>(ticks) - kUuidEpochTicks;
  return since_epoch >= 0 ? since_epoch / 10'000 : -((-since_epoch + 9'999) / 10'000);
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

// The millisecond a timeuuid, timestamp or date stands for.
int64_t MillisOf(TypeKind kind, std::string_view bytes) {
  switch (kind) {
    case TypeKind::kTimeuuid:
      return TimeuuidMillis(bytes);
    case TypeKind::kDate:
      return (static_cast<int64_t>(ReadBigEndian(bytes)) - kDateEpoch) * kMillisPerDay;
    default:
      return ReadInteger(bytes);  // timestamp
  }
}

std::string DateOfMillis(int64_t millis) {
  return BigEndianBytes(static_cast<uint64_t>(FloorDiv(millis, kMillisPerDay) + kDateEpoch), 4);
}

Status Evaluated(const CqlType& type, const std::string& text, std::optional<std::string>* out) {
  Result<std::string> value = ParseLiteral(type, text);
  if (!value.ok()) return value.status();
  *out = std::move(value.value());
  return Status::Ok();
}

std::string RandomUuid() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  uint64_t high = random();
  uint64_t low = random();
  high = (high & ~uint64_t{0xf000}) | 0x4000;                    // version 4
  low = (low & ~(uint64_t{0xc} << 60)) | (uint64_t{0x8} << 60);  // IETF variant
  return BigEndianBytes(high, 8) + BigEndianBytes(low, 8);
}

bool CastsToText(TypeKind kind) {
  switch (kind) {
    case TypeKind::kAscii:
    case TypeKind::kText:
    case TypeKind::kBoolean:
    case TypeKind::kInet:
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
    case TypeKind::kTimestamp:
    case TypeKind::kDate:
    case TypeKind::kTime:
      return true;
    default:
      return IsNumeric(kind);
  }
}

// CastFcts' conversions of numbers (Cassandra 5.0's, the same in 4.x but
// for casts to decimal, see select_functions.h): Number.byteValue(),
// shortValue(), intValue(), longValue(), floatValue(), doubleValue(); to
// varint BigInteger.valueOf(longValue()); to decimal
// BigDecimal.valueOf(longValue()) from the integer types.

// An integer type (counter read as bigint) to any number but counter.
std::string CastInteger(TypeKind to, int64_t v) {
  if (IsInteger(to)) return WriteInteger(to, v);
  if (IsFloating(to)) {
    // (float) and (double) of a long round to nearest, as C++'s conversions.
    return WriteFloating(to, to == TypeKind::kFloat ? static_cast<double>(static_cast<float>(v))
                                                    : static_cast<double>(v));
  }
  if (to == TypeKind::kVarint) return Varint(v);
  return std::string(4, '\0') + Varint(v);  // decimal, scale 0
}

// The value `d` (an integer: scale 0) as a float or double, rounded once.
std::string WriteRounded(TypeKind to, const Decimal& d) {
  return to == TypeKind::kFloat ? WriteFloating(to, FloatOfDecimal(d))
                                : WriteFloating(to, DoubleOfDecimal(d));
}

// varint: intValue() etc. keep the low bits; floatValue()/doubleValue()
// round to nearest (+-Infinity beyond the range); to decimal
// new BigDecimal(BigInteger), exact at scale 0. An empty value (Java's
// null BigInteger, which the cast would dereference) gives null.
Status CastVarint(TypeKind to, std::string_view value, std::optional<std::string>* out) {
  if (value.empty()) return Status::Ok();
  Decimal d;  // scale 0
  ReadVarint(value, d.unscaled.get());
  if (IsInteger(to)) {
    *out = WriteInteger(to, LowBits(d.unscaled.get()));
  } else if (IsFloating(to)) {
    *out = WriteRounded(to, d);
  } else {
    *out = WriteDecimal(d);
  }
  return Status::Ok();
}

// decimal: the integer types and varint (BigInteger.valueOf(longValue()))
// take the value truncated toward zero, then its low bits; float and double
// the nearest value. An empty value gives null, as for varint.
Status CastDecimal(TypeKind to, std::string_view value, std::optional<std::string>* out) {
  if (value.empty()) return Status::Ok();
  const Decimal d = ReadDecimal(value);
  if (IsFloating(to)) {
    *out = WriteRounded(to, d);
  } else if (to == TypeKind::kVarint) {
    *out = Varint(TruncatedLowBits(d));
  } else {
    *out = WriteInteger(to, TruncatedLowBits(d));
  }
  return Status::Ok();
}

// float and double to decimal: new BigDecimal(Float.toString(f)),
// BigDecimal.valueOf(d) (the value of Double.toString's text). Java throws
// NumberFormatException on NaN and the infinities; cellfs refuses them in
// its function-error words.
Status CastFloatingToDecimal(TypeKind from, std::string_view value,
                             std::optional<std::string>* out) {
  const double v = ReadFloating(from, value);
  Decimal d;
  const bool finite =
      from == TypeKind::kFloat ? DecimalOfFloat(static_cast<float>(v), &d) : DecimalOfDouble(v, &d);
  if (!finite) {
    return Status::InvalidArgument("In call to function system.castasdecimal, value " +
                                   JavaFloatingText(from, value) +
                                   " cannot be converted to decimal");
  }
  *out = WriteDecimal(d);
  return Status::Ok();
}

// float and double: Java's (long)/(int) casts (NaN 0, out of range
// saturated; byteValue()/shortValue() narrow the int), to varint
// BigInteger.valueOf((long) v).
Status CastFloating(TypeKind from, TypeKind to, std::string_view value,
                    std::optional<std::string>* out) {
  if (to == TypeKind::kDecimal) return CastFloatingToDecimal(from, value, out);
  const double v = ReadFloating(from, value);
  constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();
  if (IsFloating(to)) {
    *out = WriteFloating(to, v);
  } else if (to == TypeKind::kVarint) {
    *out = Varint(JavaTruncate(v, kLongMin, kLongMax));
  } else if (to == TypeKind::kBigint) {
    *out = WriteInteger(to, JavaTruncate(v, kLongMin, kLongMax));
  } else {
    *out = WriteInteger(to, JavaTruncate(v, std::numeric_limits<int32_t>::min(),
                                         std::numeric_limits<int32_t>::max()));
  }
  return Status::Ok();
}

Status Cast(TypeKind from, const CqlType& from_type, TypeKind to, std::string_view value,
            std::optional<std::string>* out) {
  if (from == to) {
    *out = std::string(value);
    return Status::Ok();
  }
  if (to == TypeKind::kText || to == TypeKind::kAscii) {
    *out = IsFloating(from) ? JavaFloatingText(from, value) : FormatLiteral(from_type, value);
    return Status::Ok();
  }
  if (from == TypeKind::kTimeuuid || from == TypeKind::kTimestamp || from == TypeKind::kDate) {
    const int64_t millis = MillisOf(from, value);
    *out = to == TypeKind::kDate ? DateOfMillis(millis)
                                 : BigEndianBytes(static_cast<uint64_t>(millis), 8);
    return Status::Ok();
  }
  switch (from) {
    case TypeKind::kVarint:
      return CastVarint(to, value, out);
    case TypeKind::kDecimal:
      return CastDecimal(to, value, out);
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return CastFloating(from, to, value, out);
    default:
      *out = CastInteger(to, ReadInteger(value));  // ResolveCast refused the rest
      return Status::Ok();
  }
}

}  // namespace

Status ResolveFunction(const std::string& name, const std::vector<TypePtr>& arg_types,
                       const std::vector<std::string>& arg_names, ScalarFunction* out,
                       std::vector<TypePtr>* constant_types) {
  constant_types->assign(arg_types.size(), nullptr);
  // <type>AsBlob and blobAs<type>, for every native type.
  constexpr std::string_view kAsBlob = "asblob", kBlobAs = "blobas";
  if (name.size() > kAsBlob.size() && name.ends_with(kAsBlob)) {
    const TypePtr type = CqlType::NativeByName(name.substr(0, name.size() - kAsBlob.size()));
    if (type && type->kind() != TypeKind::kCounter) {
      Signature s{name, Kind::kAsBlob, {type->kind()}, TypeKind::kBlob};
      if (arg_types.size() != 1) {
        return Status::InvalidArgument("Invalid number of arguments in call to function system." +
                                       name + ": 1 required but " +
                                       std::to_string(arg_types.size()) + " provided");
      }
      if (arg_types[0] && !arg_types[0]->Equals(*type)) {
        return Status::InvalidArgument("Type error: " + arg_names[0] +
                                       " cannot be passed as argument 0 of function system." +
                                       name + " of type " + type->ToCql());
      }
      (*constant_types)[0] = arg_types[0] ? nullptr : type;
      *out = {Kind::kAsBlob, CqlType::Native(TypeKind::kBlob), "system." + name};
      return Status::Ok();
    }
  }
  if (name.size() > kBlobAs.size() && name.starts_with(kBlobAs)) {
    const TypePtr type = CqlType::NativeByName(name.substr(kBlobAs.size()));
    if (type && type->kind() != TypeKind::kCounter) {
      if (arg_types.size() != 1) {
        return Status::InvalidArgument("Invalid number of arguments in call to function system." +
                                       name + ": 1 required but " +
                                       std::to_string(arg_types.size()) + " provided");
      }
      if (arg_types[0] && arg_types[0]->kind() != TypeKind::kBlob) {
        return Status::InvalidArgument("Type error: " + arg_names[0] +
                                       " cannot be passed as argument 0 of function system." +
                                       name + " of type blob");
      }
      (*constant_types)[0] = arg_types[0] ? nullptr : CqlType::Native(TypeKind::kBlob);
      *out = {Kind::kBlobAs, type, "system." + name};
      return Status::Ok();
    }
  }
  std::vector<const Signature*> named;
  for (const Signature& s : Signatures()) {
    if (s.name == name) named.push_back(&s);
  }
  if (named.empty()) return Status::InvalidArgument("Unknown function '" + name + "'");
  for (const Signature* s : named) {
    if (s->params.size() != arg_types.size()) continue;
    bool matches = true;
    for (size_t i = 0; i < arg_types.size() && matches; ++i) {
      matches =
          !arg_types[i] || (arg_types[i]->is_native() && arg_types[i]->kind() == s->params[i]);
    }
    if (!matches) continue;
    for (size_t i = 0; i < arg_types.size(); ++i) {
      if (!arg_types[i]) (*constant_types)[i] = CqlType::Native(s->params[i]);
    }
    *out = {s->kind, CqlType::Native(s->result), "system." + name};
    return Status::Ok();
  }
  if (named.size() == 1) {
    const Signature& s = *named[0];
    if (s.params.size() != arg_types.size()) {
      return Status::InvalidArgument("Invalid number of arguments in call to function system." +
                                     name + ": " + std::to_string(s.params.size()) +
                                     " required but " + std::to_string(arg_types.size()) +
                                     " provided");
    }
    for (size_t i = 0; i < arg_types.size(); ++i) {
      if (arg_types[i] && !(arg_types[i]->is_native() && arg_types[i]->kind() == s.params[i])) {
        return Status::InvalidArgument(
            "Type error: " + arg_names[i] + " cannot be passed as argument " + std::to_string(i) +
            " of function system." + name + " of type " + std::string(NativeTypeName(s.params[i])));
      }
    }
  }
  std::string known;
  for (const Signature* s : named) known += (known.empty() ? "" : ", ") + SignatureText(*s);
  return Status::InvalidArgument(
      "Invalid call to function " + name +
      ", none of its type signatures match (known type signatures: " + known + ")");
}

Status ResolveCast(const TypePtr& from, const std::string& target, const std::string& arg_name,
                   ScalarFunction* out) {
  const TypePtr to = CqlType::NativeByName(target);
  const auto refused = [&] {
    return Status::InvalidArgument(arg_name + " cannot be cast to " + target);
  };
  if (!to || !from->is_native()) return refused();
  const TypeKind f = from->kind(), t = to->kind();
  *out = {Kind::kCast, to, "cast"};
  if (f == t && t != TypeKind::kCounter) return Status::Ok();
  if (t == TypeKind::kText || t == TypeKind::kAscii) {
    return CastsToText(f) ? Status::Ok() : refused();
  }
  const bool time_source =
      f == TypeKind::kTimeuuid || f == TypeKind::kTimestamp || f == TypeKind::kDate;
  if (time_source && (t == TypeKind::kTimestamp || t == TypeKind::kDate)) return Status::Ok();
  // Every number to every other but counter, which Cassandra has no cast to.
  if (!IsNumeric(f) || !IsNumeric(t) || t == TypeKind::kCounter) return refused();
  return Status::Ok();
}

Status ApplyFunction(const ScalarFunction& function, const std::vector<TypePtr>& arg_types,
                     const std::vector<std::optional<std::string>>& args,
                     std::optional<std::string>* out) {
  out->reset();
  for (const auto& arg : args) {
    if (!arg) return Status::Ok();  // null in, null out
  }
  const CqlType& result = *function.result;
  switch (function.kind) {
    case Kind::kNow:
      return Evaluated(result, "now()", out);
    case Kind::kCurrentTimestamp:
      return Evaluated(result, "currentTimestamp()", out);
    case Kind::kCurrentDate:
      return Evaluated(result, "currentDate()", out);
    case Kind::kCurrentTime:
      return Evaluated(result, "currentTime()", out);
    case Kind::kUuid:
      *out = RandomUuid();
      return Status::Ok();
    case Kind::kMinTimeuuid:
    case Kind::kMaxTimeuuid: {
      const std::string call =
          function.kind == Kind::kMinTimeuuid ? "minTimeuuid(" : "maxTimeuuid(";
      return Evaluated(result, call + std::to_string(ReadInteger(*args[0])) + ")", out);
    }
    case Kind::kToTimestamp:
    case Kind::kToUnixTimestamp: {
      const int64_t millis = MillisOf(arg_types[0]->kind(), *args[0]);
      *out = BigEndianBytes(static_cast<uint64_t>(millis), 8);
      return Status::Ok();
    }
    case Kind::kToDate:
      *out = DateOfMillis(MillisOf(arg_types[0]->kind(), *args[0]));
      return Status::Ok();
    case Kind::kAsBlob:
      *out = *args[0];
      return Status::Ok();
    case Kind::kBlobAs:
      if (!ValidateValue(result, *args[0]).ok()) {
        std::string hex = "0x";
        for (char c : *args[0]) {
          const auto byte = static_cast<unsigned char>(c);
          hex += "0123456789abcdef"[byte >> 4];
          hex += "0123456789abcdef"[byte & 15];
        }
        return Status::InvalidArgument("In call to function " + function.name + ", value " + hex +
                                       " is not a valid binary representation for type " +
                                       result.ToCql());
      }
      *out = *args[0];
      return Status::Ok();
    case Kind::kCast:
      return Cast(arg_types[0]->kind(), *arg_types[0], result.kind(), *args[0], out);
  }
  return Status::Ok();
}

std::string JavaFloatingText(TypeKind kind, std::string_view bytes) {
  const double value = ReadFloating(kind, bytes);
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-Infinity" : "Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  char buffer[64];
  const auto result =
      kind == TypeKind::kFloat
          ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value),
                          std::chars_format::scientific)
          : std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
  // d[.ddd]e[+-]XX: the significant digits and the decimal exponent.
  const bool negative = text[0] == '-';
  const size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(negative ? 1 : 0, e - (negative ? 1 : 0))) {
    if (c != '.') digits += c;
  }
  int exponent = 0;
  std::from_chars(text.data() + e + (text[e + 1] == '+' ? 2 : 1), text.data() + text.size(),
                  exponent);
  std::string out = negative ? "-" : "";
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    if (exponent >= 0) {
      const auto int_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() < int_digits) digits.append(int_digits - digits.size(), '0');
      out += digits.substr(0, int_digits) + ".";
      out += digits.size() > int_digits ? digits.substr(int_digits) : "0";
    } else {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
    return out;
  }
  out += digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0");
  return out + "E" + std::to_string(exponent);
}

}  // namespace cellfs::fs
