// The stored catalog: DDL changes persist with stable table and column ids,
// reload equal, never reuse a dropped id, and corrupt records are refused.
#include "engine/store/internal/catalog_store.h"

#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/write_batch.h>

#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/cql/cql_parser.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/leveldb/leveldb_batch.h"
#include "engine/store/storage/leveldb/leveldb_storage.h"
#include "tests/engine/schema_script.h"

namespace cellfs::storage {
namespace {

constexpr char kKeyspace[] =
    "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";

// One line per table: "ks.table id=N next=K col=id ...", so whole states
// compare as strings and show what differs.
std::string RenderIds(const SchemaState& state) {
  std::string out;
  for (const auto& [name, ids] : state.ids()) {
    out += name.first + "." + name.second + " id=" + std::to_string(ids.table_id) +
           " next=" + std::to_string(ids.next_column_id);
    for (const auto& [column, id] : ids.column_ids) out += " " + column + "=" + std::to_string(id);
    out += "\n";
  }
  return out + "next_table_id=" + std::to_string(state.next_table_id()) + "\n";
}

bool SameCatalog(const Catalog& a, const Catalog& b) {
  if (a.keyspaces().size() != b.keyspaces().size()) return false;
  for (const auto& [name, keyspace] : a.keyspaces()) {
    const KeyspaceDef* other = b.FindKeyspace(name);
    if (other == nullptr || !SameKeyspace(keyspace, *other)) return false;
  }
  return true;
}

// The keys a batch puts and deletes.
struct BatchKeys : leveldb::WriteBatch::Handler {
  void Put(const leveldb::Slice& key, const leveldb::Slice&) override {
    puts.insert(key.ToString());
  }
  void Delete(const leveldb::Slice& key) override { deletes.insert(key.ToString()); }
  std::set<std::string> puts;
  std::set<std::string> deletes;
};

// A LevelDB over an in-memory Env and the schema state an engine would hold,
// changed one DDL statement at a time as the engine changes it.
class Store {
 public:
  Store() : env_(leveldb::NewMemEnv(leveldb::Env::Default())) {
    Open();
    state = std::make_shared<const SchemaState>(
        std::make_shared<const Catalog>(),
        std::map<std::pair<std::string, std::string>, TableIds>{}, 1);
  }

  // Applies each statement of `cql` as its own schema change; the first
  // failure is returned and leaves the state as it was before it.
  Status Ddl(const std::string& cql) {
    CqlParser parser(cql);
    for (;;) {
      Statement statement;
      bool done = false;
      CELLFS_RETURN_IF_ERROR(parser.Next(&statement, &done));
      if (done) return Status::Ok();
      CELLFS_RETURN_IF_ERROR(Apply(statement));
    }
  }

  // REQUIREs success.
  void Run(const std::string& cql) {
    Status s = Ddl(cql);
    INFO(cql << "\n" << s.ToString());
    REQUIRE(s.ok());
  }

  Status Apply(const Statement& statement) {
    auto next = std::make_shared<Catalog>(*state->catalog());
    std::string keyspace = session_keyspace;
    CELLFS_RETURN_IF_ERROR(next->Apply(statement, &keyspace));
    session_keyspace = keyspace;
    last_dropped.clear();
    auto after = AssignIds(*state, std::move(next), &last_dropped);
    LevelDbBatch batch;
    WriteSchemaChange(*state, *after, last_dropped, &batch);
    last_batch = BatchKeys();
    REQUIRE(batch.rep()->Iterate(&last_batch).ok());
    REQUIRE(db_->Write(leveldb::WriteOptions(), batch.rep()).ok());
    state = std::move(after);
    return Status::Ok();
  }

  // Closes and opens the database again and loads the stored schema.
  Status Load(std::shared_ptr<const SchemaState>* loaded) {
    db_.reset();
    Open();
    return LoadSchema(LevelDbStorage::Wrap(db_.get()).get(), loaded);
  }

