// Model-based test of SELECT through the @cql session (fs/cql/select_executor.h).
//
// Each iteration makes a fresh engine and a table
//   ks.t (k int, c1 int, c2 text, v int, s int static, PRIMARY KEY (k, c1, c2))
// with a random clustering order (c1 and c2 each ASC or DESC), then runs
// rounds of random data statements (INSERT, UPDATE, row, range and
// partition DELETEs, some USING TTL far beyond the manual clock, which never
// moves) over k in 0..4, c1 in 0..5, c2 in {'a','b','c'}, each round
// followed by random SELECTs whose printed rows are compared with an
// independent in-memory model.
//
// The model keeps, per partition, its static cell and its rows by
// clustering value, each row as {row marker, v}. Statements apply in order
// (the engine hands out increasing write times, so the last write wins):
// INSERT writes the marker and the cells it names; UPDATE only its cells
// (a null deletes the cell); DELETE of a row or a clustering range erases
// those rows (marker and cells, not the static cell); DELETE of a partition
// erases everything in it. A row is live when it has its marker or a live
// v. Answers follow Cassandra's rules, computed by the model itself:
// partitions named by `=`/`IN` come in k's value order, each once; rows in
// the table's clustering order (restrictions compare by value, whatever
// the column's order), reversed by an ORDER BY against it; PER PARTITION
// LIMIT then LIMIT; a partition with a live static cell and no live row
// shows one row with null clustering and regular columns when the query
// does not restrict the clustering, none when it does. Scans of the whole
// table come in token order, which the model does not know: they are
// compared per partition (each partition's rows contiguous and in
// clustering order) or as sets. ALLOW FILTERING relations (c2 without c1,
// c2 after a slice of c1, v) restrict rows like the others; a null v
// never matches, so a static-only row never passes a filter on v.
//
// Fixed cases follow: a SELECT's rows are the snapshot of when it ran
// (pages printed after a DELETE in the same write still show the rows),
// and the static-only row spelled out.
#include "fs/cql/select_executor.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fs/formats/cql_session.h"
#include "tests/engine/engine_test_util.h"
#include "tests/fs/printed_table.h"

namespace cellfs::fs {
namespace {

using testing::TestEngine;

constexpr char kKeyspace[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n";

using testing::ParseTable;
using testing::Printed;
using testing::Row;

std::string Show(const std::vector<Row>& rows) {
  std::ostringstream out;
  for (const Row& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) out << (i ? " | " : "") << row[i];
    out << "\n";
  }
  return out.str();
}

// ---- The model ----

struct Clustering {
  int c1;
  std::string c2;
  // By value, c1 first: how CQL compares tuples.
  auto operator<=>(const Clustering& o) const = default;
};

struct ModelRow {
  bool marker = false;
  std::optional<int> v;
  bool live() const { return marker || v.has_value(); }
};

struct Partition {
  std::optional<int> s;
  std::map<Clustering, ModelRow> rows;  // by value; Order sorts for output
};

struct Order {
  bool c1_desc;
  bool c2_desc;
  // Whether `a` comes before `b` in the table's clustering order.
  bool Before(const Clustering& a, const Clustering& b) const {
    if (a.c1 != b.c1) return c1_desc ? a.c1 > b.c1 : a.c1 < b.c1;
    if (a.c2 != b.c2) return c2_desc ? a.c2 > b.c2 : a.c2 < b.c2;
    return false;
  }
};

using Match = std::function<bool(const Clustering&)>;

// A clustering restriction: its CQL (" AND ..." or empty) and its meaning.
struct Restriction {
  std::string cql;
  Match match = [](const Clustering&) { return true; };
  bool restricted = false;
  bool c1_equal = false;  // c1 restricted by `=` alone (ORDER BY c2 allowed)
  // A filter on v (ALLOW FILTERING), when set; a null never matches.
  std::function<bool(int)> v_match;
};

std::string Text(const std::string& c2) { return "'" + c2 + "'"; }
std::string Null(const std::optional<int>& v) { return v ? std::to_string(*v) : "null"; }

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int percent) { return Uniform(1, 100) <= percent; }
  int K() { return Uniform(0, 4); }
  int C1() { return Uniform(0, 5); }
  std::string C2() { return std::string(1, static_cast<char>('a' + Uniform(0, 2))); }
  int V() { return Uniform(0, 9); }
  int S() { return Uniform(0, 99); }

  // A comparison operator and its meaning on values of T.
  template <typename T>
  std::pair<std::string, std::function<bool(const T&, const T&)>> Op(bool lower) {
    if (Uniform(0, 1)) {
      if (lower) return {">", [](const T& a, const T& b) { return a > b; }};
      return {"<", [](const T& a, const T& b) { return a < b; }};
    }
    if (lower) return {">=", [](const T& a, const T& b) { return a >= b; }};
    return {"<=", [](const T& a, const T& b) { return a <= b; }};
  }

  // A slice on one column: one or two bounds ("c1 > 2 AND c1 <= 4").
  template <typename T>
  std::pair<std::string, std::function<bool(const T&)>> Slice(const std::string& column,
                                                              std::function<T()> value) {
    const int shape = Uniform(0, 2);  // lower, upper, both
    std::string cql;
    std::vector<std::function<bool(const T&)>> tests;
    for (int side = 0; side < 2; ++side) {
      const bool lower = side == 0;
      if ((lower && shape == 1) || (!lower && shape == 0)) continue;
      auto [op, fn] = Op<T>(lower);
      const T bound = value();
      if (!cql.empty()) cql += " AND ";
      cql += column + " " + op + " " + Literal(bound);
      tests.push_back([fn = fn, bound](const T& x) { return fn(x, bound); });
    }
    return {cql, [tests](const T& x) {
              for (const auto& t : tests) {
                if (!t(x)) return false;
              }
              return true;
            }};
  }

  static std::string Literal(int v) { return std::to_string(v); }
  static std::string Literal(const std::string& v) { return Text(v); }
  static std::string Literal(const Clustering& c) {
    return "(" + std::to_string(c.c1) + ", " + Text(c.c2) + ")";
  }

