// CqlSession: the state of one open MOUNT/@cql file. Statements (DDL, the
// data statements INSERT, UPDATE, DELETE, BATCH, and SELECT) written to it
// run as each one completes; what happened is a transcript that reads of
// the same open file return, results made as the reader reaches them
// (fs/formats/transcript.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "engine/status.h"
#include "fs/cql/dml_executor.h"
#include "fs/formats/transcript.h"

namespace cellfs::fs {

// Transcript format, one entry per statement, in order:
//   "OK <summary>\n"      e.g. "OK CREATE KEYSPACE demo", "OK CREATE TABLE demo.logs",
//                         "OK DROP TABLE demo.logs", "OK USE demo",
//                         "OK ALTER TABLE demo.logs", "OK CREATE TYPE demo.addr",
//                         "OK TRUNCATE demo.logs", "OK DROP FUNCTION demo.f",
//                         "OK no change (IF NOT EXISTS)" / "(IF EXISTS)"
//   "OK INSERT demo.logs", "OK UPDATE demo.logs", "OK DELETE demo.logs",
//                         "OK BATCH (3 statements)"  data statements
//                         (fs/cql/dml_executor.h), each applied atomically
//   "ERROR line L:C: <message>\n"  L and C count from the start of everything
//                         written to this session, not from the chunk.
//   "OUTPUT <n>\n" then n lines: a statement's printed result (DESCRIBE;
//                         a conditional INSERT, UPDATE, DELETE or BATCH:
//                         its "[applied]" table, in place of "OK ...";
//                         SELECT, whose rows come as several blocks, a page
//                         of rows each, made when the reader reaches them:
//                         fs/cql/select_executor.h),
//                         exactly what cqlsh prints (engine/cql/describe_statement.h),
//                         each line ended by "\n". The count is what tells the
//                         result from the entries after it: a result line may
//                         start with "OK" or "ERROR". `cellfs cql` prints the n
//                         lines alone.
// A statement cellfs recognises but does not implement (CREATE INDEX...) is
// an ERROR line ("... is not supported by cellfs").
//
// Not thread-safe: the owning file handle serialises calls.
class CqlSession {
 public:
  // `engine` must outlive the session.
  explicit CqlSession(Engine* engine);

  // Appends `chunk` to the script; parses and runs every statement that the
  // script now holds completely (ended by ';' outside strings and
  // comments), in order, each applied before the next is parsed. A
  // statement's failure does not stop later statements in the same chunk.
  // Returns InvalidArgument (message: the first failure's transcript line
  // without "ERROR ") when any statement of this chunk failed, Ok otherwise.
  // A parse error skips to the next ';', as CqlParser does.
  // Each write scans only its new bytes for statement ends, so a long
  // statement sent in small writes costs linear time.
  Status Write(std::string_view chunk);

  // As Write, for `chunk` written at byte `offset` of the open file. A
  // write() bigger than the kernel's largest request is split; when a later
  // piece fails, the writer gets a short count and sends the rest again,
  // from that piece's offset. So a write at the offset of the last one that
  // failed, starting with the same bytes, skips those bytes: they ran
  // already (and failing again would stop the writer for good). Any other
  // write, even to an earlier offset, is new text (a write that failed as
  // a whole leaves the file offset where it was).
  Status WriteAt(uint64_t offset, std::string_view chunk);

  // Runs what remains after the last ';' (a final statement without one),
  // as close(2) ends the script. Same result convention as Write. Idempotent:
  // a second call finds nothing left.
  Status Finish();

  // What the data statements run so far wrote, since the last call; the
  // @cql file invalidates the kernel's view of it.
  std::vector<DmlTouched> TakeTouched() { return std::exchange(touched_, {}); }

  // Bytes [offset, offset + size) of the transcript (Transcript::Read):
  // results are made as the reader reaches them; EIO for a read that went
  // back further than Transcript::kKeptBehind.
  int Read(uint64_t offset, size_t size, std::string* out) {
    return transcript_.Read(offset, size, out);
  }

  // The whole transcript so far, every result made (Transcript::ReadAll):
  // for tests and small scripts. REQUIRES: no Read let text go.
  const std::string& transcript() { return transcript_.ReadAll(); }

  // How many bytes the statement-end scan has examined so far: the work a
  // script cost the scan (each written byte once when it is linear).
  uint64_t bytes_scanned() const { return bytes_scanned_; }

  // Whether anything was written (a session that was only read shows the
  // schema, see DescribeSchema).
  bool written() const { return written_; }

  // What a fresh read of @cql shows: every keyspace's DESCRIBE (keyspace,
  // types, tables, functions), as `DESCRIBE SCHEMA` prints it, keyspaces by
  // name. Empty when there are none.
  static std::string DescribeSchema(const Engine& engine);

 private:
  Engine* engine_;
  std::string pending_;      // written text not yet run (after the last complete statement)
  size_t pending_line_ = 1;  // line and column of pending_[0] in the whole script
  size_t pending_column_ = 1;
  // The statement-end scan of pending_: where it stopped, the lexical state
  // there (in a string, a comment... see cql_session.cc) and the end of the
  // last ';' it found that ends a statement (0: none yet).
  size_t scanned_ = 0;
  uint8_t scan_state_ = 0;
  size_t terminated_ = 0;
  uint64_t bytes_scanned_ = 0;
  // The bytes of the last write that failed, at its file offset, while a
  // resend of them may still come (WriteAt).
  uint64_t failed_offset_ = 0;
  std::string failed_bytes_;
  std::string current_keyspace_;  // USE within this session
  Transcript transcript_;
  std::vector<DmlTouched> touched_;
  bool written_ = false;
};

}  // namespace cellfs::fs
