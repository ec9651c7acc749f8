// DirectoryEnv: a store reached through its directory's descriptor never
// follows a symbolic link planted at a store file's name, and keeps writing
// to the directory it opened after its path is made to point elsewhere.
#include "engine/store/storage/leveldb/directory_env.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

namespace stdfs = std::filesystem;
using storage::DirectoryEnv;
using testing::IntValue;

// A fresh directory under the system's temporary directory, removed after.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (stdfs::temp_directory_path() / "cellfs-direnv.XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    stdfs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const stdfs::path& path() const { return path_; }

 private:
  stdfs::path path_;
};

std::string ReadFile(const stdfs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void WriteFile(const stdfs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::unique_ptr<DirectoryEnv> OpenEnv(const std::string& dbname) {
  std::unique_ptr<DirectoryEnv> env;
  leveldb::Status s = DirectoryEnv::Open(dbname, -1, true, &env);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return env;
}

// Symbolic links to `target` at every name LevelDB could make next in `dir`
// (logs, tables, manifests numbered 1..60, the info log) that is free.
void PlantLinks(const stdfs::path& dir, const stdfs::path& target) {
  std::vector<std::string> names = {"LOG", "LOG.old", "CURRENT", "LOCK"};
  for (int n = 1; n <= 60; ++n) {
    char number[16];
    std::snprintf(number, sizeof number, "%06d", n);
    for (const char* suffix : {".log", ".ldb", ".sst", ".dbtmp"})
      names.push_back(number + std::string(suffix));
    names.push_back("MANIFEST-" + std::string(number));
  }
  for (const std::string& name : names) {
    std::error_code exists;
    if (!stdfs::exists(stdfs::symlink_status(dir / name, exists))) {
      stdfs::create_symlink(target, dir / name);
    }
  }
}

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.kv (k int PRIMARY KEY, v text);";

// Opens the engine of `path`, through `dir_fd` when >= 0; a small memtable so
// that a few hundred rows switch logs and write tables.
Result<std::unique_ptr<Engine>> OpenEngine(const std::string& path, int dir_fd) {
  EngineOptions options;
  options.background_sweeper = false;
  options.data_dir_fd = dir_fd;
  options.write_buffer_bytes = 64 << 10;
  return Engine::Open(path, options);
}

Status WriteRows(Engine* engine, int32_t first, int32_t count) {
  auto table = engine->FindTable("ks", "kv");
  CELLFS_RETURN_IF_ERROR(table.status());
  for (int32_t k = first; k < first + count; ++k) {
    Mutation mutation = engine->NewMutation();
    const std::string pk[] = {IntValue(k)};
    const ColumnValue cells[] = {{1, std::string(400, 'v') + std::to_string(k)}};
    CELLFS_RETURN_IF_ERROR(mutation.Update(*table, pk, {}, cells));
    CELLFS_RETURN_IF_ERROR(engine->Apply(std::move(mutation)));
  }
  return Status::Ok();
}

int CountRows(Engine* engine, int32_t first, int32_t count) {
  auto table = engine->FindTable("ks", "kv");
  REQUIRE(table.ok());
  int found = 0;
  for (int32_t k = first; k < first + count; ++k) {
    const std::string pk[] = {IntValue(k)};
    auto row = engine->NewReadView().GetRow(*table, pk, {});
    REQUIRE(row.ok());
    found += row->has_value() ? 1 : 0;
  }
  return found;
}

TEST_CASE("the env serves names inside its directory and nothing else", "[directory_env]") {
  ScratchDir scratch;
  const std::string db = (scratch.path() / "db").string();
  std::unique_ptr<DirectoryEnv> env = OpenEnv(db);

  leveldb::WritableFile* raw = nullptr;
  REQUIRE(env->NewWritableFile(db + "/000001.log", &raw).ok());
  std::unique_ptr<leveldb::WritableFile> file(raw);
  REQUIRE(file->Append(std::string(100'000, 'x')).ok());  // more than the buffer
  REQUIRE(file->Append("tail").ok());
  REQUIRE(file->Sync().ok());
  REQUIRE(file->Close().ok());
  uint64_t size = 0;
  REQUIRE(env->GetFileSize(db + "/000001.log", &size).ok());
  CHECK(size == 100'004);

  REQUIRE(env->RenameFile(db + "/000001.log", db + "/000002.log").ok());
  std::vector<std::string> children;
  REQUIRE(env->GetChildren(db, &children).ok());
  CHECK(children == std::vector<std::string>{"000002.log"});
  CHECK(env->FileExists(db + "/000002.log"));
  CHECK_FALSE(env->FileExists(db + "/000001.log"));

  leveldb::RandomAccessFile* random = nullptr;
  REQUIRE(env->NewRandomAccessFile(db + "/000002.log", &random).ok());
  std::unique_ptr<leveldb::RandomAccessFile> reader(random);
  char scratch_bytes[8];
  leveldb::Slice got;
  REQUIRE(reader->Read(100'000, sizeof scratch_bytes, &got, scratch_bytes).ok());
  CHECK(got.ToString() == "tail");

  REQUIRE(env->RemoveFile(db + "/000002.log").ok());
  REQUIRE(env->GetChildren(db, &children).ok());
  CHECK(children.empty());
  CHECK(env->RemoveFile(db + "/000002.log").IsNotFound());
  CHECK(env->CreateDir(db).ok());

  WriteFile(scratch.path() / "outside", "outside");
  for (const std::string& path : {scratch.path().string() + "/outside", db + "/../outside",
                                  db + "/sub/file", db + "x/file", std::string("/etc/passwd")}) {
    INFO(path);
    leveldb::WritableFile* writable = nullptr;
    leveldb::Status s = env->NewWritableFile(path, &writable);
    CHECK(s.IsIOError());
    CHECK(s.ToString().find("outside the data directory") != std::string::npos);
    CHECK(writable == nullptr);
    CHECK_FALSE(env->FileExists(path));
    CHECK(env->RemoveFile(path).IsIOError());
  }
  CHECK(env->CreateDir(db + "/sub").IsIOError());
  CHECK(env->GetChildren(scratch.path().string(), &children).IsIOError());
  CHECK(ReadFile(scratch.path() / "outside") == "outside");
}

TEST_CASE("a lock is held once per process, and reported as LevelDB reports it",
          "[directory_env]") {
  ScratchDir scratch;
  const std::string db = (scratch.path() / "db").string();
  std::unique_ptr<DirectoryEnv> env = OpenEnv(db);
  std::unique_ptr<DirectoryEnv> other = OpenEnv(db);
  leveldb::FileLock* lock = nullptr;
  REQUIRE(env->LockFile(db + "/LOCK", &lock).ok());
  REQUIRE(lock != nullptr);
  for (DirectoryEnv* again : {env.get(), other.get()}) {
    leveldb::FileLock* second = nullptr;
    leveldb::Status s = again->LockFile(db + "/LOCK", &second);
    CHECK(second == nullptr);
    CHECK(s.ToString().find("IO error: lock " + db + "/LOCK: ") != std::string::npos);
  }
  auto held = Engine::Open(db, EngineOptions{});
  CHECK_FALSE(held.ok());
  CHECK(held.status().message().find("in use by another process") != std::string::npos);
  REQUIRE(env->UnlockFile(lock).ok());
  REQUIRE(other->LockFile(db + "/LOCK", &lock).ok());
  REQUIRE(other->UnlockFile(lock).ok());
}

TEST_CASE("a symbolic link at a store file's name is never followed", "[directory_env]") {
  ScratchDir scratch;
  const stdfs::path canary = scratch.path() / "canary";
  WriteFile(canary, "precious");
  const std::string db = (scratch.path() / "db").string();

  SECTION("by the env's own calls") {
    std::unique_ptr<DirectoryEnv> env = OpenEnv(db);
    PlantLinks(db, canary);
    leveldb::WritableFile* file = nullptr;
    CHECK_FALSE(env->NewWritableFile(db + "/000007.log", &file).ok());
    CHECK_FALSE(env->NewAppendableFile(db + "/MANIFEST-000007", &file).ok());
    CHECK(file == nullptr);
    leveldb::Logger* logger = nullptr;
    CHECK_FALSE(env->NewLogger(db + "/LOG", &logger).ok());
    leveldb::SequentialFile* sequential = nullptr;
    CHECK_FALSE(env->NewSequentialFile(db + "/CURRENT", &sequential).ok());
    leveldb::FileLock* lock = nullptr;
    CHECK_FALSE(env->LockFile(db + "/LOCK", &lock).ok());
    uint64_t size = 0;
    REQUIRE(env->GetFileSize(db + "/000007.log", &size).ok());
    CHECK(size == canary.string().size());  // the link's own size, not the canary's
    CHECK(stdfs::is_symlink(stdfs::path(db) / "000007.log"));
    // A hard link to a file elsewhere is refused too.
    stdfs::remove(stdfs::path(db) / "000009.ldb");
    stdfs::create_hard_link(canary, stdfs::path(db) / "000009.ldb");
    CHECK_FALSE(env->NewWritableFile(db + "/000009.ldb", &file).ok());
  }

  SECTION("by an engine reopened over planted links") {
    {
      auto engine = OpenEngine(db, -1);
      INFO(engine.status().ToString());
      REQUIRE(engine.ok());
      std::string keyspace;
      testing::RunDdl(engine->get(), kSchema, &keyspace);
      REQUIRE(WriteRows(engine->get(), 0, 100).ok());
    }
    PlantLinks(db, canary);
    {
      // Recovery writes the old log's rows to a new table, at a linked name.
      auto reopened = OpenEngine(db, -1);
      CHECK_FALSE(reopened.ok());
      if (reopened.ok()) (void)WriteRows(reopened->get(), 100, 1000);
    }
    CHECK(ReadFile(canary) == "precious");
  }
}

TEST_CASE("writes go to the directory opened, after its path is swapped for planted links",
          "[directory_env]") {
  ScratchDir scratch;
  const stdfs::path canary = scratch.path() / "canary";
  WriteFile(canary, "precious");
  const stdfs::path data = scratch.path() / "data";
  const stdfs::path moved = scratch.path() / "data.moved";
  stdfs::create_directory(data);
  int fd = open(data.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  REQUIRE(fd >= 0);
  {
    auto engine = OpenEngine(data.string(), fd);
    close(fd);  // the engine holds its own
    INFO(engine.status().ToString());
    REQUIRE(engine.ok());
    std::string keyspace;
    testing::RunDdl(engine->get(), kSchema, &keyspace);
    REQUIRE(WriteRows(engine->get(), 0, 200).ok());

    stdfs::rename(data, moved);
    stdfs::create_directory(data);
    PlantLinks(data, canary);
    // ~1 MB through a 64 KiB memtable: new logs, tables and compactions.
    REQUIRE(WriteRows(engine->get(), 200, 2000).ok());
    REQUIRE((*engine)->Sync().ok());
  }
  CHECK(ReadFile(canary) == "precious");
  for (const auto& entry : stdfs::directory_iterator(data)) {
    INFO(entry.path());
    CHECK(entry.is_symlink());
  }
  auto reopened = OpenEngine(moved.string(), -1);
  INFO(reopened.status().ToString());
  REQUIRE(reopened.ok());
  CHECK(CountRows(reopened->get(), 0, 2200) == 2200);
}

}  // namespace
}  // namespace cellfs