  template <typename T>
  std::vector<T> List(std::function<T()> value, int min_size) {
    std::vector<T> list;
    const int n = Uniform(min_size, 4);
    for (int i = 0; i < n; ++i) list.push_back(value());
    return list;
  }
  template <typename T>
  static std::string InList(const std::vector<T>& list) {
    std::string out = "(";
    for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + Literal(list[i]);
    return out + ")";
  }

  Restriction ClusteringRestriction() {
    Restriction r;
    r.restricted = true;
    auto c1 = [this] { return C1(); };
    auto c2 = [this] { return C2(); };
    auto clustering = [this] { return Clustering{C1(), C2()}; };
    switch (Uniform(0, 11)) {
      case 0:
      case 1:
        r.restricted = false;
        break;
      case 2: {
        const int x = C1();
        r.cql = " AND c1 = " + std::to_string(x);
        r.match = [x](const Clustering& c) { return c.c1 == x; };
        r.c1_equal = true;
        break;
      }
      case 3:
      case 4: {
        auto [cql, fn] = Slice<int>("c1", c1);
        r.cql = " AND " + cql;
        r.match = [fn = fn](const Clustering& c) { return fn(c.c1); };
        break;
      }
      case 5: {
        const int x = C1();
        auto [cql, fn] = Slice<std::string>("c2", c2);
        r.cql = " AND c1 = " + std::to_string(x) + " AND " + cql;
        r.match = [x, fn = fn](const Clustering& c) { return c.c1 == x && fn(c.c2); };
        r.c1_equal = true;
        break;
      }
      case 6: {
        const Clustering x = clustering();
        if (Uniform(0, 1)) {
          r.cql = " AND c1 = " + std::to_string(x.c1) + " AND c2 = " + Text(x.c2);
        } else {
          r.cql = " AND (c1, c2) = " + Literal(x);
        }
        r.match = [x](const Clustering& c) { return c == x; };
        r.c1_equal = r.cql.starts_with(" AND c1 =");
        break;
      }
      case 7: {
        const std::vector<int> list = List<int>(c1, Chance(5) ? 0 : 1);
        r.cql = " AND c1 IN " + InList(list);
        std::function<bool(const std::string&)> second = [](const std::string&) { return true; };
        if (Chance(40)) {
          if (Uniform(0, 1)) {
            auto [cql, fn] = Slice<std::string>("c2", c2);
            r.cql += " AND " + cql;
            second = fn;
          } else {
            const std::string y = C2();
            r.cql += " AND c2 = " + Text(y);
            second = [y](const std::string& c) { return c == y; };
          }
        }
        r.match = [list, second](const Clustering& c) {
          return std::find(list.begin(), list.end(), c.c1) != list.end() && second(c.c2);
        };
        break;
      }
      case 8: {
        const int x = C1();
        const std::vector<std::string> list = List<std::string>(c2, 1);
        r.cql = " AND c1 = " + std::to_string(x) + " AND c2 IN " + InList(list);
        r.match = [x, list](const Clustering& c) {
          return c.c1 == x && std::find(list.begin(), list.end(), c.c2) != list.end();
        };
        r.c1_equal = true;
        break;
      }
      case 9:
      case 10: {
        // Tuple slices compare by value, c1 first, whatever the clustering order.
        auto [cql, fn] = Slice<Clustering>("(c1, c2)", clustering);
        r.cql = " AND " + cql;
        r.match = fn;
        break;
      }
      case 11: {
        const std::vector<Clustering> list = List<Clustering>(clustering, 1);
        r.cql = " AND (c1, c2) IN " + InList(list);
        r.match = [list](const Clustering& c) {
          return std::find(list.begin(), list.end(), c) != list.end();
        };
        break;
      }
    }
    return r;
  }

  // Relations that need ALLOW FILTERING: on clustering columns past what
  // Cassandra slices (c2 without c1, c2 after a slice of c1) and on v, maybe
  // with a restriction it slices; at least one filter.
  Restriction FilteringRestriction() {
    auto c1 = [this] { return C1(); };
    auto c2 = [this] { return C2(); };
    Restriction r;
    const int form = Uniform(0, 3);
    if (form == 0) {
      r = ClusteringRestriction();
    } else if (form == 1) {
      const std::string y = C2();
      r.cql = " AND c2 = " + Text(y);
      r.match = [y](const Clustering& c) { return c.c2 == y; };
      r.restricted = true;
    } else if (form == 2) {
      auto [cql, fn] = Slice<std::string>("c2", c2);
      r.cql = " AND " + cql;
      r.match = [fn = fn](const Clustering& c) { return fn(c.c2); };
      r.restricted = true;
    } else {
      auto [cql, fn] = Slice<int>("c1", c1);
      const std::string y = C2();
      r.cql = " AND " + cql + " AND c2 = " + Text(y);
      r.match = [fn = fn, y](const Clustering& c) { return fn(c.c1) && c.c2 == y; };
      r.restricted = true;
    }
    if (form == 0 || Chance(50)) {
      const int shape = Uniform(0, 2);
      if (shape == 0) {
        const int x = V();
        r.cql += " AND v = " + std::to_string(x);
        r.v_match = [x](int v) { return v == x; };
      } else if (shape == 1) {
        auto [cql, fn] = Slice<int>("v", [this] { return V(); });
        r.cql += " AND " + cql;
        r.v_match = fn;
      } else {
        const std::vector<int> list = List<int>([this] { return V(); }, 1);
        r.cql += " AND v IN " + InList(list);
        r.v_match = [list](int v) { return std::find(list.begin(), list.end(), v) != list.end(); };
      }
    }
    return r;
  }

  std::mt19937& rng() { return rng_; }

 private:
  std::mt19937 rng_;
};

class Model {
 public:
  explicit Model(Order order) : order_(order) {}

  std::map<int, Partition>& partitions() { return partitions_; }

  void EraseRows(int k, const Match& match) {
    auto p = partitions_.find(k);
    if (p == partitions_.end()) return;
    std::erase_if(p->second.rows, [&](const auto& entry) { return match(entry.first); });
  }

