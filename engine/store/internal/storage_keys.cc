// The LevelDB key layout: builds and parses metadata, catalog, data, expiry
// and dropped-table keys, and range deletion values. The grammar is
// docs/FORMAT.md, "Storage layout".
#include "engine/store/internal/storage_keys.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

#include "engine/cql/big_endian.h"
#include "engine/cql/cql_identifier.h"
#include "engine/cql/internal/varint_codec.h"
#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "engine/store/token.h"

namespace cellfs::storage {
namespace {

constexpr size_t kTableIdBytes = 4;
constexpr size_t kTokenBytes = 8;
// Cassandra's limit: a key component's length must fit the u16 of the
// serialized composite partition key.
constexpr size_t kMaxKeyComponentBytes = 0xFFFF;

// True for types whose valid values may differ from what their key encoding
// decodes back to (1.00 vs 1.0, a NaN, trailing null tuple fields, nested
// decimals). Other types decode to the bytes they were given.
bool MayBeNonCanonical(const CqlType& type) {
  switch (type.kind()) {
    case TypeKind::kBoolean:
    case TypeKind::kDecimal:
    case TypeKind::kDouble:
    case TypeKind::kFloat:
    case TypeKind::kVarint:
      return true;
    default:
      return !type.is_native();
  }
}

// Partition key columns are always ascending; clustering columns as declared.
SortOrder KeyOrder(const ColumnDef& column) {
  return column.kind == ColumnKind::kClustering ? column.order : SortOrder::kAsc;
}

std::string ColumnName(const ColumnDef& column) { return QuoteIdentifier(column.name); }

// Validates one key value against its column, as a write must supply it.
Status CheckKeyValue(const ColumnDef& column, std::string_view value) {
  Status status = ValidateValue(*column.type, value);
  if (!status.ok()) {
    return Status::InvalidArgument("column " + ColumnName(column) + ": " + status.message());
  }
  if (value.size() > kMaxKeyComponentBytes) {
    return Status::InvalidArgument("column " + ColumnName(column) + ": key value of " +
                                   std::to_string(value.size()) + " bytes exceeds the maximum of " +
                                   std::to_string(kMaxKeyComponentBytes));
  }
  return Status::Ok();
}

// The error for `given` clustering values where EncodeClustering takes
// `expected` (or 1..expected when `allow_prefix`). Out of line: the check
// itself is made per written row.
Status ClusteringCountError(size_t expected, size_t given, bool allow_prefix) {
  if (!allow_prefix) {
    return Status::InvalidArgument("clustering key needs " + std::to_string(expected) +
                                   " values, got " + std::to_string(given));
  }
  return Status::InvalidArgument("clustering prefix needs 1 to " + std::to_string(expected) +
                                 " values, got " + std::to_string(given));
}

// Encodes one partition key value into `*encoded` and points `*canonical`
// at the value the token hashes: `value` itself when its type has one
// spelling per value, else its canonical form decoded into `*scratch`.
Status EncodePartitionComponent(const ColumnDef& column, const std::string& value,
                                std::string* encoded, std::string* scratch,
                                std::string_view* canonical) {
  const size_t start = encoded->size();
  EncodeKeyComponent(*column.type, value, SortOrder::kAsc, encoded);
  if (!MayBeNonCanonical(*column.type)) {
    *canonical = value;
    return Status::Ok();
  }
  std::string_view component = std::string_view(*encoded).substr(start);
  Status status = DecodeKeyComponent(*column.type, SortOrder::kAsc, &component, scratch);
  if (!status.ok()) return status.WithContext("column " + ColumnName(column));
  if (scratch->size() > kMaxKeyComponentBytes) {
    return Status::InvalidArgument("column " + ColumnName(column) + ": canonical key value of " +
                                   std::to_string(scratch->size()) + " bytes is too long");
  }
  *canonical = *scratch;
  return Status::Ok();
}

// Validates one value of a partition key; `whole_key` when it is a table's
// whole (single-column) key.
Status CheckPartitionKeyValue(const ColumnDef& column, std::string_view value, bool whole_key) {
  CELLFS_RETURN_IF_ERROR(CheckKeyValue(column, value));
  // Cassandra: "Key may not be empty"; a composite's components may be. A
  // materialized view's key may be too: a base row's empty text makes a
  // view row keyed by it, as in Cassandra.
  if (whole_key && value.empty()) {
    return Status::InvalidArgument("column " + ColumnName(column) +
                                   ": partition key may not be empty");
  }
  return Status::Ok();
}

// Validates `values` as EncodePartitionKey does, appends their encoding to
// `*encoded` and sets `*token`. On error `*encoded` may hold a partial key.
Status AppendPartitionKey(const TableSchema& table, std::span<const std::string> values,
                          std::string* encoded, int64_t* token) {
  const size_t count = table.partition_key_count();
  if (values.size() != count) {
    return Status::InvalidArgument("partition key needs " + std::to_string(count) +
                                   " values, got " + std::to_string(values.size()));
  }
  // A single-column key (the common case) hashes its value in place.
  std::vector<std::string> canonical(count > 1 ? count : 0);
  std::string scratch;
  std::string_view single;
  for (size_t i = 0; i < count; ++i) {
    const ColumnDef& column = table.column(i);
    CELLFS_RETURN_IF_ERROR(CheckPartitionKeyValue(column, values[i], count == 1 && !table.view));
    std::string_view view;
    CELLFS_RETURN_IF_ERROR(EncodePartitionComponent(column, values[i], encoded, &scratch, &view));
    if (count > 1) {
      canonical[i] = view;
    } else {
      single = view;
    }
  }
  *token = count > 1 ? ComputeToken(SerializePartitionKey(canonical)) : ComputeToken(single);
  return Status::Ok();
}

// Decodes the key columns first..first+count-1 from the front of `*in`,
// appending their values to `*values` (when not null).
Status DecodeComponents(const TableSchema& table, size_t first, size_t count, std::string_view* in,
                        std::vector<std::string>* values) {
  std::string scratch;
  for (size_t i = first; i < first + count; ++i) {
    const ColumnDef& column = table.column(i);
    std::string* value = values != nullptr ? &values->emplace_back() : &scratch;
    Status status = DecodeKeyComponent(*column.type, KeyOrder(column), in, value);
    if (!status.ok()) return status.WithContext("column " + ColumnName(column));
  }
  return Status::Ok();
}

// Decodes exactly the key columns first..first+count-1 from `encoded`.
Status DecodeWhole(const TableSchema& table, size_t first, size_t count, std::string_view encoded,
                   std::string_view what, std::vector<std::string>* values) {
  std::vector<std::string> decoded;
  decoded.reserve(count);
  CELLFS_RETURN_IF_ERROR(DecodeComponents(table, first, count, &encoded, &decoded));
  if (!encoded.empty()) {
    return Status::Corruption(std::to_string(encoded.size()) + " bytes after the " +
                              std::string(what));
  }
  *values = std::move(decoded);
  return Status::Ok();
}

// Ok when `clustering` is exactly one whole encoded clustering key.
Status CheckClustering(const TableSchema& table, std::string_view clustering) {
  Status status = DecodeComponents(table, table.partition_key_count(), table.clustering_count(),
                                   &clustering, nullptr);
  if (!status.ok()) return status.WithContext("data key clustering");
  if (!clustering.empty()) {
    return Status::Corruption("data key has " + std::to_string(clustering.size()) +
                              " bytes after its clustering key");
  }
  return Status::Ok();
}

// Reads varint(length) || bytes from the front of `*in`.
Status ReadLengthPrefixed(std::string_view* in, std::string_view what, std::string* out) {
  uint64_t length = 0;
  if (!ReadVarint64(in, &length)) {
    return Status::Corruption("range deletion: bad " + std::string(what) + " length");
  }
  if (length > in->size()) {
    return Status::Corruption("range deletion: " + std::string(what) + " length " +
                              std::to_string(length) + " past the end");
  }
  const auto n = static_cast<size_t>(length);
  out->assign(in->substr(0, n));
  in->remove_prefix(n);
  return Status::Ok();
}

void AppendLengthPrefixed(std::string_view bytes, std::string* out) {
  AppendVarint64(bytes.size(), out);
  out->append(bytes);
}

}  // namespace

std::string MetaKey(std::string_view name) {
  std::string key(1, kMetaTag);
  key.append(name);
  return key;
}

std::string CatalogKey(std::string_view keyspace) {
  std::string key(1, kCatalogTag);
  key.append(keyspace);
  return key;
}

std::string DroppedTableKey(uint32_t table_id) {
  std::string key(1, kDroppedTag);
  AppendBigEndian(table_id, kTableIdBytes, &key);
  return key;
}

bool ParseDroppedTableKey(std::string_view key, uint32_t* table_id) {
  if (key.size() != 1 + kTableIdBytes || key[0] != kDroppedTag) return false;
  *table_id = static_cast<uint32_t>(ReadBigEndian(key.substr(1)));
  return true;
}

Status EncodePartitionKey(const TableSchema& table, std::span<const std::string> values,
                          PartitionKey* key) {
  PartitionKey result;
  CELLFS_RETURN_IF_ERROR(AppendPartitionKey(table, values, &result.encoded, &result.token));
  *key = std::move(result);
  return Status::Ok();
}

Status AppendPartitionPrefix(const TableSchema& table, std::span<const std::string> values,
                             std::string* out) {
  const size_t start = out->size();
  if (values.size() == 1 && table.partition_key_count() == 1 &&
      !MayBeNonCanonical(*table.column(0).type)) {
    // The usual key: one value, its own canonical form, so the token is
    // known before the key is encoded and both go straight to `*out`.
    const ColumnDef& column = table.column(0);
    CELLFS_RETURN_IF_ERROR(CheckPartitionKeyValue(column, values[0], !table.view));
    AppendTablePrefix(table.id, out);
    EncodeToken(ComputeToken(values[0]), out);
    EncodeKeyComponent(*column.type, values[0], SortOrder::kAsc, out);
    return Status::Ok();
  }
  AppendTablePrefix(table.id, out);
  // Otherwise the token's place is kept while the key is encoded after it:
  // the token hashes canonical values, which some types only have once
  // encoded and decoded.
  const size_t token_at = out->size();
  out->append(kTokenBytes, '\0');
  int64_t token = 0;
  Status encoded = AppendPartitionKey(table, values, out, &token);
  if (!encoded.ok()) {
    out->resize(start);
    return encoded;
  }
  std::string token_bytes;  // 8 bytes: no allocation
  EncodeToken(token, &token_bytes);
  std::copy(token_bytes.begin(), token_bytes.end(),
            out->begin() + static_cast<std::ptrdiff_t>(token_at));
  return Status::Ok();
}

Status EncodeClustering(const TableSchema& table, std::span<const std::string> values,
                        bool allow_prefix, std::string* out) {
  const size_t expected = table.clustering_count();
  if (allow_prefix ? values.empty() || values.size() > expected : values.size() != expected) {
    return ClusteringCountError(expected, values.size(), allow_prefix);
  }
  const size_t start = out->size();  // written in place, taken back on a bad value
  const size_t first = table.partition_key_count();
  for (size_t i = 0; i < values.size(); ++i) {
    const ColumnDef& column = table.column(first + i);
    Status valid = CheckKeyValue(column, values[i]);
    if (!valid.ok()) {
      out->resize(start);
      return valid;
    }
    EncodeKeyComponent(*column.type, values[i], column.order, out);
  }
  return Status::Ok();
}

Status DecodeClustering(const TableSchema& table, std::string_view encoded,
                        std::vector<std::string>* values) {
  return DecodeWhole(table, table.partition_key_count(), table.clustering_count(), encoded,
                     "clustering key", values);
}

Status DecodePartitionKey(const TableSchema& table, std::string_view encoded,
                          std::vector<std::string>* values) {
  return DecodeWhole(table, 0, table.partition_key_count(), encoded, "partition key", values);
}

void AppendTablePrefix(uint32_t table_id, std::string* out) {
  char bytes[kTablePrefixBytes] = {kDataTag};  // one append: a write makes one per row
  for (size_t i = kTablePrefixBytes; i-- > 1; table_id >>= 8) {
    bytes[i] = static_cast<char>(table_id & 0xff);
  }
  out->append(bytes, kTablePrefixBytes);
}

void AppendBuriedPrefix(uint32_t table_id, std::string* out) {
  out->push_back(kBuriedTag);
  AppendBigEndian(table_id, kTableIdBytes, out);
}

void AppendIndexPrefix(uint32_t index_id, std::string* out) {
  out->push_back(kIndexTag);
  AppendBigEndian(index_id, kTableIdBytes, out);
}

void AppendViewPrefix(uint32_t view_id, std::string* out) {
  out->push_back(kViewTag);
  AppendBigEndian(view_id, kTableIdBytes, out);
}

void AppendPartitionPrefix(uint32_t table_id, const PartitionKey& key, std::string* out) {
  AppendTablePrefix(table_id, out);
  EncodeToken(key.token, out);
  out->append(key.encoded);
}

void AppendEntryKind(EntryKind kind, std::string* out) { out->push_back(static_cast<char>(kind)); }

void AppendSequence(uint64_t sequence, std::string* out) {
  assert(sequence <= kMaxSequence);
  char bytes[kSequenceBytes];  // one append, not a push_back a byte
  for (size_t i = kSequenceBytes; i-- > 0; sequence >>= 8) {
    bytes[i] = static_cast<char>(sequence & 0xff);
  }
  out->append(bytes, kSequenceBytes);
}

Status PartitionKeyLength(const TableSchema& table, std::string_view encoded, size_t* length) {
  std::string_view rest = encoded;
  CELLFS_RETURN_IF_ERROR(DecodeComponents(table, 0, table.partition_key_count(), &rest, nullptr));
  *length = encoded.size() - rest.size();
  return Status::Ok();
}

Status ParseDataKey(const TableSchema& table, std::string_view key, DataKey* parsed) {
  DataKey result;
  if (!ParseTableId(key, &result.table_id)) return Status::Corruption("not a data key");
  if (result.table_id != table.id) {
    return Status::Corruption("data key of table id " + std::to_string(result.table_id) +
                              " parsed as table id " + std::to_string(table.id));
  }
  std::string_view rest = key.substr(kTablePrefixBytes);
  if (!DecodeToken(&rest, &result.token)) return Status::Corruption("data key ends in its token");
  size_t partition_key_length = 0;
  Status status = PartitionKeyLength(table, rest, &partition_key_length);
  if (!status.ok()) return status.WithContext("data key partition key");
  result.partition_key = rest.substr(0, partition_key_length);
  rest.remove_prefix(partition_key_length);
  result.partition_prefix = key.substr(0, key.size() - rest.size());
  if (rest.size() < 1 + kSequenceBytes) {
    return Status::Corruption("data key ends after its partition key");
  }
  const auto kind = static_cast<uint8_t>(rest[0]);
  if (kind > static_cast<uint8_t>(EntryKind::kRow)) {
    return Status::Corruption("data key has unknown entry kind " + std::to_string(kind));
  }
  result.kind = static_cast<EntryKind>(kind);
  rest.remove_prefix(1);
  const std::string_view between = rest.substr(0, rest.size() - kSequenceBytes);
  if (result.kind == EntryKind::kRow) {
    CELLFS_RETURN_IF_ERROR(CheckClustering(table, between));
    result.clustering = between;
  } else if (!between.empty()) {
    return Status::Corruption("data key has " + std::to_string(between.size()) +
                              " bytes between entry kind " + std::to_string(kind) +
                              " and its sequence");
  }
  result.sequence = ReadBigEndian(rest.substr(between.size()));
  if (result.sequence > kMaxSequence) return Status::Corruption("data key sequence above 2^63-1");
  result.group = key.substr(0, key.size() - kSequenceBytes);
  *parsed = result;
  return Status::Ok();
}

void EncodeRangeDeletion(const RangeDeletion& range, std::string* out) {
  AppendLengthPrefixed(range.start, out);
  AppendLengthPrefixed(range.end, out);
  RowFragment fragment;
  fragment.deletion = range.deletion;
  EncodeRowFragment(fragment, out);
}

Status DecodeRangeDeletion(std::string_view bytes, RangeDeletion* range) {
  RangeDeletion result;
  CELLFS_RETURN_IF_ERROR(ReadLengthPrefixed(&bytes, "start", &result.start));
  CELLFS_RETURN_IF_ERROR(ReadLengthPrefixed(&bytes, "end", &result.end));
  RowFragment fragment;
  Status status = DecodeRowFragment(bytes, &fragment);
  if (!status.ok()) return status.WithContext("range deletion");
  if (fragment.marker || !fragment.cells.empty() || !fragment.deletion) {
    return Status::Corruption("range deletion: fragment does not hold exactly a deletion");
  }
  result.deletion = *fragment.deletion;
  *range = std::move(result);
  return Status::Ok();
}

bool Covers(const RangeDeletion& range, std::string_view clustering) {
  // string_view compares through char_traits<char>, whose lt is that of
  // unsigned char: memcmp order, as LevelDB sorts keys.
  return std::string_view(range.start) <= clustering && clustering < std::string_view(range.end);
}

void AppendExpiryKey(int64_t due_seconds, std::string_view group, std::string* out) {
  out->push_back(kExpiryTag);
  EncodeToken(due_seconds, out);
  out->append(group);
}

bool ParseExpiryKey(std::string_view key, int64_t* due_seconds, std::string_view* group) {
  if (key.empty() || key[0] != kExpiryTag) return false;
  std::string_view rest = key.substr(1);
  int64_t due = 0;
  if (!DecodeToken(&rest, &due)) return false;
  uint32_t table_id = 0;
  if (!ParseTableId(rest, &table_id)) return false;
  *due_seconds = due;
  *group = rest;
  return true;
}

bool ParseTableId(std::string_view key, uint32_t* table_id) {
  if (key.size() < kTablePrefixBytes || key[0] != kDataTag) return false;
  *table_id = static_cast<uint32_t>(ReadBigEndian(key.substr(1, kTableIdBytes)));
  return true;
}

Address TaggedAddress(std::string_view key) {
  return {key.substr(0, 1), {}, key.substr(std::min<size_t>(1, key.size()))};
}

Address IndexAddress(std::string_view key, size_t value_end) {
  return {key.substr(0, kTablePrefixBytes),
          key.substr(kTablePrefixBytes, value_end - kTablePrefixBytes), key.substr(value_end)};
}

Address ExpiryAddress(std::string_view key) {
  return {key.substr(0, 1), key.substr(1, kDueBytes), key.substr(1 + kDueBytes)};
}

Address DataAddress(std::string_view key, size_t partition_prefix_size) {
  return {key.substr(0, kTablePrefixBytes),
          key.substr(kTablePrefixBytes, partition_prefix_size - kTablePrefixBytes),
          key.substr(partition_prefix_size)};
}

ShardAddress BuriedShard(std::string_view buried_space, std::string_view partition_prefix) {
  return {buried_space, partition_prefix.substr(kTablePrefixBytes)};
}

ShardAddress PartitionShard(std::string_view partition_prefix) {
  return {partition_prefix.substr(0, kTablePrefixBytes),
          partition_prefix.substr(kTablePrefixBytes)};
}

Status PartitionShardLength(const TableSchema& table, std::string_view shard_and_key,
                            size_t* length) {
  size_t key_length = 0;
  Status parsed = shard_and_key.size() < kTokenBytes
                      ? Status::Corruption("data key shorter than a partition prefix")
                      : PartitionKeyLength(table, shard_and_key.substr(kTokenBytes), &key_length);
  if (!parsed.ok()) return parsed.WithContext("partition of table " + table.def.name);
  *length = kTokenBytes + key_length;
  return Status::Ok();
}

}  // namespace cellfs::storage
