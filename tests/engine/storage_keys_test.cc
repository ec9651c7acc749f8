// Storage keys: every builder round trips through its parser, data keys sort
// as docs/FORMAT.md "Storage layout" says, and bad input is refused.
// std::string's < compares unsigned bytes, as LevelDB's bytewise comparator.
#include "engine/store/internal/storage_keys.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/cql/big_endian.h"
#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "engine/store/token.h"
#include "tests/engine/hex_test_util.h"
#include "tests/engine/schema_script.h"

namespace cellfs::storage {
namespace {

using testing::ToHex;

// A table "ks.t" declared by `definition` (what follows CREATE TABLE ks.t).
TableSchema MakeTable(const std::string& definition, uint32_t id = 7) {
  Catalog catalog;
  const Status created =
      testing::RunScript(catalog,
                         "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                         "'replication_factor': 1};\nCREATE TABLE ks.t " +
                             definition + ";");
  INFO(created.ToString());
  REQUIRE(created.ok());
  const TableDef* def = catalog.FindTable("ks", "t");
  REQUIRE(def != nullptr);
  std::vector<uint32_t> column_ids;
  uint32_t next_id = 1;
  for (const ColumnDef& column : def->columns) {
    column_ids.push_back(column.is_primary_key() ? 0 : next_id++);
  }
  return TableSchema{*def, id, column_ids, {}, {}, {}};
}

// The serialized value of literal `text` in column `column` of `table`.
std::string Value(const TableSchema& table, size_t column, const std::string& text) {
  auto parsed = ParseLiteral(*table.column(column).type, text);
  INFO(text);
  REQUIRE(parsed.ok());
  return parsed.value();
}

PartitionKey MustEncodePartitionKey(const TableSchema& table,
                                    const std::vector<std::string>& values) {
  PartitionKey key;
  const Status status = EncodePartitionKey(table, values, &key);
  INFO(status.ToString());
  REQUIRE(status.ok());
  return key;
}

std::string MustEncodeClustering(const TableSchema& table, const std::vector<std::string>& values) {
  std::string encoded;
  const Status status = EncodeClustering(table, values, /*allow_prefix=*/false, &encoded);
  INFO(status.ToString());
  REQUIRE(status.ok());
  return encoded;
}

std::string DataKeyOf(const TableSchema& table, const PartitionKey& partition, EntryKind kind,
                      std::string_view clustering, uint64_t sequence) {
  std::string key;
  AppendPartitionPrefix(table.id, partition, &key);
  AppendEntryKind(kind, &key);
  key.append(clustering);
  AppendSequence(sequence, &key);
  return key;
}

std::string PartitionPrefixOf(const TableSchema& table, const PartitionKey& partition) {
  std::string prefix;
  AppendPartitionPrefix(table.id, partition, &prefix);
  return prefix;
}

std::string Int32(int32_t v) { return BigEndianBytes(static_cast<uint32_t>(v), 4); }

constexpr const char* kCompositeTable = "(k text, n int, c int, v int, PRIMARY KEY ((k, n), c))";
constexpr const char* kWideTable =
    "(p int, a int, b text, s int static, v int, PRIMARY KEY (p, a, b)) "
    "WITH CLUSTERING ORDER BY (a ASC, b DESC)";

TEST_CASE("meta, catalog and dropped-table keys carry their tag and round trip", "[storage]") {
  CHECK(MetaKey(kFormatVersionName) == "Mformat");
  CHECK(MetaKey(kSequenceLeaseName) == "Msequence");
  CHECK(CatalogKey("ks") == "Cks");
  CHECK(ToHex(DroppedTableKey(0x01020304)) == "4701020304");

  uint32_t id = 0;
  for (uint32_t table_id : {0u, 1u, 255u, 256u, 0xFFFFFFFFu}) {
    REQUIRE(ParseDroppedTableKey(DroppedTableKey(table_id), &id));
    CHECK(id == table_id);
  }
  CHECK(DroppedTableKey(255) < DroppedTableKey(256));
  CHECK_FALSE(ParseDroppedTableKey("G\x01\x02\x03", &id));
  CHECK_FALSE(ParseDroppedTableKey(std::string("G\x01\x02\x03\x04\x05"), &id));
  CHECK_FALSE(ParseDroppedTableKey(std::string("D\x01\x02\x03\x04"), &id));
  CHECK_FALSE(ParseDroppedTableKey("", &id));
}

TEST_CASE("a partition key encodes its components and hashes their serialization", "[storage]") {
  SECTION("composite") {
    const TableSchema table = MakeTable(kCompositeTable);
    const std::vector<std::string> values = {"abc", Int32(-5)};
    const PartitionKey key = MustEncodePartitionKey(table, values);
    std::string expected;
    EncodeKeyComponent(*table.column(0).type, values[0], SortOrder::kAsc, &expected);
    EncodeKeyComponent(*table.column(1).type, values[1], SortOrder::kAsc, &expected);
    CHECK(ToHex(key.encoded) == ToHex(expected));
    CHECK(key.token == ComputeToken(SerializePartitionKey(values)));
    std::vector<std::string> decoded;
    REQUIRE(DecodePartitionKey(table, key.encoded, &decoded).ok());
    CHECK(decoded == values);
  }
  SECTION("single text column, hashed as given") {
    const TableSchema table = MakeTable("(k text PRIMARY KEY, v int)");
    const PartitionKey key = MustEncodePartitionKey(table, {"héllo"});
    CHECK(key.token == ComputeToken("héllo"));
    std::vector<std::string> decoded;
    REQUIRE(DecodePartitionKey(table, key.encoded, &decoded).ok());
    CHECK(decoded == std::vector<std::string>{"héllo"});
  }
}

TEST_CASE("equal values spelled differently share one token and one encoding", "[storage]") {
  SECTION("decimal 1.0 and 1.00") {
    const TableSchema table = MakeTable("(k decimal PRIMARY KEY, v int)");
    const PartitionKey a = MustEncodePartitionKey(table, {Value(table, 0, "1.0")});
    const PartitionKey b = MustEncodePartitionKey(table, {Value(table, 0, "1.00")});
    CHECK(Value(table, 0, "1.0") != Value(table, 0, "1.00"));
    CHECK(a.token == b.token);
    CHECK(a.encoded == b.encoded);
    // The canonical form of 1.0 is 1 (unscaled 1, scale 0).
    CHECK(a.token == ComputeToken(Value(table, 0, "1")));
    std::vector<std::string> decoded;
    REQUIRE(DecodePartitionKey(table, b.encoded, &decoded).ok());
    CHECK(decoded == std::vector<std::string>{Value(table, 0, "1")});
  }
  SECTION("decimal inside a composite key") {
    const TableSchema table = MakeTable("(d decimal, t text, v int, PRIMARY KEY ((d, t)))");
    const PartitionKey a = MustEncodePartitionKey(table, {Value(table, 0, "2.50"), "x"});
    const PartitionKey b = MustEncodePartitionKey(table, {Value(table, 0, "2.5000"), "x"});
    CHECK(a.token == b.token);
    CHECK(a.encoded == b.encoded);
    CHECK(a.token == ComputeToken(SerializePartitionKey({Value(table, 0, "2.5"), "x"})));
  }
  SECTION("tuple with and without a trailing null") {
    const TableSchema table = MakeTable("(k frozen<tuple<int, int>> PRIMARY KEY, v int)");
    const PartitionKey a = MustEncodePartitionKey(table, {Value(table, 0, "(1, null)")});
    const PartitionKey b = MustEncodePartitionKey(table, {Value(table, 0, "(1)")});
    CHECK(a.token == b.token);
    CHECK(a.encoded == b.encoded);
  }
  SECTION("set of decimals") {
    const TableSchema table = MakeTable("(k frozen<set<decimal>> PRIMARY KEY, v int)");
    const PartitionKey a = MustEncodePartitionKey(table, {Value(table, 0, "{1.0, 2}")});
    const PartitionKey b = MustEncodePartitionKey(table, {Value(table, 0, "{1.00, 2.0}")});
    CHECK(a.token == b.token);
    CHECK(a.encoded == b.encoded);
    CHECK(a.token == ComputeToken(Value(table, 0, "{1, 2}")));
  }
}

TEST_CASE("data keys of random partitions sort by token, then by encoded key", "[storage]") {
  const TableSchema table = MakeTable(kCompositeTable);
  std::mt19937_64 rng(20240611);
  const std::vector<std::string> texts = {"", "a", "ab", "a\xc3\xa9", "\xe2\x82\xac", "zz", "b"};
  std::vector<std::pair<std::string, PartitionKey>> entries;
  std::set<std::string> seen;
  for (int i = 0; i < 400; ++i) {
    const std::string text = texts[rng() % texts.size()] + std::to_string(rng() % 50);
    const auto n = static_cast<int32_t>(static_cast<int64_t>(rng() % 2001) - 1000);
    const PartitionKey key = MustEncodePartitionKey(table, {text, Int32(n)});
    if (!seen.insert(key.encoded).second) continue;
    entries.emplace_back(
        DataKeyOf(table, key, EntryKind::kRow, MustEncodeClustering(table, {Int32(0)}), rng() >> 1),
        key);
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (size_t i = 1; i < entries.size(); ++i) {
    const PartitionKey& prev = entries[i - 1].second;
    const PartitionKey& next = entries[i].second;
    INFO(i);
    CHECK((prev.token < next.token || (prev.token == next.token && prev.encoded < next.encoded)));
  }
  for (const auto& [key, partition] : entries) {
    DataKey parsed;
    REQUIRE(ParseDataKey(table, key, &parsed).ok());
    CHECK(parsed.token == partition.token);
    CHECK(parsed.partition_key == partition.encoded);
  }
}

// One entry of a partition, as the ordering test builds it.
struct Entry {
  EntryKind kind;
  int32_t a = 0;  // clustering column a (ASC), kRow only
  std::string b;  // clustering column b (DESC), kRow only
  uint64_t sequence;
  std::string key;
};

// The documented order of a partition's entries: kind, then (a ASC, b DESC)
// for rows, then sequence.
bool ReferenceLess(const Entry& x, const Entry& y) {
  if (x.kind != y.kind) return x.kind < y.kind;
  if (x.kind == EntryKind::kRow) {
    if (x.a != y.a) return x.a < y.a;
    if (x.b != y.b) return x.b > y.b;  // std::string compares bytes unsigned
  }
  return x.sequence < y.sequence;
}

std::vector<Entry> RandomPartitionEntries(const TableSchema& table, const PartitionKey& partition,
                                          std::mt19937_64& rng) {
  const std::vector<int32_t> as = {std::numeric_limits<int32_t>::min(), -300, -1, 0, 1, 255, 256,
                                   std::numeric_limits<int32_t>::max()};
  const std::vector<std::string> bs = {"", "a", "a\xc3\xa9", "ab", "b", "\xe2\x82\xac", "\x7f"};
  std::vector<Entry> entries;
  auto add = [&](EntryKind kind, int32_t a, const std::string& b) {
    Entry entry{kind, a, b, rng() >> 1, ""};
    const std::string clustering =
        kind == EntryKind::kRow ? MustEncodeClustering(table, {Int32(a), b}) : "";
    entry.key = DataKeyOf(table, partition, kind, clustering, entry.sequence);
    entries.push_back(entry);
  };
  add(EntryKind::kPartitionDeletion, 0, "");
  for (int i = 0; i < 3; ++i) add(EntryKind::kRangeDeletion, 0, "");
  for (int i = 0; i < 2; ++i) add(EntryKind::kStaticRow, 0, "");
  for (int i = 0; i < 60; ++i) {
    const int32_t a = as[rng() % as.size()];
    const std::string& b = bs[rng() % bs.size()];
    const size_t fragments = 1 + rng() % 3;
    for (size_t f = 0; f < fragments; ++f) add(EntryKind::kRow, a, b);
  }
  add(EntryKind::kRow, std::numeric_limits<int32_t>::max(), "");  // the last row
  return entries;
}

TEST_CASE("a partition's entries sort deletions, static row, then rows in clustering order",
          "[storage]") {
  const TableSchema table = MakeTable(kWideTable);
  std::mt19937_64 rng(7);
  const PartitionKey partition = MustEncodePartitionKey(table, {Int32(42)});
  std::vector<Entry> entries = RandomPartitionEntries(table, partition, rng);
  std::shuffle(entries.begin(), entries.end(), rng);
  std::sort(entries.begin(), entries.end(),
            [](const Entry& x, const Entry& y) { return x.key < y.key; });

  std::map<std::string, std::pair<size_t, size_t>> group_span;  // group -> first, last index
  for (size_t i = 0; i < entries.size(); ++i) {
    INFO(i);
    if (i > 0) CHECK(ReferenceLess(entries[i - 1], entries[i]));
    DataKey parsed;
    REQUIRE(ParseDataKey(table, entries[i].key, &parsed).ok());
    CHECK(parsed.kind == entries[i].kind);
    CHECK(parsed.sequence == entries[i].sequence);
    auto [it, inserted] = group_span.try_emplace(std::string(parsed.group), i, i);
    if (!inserted) it->second.second = i;
  }
  // A row's fragments share a group and sit side by side.
  std::map<std::string, size_t> group_sizes;
  for (const Entry& entry : entries) {
    ++group_sizes[entry.key.substr(0, entry.key.size() - kSequenceBytes)];
  }
  for (const auto& [group, span] : group_span) {
    CHECK(span.second - span.first + 1 == group_sizes[group]);
  }
}

TEST_CASE("the successor of a partition prefix bounds exactly that partition's entries",
          "[storage]") {
  const TableSchema table = MakeTable(kWideTable);
  std::mt19937_64 rng(99);
  std::vector<std::string> prefixes;
  std::vector<std::pair<std::string, size_t>> keys;  // key, index of its partition
  for (int32_t p : {-7, 0, 1, 2, 3, 1000, std::numeric_limits<int32_t>::max()}) {
    const PartitionKey partition = MustEncodePartitionKey(table, {Int32(p)});
    prefixes.push_back(PartitionPrefixOf(table, partition));
    for (const Entry& entry : RandomPartitionEntries(table, partition, rng)) {
      keys.emplace_back(entry.key, prefixes.size() - 1);
    }
    // The highest key a partition can hold.
    const std::string last_clustering =
        MustEncodeClustering(table, {Int32(std::numeric_limits<int32_t>::max()), ""});
    keys.emplace_back(DataKeyOf(table, partition, EntryKind::kRow, last_clustering, kMaxSequence),
                      prefixes.size() - 1);
  }
  for (size_t p = 0; p < prefixes.size(); ++p) {
    const std::string successor = PrefixSuccessor(prefixes[p]);
    for (const auto& [key, owner] : keys) {
      const bool inside = prefixes[p] <= key && key < successor;
      CHECK(inside == (owner == p));
    }
  }
  // The same holds one level up, for the table prefix.
  std::string table_prefix;
  AppendTablePrefix(table.id, &table_prefix);
  std::string next_table;
  AppendTablePrefix(table.id + 1, &next_table);
  for (const auto& entry : keys) {
    CHECK(table_prefix <= entry.first);
    CHECK(entry.first < PrefixSuccessor(table_prefix));
  }
  CHECK(PrefixSuccessor(table_prefix) <= next_table);
}

TEST_CASE("a data key of every kind parses back into its parts", "[storage]") {
  const TableSchema table = MakeTable(kWideTable);
  const PartitionKey partition = MustEncodePartitionKey(table, {Int32(3)});
  const std::string prefix = PartitionPrefixOf(table, partition);
  const std::string clustering = MustEncodeClustering(table, {Int32(-2), "x\xc3\xa9"});
  for (EntryKind kind : {EntryKind::kPartitionDeletion, EntryKind::kRangeDeletion,
                         EntryKind::kStaticRow, EntryKind::kRow}) {
    for (uint64_t sequence :
         {uint64_t{0}, uint64_t{1}, uint64_t{0x0102030405060708}, kMaxSequence}) {
      const std::string own_clustering = kind == EntryKind::kRow ? clustering : "";
      const std::string key = DataKeyOf(table, partition, kind, own_clustering, sequence);
      DataKey parsed;
      const Status status = ParseDataKey(table, key, &parsed);
      INFO(status.ToString());
      REQUIRE(status.ok());
      CHECK(parsed.table_id == table.id);
      CHECK(parsed.token == partition.token);
      CHECK(parsed.partition_key == partition.encoded);
      CHECK(parsed.kind == kind);
      CHECK(parsed.clustering == own_clustering);
      CHECK(parsed.sequence == sequence);
      CHECK(parsed.partition_prefix == prefix);
      CHECK(parsed.group == key.substr(0, key.size() - kSequenceBytes));
      CHECK(static_cast<uint8_t>(key[key.size() - kSequenceBytes]) != 0xFF);
      uint32_t id = 0;
      REQUIRE(ParseTableId(key, &id));
      CHECK(id == table.id);
      REQUIRE(ParseTableId(parsed.group, &id));
      CHECK(id == table.id);
    }
  }
  SECTION("a table without clustering columns has rows with an empty clustering key") {
    const TableSchema flat = MakeTable("(k text PRIMARY KEY, v int)");
    const PartitionKey key = MustEncodePartitionKey(flat, {"k"});
    std::string clustering_out = "unchanged";
    REQUIRE(EncodeClustering(flat, {}, false, &clustering_out).ok());
    CHECK(clustering_out == "unchanged");
    DataKey parsed;
    REQUIRE(ParseDataKey(flat, DataKeyOf(flat, key, EntryKind::kRow, "", 5), &parsed).ok());
    CHECK(parsed.clustering.empty());
    CHECK(parsed.sequence == 5);
  }
}

TEST_CASE("sequence suffixes are big-endian and never start with 0xFF", "[storage]") {
  std::string out;
  AppendSequence(0x0102030405060708, &out);
  CHECK(ToHex(out) == "0102030405060708");
  out.clear();
  AppendSequence(kMaxSequence, &out);
  CHECK(ToHex(out) == "7fffffffffffffff");
}

TEST_CASE("clustering keys encode per column order and decode to canonical values", "[storage]") {
  const TableSchema table = MakeTable(kWideTable);
  const std::vector<std::string> values = {Int32(12), "b"};
  const std::string encoded = MustEncodeClustering(table, values);
  std::string expected;
  EncodeKeyComponent(*table.column(1).type, values[0], SortOrder::kAsc, &expected);
  EncodeKeyComponent(*table.column(2).type, values[1], SortOrder::kDesc, &expected);
  CHECK(ToHex(encoded) == ToHex(expected));
  std::vector<std::string> decoded;
  REQUIRE(DecodeClustering(table, encoded, &decoded).ok());
  CHECK(decoded == values);

  SECTION("a prefix is accepted only when asked for") {
    const std::vector<std::string> first = {Int32(12)};
    std::string prefix = "x";
    CHECK(EncodeClustering(table, first, /*allow_prefix=*/false, &prefix).code() ==
          StatusCode::kInvalidArgument);
    CHECK(prefix == "x");
    CHECK(EncodeClustering(table, first, /*allow_prefix=*/true, &prefix).ok());
    CHECK(prefix == "x" + encoded.substr(0, 5));
    CHECK(EncodeClustering(table, values, /*allow_prefix=*/true, &prefix).ok());
  }
  SECTION("decoding wants the whole key and nothing more") {
    CHECK(DecodeClustering(table, encoded.substr(0, 5), &decoded).code() ==
          StatusCode::kCorruption);
    CHECK(DecodeClustering(table, encoded + "\x03", &decoded).code() == StatusCode::kCorruption);
    std::vector<std::string> pk;
    CHECK(DecodePartitionKey(table, MustEncodePartitionKey(table, {Int32(1)}).encoded + "z", &pk)
              .code() == StatusCode::kCorruption);
  }
  SECTION("decimals come back canonical") {
    const TableSchema dec = MakeTable("(k int, d decimal, v int, PRIMARY KEY (k, d))");
    const std::string a = MustEncodeClustering(dec, {Value(dec, 1, "1.50")});
    CHECK(a == MustEncodeClustering(dec, {Value(dec, 1, "1.5")}));
    REQUIRE(DecodeClustering(dec, a, &decoded).ok());
    CHECK(decoded == std::vector<std::string>{Value(dec, 1, "1.5")});
  }
}

TEST_CASE("the partition key length skips exactly the partition key components", "[storage]") {
  const TableSchema table = MakeTable(kCompositeTable);
  const PartitionKey key = MustEncodePartitionKey(table, {std::string("a\0b", 3), Int32(9)});
  size_t length = 0;
  REQUIRE(PartitionKeyLength(table, key.encoded + "\x03\x80rest", &length).ok());
  CHECK(length == key.encoded.size());
  CHECK(PartitionKeyLength(table, key.encoded.substr(0, key.encoded.size() - 1), &length).code() ==
        StatusCode::kCorruption);
  CHECK(PartitionKeyLength(table, "\x01", &length).code() == StatusCode::kCorruption);
}

TEST_CASE("key values with the wrong count or invalid bytes are refused", "[storage]") {
  const TableSchema composite = MakeTable(kCompositeTable);
  const TableSchema wide = MakeTable(kWideTable);
  PartitionKey key;
  key.token = 123;
  SECTION("wrong partition key count") {
    const Status status = EncodePartitionKey(composite, std::vector<std::string>{"a"}, &key);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK(status.message() == "partition key needs 2 values, got 1");
    CHECK(EncodePartitionKey(composite, std::vector<std::string>{"a", Int32(1), Int32(2)}, &key)
              .code() == StatusCode::kInvalidArgument);
    CHECK(key.token == 123);
  }
  SECTION("invalid values name their column") {
    Status status = EncodePartitionKey(composite, std::vector<std::string>{"\xff", Int32(1)}, &key);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains("column k"));
    status = EncodePartitionKey(composite, std::vector<std::string>{"a", "\x01\x02\x03"}, &key);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains("column n"));
    std::string out = "keep";
    status = EncodeClustering(wide, std::vector<std::string>{Int32(1), "\xc3"}, false, &out);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains("column b"));
    CHECK(out == "keep");
  }
  SECTION("an empty single-column partition key") {
    const TableSchema single = MakeTable("(k text PRIMARY KEY, v int)");
    const Status status = EncodePartitionKey(single, std::vector<std::string>{""}, &key);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains("empty"));
    // Composite keys may have empty components.
    CHECK(EncodePartitionKey(composite, std::vector<std::string>{"", ""}, &key).ok());
  }
  SECTION("a component of 64 KiB or more") {
    const TableSchema single = MakeTable("(k text PRIMARY KEY, v int)");
    CHECK(EncodePartitionKey(single, std::vector<std::string>{std::string(65536, 'x')}, &key)
              .code() == StatusCode::kInvalidArgument);
    CHECK(EncodePartitionKey(single, std::vector<std::string>{std::string(65535, 'x')}, &key).ok());
    CHECK(EncodePartitionKey(composite, std::vector<std::string>{std::string(65536, 'x'), Int32(1)},
                             &key)
              .code() == StatusCode::kInvalidArgument);
  }
  SECTION("wrong clustering counts") {
    std::string out;
    Status status = EncodeClustering(wide, std::vector<std::string>{Int32(1)}, false, &out);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK(status.message() == "clustering key needs 2 values, got 1");
    CHECK(EncodeClustering(wide, {}, true, &out).code() == StatusCode::kInvalidArgument);
    CHECK(EncodeClustering(wide, std::vector<std::string>{Int32(1), "a", "b"}, true, &out).code() ==
          StatusCode::kInvalidArgument);
    CHECK(out.empty());
  }
}