  // Rows of partition `k` matching `r`, in clustering order (reversed when
  // `reversed`), with the static-only row; each as k, c1, c2, v, s.
  std::vector<Row> PartitionRows(int k, const Restriction& r, bool reversed) const {
    std::vector<Row> out;
    auto p = partitions_.find(k);
    if (p == partitions_.end()) return out;
    std::vector<Clustering> keys;
    for (const auto& [c, row] : p->second.rows) {
      if (row.live() && r.match(c) && (!r.v_match || (row.v && r.v_match(*row.v)))) {
        keys.push_back(c);
      }
    }
    std::sort(keys.begin(), keys.end(),
              [&](const Clustering& a, const Clustering& b) { return order_.Before(a, b); });
    if (reversed) std::reverse(keys.begin(), keys.end());
    const std::string s = Null(p->second.s);
    for (const Clustering& c : keys) {
      out.push_back(
          {std::to_string(k), std::to_string(c.c1), c.c2, Null(p->second.rows.at(c).v), s});
    }
    if (out.empty() && !r.restricted && !r.v_match && p->second.s) {
      out.push_back({std::to_string(k), "null", "null", "null", s});
    }
    return out;
  }

  std::vector<int> LiveKeys() const {
    std::vector<int> keys;
    for (const auto& [k, p] : partitions_) {
      if (!PartitionRows(k, Restriction{}, false).empty()) keys.push_back(k);
    }
    return keys;
  }

  const Order& order() const { return order_; }

 private:
  Order order_;
  std::map<int, Partition> partitions_;
};

// One iteration's engine, table and model.
class Fixture {
 public:
  Fixture(Generator* gen, Order order) : gen_(*gen), model_(order) {
    CqlSession session(db_.engine.get());
    const std::string table =
        "CREATE TABLE ks.t (k int, c1 int, c2 text, v int, s int static, "
        "PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 " +
        std::string(order.c1_desc ? "DESC" : "ASC") + ", c2 " + (order.c2_desc ? "DESC" : "ASC") +
        ");\n";
    (void)session.Write(std::string(kKeyspace) + table);
    REQUIRE(session.transcript() == "OK CREATE KEYSPACE ks\nOK CREATE TABLE ks.t\n");
  }

  // Runs `n` random data statements in one session; applies them to the model.
  void RandomWrites(int n) {
    std::string script;
    for (int i = 0; i < n; ++i) script += RandomWrite() + "\n";
    CqlSession session(db_.engine.get());
    (void)session.Write(script);
    const std::string& out = session.transcript();
    INFO(script);
    INFO(out);
    REQUIRE(out.find("ERROR") == std::string::npos);
  }

  // Runs `query` alone; its transcript.
  std::string Run(const std::string& query) {
    CqlSession session(db_.engine.get());
    (void)session.Write(query);
    return session.transcript();
  }

  // One random SELECT compared with the model; false on a mismatch.
  bool RandomSelect() {
    std::string query;
    std::vector<std::string> header;
    std::vector<Row> expected;
    enum Compare { kSequence, kSet, kPerPartition } compare = kSequence;
    int scan_limit = 0;  // kPerPartition: the LIMIT, or 0
    const int kind = gen_.Uniform(0, 19);
    if (kind < 12) {
      // Named partitions: k = ? (with ORDER BY) or k IN (...).
      std::vector<int> keys;
      const bool in = kind >= 8;
      if (in) {
        keys = gen_.List<int>([this] { return gen_.K(); }, gen_.Chance(5) ? 0 : 1);
      } else {
        keys = {gen_.K()};
      }
      const bool filtering = !in && gen_.Chance(25);
      const Restriction r = filtering ? gen_.FilteringRestriction() : gen_.ClusteringRestriction();
      const bool with_s = gen_.Chance(30);
      header = {"k", "c1", "c2", "v"};
      if (with_s) header.push_back("s");
      query = "SELECT k, c1, c2, v" + std::string(with_s ? ", s" : "") + " FROM ks.t WHERE k " +
              (in ? "IN " + Generator::InList(keys) : "= " + std::to_string(keys[0])) + r.cql;
      bool reversed = false;
      if (!in && gen_.Chance(40)) {
        reversed = gen_.Chance(50);
        const Order& o = model_.order();
        auto dir = [&](bool desc) { return (desc != reversed) ? "DESC" : "ASC"; };
        const int form = gen_.Uniform(0, r.c1_equal ? 2 : 1);
        if (form == 0) {
          query += std::string(" ORDER BY c1 ") + dir(o.c1_desc);
        } else if (form == 1) {
          query += std::string(" ORDER BY c1 ") + dir(o.c1_desc) + ", c2 " + dir(o.c2_desc);
        } else {
          query += std::string(" ORDER BY c2 ") + dir(o.c2_desc);
        }
      }
      int per_partition = 0, limit = 0;
      if (gen_.Chance(25)) {
        per_partition = gen_.Uniform(1, 4);
        query += " PER PARTITION LIMIT " + std::to_string(per_partition);
      }
      if (gen_.Chance(30)) {
        limit = gen_.Uniform(1, 8);
        query += " LIMIT " + std::to_string(limit);
      }
      if (filtering) query += " ALLOW FILTERING";
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      for (int k : keys) {
        std::vector<Row> rows = model_.PartitionRows(k, r, reversed);
        if (per_partition && static_cast<int>(rows.size()) > per_partition) {
          rows.resize(static_cast<size_t>(per_partition));
        }
        for (Row& row : rows) {
          if (!with_s) row.pop_back();
          expected.push_back(std::move(row));
        }
      }
      if (limit && static_cast<int>(expected.size()) > limit)
        expected.resize(static_cast<size_t>(limit));
    } else if (kind < 14) {
      header = {"count"};
      if (gen_.Chance(20)) {  // the whole table
        query = "SELECT count(*) FROM ks.t";
        size_t total = 0;
        for (int k : model_.LiveKeys())
          total += model_.PartitionRows(k, Restriction{}, false).size();
        expected = {{std::to_string(total)}};
      } else {
        const int k = gen_.K();
        const Restriction r = gen_.ClusteringRestriction();
        query = "SELECT count(*) FROM ks.t WHERE k = " + std::to_string(k) + r.cql;
        // Cassandra: LIMIT bounds the one result row, never the rows counted.
        if (gen_.Chance(30)) query += " LIMIT " + std::to_string(gen_.Uniform(1, 3));
        expected = {{std::to_string(model_.PartitionRows(k, r, false).size())}};
      }
    } else if (kind < 16) {
      const int v = gen_.V();
      query = "SELECT * FROM ks.t WHERE v = " + std::to_string(v) + " ALLOW FILTERING";
      header = {"k", "c1", "c2", "s", "v"};
      compare = kSet;
      for (const auto& [k, p] : model_.partitions()) {
        for (const Row& row : model_.PartitionRows(k, Restriction{}, false)) {
          if (row[3] == std::to_string(v))
            expected.push_back({row[0], row[1], row[2], row[4], row[3]});
        }
      }
    } else if (kind < 18) {
      query = "SELECT DISTINCT k, s FROM ks.t";
      header = {"k", "s"};
      compare = kSet;
      for (int k : model_.LiveKeys())
        expected.push_back({std::to_string(k), Null(model_.partitions()[k].s)});
    } else {
      // The whole table, token order: per partition.
      // With relations, ALLOW FILTERING (any clustering relation needs it here).
      Restriction r;
      if (gen_.Chance(50)) r = gen_.FilteringRestriction();
      query = "SELECT k, c1, c2, v FROM ks.t";
      if (!r.cql.empty()) query += " WHERE " + r.cql.substr(5);
      header = {"k", "c1", "c2", "v"};
      compare = kPerPartition;
      int per_partition = 0;
      if (gen_.Chance(30)) {
        per_partition = gen_.Uniform(1, 3);
        query += " PER PARTITION LIMIT " + std::to_string(per_partition);
      }
      if (gen_.Chance(30)) {
        scan_limit = gen_.Uniform(1, 10);
        query += " LIMIT " + std::to_string(scan_limit);
      }
      if (!r.cql.empty()) query += " ALLOW FILTERING";
      for (const auto& [k, p] : model_.partitions()) {
        std::vector<Row> rows = model_.PartitionRows(k, r, false);
        if (per_partition && static_cast<int>(rows.size()) > per_partition) {
          rows.resize(static_cast<size_t>(per_partition));
        }
        for (Row& row : rows) {
          row.pop_back();
          expected.push_back(std::move(row));
        }
      }
    }
    query += ";";

    const std::string transcript = Run(query);
    const Printed printed = ParseTable(transcript);
    INFO("query: " << query);
    INFO("transcript:\n" << transcript);
    INFO("expected:\n" << Show(expected));
    CHECK(printed.error.empty());
    CHECK(printed.header == header);
    if (!printed.error.empty() || printed.header != header) return false;
    bool same = false;
    if (compare == kSequence) {
      same = printed.rows == expected;
    } else if (compare == kSet) {
      std::vector<Row> a = printed.rows, b = expected;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      same = a == b;
    } else {
      same = SamePerPartition(printed.rows, expected, scan_limit);
    }
    CHECK(same);
    return same;
  }