  // Reloads and checks the stored schema equals the one in memory.
  void CheckReloadsEqual() {
    std::shared_ptr<const SchemaState> loaded;
    Status s = Load(&loaded);
    INFO(s.ToString());
    REQUIRE(s.ok());
    CHECK(SameCatalog(*loaded->catalog(), *state->catalog()));
    CHECK(RenderIds(*loaded) == RenderIds(*state));
  }

  // Replaces the stored schema state with the one loaded from the database.
  void Reload() {
    std::shared_ptr<const SchemaState> loaded;
    REQUIRE(Load(&loaded).ok());
    state = loaded;
  }

  leveldb::DB* db() { return db_.get(); }

  std::string Get(const std::string& key) {
    std::string value;
    leveldb::Status s = db_->Get(leveldb::ReadOptions(), key, &value);
    INFO(s.ToString());
    REQUIRE(s.ok());
    return value;
  }
  bool Has(const std::string& key) {
    std::string value;
    return db_->Get(leveldb::ReadOptions(), key, &value).ok();
  }
  void Put(const std::string& key, const std::string& value) {
    REQUIRE(db_->Put(leveldb::WriteOptions(), key, value).ok());
  }

  uint32_t TableId(const std::string& keyspace, const std::string& table) {
    TableHandle handle = state->FindTable(keyspace, table);
    REQUIRE(handle != nullptr);
    return handle->id;
  }

  std::shared_ptr<const SchemaState> state;
  std::string session_keyspace;
  std::vector<uint32_t> last_dropped;
  BatchKeys last_batch;

 private:
  void Open() {
    leveldb::Options options;
    options.env = env_.get();
    options.create_if_missing = true;
    leveldb::DB* db = nullptr;
    REQUIRE(leveldb::DB::Open(options, "/db", &db).ok());
    db_.reset(db);
  }

