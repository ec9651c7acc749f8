// Java's BigInteger/BigDecimal arithmetic on GMP (exact_number.h).
#include "fs/cql/exact_number.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "engine/cql/big_endian.h"
#include "engine/cql/cql_type.h"
#include "fs/cql/select_functions.h"

namespace cellfs::fs {
namespace {

// The big-endian bytes of a non-negative integer, none for 0.
std::string Magnitude(mpz_srcptr v) {
  if (mpz_sgn(v) == 0) return {};
  std::string out((mpz_sizeinbase(v, 2) + 7) / 8, '\0');
  size_t written = 0;
  mpz_export(out.data(), &written, 1, 1, 1, 0, v);
  out.resize(written);
  return out;
}

// d at a scale at least its own, its value unchanged.
void Rescale(Decimal* d, int64_t scale) {
  if (scale <= d->scale) return;
  BigInt power;
  mpz_ui_pow_ui(power.get(), 10, static_cast<unsigned long>(scale - d->scale));
  mpz_mul(d->unscaled.get(), d->unscaled.get(), power.get());
  d->scale = scale;
}

}  // namespace

// Two's-complement big-endian bytes (a varint) to and from GMP.
void ReadVarint(std::string_view bytes, mpz_ptr out) {
  mpz_import(out, bytes.size(), 1, 1, 1, 0, bytes.data());
  if (!bytes.empty() && static_cast<unsigned char>(bytes[0]) >= 0x80) {
    BigInt power;
    mpz_ui_pow_ui(power.get(), 2, 8 * bytes.size());
    mpz_sub(out, out, power.get());
  }
}

std::string WriteVarint(mpz_srcptr v) {
  // A negative v is the complement of -v - 1's bits.
  const bool negative = mpz_sgn(v) < 0;
  BigInt magnitude;
  if (negative) {
    mpz_neg(magnitude.get(), v);
    mpz_sub_ui(magnitude.get(), magnitude.get(), 1);
  } else {
    mpz_set(magnitude.get(), v);
  }
  std::string out = Magnitude(magnitude.get());
  if (out.empty() || static_cast<unsigned char>(out[0]) >= 0x80) out.insert(0, 1, '\0');
  if (negative) {
    for (char& c : out) c = static_cast<char>(~static_cast<unsigned char>(c));
  }
  return out;
}

// The low 64 bits of v, as Java's BigInteger.longValue() gives them.
int64_t LowBits(mpz_srcptr v) {
  BigInt low;
  mpz_fdiv_r_2exp(low.get(), v, 64);
  uint64_t bits = 0;
  const std::string bytes = Magnitude(low.get());
  for (char c : bytes) bits = (bits << 8) | static_cast<unsigned char>(c);
  return static_cast<int64_t>(bits);
}

Decimal ReadDecimal(std::string_view bytes) {
  Decimal d;
  d.scale = static_cast<int32_t>(static_cast<uint32_t>(ReadBigEndian(bytes.substr(0, 4))));
  ReadVarint(bytes.substr(4), d.unscaled.get());
  return d;
}

std::string WriteDecimal(const Decimal& d) {
  return BigEndianBytes(static_cast<uint32_t>(d.scale), 4) + WriteVarint(d.unscaled.get());
}

// a + b (sign -1: a - b) at the larger scale, as BigDecimal.add/subtract.
Decimal AddDecimal(Decimal a, Decimal b, int sign) {
  const int64_t scale = std::max(a.scale, b.scale);
  Rescale(&a, scale);
  Rescale(&b, scale);
  if (sign > 0) {
    mpz_add(a.unscaled.get(), a.unscaled.get(), b.unscaled.get());
  } else {
    mpz_sub(a.unscaled.get(), a.unscaled.get(), b.unscaled.get());
  }
  return a;
}

// BigDecimal.divide(BigDecimal.valueOf(count), HALF_EVEN): d's scale kept.
Decimal DivideHalfEven(const Decimal& d, uint64_t count) {
  Decimal q;
  q.scale = d.scale;
  BigInt remainder;
  mpz_tdiv_qr_ui(q.unscaled.get(), remainder.get(), d.unscaled.get(), count);
  // |remainder| against count / 2: above rounds away from zero, a tie to even.
  mpz_abs(remainder.get(), remainder.get());
  mpz_mul_2exp(remainder.get(), remainder.get(), 1);
  const int half = mpz_cmp_ui(remainder.get(), count);
  if (half > 0 || (half == 0 && mpz_odd_p(q.unscaled.get()))) {
    if (mpz_sgn(d.unscaled.get()) < 0) {
      mpz_sub_ui(q.unscaled.get(), q.unscaled.get(), 1);
    } else {
      mpz_add_ui(q.unscaled.get(), q.unscaled.get(), 1);
    }
  }
  return q;
}

namespace {

// The decimal a Java float/double text stands for ("1.5", "-0.0",
// "1.0E10": unscaled 10, scale -9), as new BigDecimal(String) reads it.
Decimal DecimalOfJavaText(const std::string& text) {
  Decimal d;
  std::string digits;
  int64_t fraction_digits = 0;
  bool in_fraction = false;
  size_t i = 0;
  for (; i < text.size() && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      in_fraction = true;
    } else {
      digits += text[i];
      if (in_fraction) ++fraction_digits;
    }
  }
  const int64_t exponent = i < text.size() ? std::strtoll(text.c_str() + i + 1, nullptr, 10) : 0;
  mpz_set_str(d.unscaled.get(), digits.c_str(), 10);
  d.scale = fraction_digits - exponent;
  return d;
}

// "<unscaled>e<-scale>": the decimal's exact value as strtod/strtof read it.
std::string ScientificText(const Decimal& d) {
  char* digits = mpz_get_str(nullptr, 10, d.unscaled.get());
  std::string text = std::string(digits) + "e" + std::to_string(-d.scale);
  void (*release)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &release);
  release(digits, std::strlen(digits) + 1);
  return text;
}

}  // namespace