 private:
  // `actual` holds each partition's rows together, in order, partitions in
  // any order; with `limit`, the first `limit` rows of such a sequence.
  static bool SamePerPartition(const std::vector<Row>& actual, const std::vector<Row>& expected,
                               int limit) {
    std::map<std::string, std::vector<Row>> want;
    for (const Row& row : expected) want[row[0]].push_back(row);
    std::set<std::string> seen;
    size_t i = 0;
    while (i < actual.size()) {
      const std::string& k = actual[i][0];
      if (!seen.insert(k).second || !want.contains(k)) return false;
      const std::vector<Row>& rows = want[k];
      size_t j = 0;
      while (i < actual.size() && actual[i][0] == k) {
        if (j >= rows.size() || actual[i] != rows[j]) return false;
        ++i, ++j;
      }
      if (j < rows.size() && (!limit || i < actual.size())) return false;  // cut short
    }
    const size_t total =
        limit ? std::min(static_cast<size_t>(limit), expected.size()) : expected.size();
    return actual.size() == total;
  }

  std::string RandomWrite() {
    const int k = gen_.K();
    const std::string key = std::to_string(k);
    Partition& p = model_.partitions()[k];
    const std::string ttl = gen_.Chance(20) ? " USING TTL 100000" : "";
    const Clustering c{gen_.C1(), gen_.C2()};
    const std::string where =
        " WHERE k = " + key + " AND c1 = " + std::to_string(c.c1) + " AND c2 = " + Text(c.c2);
    switch (gen_.Uniform(0, 13)) {
      case 0:
      case 1:
      case 2: {  // INSERT, v set, null or left out; sometimes s too
        ModelRow& row = p.rows[c];
        row.marker = true;
        std::string columns = "k, c1, c2",
                    values = key + ", " + std::to_string(c.c1) + ", " + Text(c.c2);
        const int v_form = gen_.Uniform(0, 5);
        if (v_form < 4) {
          const int v = gen_.V();
          row.v = v;
          columns += ", v";
          values += ", " + std::to_string(v);
        } else if (v_form == 4) {
          row.v.reset();
          columns += ", v";
          values += ", null";
        }
        if (gen_.Chance(15)) {
          const int s = gen_.S();
          p.s = s;
          columns += ", s";
          values += ", " + std::to_string(s);
        }
        return "INSERT INTO ks.t (" + columns + ") VALUES (" + values + ")" + ttl + ";";
      }
      case 3: {  // a static-only INSERT
        const int s = gen_.S();
        p.s = s;
        return "INSERT INTO ks.t (k, s) VALUES (" + key + ", " + std::to_string(s) + ")" + ttl +
               ";";
      }
      case 4:
      case 5:
      case 6: {  // UPDATE of v (null deletes it), sometimes s too
        ModelRow& row = p.rows[c];
        std::string set;
        if (gen_.Chance(15)) {
          row.v.reset();
          set = "v = null";
        } else {
          const int v = gen_.V();
          row.v = v;
          set = "v = " + std::to_string(v);
        }
        if (gen_.Chance(10)) {
          const int s = gen_.S();
          p.s = s;
          set += ", s = " + std::to_string(s);
        }
        return "UPDATE ks.t" + ttl + " SET " + set + where + ";";
      }
      case 7: {
        const int s = gen_.S();
        p.s = s;
        return "UPDATE ks.t" + ttl + " SET s = " + std::to_string(s) + " WHERE k = " + key + ";";
      }
      case 8:
      case 9:
        model_.EraseRows(k, [c](const Clustering& x) { return x == c; });
        return "DELETE FROM ks.t" + where + ";";
      case 10:
        if (auto row = p.rows.find(c); row != p.rows.end()) row->second.v.reset();
        return "DELETE v FROM ks.t" + where + ";";
      case 11: {  // a range: c1 = x, a slice of c1, or c1 = x and a slice of c2
        std::string cql;
        Match match;
        const int form = gen_.Uniform(0, 2);
        if (form == 0) {
          cql = "c1 = " + std::to_string(c.c1);
          match = [c](const Clustering& x) { return x.c1 == c.c1; };
        } else if (form == 1) {
          auto [slice, fn] = gen_.Slice<int>("c1", [this] { return gen_.C1(); });
          cql = slice;
          match = [fn = fn](const Clustering& x) { return fn(x.c1); };
        } else {
          auto [slice, fn] = gen_.Slice<std::string>("c2", [this] { return gen_.C2(); });
          cql = "c1 = " + std::to_string(c.c1) + " AND " + slice;
          match = [c, fn = fn](const Clustering& x) { return x.c1 == c.c1 && fn(x.c2); };
        }
        model_.EraseRows(k, match);
        return "DELETE FROM ks.t WHERE k = " + key + " AND " + cql + ";";
      }
      case 12:
        if (!gen_.Chance(40)) {  // partition deletions rarer
          p.rows[c].v = 1;
          return "UPDATE ks.t SET v = 1" + where + ";";
        }
        model_.partitions().erase(k);
        return "DELETE FROM ks.t WHERE k = " + key + ";";
      default:
        p.s.reset();
        return "DELETE s FROM ks.t WHERE k = " + key + ";";
    }
  }

