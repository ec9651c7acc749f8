// Generates the demo's schema and rows (tools/cellfs/demo_data.h).
#include "tools/cellfs/demo_data.h"

#include <array>
#include <cstdio>
#include <ctime>
#include <random>

namespace cellfs::tools {
namespace {

constexpr long long kMillisPerDay = 86'400'000;

std::string IsoMillis(long long millis) {
  std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[96];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(millis % 1000));
  return text;
}

std::string Day(long long millis) { return IsoMillis(millis).substr(0, 10); }

std::string Logs(std::mt19937& rng, long long now) {
  static constexpr std::array<const char*, 4> kHosts = {"web1", "web2", "api1", "db1"};
  static constexpr std::array<const char*, 6> kMessages = {
      "GET /checkout 200",  "GET /search 200",        "POST /login 401",
      "slow query: 812 ms", "cache miss for cart:42", "GET /static/app.js 304"};
  std::string out;
  for (int day = 2; day >= 0; --day) {
    long long start = (now / kMillisPerDay - day) * kMillisPerDay;
    for (const char* host : kHosts) {
      for (int i = 0; i < 150; ++i) {
        long long ts = start + static_cast<long long>(rng() % static_cast<unsigned>(kMillisPerDay));
        if (ts > now) continue;
        int pick = static_cast<int>(rng() % kMessages.size());
        const char* level = pick == 2 ? "WARN" : (pick == 3 ? "ERROR" : "INFO");
        out += std::string("{\"host\": \"") + host + "\", \"day\": \"" + Day(start) +
               "\", \"ts\": \"" + IsoMillis(ts) + "\", \"level\": \"" + level + "\", \"msg\": \"" +
               kMessages[static_cast<size_t>(pick)] + "\"}\n";
      }
    }
  }
  return out;
}

void Users(std::mt19937& rng, std::string* by_email, std::string* by_id) {
  static constexpr std::array<const char*, 8> kNames = {"ann", "bob", "chen", "dara",
                                                        "eli", "fay", "gus",  "hana"};
  for (int i = 0; i < 200; ++i) {
    std::string name =
        std::string(kNames[static_cast<size_t>(i) % kNames.size()]) + std::to_string(i);
    char id[40];
    std::snprintf(id, sizeof(id), "%08x-%04x-4%03x-8%03x-%012llx", static_cast<unsigned>(rng()),
                  static_cast<unsigned>(rng() & 0xffff), static_cast<unsigned>(rng() & 0xfff),
                  static_cast<unsigned>(rng() & 0xfff),
                  static_cast<unsigned long long>(rng()) << 16);
    std::string email = name + "@example.com";
    std::string common =
        "\"name\": \"" + name + "\", \"plan\": \"" + (rng() % 4 == 0 ? "pro" : "free") + "\"}\n";
    *by_email += "{\"email\": \"" + email + "\", \"id\": \"" + id + "\", " + common;
    *by_id += "{\"id\": \"" + std::string(id) + "\", \"email\": \"" + email + "\", " + common;
  }
}

std::string Notifications(std::mt19937& rng, long long now) {
  std::string out;
  for (int user = 0; user < 20; ++user) {
    for (int i = 0; i < 25; ++i) {
      long long at = now - static_cast<long long>(rng() % (3 * kMillisPerDay));
      bool fleeting = i % 3 == 0;  // "someone is typing"-style entries expire in an hour
      out += "{\"user\": \"user" + std::to_string(user) + "\", \"at\": \"" + IsoMillis(at) +
             "\", \"text\": \"" + (fleeting ? "new comment on your post" : "weekly report ready") +
             "\"" + (fleeting ? ", \"@ttl\": 3600" : "") + "}\n";
    }
  }
  return out;
}

}  // namespace

std::string DemoSchema() {
  return "CREATE KEYSPACE IF NOT EXISTS demo WITH replication = "
         "{'class': 'SimpleStrategy', 'replication_factor': 1};\n"
         "CREATE TABLE IF NOT EXISTS demo.logs (host text, day date, ts timestamp, level text, "
         "msg text, PRIMARY KEY ((host, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);\n"
         "CREATE TABLE IF NOT EXISTS demo.users_by_email (email text PRIMARY KEY, id uuid, "
         "name text, plan text);\n"
         "CREATE TABLE IF NOT EXISTS demo.users_by_id (id uuid PRIMARY KEY, email text, "
         "name text, plan text);\n"
         "CREATE TABLE IF NOT EXISTS demo.notifications (user text, at timestamp, text text, "
         "PRIMARY KEY (user, at)) WITH CLUSTERING ORDER BY (at DESC);\n";
}

std::vector<DemoTable> DemoRows(long long now_millis) {
  std::mt19937 rng(20261121);
  std::vector<DemoTable> tables;
  tables.push_back({"demo.logs", Logs(rng, now_millis)});
  DemoTable by_email{"demo.users_by_email", ""}, by_id{"demo.users_by_id", ""};
  Users(rng, &by_email.jsonl, &by_id.jsonl);
  tables.push_back(std::move(by_email));
  tables.push_back(std::move(by_id));
  tables.push_back({"demo.notifications", Notifications(rng, now_millis)});
  return tables;
}

}  // namespace cellfs::tools