// BigDecimal.valueOf(double): the value of Java's Double.toString text.
bool DecimalOfDouble(double value, Decimal* out) {
  if (!std::isfinite(value)) return false;
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  *out = DecimalOfJavaText(JavaFloatingText(TypeKind::kDouble, BigEndianBytes(bits, 8)));
  return true;
}

// new BigDecimal(Float.toString(value)).
bool DecimalOfFloat(float value, Decimal* out) {
  if (!std::isfinite(value)) return false;
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  *out = DecimalOfJavaText(JavaFloatingText(TypeKind::kFloat, BigEndianBytes(bits, 4)));
  return true;
}

// glibc's strtod and strtof round correctly (to nearest, ties to even), as
// Java's BigDecimal.doubleValue/floatValue and BigInteger's do.
double DoubleOfDecimal(const Decimal& d) { return std::strtod(ScientificText(d).c_str(), nullptr); }

float FloatOfDecimal(const Decimal& d) { return std::strtof(ScientificText(d).c_str(), nullptr); }

// BigDecimal.longValue(): truncated toward zero, then the low 64 bits.
int64_t TruncatedLowBits(const Decimal& d) {
  if (mpz_sgn(d.unscaled.get()) == 0 || d.scale <= -64) return 0;
  BigInt whole;
  if (d.scale <= 0) {
    BigInt power;
    mpz_ui_pow_ui(power.get(), 10, static_cast<unsigned long>(-d.scale));
    mpz_mul(whole.get(), d.unscaled.get(), power.get());
    return LowBits(whole.get());
  }
  // sizeinbase may count one digit too many, never too few: at most that
  // many digits and no more than the scale means |value| < 1.
  if (mpz_sizeinbase(d.unscaled.get(), 10) <= static_cast<uint64_t>(d.scale)) return 0;
  BigInt power;
  mpz_ui_pow_ui(power.get(), 10, static_cast<unsigned long>(d.scale));
  mpz_tdiv_q(whole.get(), d.unscaled.get(), power.get());
  return LowBits(whole.get());
}

}  // namespace cellfs::fs
