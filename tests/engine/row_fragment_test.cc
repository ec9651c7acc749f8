// Row fragments: marker and deletion reconciliation, merging with
// shadowing, liveness, purging with a manual clock, and the byte format
// (golden bytes, round trips, rejection of malformed and random input).
#include "engine/store/row_fragment.h"

#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tests/engine/random_row_fragment.h"

namespace cellfs {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kSecond = 1'000'000;

std::string Encoded(const RowFragment& fragment) {
  std::string out;
  EncodeRowFragment(fragment, &out);
  return out;
}

RowFragment Decoded(std::string_view bytes) {
  RowFragment fragment;
  const Status status = DecodeRowFragment(bytes, &fragment);
  INFO(status.ToString());
  REQUIRE(status.ok());
  return fragment;
}

// The Corruption message for `bytes`; fails the test if it decodes.
std::string DecodeError(std::string_view bytes) {
  RowFragment fragment;
  const Status status = DecodeRowFragment(bytes, &fragment);
  REQUIRE_FALSE(status.ok());
  CHECK(status.code() == StatusCode::kCorruption);
  return status.message();
}

RowFragment Cells(std::vector<RowCell> cells) {
  RowFragment fragment;
  fragment.cells = std::move(cells);
  return fragment;
}

// ---- Markers and deletions.

TEST_CASE("row markers reconcile like cells", "[row_fragment]") {
  const struct {
    const char* rule;
    RowMarker winner;
    RowMarker loser;
  } cases[] = {
      {"newer write time", {2, 0, 0}, {1, 99, 5}},
      {"expiring beats non-expiring on a tie", {2, 1, 1}, {2, 0, 0}},
      {"later expiry", {2, 20, 1}, {2, 10, 1}},
      {"greater ttl", {2, 20, 2}, {2, 20, 1}},
  };
  for (const auto& c : cases) {
    INFO(c.rule);
    CHECK(ReconcileMarkers(c.winner, c.loser) == c.winner);
    CHECK(ReconcileMarkers(c.loser, c.winner) == c.winner);
  }
}

TEST_CASE("the newer row deletion wins, then the later deletion time", "[row_fragment]") {
  CHECK(ReconcileDeletions({5, 1}, {4, 9}) == RowDeletion{5, 1});
  CHECK(ReconcileDeletions({4, 9}, {5, 1}) == RowDeletion{5, 1});
  CHECK(ReconcileDeletions({5, 1}, {5, 2}) == RowDeletion{5, 2});
}

TEST_CASE("a deletion shadows writes at or before its write time", "[row_fragment]") {
  CHECK(Shadows({10, 0}, 9));
  CHECK(Shadows({10, 0}, 10));
  CHECK_FALSE(Shadows({10, 0}, 11));
}

// ---- Normalising and merging.

TEST_CASE("normalising sorts cells, reconciles duplicates and applies the deletion",
          "[row_fragment]") {
  RowFragment f = Cells({{5, Cell::Live(3, "e")},
                         {1, Cell::Live(3, "a")},
                         {5, Cell::Live(4, "newer")},
                         {2, Cell::Live(2, "shadowed")},
                         {1, Cell::Tombstone(3, 0)}});
  f.marker = RowMarker{2, 0, 0};
  f.deletion = RowDeletion{2, 7};
  NormalizeRowFragment(&f);
  CHECK_FALSE(f.marker.has_value());
  REQUIRE(f.cells.size() == 2);
  CHECK(f.cells[0] == RowCell{1, Cell::Tombstone(3, 0)});
  CHECK(f.cells[1] == RowCell{5, Cell::Live(4, "newer")});
}

TEST_CASE("merging reconciles cells per column and keeps columns of either side",
          "[row_fragment]") {
  const RowFragment a = Cells({{1, Cell::Live(1, "a1")}, {3, Cell::Live(5, "a3")}});
  const RowFragment b =
      Cells({{2, Cell::Live(1, "b2")}, {3, Cell::Live(6, "b3")}, {9, Cell::Tombstone(1, 0)}});
  const RowFragment m = MergeRowFragments(a, b);
  CHECK(m == Cells({{1, Cell::Live(1, "a1")},
                    {2, Cell::Live(1, "b2")},
                    {3, Cell::Live(6, "b3")},
                    {9, Cell::Tombstone(1, 0)}}));
  CHECK(MergeRowFragments(b, a) == m);
}

TEST_CASE("merging reconciles markers and keeps the newer deletion", "[row_fragment]") {
  RowFragment a;
  a.marker = RowMarker{10, 0, 0};
  a.deletion = RowDeletion{3, 1};
  RowFragment b;
  b.marker = RowMarker{10, 50, 60};
  b.deletion = RowDeletion{4, 2};
  const RowFragment m = MergeRowFragments(a, b);
  CHECK(m.marker == RowMarker{10, 50, 60});
  CHECK(m.deletion == RowDeletion{4, 2});
}

TEST_CASE("a row deletion shadows older and equal writes from other fragments", "[row_fragment]") {
  RowFragment write;  // INSERT ... USING TIMESTAMP 100
  write.marker = RowMarker{100, 0, 0};
  write.cells = {{1, Cell::Live(100, "old")}, {2, Cell::Live(300, "new")}};
  RowFragment deletion;  // DELETE ... USING TIMESTAMP 200
  deletion.deletion = RowDeletion{200, 5};

  const RowFragment m = MergeRowFragments(write, deletion);
  CHECK_FALSE(m.marker.has_value());
  CHECK(m.cells == std::vector<RowCell>{{2, Cell::Live(300, "new")}});
  CHECK(m.deletion == RowDeletion{200, 5});

  SECTION("a replay with an older timestamp stays shadowed") {
    const RowFragment replay = Cells({{1, Cell::Live(150, "replayed")}});
    CHECK(MergeRowFragments(m, replay) == m);
    CHECK(MergeRowFragments(replay, m) == m);
  }
  SECTION("a write at exactly the deletion's time is shadowed") {
    CHECK(MergeRowFragments(m, Cells({{1, Cell::Live(200, "tie")}})) == m);
  }
  SECTION("a newer write survives") {
    const RowFragment later = MergeRowFragments(m, Cells({{1, Cell::Live(201, "later")}}));
    CHECK(later.cells.front() == RowCell{1, Cell::Live(201, "later")});
  }
  SECTION("cell tombstones are shadowed too") {
    CHECK(MergeRowFragments(m, Cells({{3, Cell::Tombstone(199, 0)}})) == m);
  }
}

TEST_CASE("counters from several fragments add up", "[row_fragment][counter]") {
  const RowFragment a = Cells({{1, Cell::Counter(1, 5)}});
  const RowFragment b = Cells({{1, Cell::Counter(2, -2)}, {2, Cell::Counter(2, 1)}});
  const RowFragment c = Cells({{1, Cell::Counter(3, 10)}});
  const RowFragment m = MergeRowFragments(MergeRowFragments(a, b), c);
  CHECK(m == Cells({{1, Cell::Counter(3, 13)}, {2, Cell::Counter(2, 1)}}));
}

TEST_CASE("merging is commutative and associative on encoded results", "[row_fragment]") {
  testing::RandomFragments random(1234);
  for (int i = 0; i < 5'000; ++i) {
    const RowFragment a = random.Fragment();
    const RowFragment b = random.Fragment();
    const RowFragment c = random.Fragment();
    const std::string ab = Encoded(MergeRowFragments(a, b));
    CHECK(ab == Encoded(MergeRowFragments(b, a)));
    CHECK(Encoded(MergeRowFragments(MergeRowFragments(a, b), c)) ==
          Encoded(MergeRowFragments(a, MergeRowFragments(b, c))));
    CHECK(Encoded(MergeRowFragments(a, a)) == Encoded(a));
  }
}

TEST_CASE("merging counter fragments is commutative and associative", "[row_fragment][counter]") {
  testing::RandomFragments random(4321);
  for (int i = 0; i < 5'000; ++i) {
    const RowFragment a = random.Fragment(/*counters=*/true, /*deletions=*/false);
    const RowFragment b = random.Fragment(true, false);
    const RowFragment c = random.Fragment(true, false);
    CHECK(Encoded(MergeRowFragments(a, b)) == Encoded(MergeRowFragments(b, a)));
    CHECK(Encoded(MergeRowFragments(MergeRowFragments(a, b), c)) ==
          Encoded(MergeRowFragments(a, MergeRowFragments(b, c))));
  }
}

TEST_CASE("merging equals normalising the concatenation of the fragments", "[row_fragment]") {
  testing::RandomFragments random(555);
  for (int i = 0; i < 3'000; ++i) {
    const RowFragment a = random.Fragment();
    const RowFragment b = random.Fragment();
    RowFragment all = a;
    all.cells.insert(all.cells.end(), b.cells.begin(), b.cells.end());
    if (b.marker) all.marker = all.marker ? ReconcileMarkers(*all.marker, *b.marker) : b.marker;
    if (b.deletion) {
      all.deletion = all.deletion ? ReconcileDeletions(*all.deletion, *b.deletion) : b.deletion;
    }
    NormalizeRowFragment(&all);
    CHECK(MergeRowFragments(a, b) == all);
  }
}

TEST_CASE("merged cells stay strictly increasing by column id", "[row_fragment]") {
  testing::RandomFragments random(77);
  for (int i = 0; i < 2'000; ++i) {
    const RowFragment m = MergeRowFragments(random.Fragment(), random.Fragment());
    for (size_t j = 1; j < m.cells.size(); ++j) {
      CHECK(m.cells[j - 1].column_id < m.cells[j].column_id);
    }
  }
}

TEST_CASE("encoded fragments merge like decoded ones", "[row_fragment]") {
  testing::RandomFragments random(888);
  for (int i = 0; i < 1'000; ++i) {
    const RowFragment a = random.Fragment();
    const RowFragment b = random.Fragment();
    const RowFragment c = random.Fragment();
    const std::array<std::string, 3> bytes = {Encoded(a), Encoded(b), Encoded(c)};
    const std::array<std::string_view, 3> views = {bytes[0], bytes[1], bytes[2]};
    RowFragment merged;
    REQUIRE(MergeEncodedRowFragments(views, &merged).ok());
    CHECK(merged == MergeRowFragments(MergeRowFragments(a, b), c));
  }
}

TEST_CASE("merging encoded fragments names the corrupt fragment", "[row_fragment]") {
  const std::string good = Encoded(Cells({{1, Cell::Live(1, "x")}}));
  const std::array<std::string_view, 2> views = {good, std::string_view("\xff", 1)};
  RowFragment merged;
  const Status status = MergeEncodedRowFragments(views, &merged);
  CHECK(status.code() == StatusCode::kCorruption);
  CHECK(status.message() == "fragment 1: row fragment: bad header flags 255");
}

// ---- Liveness.

TEST_CASE("a row is live with a live marker or a live cell", "[row_fragment]") {
  const int64_t now = 50 * kSecond;
  RowFragment f;
  CHECK_FALSE(IsRowLive(f, now));
  SECTION("a marker without TTL") {
    f.marker = RowMarker{1, 0, 0};
    CHECK(IsRowLive(f, now));
  }
  SECTION("an expiring marker, before and at its expiry") {
    f.marker = RowMarker{1, 60, 60};
    CHECK(IsRowLive(f, 60 * kSecond - 1));
    CHECK_FALSE(IsRowLive(f, 60 * kSecond));
  }
  SECTION("only tombstones") {
    f.cells = {{1, Cell::Tombstone(1, 0)}};
    CHECK_FALSE(IsRowLive(f, now));
  }
  SECTION("a live cell without a marker (an UPDATE)") {
    f.cells = {{1, Cell::Tombstone(1, 0)}, {2, Cell::Live(1, "v")}};
    CHECK(IsRowLive(f, now));
  }
  SECTION("an expired cell") {
    f.cells = {{1, Cell::Expiring(1, "v", 10, 40)}};
    CHECK_FALSE(IsRowLive(f, now));
  }
  SECTION("writes the fragment's own deletion shadows") {
    f.marker = RowMarker{1, 0, 0};
    f.cells = {{1, Cell::Live(2, "v")}};
    f.deletion = RowDeletion{2, 0};
    CHECK_FALSE(IsRowLive(f, now));
  }
}

// ---- Purging with a manual clock.

TEST_CASE("purging turns expired cells into tombstones dated at their expiry",
          "[row_fragment][purge]") {
  RowFragment f = Cells({{1, Cell::Expiring(1, "v", 10, 100)}, {2, Cell::Live(1, "keep")}});
  SECTION("before expiry nothing changes") {
    const RowFragment before = f;
    CHECK(PurgeRowFragment(&f, 100 * kSecond - 1, 3600));
    CHECK(f == before);
  }
  SECTION("at expiry the cell becomes a tombstone") {
    CHECK(PurgeRowFragment(&f, 100 * kSecond, 3600));
    CHECK(f.cells[0] == RowCell{1, Cell::Tombstone(1, 100)});
    CHECK(f.cells[1] == RowCell{2, Cell::Live(1, "keep")});
  }
  SECTION("gc_grace after expiry it is gone") {
    CHECK(PurgeRowFragment(&f, (100 + 3600) * kSecond, 3600));
    CHECK(f == Cells({{2, Cell::Live(1, "keep")}}));
  }
  SECTION("with gc_grace 0 it goes at once") {
    CHECK(PurgeRowFragment(&f, 100 * kSecond, 0));
    CHECK(f.cells.size() == 1);
  }
}

TEST_CASE("purging drops tombstones once deletion time + gc_grace <= now",
          "[row_fragment][purge]") {
  RowFragment f = Cells({{1, Cell::Tombstone(1, 100)}});
  SECTION("one second early they stay") {
    CHECK(PurgeRowFragment(&f, (100 + 10) * kSecond - 1, 10));
    CHECK(f.cells.size() == 1);
  }
  SECTION("exactly at the boundary they go, and nothing is left") {
    CHECK_FALSE(PurgeRowFragment(&f, (100 + 10) * kSecond, 10));
    CHECK(f.empty());
  }
}

TEST_CASE("purging drops the row deletion after gc_grace, and what it shadows at once",
          "[row_fragment][purge]") {
  RowFragment f;
  f.marker = RowMarker{5, 0, 0};
  f.deletion = RowDeletion{10, 100};
  f.cells = {{1, Cell::Live(9, "shadowed")}, {2, Cell::Live(11, "kept")}};
  CHECK(PurgeRowFragment(&f, 100 * kSecond, 10));
  CHECK(f.deletion == RowDeletion{10, 100});
  CHECK_FALSE(f.marker.has_value());
  CHECK(f.cells == std::vector<RowCell>{{2, Cell::Live(11, "kept")}});
  CHECK(PurgeRowFragment(&f, 110 * kSecond, 10));
  CHECK_FALSE(f.deletion.has_value());
  CHECK(f.cells.size() == 1);
}

TEST_CASE("purging keeps an expired marker until gc_grace has passed", "[row_fragment][purge]") {
  RowFragment f;
  f.marker = RowMarker{5, 100, 60};
  CHECK(PurgeRowFragment(&f, 100 * kSecond, 10));
  CHECK(f.marker.has_value());
  CHECK_FALSE(PurgeRowFragment(&f, 110 * kSecond, 10));
  CHECK(f.empty());
}

TEST_CASE("purging never drops live cells, live markers or counters", "[row_fragment][purge]") {
  RowFragment f = Cells(
      {{1, Cell::Live(1, "v")}, {2, Cell::Counter(1, 3)}, {3, Cell::Expiring(1, "e", 10, kMax)}});
  f.marker = RowMarker{1, 0, 0};
  const RowFragment before = f;
  CHECK(PurgeRowFragment(&f, kMax, 0));
  CHECK(f == before);
}

TEST_CASE("purging with extreme times does not overflow", "[row_fragment][purge]") {
  RowFragment f = Cells({{1, Cell::Tombstone(1, kMax)}, {2, Cell::Tombstone(1, kMin)}});
  f.deletion = RowDeletion{0, kMin};
  CHECK(PurgeRowFragment(&f, kMin, UINT32_MAX));
  CHECK(f.cells == std::vector<RowCell>{{1, Cell::Tombstone(1, kMax)}});
  CHECK_FALSE(f.deletion.has_value());
}

// ---- The byte format.

TEST_CASE("the byte format matches docs/FORMAT.md", "[row_fragment][format]") {
  SECTION("an empty fragment is header, base and count") {
    CHECK(Encoded(RowFragment()) == std::string("\x00\x00\x00", 3));
  }
  SECTION("a marker and one live cell") {
    RowFragment f = Cells({{3, Cell::Live(5, "ab")}});
    f.marker = RowMarker{5, 0, 0};
    CHECK(Encoded(f) == std::string("\x01\x0a\x00\x01\x00\x03\x00\x02"
                                    "ab",
                                    10));
  }
  SECTION("a row deletion alone") {
    RowFragment f;
    f.deletion = RowDeletion{5, 0};
    CHECK(Encoded(f) == std::string("\x04\x0a\x00\x00\x00", 5));
  }
  SECTION("an expiring marker stores ttl and expiry relative to write time + ttl") {
    RowFragment f;
    f.marker = RowMarker{2 * kSecond, 63, 60};
    // base 2e6 zig-zagged is 4e6 = 80 92 F4 01; expiry 63 - (2 + 60) = 1 -> 02.
    CHECK(Encoded(f) == std::string("\x03\x80\x92\xf4\x01\x00\x3c\x02\x00", 9));
  }
  SECTION("expiring, tombstone and counter cells") {
    const RowFragment f = Cells({{1, Cell::Expiring(2 * kSecond, "x", 60, 62)},
                                 {2, Cell::Tombstone(3 * kSecond, 3)},
                                 {4, Cell::Counter(2 * kSecond, -3)}});
    const std::string expected(
        "\x00\x80\x92\xf4\x01\x03"   // header, base, count
        "\x04\x01\x00\x3c\x00\x01x"  // expiring: ttl 60, expiry as predicted
        "\x01\x02\x80\x89\x7a\x00"   // tombstone 1 s after base, at its second
        "\x02\x04\x00\x05",          // counter -3
        23);
    CHECK(Encoded(f) == expected);
  }
}

TEST_CASE("a bulk-loaded row costs a few bytes a cell beyond its values",
          "[row_fragment][format]") {
  RowFragment f;
  const int64_t now = 1'700'000'000 * kSecond + 123'456;
  f.marker = RowMarker{now, 0, 0};
  for (uint32_t id = 0; id < 10; ++id) f.cells.push_back({id, Cell::Live(now, "12345678")});
  // 1 header + 8 base + 1 marker + 1 count + 10 * (4 overhead + 8 value).
  CHECK(Encoded(f).size() == 131);
  SECTION("with a TTL, three more bytes a cell: ttl 2, expiry 1") {
    for (RowCell& c : f.cells) c.cell = Cell::Expiring(now, "12345678", 3600, 1'700'003'600);
    CHECK(Encoded(f).size() == 161);
  }
}

TEST_CASE("encoding appends to what the output holds", "[row_fragment][format]") {
  std::string out = "prefix";
  EncodeRowFragment(RowFragment(), &out);
  CHECK(out == std::string("prefix\x00\x00\x00", 9));
}

TEST_CASE("fragments round-trip through the byte format", "[row_fragment][format]") {
  SECTION("extreme values") {
    RowFragment f = Cells({{0, Cell::Live(kMin, "")},
                           {1, Cell::Expiring(kMax, std::string(300, '\0'), kMaxTtlSeconds, kMin)},
                           {2, Cell::Tombstone(kMax, kMax)},
                           {3, Cell::Counter(kMin, kMin)},
                           {UINT32_MAX, Cell::Counter(kMax, kMax)}});
    f.marker = RowMarker{kMax, kMax, 1};
    f.deletion = RowDeletion{kMin, kMin};
    CHECK(Decoded(Encoded(f)) == f);
  }
  SECTION("random fragments, counters included") {
    testing::RandomFragments random(31337);
    for (int i = 0; i < 5'000; ++i) {
      const RowFragment f = random.Fragment(/*counters=*/i % 2 == 0);
      CHECK(Decoded(Encoded(f)) == f);
    }
  }
  SECTION("decoding replaces the output's previous contents") {
    RowFragment f = Cells({{7, Cell::Live(1, "old")}});
    f.marker = RowMarker{1, 0, 0};
    REQUIRE(DecodeRowFragment(Encoded(RowFragment()), &f).ok());
    CHECK(f.empty());
  }
}

TEST_CASE("decoding rejects malformed fragments with Corruption", "[row_fragment][format]") {
  using std::string_literals::operator""s;
  const struct {
    const char* name;
    std::string bytes;
    const char* message;
  } cases[] = {
      {"empty input", "", "row fragment: truncated header at byte 0 of 0"},
      {"unknown header bits", "\x08\x00\x00"s, "row fragment: bad header flags 8"},
      {"expiring flag without a marker", "\x02\x00\x00"s, "row fragment: bad header flags 2"},
      {"truncated base", "\x00\x80"s,
       "row fragment: truncated or overlong base write time at byte 1 of 2"},
      {"missing cell count", "\x00\x00"s,
       "row fragment: truncated or overlong cell count at byte 2 of 2"},
      {"missing marker", "\x01\x00"s,
       "row fragment: truncated or overlong marker write time at byte 2 of 2"},
      {"marker ttl 0", "\x03\x00\x00\x00\x00\x00"s,
       "row fragment: ttl 0 outside 1..630720000 at byte 4 of 6"},
      {"missing deletion time", "\x04\x00\x00"s,
       "row fragment: truncated or overlong deletion time at byte 3 of 3"},
      {"cell count past the end", "\x00\x00\x02\x00\x01\x00\x00"s,
       "row fragment: cell count 2 past the end at byte 3 of 7"},
      {"cell kind 3", "\x00\x00\x01\x03\x01\x00\x00"s,
       "row fragment: bad cell flags 3 at byte 4 of 7"},
      {"expiring tombstone", "\x00\x00\x01\x05\x01\x00\x00"s,
       "row fragment: bad cell flags 5 at byte 4 of 7"},
      {"unknown cell bits", "\x00\x00\x01\x80\x01\x00\x00"s,
       "row fragment: bad cell flags 128 at byte 4 of 7"},
      {"column id over 32 bits", "\x00\x00\x01\x00\x80\x80\x80\x80\x10\x00\x00"s,
       "row fragment: column id 4294967296 exceeds 32 bits at byte 9 of 11"},
      {"equal column ids", "\x00\x00\x02\x00\x01\x00\x00\x00\x01\x00\x00"s,
       "row fragment: column id 1 not after 1 at byte 9 of 11"},
      {"decreasing column ids", "\x00\x00\x02\x00\x02\x00\x00\x00\x01\x00\x00"s,
       "row fragment: column id 1 not after 2 at byte 9 of 11"},
      {"ttl over the maximum", "\x00\x00\x01\x04\x01\x00\x81\x8c\xe0\xac\x02\x00\x00"s,
       "row fragment: ttl 630720001 outside 1..630720000 at byte 11 of 13"},
      {"value length past the end",
       "\x00\x00\x01\x00\x01\x00\x05"
       "abcd"s,
       "row fragment: value length 5 past the end at byte 7 of 11"},
      {"huge value length", "\x00\x00\x01\x00\x01\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"s,
       "row fragment: value length 18446744073709551615 past the end at byte 16 of 16"},
      {"trailing bytes", "\x00\x00\x00zz"s, "row fragment: 2 trailing bytes at byte 3 of 5"},
      {"truncated counter", "\x00\x00\x01\x02\x01\x00\x80"s,
       "row fragment: truncated or overlong counter delta at byte 6 of 7"},
      {"counter element cell", "\x00\x00\x01\x0a\x01\x01\x61\x00\x02"s,
       "row fragment: bad cell flags 10 at byte 4 of 9"},
      {"empty element path", "\x00\x00\x01\x08\x01\x00\x00\x00"s,
       "row fragment: empty element path at byte 6 of 8"},
      {"element path past the end", "\x00\x00\x01\x08\x01\x05\x61\x62"s,
       "row fragment: value length 5 past the end at byte 6 of 8"},
      {"element paths out of order",
       "\x00\x00\x02\x08\x01\x01\x62\x00\x00\x08\x01\x01\x61\x00\x00"s,
       "row fragment: element path of column 1 not after the previous at byte 13 of 15"},
      {"an element before its column's head",
       "\x00\x00\x02\x08\x01\x01\x61\x00\x00\x00\x01\x00\x00"s,
       "row fragment: column id 1 not after 1 at byte 11 of 13"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK(DecodeError(c.bytes) == c.message);
  }
}

TEST_CASE("every strict prefix of an encoding is rejected", "[row_fragment][format]") {
  testing::RandomFragments random(2718);
  for (int i = 0; i < 300; ++i) {
    const std::string bytes = Encoded(random.Fragment(i % 3 == 0));
    for (size_t n = 0; n < bytes.size(); ++n) {
      RowFragment f;
      CHECK(DecodeRowFragment(std::string_view(bytes).substr(0, n), &f).code() ==
            StatusCode::kCorruption);
    }
  }
}

// Decoding arbitrary bytes must fail cleanly or yield a fragment that
// survives a round trip (run under ASan/UBSan to catch any stray read).
void CheckDecodesSafely(std::string_view bytes) {
  RowFragment f;
  const Status status = DecodeRowFragment(bytes, &f);
  if (!status.ok()) {
    CHECK(status.code() == StatusCode::kCorruption);
    return;
  }
  CHECK(Decoded(Encoded(f)) == f);
}

TEST_CASE("random bytes never crash the decoder", "[row_fragment][format]") {
  std::mt19937 rng(161803);
  for (int i = 0; i < 100'000; ++i) {
    std::string bytes(rng() % 40, '\0');
    for (char& b : bytes) b = static_cast<char>(rng() & 0xff);
    if (!bytes.empty() && i % 2 == 0) bytes[0] = static_cast<char>(bytes[0] & 0x07);
    CheckDecodesSafely(bytes);
  }
}

TEST_CASE("corrupting bytes of valid encodings never crashes the decoder",
          "[row_fragment][format]") {
  testing::RandomFragments random(1414);
  std::mt19937 rng(1414);
  int decoded = 0;
  for (int i = 0; i < 20'000; ++i) {
    std::string bytes = Encoded(random.Fragment(i % 2 == 0));
    bytes[rng() % bytes.size()] = static_cast<char>(rng() & 0xff);
    RowFragment f;
    if (DecodeRowFragment(bytes, &f).ok()) ++decoded;
    CheckDecodesSafely(bytes);
  }
  CHECK(decoded > 0);  // some corruptions stay well-formed: values, times
}

TEST_CASE("FindCell finds every stored cell by column id, tombstones too, and nothing else",
          "[row_fragment]") {
  RowFragment row;
  for (uint32_t id : {2u, 3u, 7u, 40u, 41u}) {
    RowCell cell;
    cell.column_id = id;
    cell.cell.write_time = id;
    cell.cell.value = "v" + std::to_string(id);
    if (id == 7) cell.cell.kind = CellKind::kTombstone;
    row.cells.push_back(cell);
  }
  for (uint32_t id = 0; id < 50; ++id) {
    const RowCell* found = row.FindCell(id);
    const bool stored = id == 2 || id == 3 || id == 7 || id == 40 || id == 41;
    INFO("column " << id);
    REQUIRE((found != nullptr) == stored);
    if (found != nullptr) {
      CHECK(found->column_id == id);
      CHECK(found->cell.write_time == id);
    }
  }
  CHECK(RowFragment{}.FindCell(0) == nullptr);
}

}  // namespace
}  // namespace cellfs
