// Transcript: @cql's reply text. Streams are made only when a read reaches
// them, in their place among the lines around them, and what lies far
// behind the reader is let go, so a result of any size costs bounded memory.
#include "fs/formats/transcript.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <memory>
#include <string>

namespace cellfs::testing {
namespace {

using fs::ResultStream;
using fs::Transcript;

// Makes `pieces` pieces "<name> <i>\n" padded to `piece_size` bytes, counting
// the calls.
class CountingStream final : public ResultStream {
 public:
  CountingStream(std::string name, int pieces, size_t piece_size, int* calls)
      : name_(std::move(name)), pieces_(pieces), piece_size_(piece_size), calls_(calls) {}

  static std::string Piece(const std::string& name, int i, size_t piece_size) {
    std::string text = name + " " + std::to_string(i);
    text.resize(piece_size - 1, '.');
    return text + "\n";
  }

  bool Next(std::string* out) override {
    ++*calls_;
    if (made_ == pieces_) return false;
    out->append(Piece(name_, made_++, piece_size_));
    return true;
  }

 private:
  std::string name_;
  int pieces_;
  size_t piece_size_;
  int* calls_;
  int made_ = 0;
};

std::string ReadInOrder(Transcript* transcript, size_t chunk) {
  std::string all, part;
  for (uint64_t offset = 0;; offset += part.size()) {
    REQUIRE(transcript->Read(offset, chunk, &part) == 0);
    if (part.empty()) return all;
    all += part;
  }
}

TEST_CASE("a transcript reads back its lines at any offset", "[transcript]") {
  Transcript t;
  t.Append("OK USE ks\n");
  t.Append("ERROR line 2:1: no\n");
  std::string out;
  REQUIRE(t.Read(3, 4, &out) == 0);
  CHECK(out == "USE ");
  REQUIRE(t.Read(10, 100, &out) == 0);
  CHECK(out == "ERROR line 2:1: no\n");
  REQUIRE(t.Read(29, 10, &out) == 0);
  CHECK(out.empty());  // at the end
  REQUIRE(t.Read(500, 10, &out) == 0);
  CHECK(out.empty());  // past the end
}

TEST_CASE("a stream is made only when a read reaches it, in its place", "[transcript]") {
  Transcript t;
  int calls = 0;
  t.Append("OK INSERT ks.t\n");
  t.Append(std::make_unique<CountingStream>("row", 3, 9, &calls));
  t.Append("OK DELETE ks.t\n");
  std::string out;
  REQUIRE(t.Read(0, 15, &out) == 0);
  CHECK(out == "OK INSERT ks.t\n");
  CHECK(calls == 0);  // not reached yet
  REQUIRE(t.Read(15, 9, &out) == 0);
  CHECK(out == "row 0...\n");
  CHECK(calls == 1);  // one piece was enough
  CHECK(ReadInOrder(&t, 5) == "OK INSERT ks.t\nrow 0...\nrow 1...\nrow 2...\nOK DELETE ks.t\n");
  CHECK(calls == 4);  // three pieces and the end
}

TEST_CASE("text after a stream waits for it; two streams keep their order", "[transcript]") {
  Transcript t;
  int calls_a = 0, calls_b = 0;
  t.Append(std::make_unique<CountingStream>("a", 2, 4, &calls_a));
  t.Append("x\n");
  t.Append("y\n");
  t.Append(std::make_unique<CountingStream>("b", 1, 4, &calls_b));
  t.Append("z\n");
  CHECK(t.ReadAll() == "a 0\na 1\nx\ny\nb 0\nz\n");
  CHECK(t.ReadAll() == "a 0\na 1\nx\ny\nb 0\nz\n");  // made once
  CHECK(calls_a == 3);
  CHECK(calls_b == 2);
}

TEST_CASE("a large result read in order keeps a bounded window", "[transcript]") {
  Transcript t;
  int calls = 0;
  constexpr int kPieces = 20'000;
  constexpr size_t kPiece = 1000;  // 20 MB in all
  t.Append(std::make_unique<CountingStream>("page", kPieces, kPiece, &calls));
  t.Append("OK done\n");
  std::string part;
  std::string unchecked;  // read, not yet compared a whole piece at a time
  int pieces_checked = 0;
  uint64_t offset = 0;
  for (;; offset += part.size()) {
    REQUIRE(t.Read(offset, 4096, &part) == 0);
    if (part.empty()) break;
    // Never more than the window, one piece and one read.
    REQUIRE(offset + part.size() - t.kept_from() <= Transcript::kKeptBehind + kPiece + 4096);
    unchecked += part;
    while (unchecked.size() >= kPiece && pieces_checked < kPieces) {
      REQUIRE(unchecked.substr(0, kPiece) == CountingStream::Piece("page", pieces_checked, kPiece));
      unchecked.erase(0, kPiece);
      ++pieces_checked;
    }
  }
  CHECK(pieces_checked == kPieces);
  CHECK(unchecked == "OK done\n");
  CHECK(offset == kPieces * kPiece + 8);
  CHECK(t.kept_from() > 0);
  // A reader that goes back further than the window gets EIO, not other bytes.
  CHECK(t.Read(0, 10, &part) == EIO);
  CHECK(part.empty());
  REQUIRE(t.Read(offset - 8, 100, &part) == 0);
  CHECK(part == "OK done\n");
}

}  // namespace
}  // namespace cellfs::testing