  TestEngine db_;
  Generator& gen_;
  Model model_;
};

TEST_CASE("SELECT answers as a model of Cassandra's rules does", "[select]") {
  constexpr uint32_t kSeed = 20261126;
  constexpr int kIterations = 400;
  Generator gen(kSeed);
  int mismatches = 0;
  for (int iteration = 0; iteration < kIterations && mismatches < 5; ++iteration) {
    CAPTURE(kSeed, iteration);
    // The first two iterations fix the orders the brief names.
    Order order{true, false};
    if (iteration == 1) {
      order = {false, false};
    } else if (iteration > 1) {
      order = {gen.Chance(50), gen.Chance(30)};
    }
    CAPTURE(order.c1_desc, order.c2_desc);
    Fixture fixture(&gen, order);
    for (int round = 0; round < 3; ++round) {
      CAPTURE(round);
      fixture.RandomWrites(gen.Uniform(3, 30));
      for (int q = 0; q < 10; ++q) {
        if (!fixture.RandomSelect()) ++mismatches;
      }
    }
  }
}

// The text before and after `line` (a whole line) in `transcript`.
std::pair<std::string, std::string> SplitAt(const std::string& transcript,
                                            const std::string& line) {
  const size_t at = transcript.find("\n" + line + "\n");
  REQUIRE(at != std::string::npos);
  return {transcript.substr(0, at + 1), transcript.substr(at + line.size() + 2)};
}

TEST_CASE("a SELECT's rows are those of when it ran, even when printed later", "[select]") {
  TestEngine db;
  CqlSession setup(db.engine.get());
  std::string script = std::string(kKeyspace) +
                       "CREATE TABLE ks.p (k int, c int, v int, PRIMARY KEY (k, c));\n"
                       "BEGIN UNLOGGED BATCH\n";
  for (int c = 0; c < 250; ++c) {
    script += "INSERT INTO ks.p (k, c, v) VALUES (1, " + std::to_string(c) + ", " +
              std::to_string(7 * c) + ")\n";
  }
  (void)setup.Write(script + "APPLY BATCH;\n");
  REQUIRE(setup.transcript() ==
          "OK CREATE KEYSPACE ks\nOK CREATE TABLE ks.p\nOK BATCH (250 statements)\n");

  // Three pages of rows, made when transcript() reads them: after the DELETE ran.
  CqlSession session(db.engine.get());
  (void)session.Write(
      "SELECT k, c, v FROM ks.p WHERE k = 1;\n"
      "DELETE FROM ks.p WHERE k = 1;\n"
      "SELECT count(*) FROM ks.p WHERE k = 1;\n");
  const std::string transcript = session.transcript();
  INFO(transcript);
  const auto [select, rest] = SplitAt(transcript, "OK DELETE ks.p");
  const Printed rows = ParseTable(select);
  CHECK(rows.error.empty());
  CHECK(rows.header == std::vector<std::string>{"k", "c", "v"});
  std::vector<Row> expected;
  for (int c = 0; c < 250; ++c) expected.push_back({"1", std::to_string(c), std::to_string(7 * c)});
  CHECK(rows.rows == expected);
  const Printed count = ParseTable(rest);
  CHECK(count.error.empty());
  CHECK(count.rows == std::vector<Row>{{"0"}});
}

TEST_CASE("a row deleted after a SELECT in the same write still shows in it", "[select]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  (void)session.Write(std::string(kKeyspace) +
                      "CREATE TABLE ks.t (k int, c1 int, c2 text, v int, s int static, "
                      "PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC);\n"
                      "INSERT INTO ks.t (k, c1, c2, v) VALUES (1, 1, 'a', 10);\n"
                      "INSERT INTO ks.t (k, c1, c2, v) VALUES (1, 2, 'b', 20);\n");
  const size_t start = session.transcript().size();
  (void)session.Write(
      "SELECT k, c1, c2, v FROM ks.t WHERE k = 1; DELETE FROM ks.t WHERE k = 1 AND c1 = 2 AND "
      "c2 = 'b';\nSELECT k, c1, c2, v FROM ks.t WHERE k = 1;");
  const std::string transcript = session.transcript().substr(start);
  INFO(transcript);
  const auto [before, after] = SplitAt("\n" + transcript, "OK DELETE ks.t");
  CHECK(ParseTable(before.substr(1)).rows ==
        std::vector<Row>{{"1", "2", "b", "20"}, {"1", "1", "a", "10"}});
  CHECK(ParseTable(after).rows == std::vector<Row>{{"1", "1", "a", "10"}});
}