TEST_CASE("malformed data keys are corruption, never a crash", "[storage]") {
  const TableSchema table = MakeTable(kWideTable);
  const PartitionKey partition = MustEncodePartitionKey(table, {Int32(5)});
  const std::string clustering = MustEncodeClustering(table, {Int32(1), "ab"});
  std::vector<std::string> valid;
  for (EntryKind kind : {EntryKind::kPartitionDeletion, EntryKind::kRangeDeletion,
                         EntryKind::kStaticRow, EntryKind::kRow}) {
    valid.push_back(DataKeyOf(table, partition, kind, kind == EntryKind::kRow ? clustering : "",
                              0x0000000100000002));
  }
  const std::string prefix = PartitionPrefixOf(table, partition);
  const std::string sequence = BigEndianBytes(1, kSequenceBytes);
  DataKey parsed;
  auto code_of = [&](const std::string& key) { return ParseDataKey(table, key, &parsed).code(); };

  SECTION("every truncation") {
    for (const std::string& key : valid) {
      for (size_t n = 0; n < key.size(); ++n) {
        INFO(ToHex(key.substr(0, n)));
        CHECK(code_of(key.substr(0, n)) == StatusCode::kCorruption);
      }
    }
  }
  SECTION("an unknown kind") {
    CHECK(code_of(prefix + "\x04" + sequence) == StatusCode::kCorruption);
    CHECK(code_of(prefix + "\xff" + sequence) == StatusCode::kCorruption);
  }
  SECTION("bytes between the kind and the sequence") {
    for (char kind : {'\x00', '\x01', '\x02'}) {
      CHECK(code_of(prefix + kind + "\x03" + sequence) == StatusCode::kCorruption);
    }
    CHECK(code_of(prefix + "\x03" + clustering + "\x03" + sequence) == StatusCode::kCorruption);
  }
  SECTION("a sequence of 2^63 or more") {
    CHECK(code_of(prefix + '\x02' + BigEndianBytes(kMaxSequence + 1, 8)) ==
          StatusCode::kCorruption);
  }
  SECTION("another tag or another table") {
    std::string other = valid[0];
    other[0] = 'X';
    CHECK(code_of(other) == StatusCode::kCorruption);
    other = valid[0];
    other[4] = static_cast<char>(other[4] + 1);
    CHECK(code_of(other) == StatusCode::kCorruption);
  }
  SECTION("random byte damage is either a valid key or corruption") {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 5000; ++i) {
      std::string key = valid[rng() % valid.size()];
      for (size_t flips = 1 + rng() % 3; flips > 0; --flips) {
        key[rng() % key.size()] = static_cast<char>(rng());
      }
      if (rng() % 4 == 0) key.resize(rng() % (key.size() + 1));
      const Status status = ParseDataKey(table, key, &parsed);
      CHECK((status.ok() || status.code() == StatusCode::kCorruption));
    }
  }
}