  std::unique_ptr<leveldb::Env> env_;
  std::unique_ptr<leveldb::DB> db_;
};

// Replaces the one occurrence of `from` in `*text`; REQUIREs there is one.
void ReplaceOnce(std::string* text, const std::string& from, const std::string& to) {
  INFO(*text << "\nlooking for " << from);
  size_t at = text->find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(text->find(from, at + 1) == std::string::npos);
  text->replace(at, from.size(), to);
}

TEST_CASE("an empty store loads as an empty schema whose first table id is 1", "[catalog_store]") {
  Store store;
  std::shared_ptr<const SchemaState> loaded;
  REQUIRE(store.Load(&loaded).ok());
  CHECK(loaded->catalog()->keyspaces().empty());
  CHECK(loaded->ids().empty());
  CHECK(loaded->next_table_id() == 1);
}

TEST_CASE("each DDL step persists and the stored schema reloads equal", "[catalog_store]") {
  Store store;
  const std::vector<std::string> steps = {
      kKeyspace,
      "CREATE TABLE k.t (p int, c text, v int, s text static, PRIMARY KEY (p, c)) "
      "WITH CLUSTERING ORDER BY (c DESC) AND comment = 'x' AND default_time_to_live = 60;",
      "ALTER TABLE k.t ADD (w list<int>, m map<text, int>);",
      "ALTER TABLE k.t DROP v;",
      "ALTER TABLE k.t RENAME c TO c2;",
      "ALTER TABLE k.t WITH gc_grace_seconds = 5;",
      "CREATE TYPE k.addr (street text, zip int);",
      "CREATE TABLE k.users (id uuid PRIMARY KEY, home frozen<addr>, "
      "others list<frozen<addr>>);",
      "CREATE FUNCTION k.twice (a int) RETURNS NULL ON NULL INPUT RETURNS int "
      "LANGUAGE java AS 'return a * 2;';",
      "CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy'} "
      "AND durable_writes = false;",
      "CREATE TABLE other.t (p int PRIMARY KEY, v int);",
      "CREATE TABLE k.b (p int, c int, v text, PRIMARY KEY (p, c));",
      "CREATE MATERIALIZED VIEW k.bv AS SELECT * FROM k.b WHERE v IS NOT NULL "
      "AND p IN (1, 2) AND c >= -1 PRIMARY KEY (v, p, c) "
      "WITH CLUSTERING ORDER BY (p DESC, c ASC);",
      "CREATE MATERIALIZED VIEW k.bc AS SELECT p, c FROM k.b WHERE p IS NOT NULL AND c IS NOT "
      "NULL PRIMARY KEY (c, p);",
      "ALTER TABLE k.b ADD x int;",
      "ALTER TABLE k.b RENAME c TO c2;",
      "ALTER MATERIALIZED VIEW k.bv WITH comment = 'v';",
      "DROP MATERIALIZED VIEW k.bv;",
      "DROP TABLE k.t;",
      "DROP KEYSPACE other;",
  };
  for (const std::string& step : steps) {
    INFO(step);
    store.Run(step);
    store.CheckReloadsEqual();
  }
  const KeyspaceDef* k = store.state->catalog()->FindKeyspace("k");
  REQUIRE(k != nullptr);
  CHECK(k->routines.contains("twice(int)"));
  CHECK(k->types.contains("addr"));
  CHECK(!store.Has(CatalogKey("other")));
}

TEST_CASE("quoted names, non-ASCII text and JSON special characters round-trip",
          "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) +
            "CREATE TABLE k.\"Mixed_Case\" (p int PRIMARY KEY, \"na\u00efve \"\"q\"\" \\ x\" text, "
            "\"{}\" int) WITH comment = 'two\nlines, \"quoted\" and \\ \u2603';");
  const TableDef* table = store.state->catalog()->FindTable("k", "Mixed_Case");
  REQUIRE(table != nullptr);
  REQUIRE(table->FindColumn("na\u00efve \"q\" \\ x") != nullptr);
  store.CheckReloadsEqual();
  TableHandle handle = store.state->FindTable("k", "Mixed_Case");
  REQUIRE(handle != nullptr);
  CHECK(handle->column_ids == std::vector<uint32_t>{0, 1, 2});
}

TEST_CASE("a new table's static and regular columns are numbered from 1 in column order",
          "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) +
            "CREATE TABLE k.t (p int, c int, b int, a int static, PRIMARY KEY (p, c));");
  TableHandle t = store.state->FindTable("k", "t");
  REQUIRE(t != nullptr);
  CHECK(t->id == 1);
  CHECK(t->def.columns.size() == 4);
  // Canonical order: p, c, then static and regular columns by name: a, b.
  CHECK(t->column_ids == std::vector<uint32_t>{0, 0, 1, 2});
  CHECK(t->column(2).name == "a");
  CHECK(RenderIds(*store.state) == "k.t id=1 next=3 a=1 b=2\nnext_table_id=2\n");
  CHECK(store.state->FindTableById(1) == t);
}

TEST_CASE("column ids survive reloads and a column added again gets a new id", "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) + "CREATE TABLE k.t (p int PRIMARY KEY, a int, b int);");
  store.Run("ALTER TABLE k.t ADD c int;");
  CHECK(RenderIds(*store.state) == "k.t id=1 next=4 a=1 b=2 c=3\nnext_table_id=2\n");

  SECTION("in memory") {}
  SECTION("across a reload") { store.Reload(); }

  store.Run("ALTER TABLE k.t DROP b;");
  CHECK(RenderIds(*store.state) == "k.t id=1 next=4 a=1 c=3\nnext_table_id=2\n");
  store.Run("ALTER TABLE k.t ADD b text;");
  CHECK(RenderIds(*store.state) == "k.t id=1 next=5 a=1 b=4 c=3\nnext_table_id=2\n");
  store.CheckReloadsEqual();

  TableHandle t = store.state->FindTable("k", "t");
  REQUIRE(t != nullptr);
  CHECK(t->ColumnIndexById(2) == std::nullopt);  // the old b's cells are not the new b's
  REQUIRE(t->ColumnIndexById(4).has_value());
  CHECK(t->column(*t->ColumnIndexById(4)).name == "b");
}