TEST_CASE("token(...) bounds page through a table by its partition keys' tokens", "[select]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  std::string script =
      std::string(kKeyspace) + "CREATE TABLE ks.t (a int, b text, v int, PRIMARY KEY ((a, b)));\n";
  for (int i = 0; i < 20; ++i) {
    script += "INSERT INTO ks.t (a, b, v) VALUES (" + std::to_string(i) + ", 'x', " +
              std::to_string(i) + ");\n";
  }
  (void)session.Write(script);
  REQUIRE(session.transcript().find("ERROR") == std::string::npos);
  auto rows = [&](const std::string& query) {
    CqlSession select(db.engine.get());
    (void)select.Write(query);
    INFO(select.transcript());
    const Printed printed = ParseTable(select.transcript());
    CHECK(printed.error.empty());
    return printed.rows;
  };
  // Every partition in token order, with its token.
  const std::vector<Row> all = rows("SELECT a, token(a, b) FROM ks.t;");
  REQUIRE(all.size() == 20);
  // Paging as drivers do: the rows after the last one seen.
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string after = "token(" + all[i][0] + ", 'x')";
    const std::vector<Row> rest =
        rows("SELECT a, token(a, b) FROM ks.t WHERE token(a, b) > " + after + ";");
    CHECK(rest == std::vector<Row>(all.begin() + static_cast<ptrdiff_t>(i) + 1, all.end()));
    // The same bound written as the bigint it stands for.
    CHECK(rows("SELECT a, token(a, b) FROM ks.t WHERE token(a, b) >= " + all[i][1] +
               " AND token(a, b) <= TOKEN (" + all[i][0] + ", 'x');") == std::vector<Row>{all[i]});
  }
  CqlSession bad(db.engine.get());
  (void)bad.Write(
      "SELECT a FROM ks.t WHERE token(a, b) > token('x', 'y');\n"
      "SELECT a FROM ks.t WHERE token(a, b) > token(1);\n");
  CHECK(bad.transcript() ==
        "ERROR line 1:46: Type error: 'x' cannot be passed as argument 0 of function "
        "system.token of type int\n"
        "ERROR line 2:40: Invalid number of arguments in call to function system.token: 2 "
        "required but 1 provided\n");
}

TEST_CASE("a partition with only static cells shows one row unless the clustering is restricted",
          "[select]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  (void)session.Write(std::string(kKeyspace) +
                      "CREATE TABLE ks.t (k int, c1 int, c2 text, v int, s int static, "
                      "PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC);\n"
                      "INSERT INTO ks.t (k, s) VALUES (1, 7);\n");
  REQUIRE(session.transcript().find("ERROR") == std::string::npos);
  auto rows = [&](const std::string& query) {
    CqlSession select(db.engine.get());
    (void)select.Write(query);
    INFO(select.transcript());
    const Printed printed = ParseTable(select.transcript());
    CHECK(printed.error.empty());
    return printed.rows;
  };
  const std::vector<Row> one{{"1", "null", "null", "null", "7"}};
  CHECK(rows("SELECT k, c1, c2, v, s FROM ks.t WHERE k = 1;") == one);
  CHECK(rows("SELECT k, c1, c2, v, s FROM ks.t WHERE k IN (0, 1);") == one);
  CHECK(rows("SELECT k, c1, c2, v, s FROM ks.t WHERE k = 1 ORDER BY c1 ASC;") == one);
  CHECK(rows("SELECT k, c1, c2, v, s FROM ks.t;") == one);
  CHECK(rows("SELECT count(*) FROM ks.t WHERE k = 1;") == std::vector<Row>{{"1"}});
  CHECK(rows("SELECT DISTINCT k, s FROM ks.t;") == std::vector<Row>{{"1", "7"}});
  CHECK(rows("SELECT k, c1, c2, v FROM ks.t WHERE k = 1 AND c1 = 2;").empty());
  CHECK(rows("SELECT k, c1, c2, v FROM ks.t WHERE k = 1 AND c1 > 0;").empty());
  CHECK(rows("SELECT k, c1, c2, v FROM ks.t WHERE k = 1 AND c1 IN (1, 2);").empty());
  CHECK(rows("SELECT k, c1, c2, v FROM ks.t WHERE k = 1 AND (c1, c2) > (0, 'a');").empty());
  CHECK(rows("SELECT count(*) FROM ks.t WHERE k = 1 AND c1 = 2;") == std::vector<Row>{{"0"}});
  CHECK(rows("SELECT * FROM ks.t WHERE v = 1 ALLOW FILTERING;").empty());
}

// A session over a fresh engine, and each query's result as printed by a
// session of its own.
struct IndexedSelect {
  TestEngine db;
  CqlSession session{db.engine.get()};

  Printed Run(const std::string& query) {
    CqlSession select(db.engine.get());
    (void)select.Write(query);
    return ParseTable(select.transcript());
  }
};

