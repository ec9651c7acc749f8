// sum() and avg() per numeric family; the exact arithmetic (varint,
// decimal, the overflow paths of integer and floating avg) is
// exact_number.h's.
#include "fs/cql/numeric_aggregates.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "engine/cql/big_endian.h"
#include "fs/cql/exact_number.h"
#include "fs/cql/fixed_number.h"

namespace cellfs::fs {
namespace {

// tinyint, smallint, int, bigint and counter sums: Java's wrapping `+=`.
class IntegerSum final : public NumericAggregate {
 public:
  explicit IntegerSum(TypeKind kind) : width_(static_cast<size_t>(FixedWidthOf(kind))) {}
  void Add(std::string_view value) override { sum_ += static_cast<uint64_t>(ReadInteger(value)); }
  Status Result(std::string* out) const override {
    *out = BigEndianBytes(sum_, width_);
    return Status::Ok();
  }

 private:
  size_t width_;
  uint64_t sum_ = 0;
};

// Their avg: the exact sum (a long, then a big integer past its range)
// divided by the count, truncated, narrowed to the width.
class IntegerAvg final : public NumericAggregate {
 public:
  explicit IntegerAvg(TypeKind kind) : width_(static_cast<size_t>(FixedWidthOf(kind))) {}
  void Add(std::string_view value) override {
    const int64_t v = ReadInteger(value);
    ++count_;
    int64_t next = 0;
    if (!overflow_ && !__builtin_add_overflow(sum_, v, &next)) {
      sum_ = next;
      return;
    }
    if (!overflow_) {
      overflow_ = true;
      big_sum_.Set(sum_);
    }
    mpz_add(big_sum_.get(), big_sum_.get(), BigInt(v).get());
  }
  Status Result(std::string* out) const override {
    int64_t avg = 0;
    if (overflow_) {
      BigInt quotient;
      mpz_tdiv_q(quotient.get(), big_sum_.get(), BigInt(static_cast<int64_t>(count_)).get());
      avg = LowBits(quotient.get());
    } else if (count_ > 0) {
      avg = sum_ / static_cast<int64_t>(count_);
    }
    *out = BigEndianBytes(static_cast<uint64_t>(avg), width_);
    return Status::Ok();
  }

 private:
  size_t width_;
  int64_t sum_ = 0;
  uint64_t count_ = 0;
  bool overflow_ = false;
  BigInt big_sum_;
};

// Kahan's compensated sum in double, as Cassandra keeps it.
struct KahanSum {
  double sum = 0;
  double compensation = 0;
  double simple_sum = 0;

  void Add(double v) {
    simple_sum += v;
    const double tmp = v - compensation;
    const double rounded = sum + tmp;
    compensation = (rounded - sum) - tmp;
    sum = rounded;
  }
  // A NaN from adding same-signed infinities is the plain sum's infinity.
  double Total() const {
    const double total = sum + compensation;
    return std::isnan(total) && std::isinf(simple_sum) ? simple_sum : total;
  }
};

class FloatingSum final : public NumericAggregate {
 public:
  explicit FloatingSum(TypeKind kind) : kind_(kind) {}
  void Add(std::string_view value) override { kahan_.Add(ReadFloating(kind_, value)); }
  Status Result(std::string* out) const override {
    *out = WriteFloating(kind_, kahan_.Total());
    return Status::Ok();
  }

 private:
  TypeKind kind_;
  KahanSum kahan_;
};

class FloatingAvg final : public NumericAggregate {
 public:
  explicit FloatingAvg(TypeKind kind) : kind_(kind) {}
  void Add(std::string_view value) override {
    const double v = ReadFloating(kind_, value);
    ++count_;
    if (overflow_) {
      AddExact(v);
      return;
    }
    const double before = kahan_.sum;
    kahan_.Add(v);
    if (std::isinf(kahan_.sum) && !std::isinf(v)) {
      // The double sum overflowed on finite values: from here the decimal
      // text of the sum before and of each value, summed exactly.
      overflow_ = true;
      if (!DecimalOfDouble(before, &big_sum_)) Refuse(before);
      AddExact(v);
    }
  }
  Status Result(std::string* out) const override {
    if (!refused_.empty()) {
      return Status::InvalidArgument("Character " + refused_ +
                                     " is neither a decimal digit number, decimal point, nor "
                                     "\"e\" notation exponential mark.");
    }
    double avg = 0;
    if (overflow_) {
      avg = DoubleOfDecimal(DivideHalfEven(big_sum_, count_));
    } else if (count_ > 0) {
      avg = kahan_.Total() / static_cast<double>(count_);
    }
    *out = WriteFloating(kind_, avg);
    return Status::Ok();
  }

 private:
  void AddExact(double v) {
    Decimal d;
    if (!DecimalOfDouble(v, &d)) return Refuse(v);
    big_sum_ = AddDecimal(big_sum_, d);
  }
  void Refuse(double v) {
    if (refused_.empty()) refused_ = std::isnan(v) ? "N" : "I";
  }

  TypeKind kind_;
  KahanSum kahan_;
  uint64_t count_ = 0;
  bool overflow_ = false;
  Decimal big_sum_;
  std::string refused_;  // the character Java's BigDecimal refused
};

class VarintAggregate final : public NumericAggregate {
 public:
  explicit VarintAggregate(Op op) : op_(op) {}
  void Add(std::string_view value) override {
    BigInt v;
    ReadVarint(value, v.get());
    mpz_add(sum_.get(), sum_.get(), v.get());
    ++count_;
  }
  Status Result(std::string* out) const override {
    if (op_ == Op::kSum || count_ == 0) {
      *out = WriteVarint(sum_.get());
      return Status::Ok();
    }
    BigInt quotient;
    mpz_tdiv_q(quotient.get(), sum_.get(), BigInt(static_cast<int64_t>(count_)).get());
    *out = WriteVarint(quotient.get());
    return Status::Ok();
  }

 private:
  Op op_;
  BigInt sum_;
  uint64_t count_ = 0;
};

class DecimalAggregate final : public NumericAggregate {
 public:
  explicit DecimalAggregate(Op op) : op_(op) {}
  void Add(std::string_view value) override {
    const Decimal v = ReadDecimal(value);
    if (op_ == Op::kSum) {
      value_ = AddDecimal(value_, v);
      return;
    }
    ++count_;
    value_ = AddDecimal(value_, DivideHalfEven(AddDecimal(v, value_, -1), count_));
  }
  Status Result(std::string* out) const override {
    *out = WriteDecimal(value_);
    return Status::Ok();
  }

 private:
  Op op_;
  Decimal value_;  // the sum, or the running mean
  uint64_t count_ = 0;
};

}  // namespace

std::unique_ptr<NumericAggregate> NumericAggregate::Make(Op op, TypeKind kind) {
  switch (kind) {
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      if (op == Op::kSum) return std::make_unique<FloatingSum>(kind);
      return std::make_unique<FloatingAvg>(kind);
    case TypeKind::kVarint:
      return std::make_unique<VarintAggregate>(op);
    case TypeKind::kDecimal:
      return std::make_unique<DecimalAggregate>(op);
    default:
      if (op == Op::kSum) return std::make_unique<IntegerSum>(kind);
      return std::make_unique<IntegerAvg>(kind);
  }
}

}  // namespace cellfs::fs
