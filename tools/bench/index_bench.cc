// Benchmark of secondary indexes and materialized views (issue 16), each
// figure a ratio to its peer in the same run: batched upserts into a table
// with 1 and 2 indexes and with 1 view beside the same upserts into the bare
// table, an index lookup of 10 matches among N rows beside a read of a
// 10-row partition of the same table, and a read of one row through the
// view (users by name) beside a read of one base row by its key.
// Usage: index_bench [DIR] [repetitions] [rows]. Figures: docs/BENCHMARKS.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/cql/cql_parser.h"
#include "engine/engine.h"
#include "engine/store/index_iterator.h"
#include "tools/bench/bench_util.h"

namespace cellfs {
namespace {

namespace fs = std::filesystem;
using bench::BigEndian;
using bench::Check;
using bench::Clock;
using bench::Median;
using bench::Seconds;

// users (org, id): 10 rows per org; country takes 3 values, tag is "rare"
// on 10 rows of the table and "common" on the rest.
constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.users (org bigint, id int, name text, country text, tag text, "
    "PRIMARY KEY (org, id));";

void RunCql(Engine& engine, const std::string& cql) {
  CqlParser parser(cql);
  std::string keyspace;
  for (bool done = false;;) {
    Statement statement;
    Check(parser.Next(&statement, &done), "parse");
    if (done) return;
    Check(engine.Execute(statement, &keyspace), "ddl");
  }
}

struct Store {
  std::unique_ptr<Engine> engine;
  explicit Store(const fs::path& dir, const std::string& indexes) {
    fs::remove_all(dir);
    EngineOptions options;
    options.background_sweeper = false;
    engine = std::move(Engine::Open(dir.string(), options)).value();
    RunCql(*engine, std::string(kSchema) + indexes);
  }
  TableHandle table() const { return engine->FindTable("ks", "users").value(); }
};

// Upserts `rows` rows, 1000 per batch; rows/s.
double Load(Store& store, size_t rows) {
  const TableHandle t = store.table();
  auto column = [&](const char* wanted) {
    const ColumnDef* found = t->def.FindColumn(wanted);
    return static_cast<size_t>(found - t->def.columns.data());
  };
  const size_t name = column("name"), country = column("country"), tag = column("tag");
  const char* countries[] = {"US", "FR", "DE"};
  auto start = Clock::now();
  for (size_t first = 0; first < rows; first += 1000) {
    Mutation m = store.engine->NewMutation();
    for (size_t i = first; i < std::min(rows, first + 1000); ++i) {
      const std::string pk[] = {BigEndian(i / 10, 8)};
      const std::string ck[] = {BigEndian(i % 10, 4)};
      const ColumnValue cells[] = {
          {name, "user" + std::to_string(i)},
          {country, countries[i % 3]},
          {tag, i % (rows / 10) == 7 ? "rare" : "common"},
      };
      Check(m.Insert(t, pk, ck, cells), "insert");
    }
    Check(store.engine->Apply(std::move(m)), "apply");
  }
  return static_cast<double>(rows) / Seconds(start);
}

size_t TagIndex(const TableSchema& table) {
  for (size_t i = 0; i < table.def.indexes.size(); ++i) {
    if (table.def.indexes[i].column == "tag") return i;
  }
  std::fprintf(stderr, "no index on tag\n");
  std::exit(1);
}

// Microseconds to find and read the 10 rows tagged "rare" through the index.
double LookupMicros(Store& store) {
  const TableHandle t = store.table();
  auto start = Clock::now();
  auto it = std::move(store.engine->NewReadView().NewIndexIterator(t, TagIndex(*t),
                                                                   IndexBounds::Equal("rare")))
                .value();
  size_t seen = 0;
  for (; it->Valid(); it->Next()) {
    if (!it->row().cells.empty()) ++seen;
  }
  const double micros = Seconds(start) * 1e6;
  if (seen != 10) {
    std::fprintf(stderr, "the lookup found %zu rows\n", seen);
    std::exit(1);
  }
  return micros;
}

// Microseconds to read the user named user<n> through the view.
double ViewRowMicros(Store& store, size_t n) {
  const TableHandle view = store.engine->FindTable("ks", "users_by_name").value();
  const std::string pk[] = {"user" + std::to_string(n)};
  auto start = Clock::now();
  auto it = std::move(store.engine->NewReadView().NewRowIterator(view, pk)).value();
  size_t seen = 0;
  for (; it->Valid(); it->Next()) ++seen;
  const double micros = Seconds(start) * 1e6;
  if (seen != 1) {
    std::fprintf(stderr, "the view partition held %zu rows\n", seen);
    std::exit(1);
  }
  return micros;
}

// Microseconds to read base row n by its key.
double BaseRowMicros(Store& store, size_t n) {
  const TableHandle t = store.table();
  const std::string pk[] = {BigEndian(n / 10, 8)};
  const std::string ck[] = {BigEndian(n % 10, 4)};
  auto start = Clock::now();
  auto row = store.engine->NewReadView().GetRow(t, pk, ck);
  const double micros = Seconds(start) * 1e6;
  if (!row.ok() || !row->has_value()) {
    std::fprintf(stderr, "base row %zu not found\n", n);
    std::exit(1);
  }
  return micros;
}

// Microseconds to read partition `org` (10 rows).
double PartitionMicros(Store& store, uint64_t org) {
  const TableHandle t = store.table();
  const std::string pk[] = {BigEndian(org, 8)};
  auto start = Clock::now();
  auto it = std::move(store.engine->NewReadView().NewRowIterator(t, pk)).value();
  size_t seen = 0;
  for (; it->Valid(); it->Next()) ++seen;
  const double micros = Seconds(start) * 1e6;
  if (seen != 10) {
    std::fprintf(stderr, "the partition held %zu rows\n", seen);
    std::exit(1);
  }
  return micros;
}

void Report(const char* name, const std::vector<double>& a, const std::vector<double>& b,
            const char* unit) {
  std::vector<double> ratios;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) ratios.push_back(a[i] / b[i]);
  std::printf("%-40s %12.1f %12.1f  %-8s ratio %.2f [%.2f-%.2f]\n", name, Median(a), Median(b),
              unit, Median(ratios), *std::min_element(ratios.begin(), ratios.end()),
              *std::max_element(ratios.begin(), ratios.end()));
}

int Main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? argv[1] : "/tmp/cellfs-index-bench";
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 5;
  const size_t rows = argc > 3 ? std::stoul(argv[3]) : 1'000'000;
  fs::create_directories(dir);
  const std::string one = "CREATE INDEX ON ks.users (country);";
  const std::string two = one + "CREATE INDEX ON ks.users (tag);";
  const std::string view =
      "CREATE MATERIALIZED VIEW ks.users_by_name AS SELECT name, org, id, country FROM ks.users"
      " WHERE name IS NOT NULL AND org IS NOT NULL AND id IS NOT NULL PRIMARY KEY (name, org, id);";
  const std::string configs[] = {"", one, two, view};

