// Micro-benchmark of the key codec and tokens, each beside a peer doing the
// least possible work on the same bytes (copying them; raw XXH64), so the
// ratios say what the encoding costs. Usage: codec_bench [rows] [repetitions]
// Figures and the command that produced them: docs/BENCHMARKS.md.
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/cql/key_codec.h"
#include "engine/store/token.h"

namespace cellfs {
namespace {

// Two serialized key components per row.
struct Row {
  std::string first;
  std::string second;
};

std::string BigEndian(uint64_t v, size_t width) {
  std::string out(width, '\0');
  for (size_t i = width; i-- > 0; v >>= 8) out[i] = static_cast<char>(v & 0xFF);
  return out;
}

std::string Name(std::mt19937_64& rng, size_t min_length, size_t max_length) {
  std::string s(min_length + rng() % (max_length - min_length + 1), 'a');
  for (char& c : s) c = static_cast<char>('a' + rng() % 26);
  return s;
}

// (timestamp, text): log rows in a day of 2018, by user name.
std::vector<Row> ClusteringRows(size_t n) {
  std::mt19937_64 rng(1);
  std::vector<Row> rows(n);
  for (Row& r : rows) {
    r.first = BigEndian(1532304000000 + rng() % 86400000, 8);
    r.second = Name(rng, 5, 12);
  }
  return rows;
}

// (text, int): a station code and a day number.
std::vector<Row> PartitionRows(size_t n) {
  std::mt19937_64 rng(2);
  std::vector<Row> rows(n);
  for (Row& r : rows) {
    r.first = Name(rng, 4, 8);
    r.second = BigEndian(20180000 + rng() % 1000, 4);
  }
  return rows;
}

struct Measure {
  double seconds;  // median over the repetitions
};

// Median wall time of `repetitions` runs of `body`.
Measure Time(int repetitions, const std::function<void()>& body) {
  std::vector<double> runs;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    body();
    runs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(runs.begin(), runs.end());
  return {runs[runs.size() / 2]};
}

// Keeps results observable so the compiler cannot drop the work.
volatile uint64_t g_sink = 0;

void Report(const char* name, size_t items, size_t bytes, Measure codec, const char* peer_name,
            Measure peer) {
  std::printf("%-34s %8.1f M items/s %8.1f MB/s   %-22s %8.1f MB/s   ratio %5.2fx\n", name,
              static_cast<double>(items) / codec.seconds / 1e6,
              static_cast<double>(bytes) / codec.seconds / 1e6, peer_name,
              static_cast<double>(bytes) / peer.seconds / 1e6, codec.seconds / peer.seconds);
}

struct KeyLayout {
  const char* name;
  TypePtr first;
  SortOrder first_order;
  TypePtr second;
  SortOrder second_order;
};

void BenchKeys(const KeyLayout& layout, const std::vector<Row>& rows, int repetitions) {
  size_t serialized_bytes = 0;
  for (const Row& r : rows) serialized_bytes += r.first.size() + r.second.size();
  const size_t components = 2 * rows.size();

  std::vector<std::string> encoded(rows.size());
  const Measure encode = Time(repetitions, [&] {
    for (size_t i = 0; i < rows.size(); ++i) {
      std::string& out = encoded[i];
      out.clear();
      EncodeKeyComponent(*layout.first, rows[i].first, layout.first_order, &out);
      EncodeKeyComponent(*layout.second, rows[i].second, layout.second_order, &out);
    }
    g_sink = g_sink + encoded.back().size();
  });
  std::vector<std::string> copied(rows.size());
  const Measure copy = Time(repetitions, [&] {
    for (size_t i = 0; i < rows.size(); ++i) {
      std::string& out = copied[i];
      out.clear();
      out.append(rows[i].first);
      out.append(rows[i].second);
    }
    g_sink = g_sink + copied.back().size();
  });
  std::string label = std::string("encode ") + layout.name;
  Report(label.c_str(), components, serialized_bytes, encode, "copy of serialized", copy);

  const Measure decode = Time(repetitions, [&] {
    std::string first;
    std::string second;
    for (const std::string& key : encoded) {
      std::string_view in = key;
      if (!DecodeKeyComponent(*layout.first, layout.first_order, &in, &first).ok() ||
          !DecodeKeyComponent(*layout.second, layout.second_order, &in, &second).ok()) {
        std::fprintf(stderr, "decode failed\n");
        std::exit(1);
      }
      g_sink = g_sink + first.size() + second.size();
    }
  });
  const Measure split = Time(repetitions, [&] {
    std::string first;
    std::string second;
    for (size_t i = 0; i < rows.size(); ++i) {
      // The copy a decoder of the plain serialization would make.
      const std::string_view joined = copied[i];
      first.assign(joined.substr(0, rows[i].first.size()));
      second.assign(joined.substr(rows[i].first.size()));
      g_sink = g_sink + first.size() + second.size();
    }
  });
  label = std::string("decode ") + layout.name;
  Report(label.c_str(), components, serialized_bytes, decode, "copy of serialized", split);
}

void BenchTokens(const std::vector<Row>& rows, int repetitions) {
  std::vector<std::string> keys;
  size_t bytes = 0;
  for (const Row& r : rows) {
    keys.push_back(SerializePartitionKey({r.first, r.second}));
    bytes += keys.back().size();
  }
  const Measure token = Time(repetitions, [&] {
    uint64_t sum = 0;
    for (const std::string& k : keys) sum += static_cast<uint64_t>(ComputeToken(k));
    g_sink = g_sink + sum;
  });
  const Measure raw = Time(repetitions, [&] {
    uint64_t sum = 0;
    for (const std::string& k : keys) sum += XXH64(k.data(), k.size(), 0);
    g_sink = g_sink + sum;
  });
  Report("token of serialized (text, int)", keys.size(), bytes, token, "raw XXH64", raw);

  const Measure serialize_and_token = Time(repetitions, [&] {
    uint64_t sum = 0;
    for (const Row& r : rows) {
      sum += static_cast<uint64_t>(ComputeToken(SerializePartitionKey({r.first, r.second})));
    }
    g_sink = g_sink + sum;
  });
  Report("serialize + token (text, int)", keys.size(), bytes, serialize_and_token, "raw XXH64",
         raw);
}

}  // namespace
}  // namespace cellfs

int main(int argc, char** argv) {
  using namespace cellfs;
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 7;
  if (rows == 0 || repetitions <= 0) {
    std::fprintf(stderr, "usage: codec_bench [rows > 0] [repetitions > 0]\n");
    return 2;
  }
  std::printf(
      "codec_bench: %zu rows, median of %d repetitions; MB = 10^6 bytes of serialized "
      "input; ratio = codec time / peer time\n",
      rows, repetitions);
  const std::vector<Row> clustering = ClusteringRows(rows);
  const std::vector<Row> partition = PartitionRows(rows);
  BenchKeys({"(timestamp DESC, text ASC)", CqlType::Native(TypeKind::kTimestamp), SortOrder::kDesc,
             CqlType::Native(TypeKind::kText), SortOrder::kAsc},
            clustering, repetitions);
  BenchKeys({"(text ASC, int ASC)", CqlType::Native(TypeKind::kText), SortOrder::kAsc,
             CqlType::Native(TypeKind::kInt), SortOrder::kAsc},
            partition, repetitions);
  BenchTokens(partition, repetitions);
  return 0;
}
