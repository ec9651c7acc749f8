// InsertParser's bound on a line (fs/formats/insert_parser.h): a line longer than
// the bound is refused with its number and not kept, whatever the split of
// the input, and the records after its newline are read as usual (a CSV
// input keeps its header).
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "fs/formats/insert_parser.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::fs {
namespace {

constexpr size_t kLimit = 64;

TableHandle Flat() {
  static testing::TestEngine* db = [] {
    auto* engine = new testing::TestEngine();
    engine->Ddl(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1};"
        "CREATE TABLE ks.flat (k int PRIMARY KEY, v text);");
    return engine;
  }();
  return db->Table("ks", "flat");
}

// "line: ok" or "line: message" per record, feeding `input` in pieces of `chunk`.
std::vector<std::string> Parse(const std::string& input, size_t chunk) {
  InsertParser parser(Flat(), WriteAttributes{}, kLimit);
  std::vector<std::string> calls;
  auto sink = [&calls](uint64_t line, Result<InsertRow>&& row) {
    calls.push_back(std::to_string(line) + ": " + (row.ok() ? "ok" : row.status().message()));
  };
  for (size_t at = 0; at < input.size(); at += chunk) {
    parser.Feed(std::string_view(input).substr(at, chunk), sink);
  }
  parser.Finish(sink);
  return calls;
}

TEST_CASE("a line over the bound is refused by number and the input goes on after it",
          "[insert_parser]") {
  const std::string longer = "longer than " + std::to_string(kLimit) + " bytes";
  const std::string huge(3 * kLimit, 'x');
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{64}, size_t{1000}}) {
    INFO("chunk " << chunk);
    SECTION("JSON Lines, chunk " + std::to_string(chunk)) {
      const std::string input = "{\"k\": 1, \"v\": \"a\"}\n{\"k\": 2, \"v\": \"" + huge +
                                "\"}\n{\"k\": 3, \"v\": \"c\"}\n";
      CHECK(Parse(input, chunk) == std::vector<std::string>{"1: ok", "2: " + longer, "3: ok"});
    }
    SECTION("CSV keeps its header, chunk " + std::to_string(chunk)) {
      const std::string input = "k,v\n1,a\n2," + huge + "\n3,c\n";
      CHECK(Parse(input, chunk) == std::vector<std::string>{"2: ok", "3: " + longer, "4: ok"});
    }
    SECTION("a last line without a newline, chunk " + std::to_string(chunk)) {
      CHECK(Parse("{\"k\": 1}\n" + huge, chunk) ==
            std::vector<std::string>{"1: ok", "2: " + longer});
    }
    SECTION("a line of exactly the bound is read, chunk " + std::to_string(chunk)) {
      std::string line = "{\"k\": 1, \"v\": \"";
      line += std::string(kLimit - line.size() - 2, 'y') + "\"}";
      REQUIRE(line.size() == kLimit);
      CHECK(Parse(line + "\n" + line + "\n", chunk) == std::vector<std::string>{"1: ok", "2: ok"});
    }
  }
}

}  // namespace
}  // namespace cellfs::fs
