// Proleptic-Gregorian calendar arithmetic: civil dates <-> days since
// 1970-01-01, for every year a timestamp or date value can reach (BCE too),
// and the fixed clock units that time, timestamp and duration share.
// Header-only and constexpr; internal to engine/.
#pragma once

#include <cstdint>

namespace cellfs {

// Clock units. A day is always 24 hours here: CQL has no leap seconds.
inline constexpr int64_t kNanosPerMicro = 1'000;
inline constexpr int64_t kNanosPerMilli = 1'000'000;
inline constexpr int64_t kNanosPerSecond = 1'000'000'000;
inline constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
inline constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;
inline constexpr int64_t kNanosPerDay = 24 * kNanosPerHour;
inline constexpr int64_t kMillisPerDay = kNanosPerDay / kNanosPerMilli;

struct CivilDate {
  int64_t year = 1970;  // astronomical numbering: year 0 is 1 BCE, -1 is 2 BCE
  int month = 1;        // 1..12
  int day = 1;          // 1..DaysInMonth(year, month)
};

constexpr bool IsLeapYear(int64_t year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

// REQUIRES: 1 <= month <= 12.
constexpr int DaysInMonth(int64_t year, int month) {
  constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

namespace civil_internal {

// Years repeat every 400 (an "era") = 146097 days. Counting years from
// March puts the leap day last, so a day-of-year formula needs no table.
inline constexpr int64_t kDaysPerEra = 146097;
// Days from 0000-03-01 (the start of era 0) to 1970-01-01.
inline constexpr int64_t kEpochShift = 719468;

constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

}  // namespace civil_internal

// Days since 1970-01-01 (negative before). REQUIRES: a valid date with
// |year| <= 10^12, which keeps every intermediate far from overflow.
constexpr int64_t DaysFromCivil(const CivilDate& date) {
  using namespace civil_internal;
  const int64_t year = date.year - (date.month <= 2 ? 1 : 0);  // March-based year
  const int64_t era = FloorDiv(year, 400);
  const int64_t year_of_era = year - era * 400;                                 // 0..399
  const int64_t month_from_march = (date.month + 9) % 12;                       // Mar=0..Feb=11
  const int64_t day_of_year = (153 * month_from_march + 2) / 5 + date.day - 1;  // 0..365
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * kDaysPerEra + day_of_era - kEpochShift;
}

// The inverse of DaysFromCivil. REQUIRES: |days| <= 2^62.
constexpr CivilDate CivilFromDays(int64_t days) {
  using namespace civil_internal;
  const int64_t shifted = days + kEpochShift;
  const int64_t era = FloorDiv(shifted, kDaysPerEra);
  const int64_t day_of_era = shifted - era * kDaysPerEra;  // 0..146096
  // Removes the leap days accumulated so far (one per 4 years, none per 100,
  // one per 400) so that a plain division by 365 yields the year of the era.
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;
  CivilDate date;
  date.day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  date.month =
      static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  date.year = year_of_era + era * 400 + (date.month <= 2 ? 1 : 0);
  return date;
}

}  // namespace cellfs
