// `cellfs demo`: mounts a demo store and loads it through the mount itself
// (@cql for the schema, @insert for the rows), as a user would.
#include "tools/cellfs/demo_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string_view>

#include "tools/cellfs/data_dir_trust.h"
#include "tools/cellfs/demo_data.h"
#include "tools/cellfs/unique_fd.h"

namespace cellfs::tools {
namespace {

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Runs this program with `arguments` and waits; true when it exits 0.
bool RunSelf(const std::vector<std::string>& arguments) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) return false;
  self[n] = '\0';
  pid_t child = fork();
  if (child < 0) return false;
  if (child == 0) {
    std::vector<std::string> copy = arguments;
    std::vector<char*> argv = {self};
    for (std::string& argument : copy) argv.push_back(argument.data());
    argv.push_back(nullptr);
    execv(self, argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Writes `content` to `path` (a control file) and reads back its report.
bool WriteControl(const std::string& path, std::string_view content, std::string* report) {
  int fd = open(path.c_str(), O_RDWR);
  if (fd < 0) return false;
  bool ok = true;
  constexpr size_t kChunk = 1u << 20;
  for (size_t at = 0; at < content.size(); at += kChunk) {
    std::string_view piece = content.substr(at, kChunk);
    if (write(fd, piece.data(), piece.size()) != static_cast<ssize_t>(piece.size())) ok = false;
  }
  if (fsync(fd) != 0) ok = false;
  char buffer[4096];
  ssize_t got;
  off_t offset = 0;
  while ((got = pread(fd, buffer, sizeof(buffer), offset)) > 0) {
    report->append(buffer, static_cast<size_t>(got));
    offset += got;
  }
  if (close(fd) != 0) ok = false;
  return ok;
}

std::string TableDir(const std::string& mnt, const std::string& qualified) {
  size_t dot = qualified.find('.');
  return mnt + "/" + qualified.substr(0, dot) + "/" + qualified.substr(dot + 1);
}

bool Load(const std::string& mnt) {
  std::string report;
  if (!WriteControl(mnt + "/@cql", DemoSchema(), &report)) {
    std::fprintf(stderr, "cellfs demo: creating the schema failed:\n%s", report.c_str());
    return false;
  }
  long long now = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  for (const DemoTable& table : DemoRows(now)) {
    report.clear();
    if (!WriteControl(TableDir(mnt, table.name) + "/@insert", table.jsonl, &report)) {
      std::fprintf(stderr, "cellfs demo: loading %s failed:\n%s", table.name.c_str(),
                   report.c_str());
      return false;
    }
    std::fprintf(stderr, "  %-22s %s", table.name.c_str(), report.c_str());
  }
  return true;
}

std::string DayText(std::time_t when) {
  std::tm utc{};
  gmtime_r(&when, &utc);
  char day[16];
  std::strftime(day, sizeof(day), "%Y-%m-%d", &utc);
  return day;
}

std::string SelfPath() {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  return n > 0 ? std::string(self, static_cast<size_t>(n)) : "cellfs";
}

void PrintTryList(const std::string& data, const std::string& mnt) {
  std::time_t now = std::time(nullptr);
  std::string today = DayText(now);
  std::string yesterday = DayText(now - 86'400);
  std::string logs = mnt + "/demo/logs/web1,";
  std::string cellfs = SelfPath();
  std::printf(
      "cellfs demo mounted at %s (data in %s). Try:\n"
      "  ls %s/demo\n"
      "  cat %s/demo/logs/@schema\n"
      "  ls -U '%s%s' | head -5\n"
      "  ls -U '%s%s/@ge=%sT06:00:00.000Z/@lt=%sT07:00:00.000Z'\n"
      "  head -3 '%s%s/@json'\n"
      "  cat %s/demo/users_by_email/ann0@example.com/@json\n"
      "  ls -U %s/demo/notifications/user1 | head -3\n"
      "  getfattr -d %s/demo/notifications/user1/*/text | head\n"
      "  echo pro > %s/demo/users_by_email/bob1@example.com/plan\n"
      "  %s stats %s demo.logs\n"
      "Unmount with: %s umount %s\n",
      mnt.c_str(), data.c_str(), mnt.c_str(), mnt.c_str(), logs.c_str(), today.c_str(),
      logs.c_str(), yesterday.c_str(), yesterday.c_str(), yesterday.c_str(), logs.c_str(),
      today.c_str(), mnt.c_str(), mnt.c_str(), mnt.c_str(), mnt.c_str(), cellfs.c_str(),
      mnt.c_str(), cellfs.c_str(), mnt.c_str());
}

}  // namespace

int RunDemo(const DemoArgs& args) {
  std::string data = args.dir + "/data";
  std::string mnt = args.dir + "/mnt";
  // DIR holds the store (and /tmp/cellfs-demo can be made by anyone before
  // root runs the demo): it is judged as a data directory is, and a fresh
  // one is made 0700.
  Result<UniqueFd> dir = OpenTrustedDataDir(args.dir, geteuid(), /*create=*/true);
  if (dir.ok()) {
    Result<UniqueFd> data_dir = OpenTrustedDataDir(data, geteuid(), /*create=*/true);
    if (!data_dir.ok()) dir = data_dir.status();
  }
  if (!dir.ok()) {
    std::fprintf(stderr, "cellfs demo: %s cannot hold the demo: %s\n", args.dir.c_str(),
                 dir.status().message().c_str());
    return 1;
  }
  if (mkdirat(dir->get(), "mnt", 0755) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "cellfs demo: %s: %s\n", mnt.c_str(), std::strerror(errno));
    return 1;
  }
  if (!IsDirectory(mnt + "/demo") && !RunSelf({"mount", data, mnt})) {
    std::fprintf(stderr, "cellfs demo: mounting %s at %s failed\n", data.c_str(), mnt.c_str());
    return 1;
  }
  if (!IsDirectory(mnt + "/demo")) {
    std::fprintf(stderr, "cellfs demo: loading the demo tables:\n");
    if (!Load(mnt)) return 1;
  }
  PrintTryList(data, mnt);
  return 0;
}

}  // namespace cellfs::tools