TEST_CASE("range deletions round trip and cover start <= c < end in unsigned byte order",
          "[storage]") {
  const RowDeletion deletion{1'700'000'000'000'000, 1'700'000'000};
  for (const RangeDeletion& range :
       {RangeDeletion{"", "\xff", deletion}, RangeDeletion{"\x03\x80", "\x03\x90", deletion},
        RangeDeletion{std::string(300, 'a'), std::string("\x03\x00\xff", 3), {-5, -1}}}) {
    std::string bytes;
    EncodeRangeDeletion(range, &bytes);
    RangeDeletion decoded;
    REQUIRE(DecodeRangeDeletion(bytes, &decoded).ok());
    CHECK(decoded.start == range.start);
    CHECK(decoded.end == range.end);
    CHECK(decoded.deletion == range.deletion);
  }
  const RangeDeletion range{"\x03\x80", "\x03\x90", deletion};
  CHECK_FALSE(Covers(range, "\x03\x7f"));
  CHECK_FALSE(Covers(range, "\x03"));
  CHECK(Covers(range, "\x03\x80"));
  CHECK(Covers(range, std::string_view("\x03\x80\x00", 3)));
  CHECK(Covers(range, "\x03\x8f\xff"));
  CHECK_FALSE(Covers(range, "\x03\x90"));
  CHECK_FALSE(Covers(range, "\x03\xa0"));
  const RangeDeletion to_end{"\x03\x10", "\xff", deletion};
  CHECK(Covers(to_end, "\xfe\xff\xff"));
  CHECK(Covers(to_end, "\x03\x10"));
  CHECK_FALSE(Covers(to_end, "\x02\xff"));
}