  std::printf("%-40s %12s %12s\n", "benchmark (medians)", "subject", "peer");
  std::printf("(ratio: subject/peer of each repetition's pair, median [min-max])\n");
  std::vector<double> rates[4], lookups, partitions, view_rows, base_rows;
  for (int i = 0; i < repetitions; ++i) {
    // A B C D, then D C B A: no configuration always runs first.
    const std::string order = i % 2 == 0 ? "0123" : "3210";
    for (char c : order) {
      const size_t config = static_cast<size_t>(c - '0');
      Store store(dir / "s", configs[config]);
      rates[config].push_back(Load(store, rows));
      if (c == '3') {
        std::vector<double> v, b;
        for (size_t r = 0; r < 101; ++r) {
          // Different rows: a view read reads its base row, which would
          // leave that row's blocks cached for the base read of it.
          v.push_back(ViewRowMicros(store, r * 7919 % rows));
          b.push_back(BaseRowMicros(store, (r * 7919 + rows / 2) % rows));
        }
        view_rows.push_back(Median(v));
        base_rows.push_back(Median(b));
      }
      if (c != '2') continue;
      std::vector<double> l, p;
      for (int r = 0; r < 101; ++r) {
        l.push_back(LookupMicros(store));
        p.push_back(PartitionMicros(store, static_cast<uint64_t>(r) * 997 % (rows / 10)));
      }
      lookups.push_back(Median(l));
      partitions.push_back(Median(p));
    }
  }
  Report("batched upserts, 1 index / bare table", rates[1], rates[0], "rows/s");
  Report("batched upserts, 2 indexes / bare table", rates[2], rates[0], "rows/s");
  Report("batched upserts, 1 view / bare table", rates[3], rates[0], "rows/s");
  Report("10-match index lookup / 10-row partition", lookups, partitions, "us");
  Report("1-row read via view / base row by key", view_rows, base_rows, "us");
  return 0;
}

}  // namespace
}  // namespace cellfs

int main(int argc, char** argv) { return cellfs::Main(argc, argv); }