TEST_CASE("a dropped table's id is recorded for reclaiming and never reused", "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) + "CREATE TABLE k.a (p int PRIMARY KEY, v int);" +
            "CREATE TABLE k.b (p int PRIMARY KEY, v int);");
  REQUIRE(store.TableId("k", "a") == 1);
  REQUIRE(store.TableId("k", "b") == 2);

  store.Run("DROP TABLE k.a;");
  CHECK(store.last_dropped == std::vector<uint32_t>{1});
  CHECK(store.Has(DroppedTableKey(1)));
  CHECK(store.Get(DroppedTableKey(1)).empty());
  CHECK(store.state->FindTableById(1) == nullptr);
  CHECK(store.state->FindTable("k", "a") == nullptr);

  SECTION("re-created in the same session") {}
  SECTION("re-created after a reload") { store.Reload(); }
  SECTION("re-created after the next table id record is lost") {
    // The largest live id still bounds it, and a reused id could only be
    // the dropped table's if it were the largest; here b's id 2 is.
    REQUIRE(store.db()->Delete(leveldb::WriteOptions(), MetaKey(kNextTableIdName)).ok());
    store.Reload();
  }
  store.Run("CREATE TABLE k.a (p int PRIMARY KEY, v int);");
  CHECK(store.TableId("k", "a") == 3);
  CHECK(store.TableId("k", "b") == 2);
  store.CheckReloadsEqual();
}

TEST_CASE("dropping a keyspace deletes its record and drops each of its tables",
          "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) + "CREATE TABLE k.a (p int PRIMARY KEY);" +
            "CREATE TABLE k.b (p int PRIMARY KEY);");
  REQUIRE(store.Has(CatalogKey("k")));
  store.Run("DROP KEYSPACE k;");
  CHECK(store.last_dropped.size() == 2);
  CHECK(std::set<uint32_t>(store.last_dropped.begin(), store.last_dropped.end()) ==
        std::set<uint32_t>{1, 2});
  CHECK(store.last_batch.deletes == std::set<std::string>{CatalogKey("k")});
  CHECK(store.Has(DroppedTableKey(1)));
  CHECK(store.Has(DroppedTableKey(2)));
  CHECK(!store.Has(CatalogKey("k")));
  store.CheckReloadsEqual();
  CHECK(store.state->next_table_id() == 3);
}

TEST_CASE("a change rewrites only the keyspaces it touches", "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) +
            "CREATE KEYSPACE j WITH replication = {'class': 'SimpleStrategy'};"
            "CREATE TABLE k.t (p int PRIMARY KEY);"
            "CREATE TABLE j.t (p int PRIMARY KEY);");
  const std::string untouched = store.Get(CatalogKey("j"));
  store.Run("ALTER TABLE k.t ADD v int;");
  CHECK(store.last_batch.puts == std::set<std::string>{CatalogKey("k"), MetaKey(kNextTableIdName)});
  CHECK(store.last_batch.deletes.empty());
  CHECK(store.Get(CatalogKey("j")) == untouched);
  store.CheckReloadsEqual();
}

TEST_CASE("the next table id is stored as 4 big-endian bytes", "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) + "CREATE TABLE k.t (p int PRIMARY KEY);");
  CHECK(store.Get(MetaKey(kNextTableIdName)) == std::string("\0\0\0\2", 4));
}

TEST_CASE("the loaded next table id is the stored one, but above every live table id",
          "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) + "CREATE TABLE k.t (p int PRIMARY KEY);" +
            "CREATE TABLE k.u (p int PRIMARY KEY);");
  std::shared_ptr<const SchemaState> loaded;
  SECTION("a stored id above the live ones is kept") {
    store.Put(MetaKey(kNextTableIdName), std::string("\0\0\1\0", 4));
    REQUIRE(store.Load(&loaded).ok());
    CHECK(loaded->next_table_id() == 256);
  }
  SECTION("a stored id too low is raised") {
    store.Put(MetaKey(kNextTableIdName), std::string("\0\0\0\1", 4));
    REQUIRE(store.Load(&loaded).ok());
    CHECK(loaded->next_table_id() == 3);
  }
  SECTION("a missing record defaults to above the live ids") {
    REQUIRE(store.db()->Delete(leveldb::WriteOptions(), MetaKey(kNextTableIdName)).ok());
    REQUIRE(store.Load(&loaded).ok());
    CHECK(loaded->next_table_id() == 3);
  }
  SECTION("a record of the wrong size is corruption") {
    store.Put(MetaKey(kNextTableIdName), "7");
    Status s = store.Load(&loaded);
    CHECK(s.code() == StatusCode::kCorruption);
    CHECK_THAT(s.message(), Catch::Contains("next table id"));
  }
}