TEST_CASE("malformed range deletion values are corruption", "[storage]") {
  std::string valid;
  EncodeRangeDeletion({"\x03\x01", "\x03\x05", {10, 20}}, &valid);
  RangeDeletion range;
  auto code_of = [&](std::string_view bytes) { return DecodeRangeDeletion(bytes, &range).code(); };
  for (size_t n = 0; n < valid.size(); ++n) {
    INFO(n);
    CHECK(code_of(valid.substr(0, n)) == StatusCode::kCorruption);
  }
  CHECK(code_of(valid + std::string(1, '\0')) == StatusCode::kCorruption);
  CHECK(code_of("\x05\x01") == StatusCode::kCorruption);  // start longer than the value

  auto with_fragment = [](const RowFragment& fragment) {
    std::string bytes = "\x01\x03\x01\xff";
    EncodeRowFragment(fragment, &bytes);
    return bytes;
  };
  RowFragment only_deletion;
  only_deletion.deletion = RowDeletion{10, 20};
  CHECK(code_of(with_fragment(only_deletion)) == StatusCode::kOk);
  RowFragment with_marker = only_deletion;
  with_marker.marker = RowMarker{30, 0, 0};
  CHECK(code_of(with_fragment(with_marker)) == StatusCode::kCorruption);
  RowFragment with_cell = only_deletion;
  with_cell.cells.push_back(RowCell{1, Cell::Live(30, "v")});
  CHECK(code_of(with_fragment(with_cell)) == StatusCode::kCorruption);
  CHECK(code_of(with_fragment(RowFragment{})) == StatusCode::kCorruption);
}

