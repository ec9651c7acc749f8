// RemovalRuns (engine/store/internal/removal_runs.h): a run begins at a
// removal after a quiet period with the next sequence, goes on while
// removals follow within it, stops protecting once quiet or past its
// maximum age (then stays unprotected while removals keep coming), and
// refuses the sweeper's commits while it protects the table.
#include "engine/store/internal/removal_runs.h"

#include <catch2/catch.hpp>

#include "engine/store/internal/sequence_allocator.h"

namespace cellfs::storage {
namespace {

constexpr int64_t kSecond = 1'000'000;

struct Runs {
  RemovalRuns runs{60 * kSecond, 3600 * kSecond};
  SequenceAllocator sequences;  // never opened: Peek() is its first number, 1
  int commits = 0;
  Status Commit(uint32_t table, int64_t now) {
    return runs.CommitUnlessOpen(table, now, [&] {
      ++commits;
      return Status::Ok();
    });
  }
};

TEST_CASE("a run begins at a removal, goes on within the quiet period and ends after it",
          "[removal_runs]") {
  Runs r;
  CHECK_FALSE(r.runs.Open(7, 0).has_value());
  r.runs.Note(7, 100 * kSecond, r.sequences);
  auto run = r.runs.Open(7, 100 * kSecond);
  REQUIRE(run.has_value());
  CHECK(run->first_sequence == 1);
  CHECK(run->started_micros == 100 * kSecond);
  CHECK_FALSE(r.runs.Open(8, 100 * kSecond).has_value());  // another table's is its own

  r.runs.Note(7, 159 * kSecond, r.sequences);  // 59 s later: the same run
  run = r.runs.Open(7, 218 * kSecond);
  REQUIRE(run.has_value());
  CHECK(run->started_micros == 100 * kSecond);
  CHECK(run->last_micros == 159 * kSecond);
  CHECK_FALSE(r.runs.Open(7, 219 * kSecond).has_value());  // 60 s quiet: over

  r.runs.Note(7, 300 * kSecond, r.sequences);  // a new run
  CHECK(r.runs.Open(7, 300 * kSecond)->started_micros == 300 * kSecond);
  r.runs.Forget(7);
  CHECK_FALSE(r.runs.Open(7, 300 * kSecond).has_value());
}

TEST_CASE("the sweeper's commits wait while a run protects the table", "[removal_runs]") {
  Runs r;
  CHECK(r.Commit(7, 0).ok());
  r.runs.Note(7, 10 * kSecond, r.sequences);
  const Status refused = r.Commit(7, 20 * kSecond);
  CHECK(refused.code() == StatusCode::kAborted);
  CHECK(r.Commit(8, 20 * kSecond).ok());  // another table
  CHECK(r.Commit(7, 70 * kSecond).ok());  // the run went quiet
  CHECK(r.commits == 3);
}

TEST_CASE("a run past its maximum age protects nothing until removals stop", "[removal_runs]") {
  Runs r;
  int64_t now = 0;
  r.runs.Note(7, now, r.sequences);
  for (; now < 3600 * kSecond; now += 20 * kSecond) r.runs.Note(7, now, r.sequences);
  CHECK(r.runs.Open(7, now - kSecond).has_value());
  CHECK_FALSE(r.runs.Open(7, now).has_value());  // an hour old
  CHECK(r.Commit(7, now).ok());
  // Removals keep coming: the run is retired, not begun again.
  for (int i = 0; i < 10; ++i) {
    now += 20 * kSecond;
    r.runs.Note(7, now, r.sequences);
    CHECK_FALSE(r.runs.Open(7, now).has_value());
    CHECK(r.Commit(7, now).ok());
  }
  // Quiet for the period: the next removal begins a protecting run.
  now += 60 * kSecond;
  r.runs.Note(7, now, r.sequences);
  CHECK(r.runs.Open(7, now).has_value());
  CHECK(r.Commit(7, now).code() == StatusCode::kAborted);
}

}  // namespace
}  // namespace cellfs::storage