TEST_CASE("table handles are looked up by name and by id", "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) +
            "CREATE TABLE k.t (p int, c int, v int, PRIMARY KEY (p, c)) "
            "WITH default_time_to_live = 9;");
  TableHandle t = store.state->FindTable("k", "t");
  REQUIRE(t != nullptr);
  CHECK(SameTable(t->def, *store.state->catalog()->FindTable("k", "t")));
  CHECK(t->partition_key_count() == 1);
  CHECK(t->clustering_count() == 1);
  CHECK(t->column_ids.size() == t->def.columns.size());
  CHECK(store.state->FindTableById(t->id) == t);
  CHECK(store.state->FindTable("k", "nope") == nullptr);
  CHECK(store.state->FindTable("nope", "t") == nullptr);
  CHECK(store.state->FindTableById(0) == nullptr);
  CHECK(store.state->FindTableById(t->id + 1) == nullptr);

  // An unrelated change makes a new state; the old handle stays as it was.
  store.Run("ALTER TABLE k.t ADD w int;");
  CHECK(t->def.columns.size() == 3);
  CHECK(store.state->FindTable("k", "t")->def.columns.size() == 4);
  CHECK(store.state->FindTable("k", "t")->id == t->id);
}

TEST_CASE("ColumnIndexById finds the column with that id, never for 0 or unknown ids",
          "[catalog_store]") {
  TableSchema table;
  table.column_ids = {0, 0, 7, 3, 5};
  CHECK(table.ColumnIndexById(7) == std::optional<size_t>(2));
  CHECK(table.ColumnIndexById(3) == std::optional<size_t>(3));
  CHECK(table.ColumnIndexById(5) == std::optional<size_t>(4));
  CHECK(table.ColumnIndexById(0) == std::nullopt);
  CHECK(table.ColumnIndexById(1) == std::nullopt);
  CHECK(table.ColumnIndexById(4) == std::nullopt);
  CHECK(TableSchema().ColumnIndexById(1) == std::nullopt);
}

// Applies a schema file statement by statement, as `cellfs cql -f` would,
// skipping statements cellfs does not support and the one index statement
// Cassandra itself refuses (the KillrVideo sample's ENTRIES() of a set).
void RunSchemaFile(Store& store, const std::string& file) {
  const std::string text = testing::ReadTestFile(file);
  REQUIRE(!text.empty());
  CqlParser parser(text);
  int applied = 0;
  for (;;) {
    Statement statement;
    bool done = false;
    REQUIRE(parser.Next(&statement, &done).ok());
    if (done) break;
    Status s = store.Apply(statement);
    INFO(s.ToString());
    REQUIRE((s.ok() || s.code() == StatusCode::kNotSupported ||
             s.message().find("with non-map type") != std::string::npos));
    if (s.ok()) ++applied;
  }
  CHECK(applied > 0);
}