TEST_CASE("a restriction an index answers needs no ALLOW FILTERING and gives a scan's rows",
          "[select][index]") {
  IndexedSelect f;
  std::string setup = std::string(kKeyspace) +
                      "CREATE TABLE ks.users (id int, at int, country text, age int, s int static, "
                      "tags set<text>, PRIMARY KEY (id, at));\n";
  const char* countries[] = {"US", "FR", "DE"};
  for (int id = 0; id < 12; ++id) {
    for (int at = 0; at < 3; ++at) {
      setup += "INSERT INTO ks.users (id, at, country, age, tags) VALUES (" + std::to_string(id) +
               ", " + std::to_string(at) + ", '" + countries[(id + at) % 3] + "', " +
               std::to_string(20 + id) + ", {'t" + std::to_string(at) + "'});\n";
    }
  }
  setup += "UPDATE ks.users SET s = 5 WHERE id = 3;\nDELETE FROM ks.users WHERE id = 4;\n";
  (void)f.session.Write(setup);
  REQUIRE(f.session.transcript().find("ERROR") == std::string::npos);
  const char* queries[] = {
      "SELECT * FROM ks.users WHERE country = 'US'",
      "SELECT id, at FROM ks.users WHERE age = 25",
      "SELECT * FROM ks.users WHERE s = 5",
      "SELECT count(*) FROM ks.users WHERE country = 'FR'",
      "SELECT id, at FROM ks.users WHERE tags CONTAINS 't1'",
      "SELECT * FROM ks.users WHERE country = 'US' AND age = 23",
      "SELECT * FROM ks.users WHERE id = 5 AND country = 'DE'",
  };
  std::vector<Printed> filtered;
  for (const char* q : queries) {
    filtered.push_back(f.Run(std::string(q) + " ALLOW FILTERING;"));
    CHECK(filtered.back().error.empty());
  }
  const std::string refused = "Cannot execute this query as it might involve data filtering";
  CHECK(f.Run("SELECT * FROM ks.users WHERE country = 'US';").error.find(refused) !=
        std::string::npos);
  (void)f.session.Write(
      "CREATE INDEX ON ks.users (country); CREATE INDEX ON ks.users (age);"
      "CREATE INDEX ON ks.users (s); CREATE INDEX ON ks.users (tags);");
  REQUIRE(f.session.transcript().find("ERROR") == std::string::npos);
  for (size_t i = 0; i < std::size(queries); ++i) {
    INFO(queries[i]);
    const bool two_restrictions = i == 5;
    const Printed indexed = f.Run(std::string(queries[i]) + ";");
    if (two_restrictions) {
      // An index answers one restriction; the other is filtering.
      CHECK(indexed.error.find(refused) != std::string::npos);
    } else {
      CHECK(indexed.error.empty());
      CHECK(indexed.rows == filtered[i].rows);
    }
    CHECK(f.Run(std::string(queries[i]) + " ALLOW FILTERING;").rows == filtered[i].rows);
  }
  CHECK(filtered[0].rows.size() == 11);  // id 4's rows are deleted
  CHECK(filtered[2].rows.size() == 3);
  // What Cassandra refuses once an index answers a restriction.
  CHECK(f.Run("SELECT * FROM ks.users WHERE id IN (1, 2) AND country = 'US';")
            .error.find("Select on indexed columns and with IN clause for the PRIMARY KEY are not "
                        "supported") != std::string::npos);
  CHECK(f.Run("SELECT * FROM ks.users WHERE id = 1 AND country = 'US' ORDER BY at DESC;")
            .error.find("ORDER BY with 2ndary indexes is not supported.") != std::string::npos);
}

TEST_CASE("a SASI or SAI index answers a slice of a non-text column; a plain index does not",
          "[select][index]") {
  IndexedSelect f;
  std::string setup = std::string(kKeyspace) +
                      "CREATE TABLE ks.people (id int, at int, age int, score bigint, name text, "
                      "PRIMARY KEY (id, at));\n";
  for (int id = 0; id < 20; ++id) {
    for (int at = 0; at < 2; ++at) {
      setup += "INSERT INTO ks.people (id, at, age, score, name) VALUES (" + std::to_string(id) +
               ", " + std::to_string(at) + ", " + std::to_string(18 + (id * 7 + at) % 40) + ", " +
               std::to_string(id * 100 + at) + ", 'n" + std::to_string(id % 5) + "');\n";
    }
  }
  setup += "DELETE FROM ks.people WHERE id = 3;\n";
  (void)f.session.Write(setup);
  REQUIRE(f.session.transcript().find("ERROR") == std::string::npos);
  const char* queries[] = {
      "SELECT id, at, age FROM ks.people WHERE age > 30",
      "SELECT id, at FROM ks.people WHERE age >= 25 AND age < 40",
      "SELECT count(*) FROM ks.people WHERE age <= 20",
      "SELECT id, at FROM ks.people WHERE score > 1000 AND score <= 1501",
      "SELECT id FROM ks.people WHERE age > 100",
  };
  std::vector<Printed> filtered;
  for (const char* q : queries) {
    filtered.push_back(f.Run(std::string(q) + " ALLOW FILTERING;"));
    CHECK(filtered.back().error.empty());
  }
  CHECK(!filtered[0].rows.empty());
  CHECK(filtered[4].rows.empty());
  const std::string refused = "Cannot execute this query as it might involve data filtering";

  // A plain index answers equality only: a slice still needs ALLOW FILTERING,
  // which Cassandra 5.0 asks for naming the indexed column.
  (void)f.session.Write("CREATE INDEX plain_age ON ks.people (age);");
  CHECK(f.Run(std::string(queries[0]) + ";")
            .error.find("Column 'age' has an index but does not support the operators specified "
                        "in the query. If you want to execute this query despite the performance "
                        "unpredictability, use ALLOW FILTERING") != std::string::npos);
  (void)f.session.Write("DROP INDEX ks.plain_age;");

  (void)f.session.Write(
      "CREATE CUSTOM INDEX ON ks.people (age) USING 'org.apache.cassandra.index.sasi.SASIIndex';"
      "CREATE CUSTOM INDEX ON ks.people (score) USING 'StorageAttachedIndex';"
      "CREATE CUSTOM INDEX ON ks.people (name) USING 'StorageAttachedIndex';");
  REQUIRE(f.session.transcript().find("ERROR") == std::string::npos);
  for (size_t i = 0; i < std::size(queries); ++i) {
    INFO(queries[i]);
    const Printed indexed = f.Run(std::string(queries[i]) + ";");
    CHECK(indexed.error.empty());
    CHECK(indexed.rows == filtered[i].rows);  // the scan's rows, in its order
  }
  // Text: SAI and SASI answer equality, not ranges.
  const std::string unsupported = "has an index but does not support the operators";
  CHECK(f.Run("SELECT id FROM ks.people WHERE name > 'n2';").error.find(unsupported) !=
        std::string::npos);
  CHECK(f.Run("SELECT id, at FROM ks.people WHERE name = 'n2';").rows ==
        f.Run("SELECT id, at FROM ks.people WHERE name = 'n2' ALLOW FILTERING;").rows);
  // A slice beside another restriction is filtering.
  CHECK(f.Run("SELECT id FROM ks.people WHERE age > 30 AND score > 5;").error.find(refused) !=
        std::string::npos);
}