TEST_CASE("expiry keys round trip and sort by due second, negative ones first", "[storage]") {
  const TableSchema table = MakeTable(kWideTable);
  const PartitionKey partition = MustEncodePartitionKey(table, {Int32(1)});
  const std::string entry_key = DataKeyOf(table, partition, EntryKind::kStaticRow, "", 0);
  const std::string group = entry_key.substr(0, entry_key.size() - kSequenceBytes);
  std::mt19937_64 rng(3);
  std::vector<int64_t> dues = {
      std::numeric_limits<int64_t>::min(), -1'000'000, -1, 0, 1, 1'700'000'000,
      std::numeric_limits<int64_t>::max()};
  for (int i = 0; i < 200; ++i) dues.push_back(static_cast<int64_t>(rng()));
  std::vector<std::pair<std::string, int64_t>> keys;
  for (int64_t due : dues) {
    std::string key;
    AppendExpiryKey(due, group, &key);
    CHECK(key[0] == kExpiryTag);
    int64_t parsed_due = 0;
    std::string_view parsed_group;
    REQUIRE(ParseExpiryKey(key, &parsed_due, &parsed_group));
    CHECK(parsed_due == due);
    CHECK(parsed_group == group);
    keys.emplace_back(key, due);
  }
  std::sort(keys.begin(), keys.end());
  for (size_t i = 1; i < keys.size(); ++i) CHECK(keys[i - 1].second <= keys[i].second);

  int64_t due = 0;
  std::string_view parsed_group;
  CHECK_FALSE(ParseExpiryKey("", &due, &parsed_group));
  CHECK_FALSE(ParseExpiryKey(std::string("X\x80\x00\x00\x00", 5), &due, &parsed_group));
  std::string not_data;
  AppendExpiryKey(5, std::string_view("C\x00\x00\x00\x07", 5), &not_data);
  CHECK_FALSE(ParseExpiryKey(not_data, &due, &parsed_group));
  std::string wrong_tag;
  AppendExpiryKey(5, group, &wrong_tag);
  wrong_tag[0] = 'D';
  CHECK_FALSE(ParseExpiryKey(wrong_tag, &due, &parsed_group));
}

TEST_CASE("the table id is read from any data key or group", "[storage]") {
  uint32_t id = 0;
  std::string prefix;
  AppendTablePrefix(0xA1B2C3D4, &prefix);
  CHECK(ToHex(prefix) == "44a1b2c3d4");
  REQUIRE(ParseTableId(prefix, &id));
  CHECK(id == 0xA1B2C3D4);
  REQUIRE(ParseTableId(prefix + "more", &id));
  CHECK(id == 0xA1B2C3D4);
  CHECK_FALSE(ParseTableId(prefix.substr(0, 4), &id));
  CHECK_FALSE(ParseTableId(std::string("G\x00\x00\x00\x01", 5), &id));
}

}  // namespace
}  // namespace cellfs::storage