TEST_CASE("the real schema files persist and reload equal", "[catalog_store]") {
  Store store;
  SECTION("hotel") { RunSchemaFile(store, "cql/hotel_tdg.cql"); }
  SECTION("reservation") { RunSchemaFile(store, "cql/reservation_tdg.cql"); }
  SECTION("killrvideo ds220") { RunSchemaFile(store, "cql/killrvideo_ds220_physical.cql"); }
  SECTION("killrvideo sample") { RunSchemaFile(store, "cql/killrvideo_pmcfadin_sample.cql"); }
  SECTION("killrvideo reference") {
    store.Run(
        "CREATE KEYSPACE killrvideo WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}; USE killrvideo;");
    RunSchemaFile(store, "cql/killrvideo_reference_schema.cql");
  }
  SECTION("all five in one store") {
    RunSchemaFile(store, "cql/hotel_tdg.cql");
    RunSchemaFile(store, "cql/reservation_tdg.cql");
    RunSchemaFile(store, "cql/killrvideo_ds220_physical.cql");
    RunSchemaFile(store, "cql/killrvideo_pmcfadin_sample.cql");
    store.session_keyspace = "killrvideo";
    RunSchemaFile(store, "cql/killrvideo_reference_schema.cql");
  }
  REQUIRE(!store.state->ids().empty());
  store.CheckReloadsEqual();
  // Every table has a distinct id below the next one.
  std::set<uint32_t> table_ids;
  for (const auto& [name, ids] : store.state->ids()) {
    CHECK(table_ids.insert(ids.table_id).second);
    CHECK(ids.table_id < store.state->next_table_id());
  }
}

TEST_CASE("corrupt catalog records are refused with Corruption naming the keyspace",
          "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) + "CREATE TABLE k.t (p int PRIMARY KEY, v int);");
  std::string record = store.Get(CatalogKey("k"));
  std::string expected = "keyspace k";

  SECTION("not JSON") { record = "{\"cql\": "; }
  SECTION("not an object") { record = "[1, 2]"; }
  SECTION("no cql") { ReplaceOnce(&record, "\"cql\":", "\"sql\":"); }
  SECTION("CQL that does not parse") {
    record = "{\"cql\":\"CREATE TABLE nope\",\"tables\":{}}";
    expected = "keyspace k: its CQL does not load: line 1";
  }
  SECTION("CQL that does not apply") {
    record = "{\"cql\":\"CREATE TABLE k.t (p int PRIMARY KEY);\",\"tables\":{}}";
    expected = "keyspace k: its CQL does not load";
  }
  SECTION("CQL of another keyspace") {
    ReplaceOnce(&record, "CREATE KEYSPACE k ", "CREATE KEYSPACE j ");
    ReplaceOnce(&record, "CREATE TABLE k.t", "CREATE TABLE j.t");
    expected = "defines keyspace j";
  }
  SECTION("a table without ids") {
    ReplaceOnce(&record, "\"tables\":{\"t\":", "\"tables\":{\"u\":");
    expected = "keyspace k: table t: no ids";
  }
  SECTION("a column without an id") {
    ReplaceOnce(&record, "\"columns\":{\"v\":1}", "\"columns\":{}");
    expected = "keyspace k: table t: no id for column v";
  }
  SECTION("a key column with an id") {
    ReplaceOnce(&record, "\"columns\":{\"v\":1}", "\"columns\":{\"p\":2,\"v\":1}");
    expected = "table t: id for unknown column p";
  }
  SECTION("a column id not below next_column_id") {
    ReplaceOnce(&record, "\"next_column_id\":2", "\"next_column_id\":1");
    expected = "table t: bad id for column v";
  }
  SECTION("a table id of 0") {
    ReplaceOnce(&record, "\"id\":1", "\"id\":0");
    expected = "table t: malformed ids";
  }
  SECTION("a table id too large") {
    ReplaceOnce(&record, "\"id\":1", "\"id\":4294967296");
    expected = "table t: malformed ids";
  }
  store.Put(CatalogKey("k"), record);
  std::shared_ptr<const SchemaState> loaded;
  Status s = store.Load(&loaded);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK_THAT(s.message(), Catch::Contains(expected));
  CHECK(loaded == nullptr);
}

