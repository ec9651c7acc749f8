// The demo's data: a few classic query-first models (time-bucketed logs,
// users looked up by two keys, newest-first notification lists with TTL'd
// entries) as CQL and as deterministic, realistic-looking JSON Lines.
#pragma once

#include <string>
#include <vector>

namespace cellfs::tools {

struct DemoTable {
  std::string name;   // "demo.logs"
  std::string jsonl;  // the rows, one JSON object per line
};

// The CQL that creates keyspace `demo` and its tables.
std::string DemoSchema();

// The rows of every demo table, the same on every call. `now_millis` dates
// the logs and notifications (the last three days up to now).
std::vector<DemoTable> DemoRows(long long now_millis);

}  // namespace cellfs::tools
