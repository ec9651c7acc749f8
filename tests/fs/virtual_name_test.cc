// Tests for fs/tree/virtual_name.h: every virtual name, every error with its code,
// write suffixes and the rule for '@' inside data names, number limits, and
// random names (no crash; what is accepted formats back to itself).
#include "fs/tree/virtual_name.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/store/cell.h"

namespace cellfs::fs {
namespace {

using Kind = VirtualName::Kind;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr uint64_t kUint64Max = std::numeric_limits<uint64_t>::max();

VirtualName Fixed(Kind kind, WriteAttributes write = {}) {
  VirtualName name;
  name.kind = kind;
  name.write = write;
  return name;
}

VirtualName Bound(bool lower, bool inclusive, std::string text) {
  VirtualName name;
  name.kind = Kind::kSliceBound;
  name.lower_bound = lower;
  name.inclusive = inclusive;
  name.bound_text = std::move(text);
  return name;
}

VirtualName Limit(uint64_t limit) {
  VirtualName name;
  name.kind = Kind::kLimit;
  name.limit = limit;
  return name;
}

VirtualName Columns(std::string text) {
  VirtualName name;
  name.kind = Kind::kColumns;
  name.columns_text = std::move(text);
  return name;
}

WriteAttributes Suffixes(std::optional<int64_t> ttl, std::optional<int64_t> timestamp) {
  WriteAttributes suffixes;
  suffixes.ttl = ttl;
  suffixes.timestamp = timestamp;
  return suffixes;
}

// The name a parsed virtual name was spelled as (suffixes ttl first).
std::string FormatName(const VirtualName& name) {
  switch (name.kind) {
    case Kind::kCql:
      return "@cql";
    case Kind::kSchema:
      return "@schema";
    case Kind::kInsert:
      return "@insert" + FormatWriteSuffixes(name.write);
    case Kind::kJson:
      return "@json";
    case Kind::kCsv:
      return "@csv";
    case Kind::kStats:
      return "@stats";
    case Kind::kStatsJson:
      return "@stats.json";
    case Kind::kErrors:
      return "@errors";
    case Kind::kStatus:
      return "@status";
    case Kind::kSliceBound:
      return std::string(name.lower_bound ? "@g" : "@l") + (name.inclusive ? "e=" : "t=") +
             name.bound_text;
    case Kind::kLimit:
      return "@limit=" + std::to_string(name.limit);
    case Kind::kReverse:
      return "@reverse";
    case Kind::kCount:
      return "@count";
    case Kind::kWhere:
      return "@where";
    case Kind::kBy:
      return "@by";
    case Kind::kColumns:
      return "@columns=" + name.columns_text;
  }
  return "?";
}

// The other order of two suffixes: "@ttl=1@timestamp=2" <-> "@timestamp=2@ttl=1".
std::string TimestampFirst(const WriteAttributes& suffixes) {
  WriteAttributes ts_only = Suffixes(std::nullopt, suffixes.timestamp);
  WriteAttributes ttl_only = Suffixes(suffixes.ttl, std::nullopt);
  return FormatWriteSuffixes(ts_only) + FormatWriteSuffixes(ttl_only);
}

TEST_CASE("every virtual name cellfs knows parses to its kind and arguments", "[virtual_name]") {
  struct Case {
    std::string name;
    VirtualName want;
  };
  const std::vector<Case> cases = {
      {"@cql", Fixed(Kind::kCql)},
      {"@schema", Fixed(Kind::kSchema)},
      {"@insert", Fixed(Kind::kInsert)},
      {"@insert@ttl=3600", Fixed(Kind::kInsert, Suffixes(3600, std::nullopt))},
      {"@insert@ttl=0", Fixed(Kind::kInsert, Suffixes(0, std::nullopt))},
      {"@insert@timestamp=1700000000000000",
       Fixed(Kind::kInsert, Suffixes(std::nullopt, 1700000000000000))},
      {"@insert@ttl=60@timestamp=-5", Fixed(Kind::kInsert, Suffixes(60, -5))},
      {"@insert@timestamp=-5@ttl=60", Fixed(Kind::kInsert, Suffixes(60, -5))},
      {"@json", Fixed(Kind::kJson)},
      {"@csv", Fixed(Kind::kCsv)},
      {"@stats", Fixed(Kind::kStats)},
      {"@stats.json", Fixed(Kind::kStatsJson)},
      {"@errors", Fixed(Kind::kErrors)},
      {"@status", Fixed(Kind::kStatus)},
      {"@reverse", Fixed(Kind::kReverse)},
      {"@count", Fixed(Kind::kCount)},
      {"@where", Fixed(Kind::kWhere)},
      {"@columns=a,b", Columns("a,b")},
      {"@columns=@x", Columns("@x")},
      {"@ge=2018-07-23T06:00:00.000Z", Bound(true, true, "2018-07-23T06:00:00.000Z")},
      {"@gt=a", Bound(true, false, "a")},
      {"@le=a,b", Bound(false, true, "a,b")},
      {"@lt=x%2Cy", Bound(false, false, "x%2Cy")},
      // T is kept raw: '@' inside it is data (key names escape only a
      // leading '@'), and so is anything shaped like a suffix.
      {"@ge=a@b", Bound(true, true, "a@b")},
      {"@ge=a@ttl=5", Bound(true, true, "a@ttl=5")},
      {"@lt=%40x", Bound(false, false, "%40x")},
      {"@ge==", Bound(true, true, "=")},
      {"@limit=1", Limit(1)},
      {"@limit=10", Limit(10)},
      {"@limit=18446744073709551615", Limit(kUint64Max)},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(IsVirtualName(c.name));
    VirtualName got;
    Status status = ParseVirtualName(c.name, &got);
    REQUIRE(status.ok());
    CHECK(got == c.want);
  }
}

TEST_CASE("an unknown or malformed virtual name is NotFound, a bad argument InvalidArgument",
          "[virtual_name]") {
  struct Case {
    std::string name;
    StatusCode code;
  };
  const std::vector<Case> cases = {
      // Not a name cellfs knows: ENOENT.
      {"@", StatusCode::kNotFound},
      {"@foo", StatusCode::kNotFound},
      {"@JSON", StatusCode::kNotFound},
      {"@jsonl", StatusCode::kNotFound},
      {"@json ", StatusCode::kNotFound},
      {" @json", StatusCode::kNotFound},
      {"@cqlx", StatusCode::kNotFound},
      {"@limit", StatusCode::kNotFound},
      {"@ge", StatusCode::kNotFound},
      {"@where=x", StatusCode::kNotFound},
      {"@count=1", StatusCode::kNotFound},
      {"@columns", StatusCode::kNotFound},
      {"@columns=", StatusCode::kInvalidArgument},
      {"@count@ttl=5", StatusCode::kInvalidArgument},
      {"@GE=a", StatusCode::kNotFound},
      {"@eq=a", StatusCode::kNotFound},
      {"@reverse=1", StatusCode::kNotFound},
      {"@ttl=5", StatusCode::kNotFound},
      {"@timestamp=5", StatusCode::kNotFound},
      {"@insert@", StatusCode::kNotFound},
      {"@insert@foo", StatusCode::kNotFound},
      {"@insert@ttl", StatusCode::kNotFound},
      {"@insert@foo@ttl=5", StatusCode::kNotFound},
      {"@insert@foo@ttl=x", StatusCode::kNotFound},
      {"@insert@ttl=5@foo", StatusCode::kNotFound},
      {"@json@", StatusCode::kNotFound},
      {"@insert@TTL=5", StatusCode::kNotFound},
      {"json", StatusCode::kNotFound},
      {"", StatusCode::kNotFound},
      {"%40json", StatusCode::kNotFound},
      // A known name with a bad argument: EINVAL.
      {"@ge=", StatusCode::kInvalidArgument},
      {"@gt=", StatusCode::kInvalidArgument},
      {"@le=", StatusCode::kInvalidArgument},
      {"@lt=", StatusCode::kInvalidArgument},
      {"@limit=", StatusCode::kInvalidArgument},
      {"@limit=0", StatusCode::kInvalidArgument},
      {"@limit=abc", StatusCode::kInvalidArgument},
      {"@limit=007", StatusCode::kInvalidArgument},
      {"@limit=00", StatusCode::kInvalidArgument},
      {"@limit=-1", StatusCode::kInvalidArgument},
      {"@limit=+1", StatusCode::kInvalidArgument},
      {"@limit= 1", StatusCode::kInvalidArgument},
      {"@limit=1 ", StatusCode::kInvalidArgument},
      {"@limit=1e3", StatusCode::kInvalidArgument},
      {"@limit=0x10", StatusCode::kInvalidArgument},
      {"@limit=18446744073709551616", StatusCode::kInvalidArgument},
      {"@limit=99999999999999999999999999999999999999", StatusCode::kInvalidArgument},
      {"@limit=5@ttl=3", StatusCode::kInvalidArgument},
      {"@insert@ttl=", StatusCode::kInvalidArgument},
      {"@insert@ttl=x", StatusCode::kInvalidArgument},
      {"@insert@ttl=-1", StatusCode::kInvalidArgument},
      {"@insert@ttl=630720001", StatusCode::kInvalidArgument},
      {"@insert@ttl=1@ttl=1", StatusCode::kInvalidArgument},
      {"@insert@timestamp=1@ttl=1@timestamp=2", StatusCode::kInvalidArgument},
      {"@insert@timestamp=-9223372036854775808", StatusCode::kInvalidArgument},
      {"@json@ttl=5", StatusCode::kInvalidArgument},
      {"@csv@timestamp=5", StatusCode::kInvalidArgument},
      {"@cql@ttl=5", StatusCode::kInvalidArgument},
      {"@reverse@ttl=5", StatusCode::kInvalidArgument},
      {"@schema@ttl=5@timestamp=1", StatusCode::kInvalidArgument},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    VirtualName got;
    Status status = ParseVirtualName(c.name, &got);
    CHECK(status.code() == c.code);
    CHECK_FALSE(status.message().empty());
  }
}

TEST_CASE("only names that begin with '@' are virtual", "[virtual_name]") {
  CHECK(IsVirtualName("@"));
  CHECK(IsVirtualName("@json"));
  CHECK(IsVirtualName("@anything"));
  CHECK_FALSE(IsVirtualName(""));
  CHECK_FALSE(IsVirtualName("json"));
  CHECK_FALSE(IsVirtualName("a@json"));
  CHECK_FALSE(IsVirtualName("%40json"));
  CHECK_FALSE(IsVirtualName(" @json"));
}

TEST_CASE("write suffixes split off the trailing run only, '@' elsewhere is data",
          "[virtual_name]") {
  struct Case {
    std::string name;
    std::string base;
    WriteAttributes want;
  };
  const std::nullopt_t none = std::nullopt;
  const std::vector<Case> cases = {
      {"col", "col", {}},
      {"col@ttl=60", "col", Suffixes(60, none)},
      {"col@timestamp=1700000000000000", "col", Suffixes(none, 1700000000000000)},
      {"col@ttl=60@timestamp=5", "col", Suffixes(60, 5)},
      {"col@timestamp=5@ttl=60", "col", Suffixes(60, 5)},
      {"CK@ttl=60", "CK", Suffixes(60, none)},
      {"MPLS2,20180723@ttl=0", "MPLS2,20180723", Suffixes(0, none)},
      {"a@b", "a@b", {}},
      {"a@b@ttl=5", "a@b", Suffixes(5, none)},
      {"a@ttl=5@b", "a@ttl=5@b", {}},
      {"a@ttl=x@b", "a@ttl=x@b", {}},
      {"a@", "a@", {}},
      {"a@@ttl=5", "a@", Suffixes(5, none)},
      {"a@ttl", "a@ttl", {}},
      {"a@ttl@ttl=5", "a@ttl", Suffixes(5, none)},
      {"a@timestamp", "a@timestamp", {}},
      {"a@TTL=5", "a@TTL=5", {}},
      {"a@ttl =5", "a@ttl =5", {}},
      {"a@ttls=5", "a@ttls=5", {}},
      {"a@ttl=5x@b", "a@ttl=5x@b", {}},
      {"%40ttl=5", "%40ttl=5", {}},
      {"a%40ttl=5", "a%40ttl=5", {}},
      {"a,b@c@timestamp=-1", "a,b@c", Suffixes(none, -1)},
      // An '@' at position 0 never starts a suffix: the base is never empty.
      {"@ttl=5", "@ttl=5", {}},
      {"@timestamp=5", "@timestamp=5", {}},
      {"@x@ttl=5", "@x", Suffixes(5, none)},
      {"", "", {}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    std::string_view base;
    WriteAttributes got;
    Status status = SplitWriteSuffixes(c.name, &base, &got);
    REQUIRE(status.ok());
    CHECK(base == c.base);
    CHECK(got == c.want);
  }
}

TEST_CASE("a segment shaped like a suffix with a bad value or repeated is InvalidArgument",
          "[virtual_name]") {
  const std::vector<std::string> names = {
      "a@ttl=x",
      "a@ttl=",
      "a@ttl=-1",
      "a@ttl=+5",
      "a@ttl= 5",
      "a@ttl=5 ",
      "a@ttl=05",
      "a@ttl=00",
      "a@ttl=630720001",
      "a@ttl=4294967296",
      "a@ttl=99999999999999999999999999",
      "a@ttl=5.0",
      "a@timestamp=",
      "a@timestamp=x",
      "a@timestamp=+5",
      "a@timestamp=-",
      "a@timestamp=--5",
      "a@timestamp=-0",
      "a@timestamp=01",
      "a@timestamp=-01",
      "a@timestamp=9223372036854775808",
      "a@timestamp=-9223372036854775808",
      "a@timestamp=-9223372036854775809",
      "a@timestamp=99999999999999999999999999999",
      "a@ttl=1@ttl=1",
      "a@ttl=1@ttl=2",
      "a@timestamp=1@timestamp=1",
      "a@ttl=1@timestamp=2@ttl=3",
      "a@ttl=x@timestamp=5",
      "a@b@ttl=5@timestamp=x",
  };
  for (const std::string& name : names) {
    INFO(name);
    std::string_view base;
    WriteAttributes got;
    Status status = SplitWriteSuffixes(name, &base, &got);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK(status.message().find(name) != std::string::npos);  // names the culprit
  }
}

TEST_CASE("TTL and timestamp values are held to their ranges", "[virtual_name]") {
  int64_t value = -1;
  SECTION("TTL: 0..630720000") {
    CHECK(ParseTtlText("0", &value).ok());
    CHECK(value == 0);
    CHECK(ParseTtlText("630720000", &value).ok());
    CHECK(value == 630720000);
    CHECK(ParseTtlText("630720001", &value).code() == StatusCode::kInvalidArgument);
    CHECK(ParseTtlText("-1", &value).code() == StatusCode::kInvalidArgument);
    CHECK(ParseTtlText("18446744073709551616", &value).code() == StatusCode::kInvalidArgument);
  }
  SECTION("timestamp: any int64 but INT64_MIN") {
    CHECK(ParseTimestampText("9223372036854775807", &value).ok());
    CHECK(value == kInt64Max);
    CHECK(ParseTimestampText("-9223372036854775807", &value).ok());
    CHECK(value == -kInt64Max);
    CHECK(ParseTimestampText("0", &value).ok());
    CHECK(value == 0);
    CHECK(ParseTimestampText("-1", &value).ok());
    CHECK(value == -1);
    CHECK(ParseTimestampText(std::to_string(kInt64Min), &value).code() ==
          StatusCode::kInvalidArgument);
  }
  SECTION("a value with an embedded NUL is refused") {
    CHECK(ParseTtlText(std::string_view("6\0", 2), &value).code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("formatting suffixes gives the canonical name back", "[virtual_name]") {
  CHECK(FormatWriteSuffixes({}) == "");
  CHECK(FormatWriteSuffixes(Suffixes(60, std::nullopt)) == "@ttl=60");
  CHECK(FormatWriteSuffixes(Suffixes(std::nullopt, -5)) == "@timestamp=-5");
  CHECK(FormatWriteSuffixes(Suffixes(0, kInt64Max)) == "@ttl=0@timestamp=9223372036854775807");
}

// A slice bound in a query is an @by slice (@by/age/@ge=30/), which the
// node resolver allows only right after @by/<column> (issue 16).
TEST_CASE("each virtual name exists only at the levels of the tree DESIGN.md gives it",
          "[virtual_name]") {
  const std::vector<std::pair<Kind, std::string>> want = {
      {Kind::kCql, "M......"},        {Kind::kSchema, ".KT...."}, {Kind::kInsert, "..T...."},
      {Kind::kJson, "..TPSRQ"},       {Kind::kCsv, "..TPS.Q"},    {Kind::kStats, "..T...."},
      {Kind::kSliceBound, "...PS.Q"}, {Kind::kLimit, "..TPS.Q"},  {Kind::kReverse, "...PS.."},
      {Kind::kErrors, "M......"},     {Kind::kCount, "..TPS.Q"},  {Kind::kWhere, "..TPS.Q"},
      {Kind::kColumns, "..TPS.Q"},    {Kind::kStatus, "M......"},
  };
  const std::vector<std::pair<TreeLevel, char>> levels = {
      {TreeLevel::kMountRoot, 'M'}, {TreeLevel::kKeyspace, 'K'}, {TreeLevel::kTable, 'T'},
      {TreeLevel::kPartition, 'P'}, {TreeLevel::kSlice, 'S'},    {TreeLevel::kRow, 'R'},
      {TreeLevel::kQuery, 'Q'},
  };
  for (const auto& [kind, expected] : want) {
    std::string got;
    for (const auto& [level, letter] : levels) got += IsAllowedIn(kind, level) ? letter : '.';
    INFO("kind " << static_cast<int>(kind));
    CHECK(got == expected);
  }
}

// Names built from the pieces that matter to the grammar, so that random
// draws often come close to valid names and their edges: free pieces, then
// often a run of suffix-shaped segments with number-like values.
std::string RandomName(std::mt19937_64& rng) {
  static const std::vector<std::string> pieces = {
      "@",      "@",     "@",       "ttl=",   "timestamp=", "ge=", "gt=",
      "le=",    "lt=",   "limit=",  "insert", "json",       "csv", "cql",
      "schema", "stats", "reverse", "0",      "1",          "60",  "-",
      "+",      " ",     "a",       ",",      "%40",        "=",   std::string(1, '\0'),
      "\xff",
  };
  static const std::vector<std::string> values = {
      "0",
      "1",
      "5",
      "60",
      "-1",
      "-0",
      "+5",
      "05",
      "",
      "x",
      " 1",
      "630720000",
      "630720001",
      "9223372036854775807",
      "-9223372036854775807",
      "-9223372036854775808",
      "9223372036854775808",
      "18446744073709551615",
      "18446744073709551616",
  };
  std::uniform_int_distribution<size_t> count(0, 6);
  std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<size_t> pick_value(0, values.size() - 1);
  std::bernoulli_distribution coin(0.5);
  std::string name;
  for (size_t n = count(rng); n > 0; --n) name += pieces[pick(rng)];
  if (coin(rng)) {
    for (size_t n = count(rng) / 2; n > 0; --n) {
      name += coin(rng) ? "@ttl=" : "@timestamp=";
      name += values[pick_value(rng)];
    }
  }
  return name;
}

TEST_CASE("random names never crash, and whatever is accepted formats back to the name",
          "[virtual_name][property]") {
  std::mt19937_64 rng(20240607);
  int accepted_virtual = 0;
  int split_with_suffixes = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string name = RandomName(rng);
    INFO(name);

    VirtualName parsed;
    Status status = ParseVirtualName(name, &parsed);
    if (status.ok()) {
      ++accepted_virtual;
      CHECK(IsVirtualName(name));
      std::string formatted = FormatName(parsed);
      if (formatted != name) {
        // Only @insert's two suffixes may come in the other order.
        REQUIRE(parsed.kind == Kind::kInsert);
        CHECK("@insert" + TimestampFirst(parsed.write) == name);
      }
    } else {
      CHECK((status.code() == StatusCode::kNotFound ||
             status.code() == StatusCode::kInvalidArgument));
      if (!IsVirtualName(name)) CHECK(status.code() == StatusCode::kNotFound);
    }

    std::string_view base;
    WriteAttributes suffixes;
    status = SplitWriteSuffixes(name, &base, &suffixes);
    if (!status.ok()) {
      CHECK(status.code() == StatusCode::kInvalidArgument);
      continue;
    }
    if (!suffixes.empty()) ++split_with_suffixes;
    CHECK((name.empty() || !base.empty()));
    REQUIRE(name.starts_with(base));
    std::string_view tail = std::string_view(name).substr(base.size());
    CHECK((tail == FormatWriteSuffixes(suffixes) || tail == TimestampFirst(suffixes)));
    // The base is a fixed point: nothing more splits off it.
    std::string_view base_again;
    WriteAttributes none;
    REQUIRE(SplitWriteSuffixes(base, &base_again, &none).ok());
    CHECK(base_again == base);
    CHECK(none.empty());
  }
  // The generator must reach the interesting cases, or this test proves little.
  INFO(accepted_virtual << " virtual names, " << split_with_suffixes << " with suffixes");
  CHECK(accepted_virtual > 1000);
  CHECK(split_with_suffixes > 1000);
}

TEST_CASE("any in-range suffixes appended to any base split back off it",
          "[virtual_name][property]") {
  std::mt19937_64 rng(4242);
  std::uniform_int_distribution<int64_t> ttl(0, int64_t{kMaxTtlSeconds});
  std::uniform_int_distribution<int64_t> timestamp(kInt64Min + 1, kInt64Max);
  std::bernoulli_distribution present(0.7);
  const std::vector<int64_t> ttl_edges = {0, 1, int64_t{kMaxTtlSeconds}};
  const std::vector<int64_t> timestamp_edges = {kInt64Min + 1, -1, 0, 1, kInt64Max};
  std::uniform_int_distribution<size_t> edge(0, 9);
  int checked = 0;
  for (int i = 0; i < 50000; ++i) {
    std::string base = RandomName(rng);
    std::string_view whole;
    WriteAttributes own;
    if (base.empty() || !SplitWriteSuffixes(base, &whole, &own).ok() || !own.empty()) continue;
    WriteAttributes suffixes;
    if (present(rng)) {
      size_t e = edge(rng);
      suffixes.ttl = e < ttl_edges.size() ? ttl_edges[e] : ttl(rng);
    }
    if (present(rng)) {
      size_t e = edge(rng);
      suffixes.timestamp = e < timestamp_edges.size() ? timestamp_edges[e] : timestamp(rng);
    }
    for (const std::string& tail : {FormatWriteSuffixes(suffixes), TimestampFirst(suffixes)}) {
      std::string name = base + tail;
      INFO(name);
      std::string_view got_base;
      WriteAttributes got;
      REQUIRE(SplitWriteSuffixes(name, &got_base, &got).ok());
      CHECK(got_base == base);
      CHECK(got == suffixes);
      ++checked;
    }
  }
  CHECK(checked > 10000);
}

TEST_CASE("every integer string parses as a TTL or timestamp exactly when in range",
          "[virtual_name][property]") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    uint64_t bits = rng();
    // Mix small and huge magnitudes.
    uint64_t n = (i % 2 == 0) ? bits % 1'000'000'000 : bits;
    int64_t value = -1;
    Status ttl_status = ParseTtlText(std::to_string(n), &value);
    CHECK(ttl_status.ok() == (n <= kMaxTtlSeconds));
    if (ttl_status.ok()) CHECK(value == static_cast<int64_t>(n));

    int64_t signed_n = static_cast<int64_t>(bits);
    Status ts_status = ParseTimestampText(std::to_string(signed_n), &value);
    CHECK(ts_status.ok() == (signed_n != kInt64Min));
    if (ts_status.ok()) CHECK(value == signed_n);

    // A leading zero or '+' makes any of them non-canonical.
    CHECK_FALSE(ParseTtlText("0" + std::to_string(n), &value).ok());
    CHECK_FALSE(ParseTimestampText("+" + std::to_string(n), &value).ok());
  }
}

}  // namespace
}  // namespace cellfs::fs