TEST_CASE("two tables stored with the same id are refused", "[catalog_store]") {
  Store store;
  store.Run(std::string(kKeyspace) +
            "CREATE KEYSPACE j WITH replication = {'class': 'SimpleStrategy'};"
            "CREATE TABLE k.t (p int PRIMARY KEY);"
            "CREATE TABLE j.t (p int PRIMARY KEY);");
  REQUIRE(store.TableId("j", "t") == 2);
  std::string record = store.Get(CatalogKey("j"));
  ReplaceOnce(&record, "\"id\":2", "\"id\":1");
  store.Put(CatalogKey("j"), record);
  std::shared_ptr<const SchemaState> loaded;
  Status s = store.Load(&loaded);
  CHECK(s.code() == StatusCode::kCorruption);
  CHECK_THAT(s.message(), Catch::Contains("reuses table id 1"));
}

// Random DDL over a few keyspaces, tables and columns. After every change:
// surviving tables and columns keep their ids, new ones get ids never used
// before, dropped tables are reported, and the store reloads equal.
TEST_CASE("ids stay stable and are never reused under random DDL", "[catalog_store]") {
  Store store;
  std::mt19937 random(20240611);
  auto pick = [&](int n) {
    return std::to_string(std::uniform_int_distribution<int>(0, n - 1)(random));
  };
  std::set<uint32_t> used_table_ids;
  std::map<uint32_t, std::set<uint32_t>> used_column_ids;  // by table id
  int changes = 0;
  for (int step = 0; step < 600; ++step) {
    const std::string ks = "ks" + pick(2);
    const std::string table = ks + ".t" + pick(3);
    const std::string column = "c" + pick(4);
    std::string cql;
    switch (std::uniform_int_distribution<int>(0, 5)(random)) {
      case 0:
        cql = "CREATE KEYSPACE " + ks + " WITH replication = {'class': 'SimpleStrategy'};";
        break;
      case 1:
        cql = "DROP KEYSPACE " + ks + ";";
        break;
      case 2:
        cql = "CREATE TABLE " + table + " (p int PRIMARY KEY, " + column + " int);";
        break;
      case 3:
        cql = "DROP TABLE " + table + ";";
        break;
      case 4:
        cql = "ALTER TABLE " + table + " ADD " + column + " int;";
        break;
      default:
        cql = "ALTER TABLE " + table + " DROP " + column + ";";
        break;
    }
    std::shared_ptr<const SchemaState> before = store.state;
    if (!store.Ddl(cql).ok()) {
      CHECK(store.state == before);
      continue;
    }
    ++changes;
    INFO("step " << step << ": " << cql << "\nbefore:\n"
                 << RenderIds(*before) << "after:\n"
                 << RenderIds(*store.state));
    const auto& after_ids = store.state->ids();
    CHECK(store.state->next_table_id() >= before->next_table_id());
    std::set<uint32_t> dropped;
    for (const auto& [name, ids] : before->ids()) {
      if (!after_ids.contains(name)) dropped.insert(ids.table_id);
    }
    CHECK(std::set<uint32_t>(store.last_dropped.begin(), store.last_dropped.end()) == dropped);
    for (uint32_t id : dropped) CHECK(store.Has(DroppedTableKey(id)));
    for (const auto& [name, ids] : after_ids) {
      auto old = before->ids().find(name);
      if (old == before->ids().end()) {
        CHECK(used_table_ids.insert(ids.table_id).second);
        CHECK(ids.table_id < store.state->next_table_id());
      } else {
        CHECK(ids.table_id == old->second.table_id);
      }
      for (const auto& [col, id] : ids.column_ids) {
        CHECK(id < ids.next_column_id);
        const bool kept = old != before->ids().end() && old->second.column_ids.contains(col);
        if (kept) {
          CHECK(id == old->second.column_ids.at(col));
        } else {
          CHECK(used_column_ids[ids.table_id].insert(id).second);
        }
      }
      TableHandle handle = store.state->FindTableById(ids.table_id);
      REQUIRE(handle != nullptr);
      CHECK(handle->def.keyspace + "." + handle->def.name == name.first + "." + name.second);
    }
    store.CheckReloadsEqual();
    if (step % 50 == 0) store.Reload();
  }
  CHECK(changes > 100);
  CHECK(used_table_ids.size() > 10);
}

}  // namespace
}  // namespace cellfs::storage