TEST_CASE("an index on a clustering column answers it across partitions without ALLOW FILTERING",
          "[select][index]") {
  IndexedSelect f;
  std::string setup = std::string(kKeyspace) +
                      "CREATE TABLE ks.events (id int, at int, kind text, PRIMARY KEY (id, at));\n";
  for (int id = 0; id < 10; ++id) {
    for (int at = 0; at < 6; ++at) {
      setup += "INSERT INTO ks.events (id, at, kind) VALUES (" + std::to_string(id) + ", " +
               std::to_string(at * (id % 3 + 1)) + ", 'k" + std::to_string(at % 2) + "');\n";
    }
  }
  (void)f.session.Write(setup);
  REQUIRE(f.session.transcript().find("ERROR") == std::string::npos);
  const std::string refused = "Cannot execute this query as it might involve data filtering";
  const Printed eq = f.Run("SELECT id, at FROM ks.events WHERE at = 6 ALLOW FILTERING;");
  const Printed slice = f.Run("SELECT id, at FROM ks.events WHERE at > 8 ALLOW FILTERING;");
  REQUIRE(eq.error.empty());
  CHECK(eq.rows.size() == 6);  // at 6: ids 1, 4, 7 (at = 2 * k) and 2, 5, 8 (at = 3 * k)
  CHECK(f.Run("SELECT id, at FROM ks.events WHERE at = 6;").error.find(refused) !=
        std::string::npos);

  (void)f.session.Write("CREATE INDEX ON ks.events (at);");
  const Printed indexed = f.Run("SELECT id, at FROM ks.events WHERE at = 6;");
  CHECK(indexed.error.empty());
  CHECK(indexed.rows == eq.rows);
  // A plain index answers equality only; a second restriction is filtering.
  CHECK(
      f.Run("SELECT id, at FROM ks.events WHERE at > 8;").error.find("Column 'at' has an index") !=
      std::string::npos);
  CHECK(f.Run("SELECT id, at FROM ks.events WHERE at = 6 AND kind = 'k0';").error.find(refused) !=
        std::string::npos);
  CHECK(f.Run("SELECT id, at FROM ks.events WHERE at = 6 ORDER BY at DESC;")
            .error.find("ORDER BY with 2ndary indexes is not supported.") != std::string::npos);
  // The partition given: the clustering read itself, as without the index.
  CHECK(f.Run("SELECT at FROM ks.events WHERE id = 2 AND at = 6;").rows.size() == 1);

  // A clustering column restricted out of order: refused without an
  // index, answered by one.
  (void)f.session.Write(
      "CREATE TABLE ks.pairs (id int, a int, b int, PRIMARY KEY (id, a, b));"
      "INSERT INTO ks.pairs (id, a, b) VALUES (1, 1, 2); INSERT INTO ks.pairs (id, a, b) VALUES "
      "(1, 2, 3); INSERT INTO ks.pairs (id, a, b) VALUES (2, 5, 2);");
  const Printed pairs = f.Run("SELECT id, a FROM ks.pairs WHERE b = 2 ALLOW FILTERING;");
  CHECK(pairs.rows.size() == 2);
  CHECK(f.Run("SELECT id, a FROM ks.pairs WHERE b = 2;")
            .error.find("PRIMARY KEY column \"b\" cannot be restricted as preceding column \"a\" "
                        "is not restricted") != std::string::npos);
  (void)f.session.Write("CREATE INDEX ON ks.pairs (b);");
  const Printed by_b = f.Run("SELECT id, a FROM ks.pairs WHERE b = 2;");
  CHECK(by_b.error.empty());
  CHECK(by_b.rows == pairs.rows);
  CHECK(f.Run("SELECT a FROM ks.pairs WHERE id = 1 AND b = 2;").rows.size() == 1);

  (void)f.session.Write(
      "DROP INDEX ks.events_at_idx; CREATE CUSTOM INDEX ON ks.events (at) USING 'sai';");
  REQUIRE(f.session.transcript().find("ERROR") == std::string::npos);
  const Printed sliced = f.Run("SELECT id, at FROM ks.events WHERE at > 8;");
  CHECK(sliced.error.empty());
  CHECK(sliced.rows == slice.rows);
  CHECK(!slice.rows.empty());
}

TEST_CASE("an index on a partition key component answers it alone without ALLOW FILTERING",
          "[select][index]") {
  IndexedSelect f;
  std::string setup = std::string(kKeyspace) +
                      "CREATE TABLE ks.readings (site int, day int, at int, v int, "
                      "PRIMARY KEY ((site, day), at));\n";
  for (int site = 0; site < 5; ++site) {
    for (int day = 0; day < 4; ++day) {
      setup += "INSERT INTO ks.readings (site, day, at, v) VALUES (" + std::to_string(site) + ", " +
               std::to_string(day) + ", 1, " + std::to_string(site * day) + ");\n";
    }
  }
  (void)f.session.Write(setup);
  REQUIRE(f.session.transcript().find("ERROR") == std::string::npos);
  const std::string refused = "Cannot execute this query as it might involve data filtering";
  const Printed filtered =
      f.Run("SELECT site, day FROM ks.readings WHERE day = 2 ALLOW FILTERING;");
  CHECK(filtered.rows.size() == 5);
  CHECK(f.Run("SELECT site, day FROM ks.readings WHERE day = 2;").error.find(refused) !=
        std::string::npos);
  (void)f.session.Write("CREATE INDEX ON ks.readings (day);");
  const Printed indexed = f.Run("SELECT site, day FROM ks.readings WHERE day = 2;");
  CHECK(indexed.error.empty());
  CHECK(indexed.rows == filtered.rows);
  // Beside another restriction it is filtering, as in Cassandra.
  CHECK(f.Run("SELECT site FROM ks.readings WHERE day = 2 AND v = 4;").error.find(refused) !=
        std::string::npos);
  CHECK(f.Run("SELECT site FROM ks.readings WHERE day = 2 AND at = 1;").error.find(refused) !=
        std::string::npos);
}

}  // namespace
}  // namespace cellfs::fs
