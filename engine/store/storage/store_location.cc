// Parsing a store's spelling (engine/store/storage/store_location.h).
#include "engine/store/storage/store_location.h"

namespace cellfs::storage {
namespace {

constexpr std::string_view kRadosScheme = "rados:";

Status Refuse(std::string_view spelling, const std::string& why) {
  return Status::InvalidArgument("'" + std::string(spelling) + "': " + why +
                                 " (expected rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE])");
}

}  // namespace

bool IsRadosSpelling(std::string_view spelling) {
  return spelling.substr(0, kRadosScheme.size()) == kRadosScheme;
}

Result<StoreLocation> ParseStoreLocation(std::string_view spelling) {
  StoreLocation location;
  if (!IsRadosSpelling(spelling)) {
    location.directory = std::string(spelling);
    return location;
  }
  location.kind = StoreLocation::Kind::kRados;
  std::string_view rest = spelling.substr(kRadosScheme.size());
  const size_t question = rest.find('?');
  location.pool = std::string(rest.substr(0, question));
  if (location.pool.empty()) return Refuse(spelling, "no pool named");
  if (question == std::string_view::npos) return location;
  std::string_view query = rest.substr(question + 1);
  while (true) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      return Refuse(spelling, "'" + std::string(pair) + "' is not NAME=VALUE");
    }
    const std::string_view name = pair.substr(0, eq);
    const std::string_view value = pair.substr(eq + 1);
    std::string* field = name == "conf" ? &location.conf
                         : name == "id" ? &location.id
                         : name == "ns" ? &location.ns
                                        : nullptr;
    if (field == nullptr) return Refuse(spelling, "unknown parameter '" + std::string(name) + "'");
    if (value.empty()) return Refuse(spelling, "empty " + std::string(name));
    if (!field->empty()) return Refuse(spelling, std::string(name) + " given twice");
    *field = std::string(value);
    if (amp == std::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return location;
}

}  // namespace cellfs::storage
