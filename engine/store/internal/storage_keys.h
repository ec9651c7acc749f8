// The LevelDB key layout (docs/FORMAT.md "Storage layout"): engine metadata,
// the catalog, data entries by (table, token, partition key, kind,
// clustering key, sequence), the expiry index and dropped tables. The one
// place that builds or parses these keys.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/row_fragment.h"
#include "engine/store/storage/address.h"

namespace cellfs::storage {

// First byte of every key: what the key is.
inline constexpr char kMetaTag = 'M';     // M name                  -> engine metadata
inline constexpr char kCatalogTag = 'C';  // C keyspace name         -> catalog record
inline constexpr char kDataTag = 'D';     // D table token pk kind ... -> data entries
inline constexpr char kDroppedTag = 'G';  // G u32 table id          -> dropped, data to reclaim
inline constexpr char kExpiryTag = 'X';   // X i64 due data-key      -> expiry index
inline constexpr char kExpiryBucketTag =
    'E';  // E u32 table u64 bucket i64 due data-key -> a shared store's expiry index
inline constexpr char kIndexTag = 'I';   // I u32 index id value row -> a secondary-index entry
inline constexpr char kViewTag = 'V';    // V u32 view id token pk ck -> a materialized-view entry
inline constexpr char kBuriedTag = 'B';  // B table token pk kind ... -> buried dead rows
inline constexpr char kSnapshotTag =
    'S';  // S snapshot name          -> a dropped or truncated table kept

// What a data entry inside a partition holds. The kind byte follows the
// partition key, so a partition's deletions and static row come before its
// rows, and a slice that starts at the partition prefix reads them first.
enum class EntryKind : uint8_t {
  kPartitionDeletion = 0x00,  // a fragment holding only a deletion
  kRangeDeletion = 0x01,      // value: EncodeRangeDeletion
  kStaticRow = 0x02,          // a fragment of the static row (cells only)
  kRow = 0x03,                // a fragment of the row; the clustering key follows
};

// Every data key ends with an 8-byte sequence number, unique per entry, so
// blind writes never overwrite each other and a row's fragments sit side by
// side. Sequences are below 2^63, so the suffix's first byte is never 0xFF
// and PrefixSuccessor bounds stay exact.
inline constexpr size_t kSequenceBytes = 8;
inline constexpr uint64_t kMaxSequence = (uint64_t{1} << 63) - 1;

// Metadata names (after kMetaTag).
inline constexpr std::string_view kFormatVersionName = "format";    // "1"
inline constexpr std::string_view kSequenceLeaseName = "sequence";  // u64: first unleased sequence
inline constexpr std::string_view kNextTableIdName = "table_id";    // u32: next table id
inline constexpr std::string_view kWriteTimeName = "write_time";    // i64: write-time lease

std::string MetaKey(std::string_view name);
std::string CatalogKey(std::string_view keyspace);
std::string DroppedTableKey(uint32_t table_id);
// Parses a DroppedTableKey; false when `key` is not one.
bool ParseDroppedTableKey(std::string_view key, uint32_t* table_id);

// A partition key resolved for storage.
struct PartitionKey {
  int64_t token = 0;
  // The key columns' EncodeKeyComponent encodings (ASC), concatenated.
  std::string encoded;
};

// Validates `values` (count, each against its type; InvalidArgument naming
// the column otherwise) and computes the token from the canonical values,
// so values that encode alike share a token (docs/FORMAT.md "Tokens").
Status EncodePartitionKey(const TableSchema& table, std::span<const std::string> values,
                          PartitionKey* key);

// Validates and encodes clustering values: all of them (`allow_prefix`
// false) or the first 1..N (true), each with its column's order. Appends to
// `*out`.
Status EncodeClustering(const TableSchema& table, std::span<const std::string> values,
                        bool allow_prefix, std::string* out);

// Decodes a whole encoded clustering key (as RowIterator returns it) or
// encoded partition key into canonical values. Corruption on bad bytes.
Status DecodeClustering(const TableSchema& table, std::string_view encoded,
                        std::vector<std::string>* values);
Status DecodePartitionKey(const TableSchema& table, std::string_view encoded,
                          std::vector<std::string>* values);

// 'D' || u32 table id.
void AppendTablePrefix(uint32_t table_id, std::string* out);
// 'I' || u32 index id: an index's entries' space (docs/FORMAT.md "Index entries").
void AppendIndexPrefix(uint32_t index_id, std::string* out);
// 'V' || u32 view id: a materialized view's entries' space (docs/FORMAT.md
// "View entries"). Its keys are shaped as data keys without kind and
// sequence, so DataAddress and PartitionShardLength (with the view's
// schema) split them.
void AppendViewPrefix(uint32_t view_id, std::string* out);
// 'B' || u32 table id: the table's buried space, where the sweeper keeps the
// rows it found dead (docs/FORMAT.md "Buried rows"), under the same shards
// and keys as in the data space.
void AppendBuriedPrefix(uint32_t table_id, std::string* out);
// Table prefix || token (EncodeToken) || key.encoded.
void AppendPartitionPrefix(uint32_t table_id, const PartitionKey& key, std::string* out);
// The same bytes straight from the key's values, validated as
// EncodePartitionKey validates them, without a PartitionKey in between (a
// write's path). On error `*out` is as it was.
Status AppendPartitionPrefix(const TableSchema& table, std::span<const std::string> values,
                             std::string* out);
// Appends the kind byte; for kRow the caller appends the encoded clustering.
void AppendEntryKind(EntryKind kind, std::string* out);
void AppendSequence(uint64_t sequence, std::string* out);

// The parts of a data key. Views point into the parsed key.
struct DataKey {
  uint32_t table_id = 0;
  int64_t token = 0;
  std::string_view partition_key;  // encoded components
  EntryKind kind = EntryKind::kRow;
  std::string_view clustering;  // kRow only
  uint64_t sequence = 0;
  // The key without its sequence: what a row's fragments share.
  std::string_view group;
  // Table prefix || token || partition key: what a partition's entries share.
  std::string_view partition_prefix;
};

// Splits a data key of `table` (the schema tells where the partition key
// ends). Corruption when it is not one.
Status ParseDataKey(const TableSchema& table, std::string_view key, DataKey* parsed);

// The byte length of the partition key components at the front of
// `encoded` (skips PartitionKeyCount components). Corruption on bad bytes.
Status PartitionKeyLength(const TableSchema& table, std::string_view encoded, size_t* length);

// A range deletion's value: the rows it covers are those whose encoded
// clustering key c has start <= c < end (memcmp); `end` "\xFF" means to the
// end of the partition. Format: varint(len) start varint(len) end fragment
// (docs/FORMAT.md).
struct RangeDeletion {
  std::string start;
  std::string end;
  RowDeletion deletion;
};
void EncodeRangeDeletion(const RangeDeletion& range, std::string* out);
Status DecodeRangeDeletion(std::string_view bytes, RangeDeletion* range);
bool Covers(const RangeDeletion& range, std::string_view clustering);

// The expiry index: one empty-valued entry per (due second, group), where
// group is a DataKey::group (for range deletions, the whole key). The
// sweeper visits entries in due order. Appends 'X' || EncodeToken(due) ||
// group.
void AppendExpiryKey(int64_t due_seconds, std::string_view group, std::string* out);
// Splits an expiry key; false when `key` is not one.
bool ParseExpiryKey(std::string_view key, int64_t* due_seconds, std::string_view* group);

// ---- Addresses (docs/STORAGE_SEAM.md): each key above as (space, shard,
// key), whose concatenation is the key. The views point into `key`.

inline constexpr size_t kTablePrefixBytes = 1 + 4;  // 'D' || u32 table id: a data space
inline constexpr size_t kDueBytes = 8;              // the expiry index's shard

// A metadata, catalog or dropped-table key: its tag is the space, no shard.
Address TaggedAddress(std::string_view key);
// An expiry key: 'X', the due second's 8 bytes, the group.
Address ExpiryAddress(std::string_view key);
// A data key (or group) of a partition whose prefix is its first
// `partition_prefix_size` bytes: the table prefix, the token and partition
// key, the rest.
Address DataAddress(std::string_view key, size_t partition_prefix_size);
// An index entry: the index prefix, the indexed value's component (its
// shard, ending at byte `value_end`), the row's place.
Address IndexAddress(std::string_view key, size_t value_end);
// The partition of a partition prefix (AppendPartitionPrefix).
ShardAddress PartitionShard(std::string_view partition_prefix);
// The same partition in the table's buried space, whose bytes
// (AppendBuriedPrefix) `buried_space` holds.
ShardAddress BuriedShard(std::string_view buried_space, std::string_view partition_prefix);
// The data space of a table (AppendTablePrefix's bytes) within a ShardCursor:
// where a partition ends in `shard_and_key` (token, partition key, rest).
Status PartitionShardLength(const TableSchema& table, std::string_view shard_and_key,
                            size_t* length);

// The table id of a data key or group (the 4 bytes after 'D'); false when
// `key` is shorter than a table prefix or not a data key.
bool ParseTableId(std::string_view key, uint32_t* table_id);

}  // namespace cellfs::storage
