// Issue 5's bulk-load benchmark, the parts run_bulk_bench.sh needs from C++:
// the rows of `(p int, c int, a text, b bigint, d double, PRIMARY KEY (p, c))`
// written as JSON Lines and CSV, and the engine's own batch API loading the
// same rows. Usage: bulk_bench generate|engine ... (see Usage()).
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/cql/cql_parser.h"
#include "engine/cql/literal.h"
#include "engine/engine.h"

namespace cellfs {
namespace {

namespace stdfs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kSchema =
    "CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE b.t (p int, c int, a text, b bigint, d double, PRIMARY KEY (p, c));";

// One row as the text both files and the CQL literals share.
struct RowText {
  std::string p, c, a, b, d;
};

// Row `i` of a load of `partitions` x `per_partition` rows, partition after
// partition, each in clustering order (as a dump or a sorted export gives
// them). Values are derived from i by a multiplicative hash, so every run
// writes the same bytes.
RowText MakeRow(uint64_t i, uint64_t per_partition) {
  const uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull;
  char d[32];
  std::snprintf(d, sizeof d, "%" PRIu64 ".%03" PRIu64, (h >> 20) % 100000, (h >> 40) % 1000);
  return {std::to_string(i / per_partition), std::to_string(i % per_partition),
          "payload-" + std::to_string((h >> 8) % 1000000000), std::to_string(h % 1000000000000), d};
}

int Usage() {
  std::fprintf(stderr,
               "usage: bulk_bench generate DIR ROWS PARTITIONS\n"
               "         writes DIR/rows.jsonl and DIR/rows.csv (with a header line)\n"
               "       bulk_bench engine DIR ROWS PARTITIONS BATCH\n"
               "         loads the same rows with Mutation::Insert + Engine::Apply into a\n"
               "         fresh store in DIR (removed first), then Engine::Sync; BATCH is a\n"
               "         row count or 'mib' (apply once a batch holds 1 MiB, as @insert)\n");
  return 2;
}

int Fail(const std::string& what, const Status& s) {
  std::fprintf(stderr, "bulk_bench: %s: %s\n", what.c_str(), s.ToString().c_str());
  return 1;
}

int Generate(const stdfs::path& dir, uint64_t rows, uint64_t per_partition) {
  stdfs::create_directories(dir);
  std::unique_ptr<FILE, int (*)(FILE*)> json(std::fopen((dir / "rows.jsonl").c_str(), "w"),
                                             &std::fclose);
  std::unique_ptr<FILE, int (*)(FILE*)> csv(std::fopen((dir / "rows.csv").c_str(), "w"),
                                            &std::fclose);
  if (!json || !csv) {
    std::fprintf(stderr, "bulk_bench: cannot write into %s\n", dir.c_str());
    return 1;
  }
  std::fputs("p,c,a,b,d\n", csv.get());
  for (uint64_t i = 0; i < rows; ++i) {
    const RowText r = MakeRow(i, per_partition);
    std::fprintf(json.get(), "{\"p\":%s,\"c\":%s,\"a\":\"%s\",\"b\":%s,\"d\":%s}\n", r.p.c_str(),
                 r.c.c_str(), r.a.c_str(), r.b.c_str(), r.d.c_str());
    std::fprintf(csv.get(), "%s,%s,%s,%s,%s\n", r.p.c_str(), r.c.c_str(), r.a.c_str(), r.b.c_str(),
                 r.d.c_str());
  }
  if (std::fflush(json.get()) != 0 || std::fflush(csv.get()) != 0) {
    std::fprintf(stderr, "bulk_bench: write error in %s\n", dir.c_str());
    return 1;
  }
  std::printf("generated %" PRIu64 " rows: %s (%ju bytes), %s (%ju bytes)\n", rows,
              (dir / "rows.jsonl").c_str(), static_cast<uintmax_t>(std::ftell(json.get())),
              (dir / "rows.csv").c_str(), static_cast<uintmax_t>(std::ftell(csv.get())));
  return 0;
}

// One row's Insert arguments, serialized before the clock starts.
struct Input {
  std::string pk[1];
  std::string ck[1];
  std::vector<ColumnValue> cells;
};

Status BuildInputs(const TableSchema& table, uint64_t rows, uint64_t per_partition,
                   std::vector<Input>* out) {
  const ColumnDef* columns[5];
  const char* names[5] = {"p", "c", "a", "b", "d"};
  for (size_t k = 0; k < 5; ++k) {
    columns[k] = table.def.FindColumn(names[k]);
    if (columns[k] == nullptr) return Status::NotFound(std::string("no column ") + names[k]);
  }
  out->resize(rows);
  for (uint64_t i = 0; i < rows; ++i) {
    const RowText r = MakeRow(i, per_partition);
    const std::string* texts[5] = {&r.p, &r.c, &r.a, &r.b, &r.d};
    Input& in = (*out)[i];
    for (size_t k = 0; k < 5; ++k) {
      Result<std::string> value = ParseLiteral(*columns[k]->type, *texts[k]);
      if (!value.ok()) return value.status();
      if (k == 0) {
        in.pk[0] = std::move(value).value();
      } else if (k == 1) {
        in.ck[0] = std::move(value).value();
      } else {
        in.cells.push_back(
            {static_cast<size_t>(columns[k] - table.def.columns.data()), std::move(value).value()});
      }
    }
  }
  return Status::Ok();
}

Status CreateTable(Engine* engine) {
  CqlParser parser(kSchema);
  std::string keyspace;
  for (bool done = false;;) {
    Statement statement;
    if (Status s = parser.Next(&statement, &done); !s.ok()) return s;
    if (done) return Status::Ok();
    if (Status s = engine->Execute(statement, &keyspace); !s.ok()) return s;
  }
}

// Loads every input in mutations of `batch_rows` rows, or of 1 MiB of
// encoded entries when batch_rows is 0, then syncs.
Status Load(Engine* engine, const TableHandle& table, const std::vector<Input>& inputs,
            size_t batch_rows, size_t* batches) {
  constexpr size_t kBatchBytes = 1u << 20;  // fs::InsertBatcher::kBatchBytes
  *batches = 0;
  for (size_t done = 0; done < inputs.size();) {
    Mutation m = engine->NewMutation();
    while (done < inputs.size() &&
           (batch_rows == 0 ? m.byte_size() < kBatchBytes : m.operation_count() < batch_rows)) {
      const Input& in = inputs[done++];
      if (Status s = m.Insert(table, in.pk, in.ck, in.cells); !s.ok()) return s;
    }
    if (Status s = engine->Apply(std::move(m)); !s.ok()) return s;
    ++*batches;
  }
  return engine->Sync();
}

int RunEngine(const stdfs::path& dir, uint64_t rows, uint64_t per_partition,
              const std::string& batch) {
  const size_t batch_rows = batch == "mib" ? 0 : std::strtoul(batch.c_str(), nullptr, 10);
  if (batch != "mib" && batch_rows == 0) return Usage();
  stdfs::remove_all(dir);
  // The daemon's engine options (a mount's defaults: periodic commit, the
  // background sweeper on).
  Result<std::unique_ptr<Engine>> engine = Engine::Open(dir.string(), EngineOptions());
  if (!engine.ok()) return Fail(dir.string(), engine.status());
  if (Status s = CreateTable(engine->get()); !s.ok()) return Fail("schema", s);
  Result<TableHandle> table = (*engine)->FindTable("b", "t");
  if (!table.ok()) return Fail("b.t", table.status());
  std::vector<Input> inputs;
  if (Status s = BuildInputs(**table, rows, per_partition, &inputs); !s.ok()) {
    return Fail("inputs", s);
  }

  const Clock::time_point start = Clock::now();
  size_t batches = 0;
  if (Status s = Load(engine->get(), *table, inputs, batch_rows, &batches); !s.ok()) {
    return Fail("load", s);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("engine batch=%s rows=%" PRIu64 " batches=%zu seconds=%.3f rows_per_s=%.0f\n",
              batch.c_str(), rows, batches, seconds, static_cast<double>(rows) / seconds);
  return 0;
}

int Main(int argc, char** argv) {
  if (argc < 5) return Usage();
  const std::string mode = argv[1];
  const uint64_t rows = std::strtoull(argv[3], nullptr, 10);
  const uint64_t partitions = std::strtoull(argv[4], nullptr, 10);
  if (rows == 0 || partitions == 0 || rows % partitions != 0 || rows / partitions > INT32_MAX) {
    std::fprintf(stderr, "bulk_bench: ROWS must be a positive multiple of PARTITIONS\n");
    return 2;
  }
  if (mode == "generate" && argc == 5) return Generate(argv[2], rows, rows / partitions);
  if (mode == "engine" && argc == 6) return RunEngine(argv[2], rows, rows / partitions, argv[5]);
  return Usage();
}

}  // namespace
}  // namespace cellfs

int main(int argc, char** argv) { return cellfs::Main(argc, argv); }
