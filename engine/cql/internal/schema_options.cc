// Keyspace and table WITH options: checks, typed values, canonical text.
#include "engine/cql/internal/schema_options.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <set>

#include "engine/cql/internal/type_resolver.h"

namespace cellfs {
namespace {

// Table options Cassandra 3.x/4.x accept that cellfs keeps but does not act on.
constexpr std::array<std::string_view, 21> kKeptTableOptions = {
    "additional_write_policy",
    "allow_auto_snapshot",
    "bloom_filter_fp_chance",
    "caching",
    "cdc",
    "comment",
    "compaction",
    "compression",
    "crc_check_chance",
    "dclocal_read_repair_chance",
    "extensions",
    "id",
    "incremental_backups",
    "max_index_interval",
    "memtable",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair",
    "read_repair_chance",
    "speculative_retry",
    "nodesync",
};

Status OptionError(const OptionValue& value, const std::string& message) {
  return Status::InvalidArgument(AtPosition(value.position, message));
}

Status ParseSeconds(const TableOption& option, int64_t min, int64_t max, int64_t* out) {
  const std::string& text = option.value.text;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const bool numeric = option.value.kind == OptionValue::Kind::kNumber ||
                       option.value.kind == OptionValue::Kind::kString;
  if (!numeric || ec != std::errc() || end != text.data() + text.size()) {
    return OptionError(option.value, option.name + " must be a whole number of seconds, not " +
                                         OptionValueText(option.value));
  }
  if (v < min || v > max) {
    return OptionError(option.value, option.name + " must be between " + std::to_string(min) +
                                         " and " + std::to_string(max) + ", not " + text);
  }
  *out = v;
  return Status::Ok();
}

Status CheckNoDuplicates(const std::vector<TableOption>& options) {
  std::set<std::string> seen;
  for (const auto& o : options) {
    if (!seen.insert(o.name).second) {
      return OptionError(o.value, "option " + o.name + " is given more than once");
    }
  }
  return Status::Ok();
}

}  // namespace

std::string QuoteString(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

std::string StringMapText(const std::vector<std::pair<std::string, std::string>>& entries) {
  auto sorted = entries;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    if ((a.first == "class") != (b.first == "class")) return a.first == "class";
    return a.first < b.first;
  });
  std::string out = "{";
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0) out += ", ";
    out += QuoteString(sorted[i].first) + ": " + QuoteString(sorted[i].second);
  }
  return out + "}";
}

std::string OptionValueText(const OptionValue& value) {
  switch (value.kind) {
    case OptionValue::Kind::kString:
      return QuoteString(value.text);
    case OptionValue::Kind::kNumber:
    case OptionValue::Kind::kBoolean:
      return value.text;
    case OptionValue::Kind::kMap:
      return StringMapText(value.entries);
  }
  return value.text;
}

Status ApplyKeyspaceOptions(const std::vector<TableOption>& options, bool creating,
                            KeyspaceDef* keyspace) {
  CELLFS_RETURN_IF_ERROR(CheckNoDuplicates(options));
  KeyspaceDef updated = *keyspace;
  bool has_replication = false;
  for (const auto& o : options) {
    if (o.name == "replication") {
      if (o.value.kind != OptionValue::Kind::kMap) {
        return OptionError(o.value,
                           "replication must be a map such as {'class': 'SimpleStrategy', "
                           "'replication_factor': 1}");
      }
      updated.replication.clear();
      for (const auto& [k, v] : o.value.entries) updated.replication[k] = v;
      if (!updated.replication.contains("class")) {
        return OptionError(o.value, "replication map is missing its 'class'");
      }
      has_replication = true;
    } else if (o.name == "durable_writes") {
      std::string v = o.value.text;
      std::transform(v.begin(), v.end(), v.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (v != "true" && v != "false") {
        return OptionError(o.value, "durable_writes must be true or false");
      }
      updated.durable_writes = v == "true";
    } else {
      return OptionError(o.value, "unknown keyspace option " + o.name);
    }
  }
  if (creating && !has_replication) {
    return Status::InvalidArgument("missing mandatory option 'replication' for keyspace " +
                                   keyspace->name);
  }
  *keyspace = std::move(updated);
  return Status::Ok();
}

Status ApplyTableOptions(const std::vector<TableOption>& options, TableOptions* table_options) {
  CELLFS_RETURN_IF_ERROR(CheckNoDuplicates(options));
  TableOptions updated = *table_options;
  for (const auto& o : options) {
    if (o.name == "default_time_to_live") {
      CELLFS_RETURN_IF_ERROR(
          ParseSeconds(o, 0, TableOptions::kMaxTtlSeconds, &updated.default_time_to_live));
    } else if (o.name == "gc_grace_seconds") {
      CELLFS_RETURN_IF_ERROR(ParseSeconds(o, 0, INT32_MAX, &updated.gc_grace_seconds));
    } else if (std::find(kKeptTableOptions.begin(), kKeptTableOptions.end(), o.name) !=
               kKeptTableOptions.end()) {
      updated.other[o.name] = OptionValueText(o.value);
    } else {
      return OptionError(o.value, "unknown table option " + o.name);
    }
  }
  *table_options = std::move(updated);
  return Status::Ok();
}

}  // namespace cellfs
