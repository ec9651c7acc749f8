// GuardedEnv: the Env the engine hands LevelDB, over the real one (or a
// test's). It adds two guarantees LevelDB 1.23 lacks on a failing device.
#pragma once

#include <leveldb/env.h>

#include <string>

namespace cellfs::storage {

// 1. A writable file that failed once (Append, Flush, Sync or Close) fails
//    every later call with that error, and no byte reaches it after the
//    failure. LevelDB's compaction keeps appending MANIFEST records after a
//    failed write; once space is back those land behind the torn record and
//    the store no longer opens ("checksum mismatch"). The same holds for a
//    log record torn by a full disk.
// 2. A write-ahead log (`*.log`) is synced before it is closed. When a
//    memtable fills, LevelDB closes the log without a sync and goes on in a
//    new one; Engine::Sync syncs only the current log, so without this the
//    old log's unsynced tail would not survive an OS crash.
//
// Thread-safe as its target is; each file is used by one thread at a time
// (LevelDB's own rule for WritableFile).
class GuardedEnv final : public leveldb::EnvWrapper {
 public:
  explicit GuardedEnv(leveldb::Env* target) : EnvWrapper(target) {}

  leveldb::Status NewWritableFile(const std::string& name, leveldb::WritableFile** file) override;
  leveldb::Status NewAppendableFile(const std::string& name, leveldb::WritableFile** file) override;
};

}  // namespace cellfs::storage
