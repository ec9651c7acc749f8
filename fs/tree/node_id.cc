// NodeId encoding: a kind byte, then every field length-prefixed, in a fixed
// order, so equal ids give equal bytes.
#include "fs/tree/node_id.h"

#include <cstring>

namespace cellfs::fs {
namespace {

void PutU32(std::string* out, uint32_t v) {
  char bytes[4];
  std::memcpy(bytes, &v, 4);
  out->append(bytes, 4);
}

void PutBytes(std::string* out, std::string_view bytes) {
  PutU32(out, static_cast<uint32_t>(bytes.size()));
  out->append(bytes);
}

void PutList(std::string* out, const std::vector<std::string>& list) {
  PutU32(out, static_cast<uint32_t>(list.size()));
  for (const std::string& item : list) PutBytes(out, item);
}

void PutI64(std::string* out, int64_t v) {
  char bytes[8];
  std::memcpy(bytes, &v, 8);
  out->append(bytes, 8);
}

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool U8(uint8_t* v) {
    if (in_.empty()) return false;
    *v = static_cast<uint8_t>(in_[0]);
    in_.remove_prefix(1);
    return true;
  }
  bool U32(uint32_t* v) {
    if (in_.size() < 4) return false;
    std::memcpy(v, in_.data(), 4);
    in_.remove_prefix(4);
    return true;
  }
  bool I64(int64_t* v) {
    if (in_.size() < 8) return false;
    std::memcpy(v, in_.data(), 8);
    in_.remove_prefix(8);
    return true;
  }
  bool Bytes(std::string* v) {
    uint32_t n = 0;
    if (!U32(&n) || in_.size() < n) return false;
    v->assign(in_.substr(0, n));
    in_.remove_prefix(n);
    return true;
  }
  bool List(std::vector<std::string>* list) {
    uint32_t n = 0;
    if (!U32(&n) || n > in_.size()) return false;
    list->resize(n);
    for (std::string& item : *list) {
      if (!Bytes(&item)) return false;
    }
    return true;
  }
  bool OptionalI64(std::optional<int64_t>* v) {
    uint8_t present = 0;
    if (!U8(&present)) return false;
    if (present == 0) {
      v->reset();
      return true;
    }
    int64_t value = 0;
    if (!I64(&value)) return false;
    *v = value;
    return true;
  }
  bool done() const { return in_.empty(); }

 private:
  std::string_view in_;
};

void PutOptionalI64(std::string* out, const std::optional<int64_t>& v) {
  out->push_back(v ? '\1' : '\0');
  if (v) PutI64(out, *v);
}

}  // namespace

std::string EncodeNodeId(const NodeId& id) {
  std::string out;
  out.reserve(64 + id.keyspace.size() + id.table.size());
  out.push_back(static_cast<char>(id.kind));
  PutBytes(&out, id.keyspace);
  PutBytes(&out, id.table);
  PutU32(&out, id.table_id);
  PutList(&out, id.partition_key);
  PutList(&out, id.slice);
  PutList(&out, id.query);
  out.push_back(id.table_query ? '\1' : '\0');
  PutList(&out, id.clustering);
  PutU32(&out, id.column_id);
  PutBytes(&out, id.element);
  PutBytes(&out, id.scratch);
  PutOptionalI64(&out, id.write.ttl);
  PutOptionalI64(&out, id.write.timestamp);
  out.push_back(static_cast<char>(id.file));
  out.push_back(static_cast<char>(id.directory));
  return out;
}

Status DecodeNodeId(std::string_view bytes, NodeId* id) {
  Reader in(bytes);
  uint8_t kind = 0, file = 0, directory = 0, table_query = 0;
  bool ok = in.U8(&kind) && in.Bytes(&id->keyspace) && in.Bytes(&id->table) &&
            in.U32(&id->table_id) && in.List(&id->partition_key) && in.List(&id->slice) &&
            in.List(&id->query) && in.U8(&table_query) && in.List(&id->clustering) &&
            in.U32(&id->column_id) && in.Bytes(&id->element) && in.Bytes(&id->scratch) &&
            in.OptionalI64(&id->write.ttl) && in.OptionalI64(&id->write.timestamp) &&
            in.U8(&file) && in.U8(&directory) && in.done();
  if (!ok || kind > static_cast<uint8_t>(NodeKind::kScratch) ||
      directory > static_cast<uint8_t>(NodeKind::kQuery) ||
      file > static_cast<uint8_t>(VirtualName::Kind::kStatus)) {
    return Status::Corruption("not a node identity");
  }
  id->kind = static_cast<NodeKind>(kind);
  id->table_query = table_query != 0;
  id->file = static_cast<VirtualName::Kind>(file);
  id->directory = static_cast<NodeKind>(directory);
  return Status::Ok();
}

}  // namespace cellfs::fs
