// Transcript: what reads of an open MOUNT/@cql file return, produced as the
// reader reads. Statement outcomes are short lines appended as statements
// run; a statement's printed result (a SELECT's rows, a DESCRIBE) may be of
// any size, so it is a ResultStream that makes its text a page at a time
// when the reader gets there, and the text already read is let go. The
// daemon's memory for a result is thus one page, not the result.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "engine/status.h"

namespace cellfs::fs {

// One statement's result, made a piece at a time. Each piece the stream
// appends must be whole transcript entries (cql_session.h: "OUTPUT <n>" and
// its n lines, or an "ERROR ..." line), so that a reader can parse entries as
// they arrive.
class ResultStream {
 public:
  virtual ~ResultStream() = default;

  // Appends the next piece to *out; false once the result is complete (then
  // nothing is appended and Next is not called again).
  virtual bool Next(std::string* out) = 0;
};

// Not thread-safe: the owning file handle serialises calls.
class Transcript {
 public:
  // Text of read offsets already passed by this much may be let go; a read
  // below what is kept gets EIO. A reader that reads in order (cat,
  // `cellfs cql`, any read(2) loop) never goes back.
  static constexpr size_t kKeptBehind = 64 * 1024;

  // Appends complete entries (each line ended by '\n').
  void Append(std::string_view text);

  // Appends a result that will be read in its place, after what is already
  // appended and before what is appended later.
  void Append(std::unique_ptr<ResultStream> stream);

  // Bytes [offset, offset + size) of the transcript into *out (fewer at its
  // current end), making stream pieces as needed. 0, or EIO when `offset`
  // is below what is kept (the reader went back past kKeptBehind).
  int Read(uint64_t offset, size_t size, std::string* out);

  // Makes every stream's text and returns the whole transcript from offset
  // 0. For tests and small scripts: it holds every result in memory.
  // REQUIRES: nothing was let go yet (no Read passed kKeptBehind).
  const std::string& ReadAll();

  // The offset of the first byte still kept.
  uint64_t kept_from() const { return base_; }

 private:
  // Moves the front streams' pieces (and the text queued after them) into
  // made_ until made_ reaches `end` or nothing is left to make.
  void MakeUntil(uint64_t end);

  uint64_t base_ = 0;  // transcript offset of made_[0]
  std::string made_;   // text made and still kept
  // What is not made yet, in order: streams and the text appended after
  // the first of them.
  std::deque<std::variant<std::string, std::unique_ptr<ResultStream>>> queued_;
};

}  // namespace cellfs::fs
