// Java's BigInteger and BigDecimal arithmetic that Cassandra's aggregates
// use, on GMP, read from and written to CQL varint and decimal bytes
// (two's-complement big-endian; decimal: int32 scale, then the unscaled
// varint), and the conversions Cassandra's CastFcts makes between them and
// the other numbers. Internal to fs/cql (numeric_aggregates.cc, the casts of
// select_functions.cc). Values are not thread-safe; the functions are pure.
#pragma once

#include <gmp.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace cellfs::fs {

// An mpz_t that cleans up after itself.
class BigInt {
 public:
  BigInt() { mpz_init(value_); }
  explicit BigInt(int64_t v) {
    mpz_init(value_);
    Set(v);
  }
  BigInt(const BigInt& other) { mpz_init_set(value_, other.value_); }
  BigInt& operator=(const BigInt& other) {
    mpz_set(value_, other.value_);
    return *this;
  }
  ~BigInt() { mpz_clear(value_); }

  mpz_ptr get() { return value_; }
  mpz_srcptr get() const { return value_; }

  // mpz_set_si takes a long: 64 bits on every platform cellfs builds for.
  void Set(int64_t v) { mpz_set_si(value_, static_cast<long>(v)); }

 private:
  mpz_t value_;
};

// Java's BigDecimal: unscaled * 10^-scale.
struct Decimal {
  BigInt unscaled;
  int64_t scale = 0;
};

// A varint's value into *out. Empty bytes read as 0.
void ReadVarint(std::string_view bytes, mpz_ptr out);
// The minimal two's-complement bytes of v (0 is one zero byte).
std::string WriteVarint(mpz_srcptr v);
// The low 64 bits of v, as Java's BigInteger.longValue() gives them.
int64_t LowBits(mpz_srcptr v);

// REQUIRES: a valid serialized decimal.
Decimal ReadDecimal(std::string_view bytes);
std::string WriteDecimal(const Decimal& d);

// a + b (sign -1: a - b) at the larger scale, as BigDecimal.add/subtract.
Decimal AddDecimal(Decimal a, Decimal b, int sign = 1);
// BigDecimal.divide(BigDecimal.valueOf(count), RoundingMode.HALF_EVEN):
// the quotient at d's scale, a tie rounded to the even neighbour.
// REQUIRES: count > 0.
Decimal DivideHalfEven(const Decimal& d, uint64_t count);
// BigDecimal.valueOf(double): the value of Java's Double.toString text
// ("1.5", "1.0E10": unscaled 10, scale -9); false for NaN and the
// infinities, which Java refuses.
bool DecimalOfDouble(double value, Decimal* out);
// new BigDecimal(Float.toString(value)): the value of Java's float text
// ("0.1" for 0.1f, not the binary 0.100000001490116...); false for NaN and
// the infinities, which Java refuses.
bool DecimalOfFloat(float value, Decimal* out);
// BigDecimal.doubleValue(): the double nearest the decimal's value (ties
// to even; beyond the double range +-Infinity, below it +-0.0, as Java).
// With scale 0 also BigInteger.doubleValue(), correctly rounded as Java 8+.
double DoubleOfDecimal(const Decimal& d);
// BigDecimal.floatValue(): the float nearest the decimal's value, rounded
// once (not through double, whose rounding could differ). With scale 0 also
// BigInteger.floatValue().
float FloatOfDecimal(const Decimal& d);
// BigDecimal.longValue(): the value truncated toward zero (the fraction
// dropped), then its low 64 bits; intValue(), shortValue() and byteValue()
// narrow that further. Cheap whatever the scale: a scale of -64 or less
// leaves 64 factors of 2, so no low bit set, and a value below 1 is 0.
int64_t TruncatedLowBits(const Decimal& d);

}  // namespace cellfs::fs
