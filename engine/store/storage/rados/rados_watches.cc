// RadosWatches (engine/store/storage/rados/rados_watches.h).
#include "engine/store/storage/rados/rados_watches.h"

#include "engine/store/storage/rados/rados_layout.h"

namespace cellfs::storage {
namespace {

constexpr uint64_t kNotifyTimeoutMs = 5000;

}  // namespace

// Acknowledges each notify at once and hands its space to the dispatcher.
class RadosWatches::Context final : public librados::WatchCtx2 {
 public:
  Context(RadosWatches* owner, std::string space)
      : owner_(owner), space_(std::move(space)), object_(WatchObject(space_)) {}

  // This process's own notifies are acknowledged at once (their callbacks
  // ran at the commit); another's after the dispatcher ran the callbacks,
  // so the notifier's commit returns once they are done.
  void handle_notify(uint64_t notify_id, uint64_t cookie, uint64_t notifier_id,
                     librados::bufferlist&) override {
    if (notifier_id == owner_->own_instance_) {
      Ack(notify_id, cookie);
      return;
    }
    owner_->Post({space_, false, true, notify_id, cookie});
  }
  void handle_error(uint64_t, int) override { owner_->Post({space_, true, false, 0, 0}); }
  void Ack(uint64_t notify_id, uint64_t cookie) {
    librados::bufferlist reply;
    owner_->io_->notify_ack(object_, notify_id, cookie, reply);
  }

 private:
  RadosWatches* owner_;
  std::string space_;
  std::string object_;
};

RadosWatches::RadosWatches(librados::Rados* rados, librados::IoCtx* io, uint64_t own_instance)
    : rados_(rados), io_(io), own_instance_(own_instance), dispatcher_([this] { Dispatch(); }) {}

RadosWatches::~RadosWatches() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  dispatcher_.join();
  for (auto& [space, remote] : remote_) {
    if (remote.watching) io_->unwatch2(remote.handle);
  }
  // Callbacks that started before their unwatch2 finish before the
  // contexts go.
  rados_->watch_flush();
}

uint64_t RadosWatches::StartWatch(const std::string& space, Context* context, bool* watching) {
  const std::string object = WatchObject(space);
  (void)io_->create(object, /*exclusive=*/false);  // watch2 needs the object
  uint64_t handle = 0;
  *watching = io_->watch2(object, &handle, context) == 0;
  return handle;
}

WatchId RadosWatches::Add(std::string_view space, WatchCallback callback) {
  const WatchId id = local_.Add(space, std::move(callback));
  std::lock_guard lock(mutex_);
  ids_[id] = std::string(space);
  Remote& remote = remote_[std::string(space)];
  if (remote.users++ == 0 && !remote.watching) {
    if (!remote.context) remote.context = std::make_unique<Context>(this, std::string(space));
    // watch2 waits for no callback, so holding mutex_ (which callbacks
    // take) is safe here; unwatch2 is never called under it.
    remote.handle = StartWatch(std::string(space), remote.context.get(), &remote.watching);
  }
  return id;
}

void RadosWatches::Remove(WatchId id) {
  local_.Remove(id);
  uint64_t handle = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = ids_.find(id);
    if (it == ids_.end()) return;
    auto remote = remote_.find(it->second);
    ids_.erase(it);
    if (remote == remote_.end() || --remote->second.users > 0 || !remote->second.watching) {
      return;
    }
    // The context stays (a callback may be running); the watch goes.
    remote->second.watching = false;
    handle = remote->second.handle;
  }
  io_->unwatch2(handle);
}

void RadosWatches::Committed(const std::vector<std::string>& spaces) {
  local_.Notify(spaces, /*from_other_process=*/false);
  std::vector<std::string> announced;
  {
    std::lock_guard lock(mutex_);
    for (const std::string& space : spaces) {
      auto it = remote_.find(space);
      if (it != remote_.end() && it->second.users > 0) announced.push_back(space);
    }
  }
  for (const std::string& space : announced) {
    librados::bufferlist payload;
    // Best effort: a mount that misses it reloads when its watch errs, and
    // the kernel's timeouts bound what it shows meanwhile.
    (void)io_->notify2(WatchObject(space), payload, kNotifyTimeoutMs, nullptr);
  }
}

void RadosWatches::Replayed(const std::set<std::string>& objects) {
  std::set<std::string> spaces;
  std::string space;
  for (const std::string& object : objects) {
    if (SpaceOfObject(object, &space)) spaces.insert(space);
  }
  const std::vector<std::string> changed(spaces.begin(), spaces.end());
  local_.Notify(changed, /*from_other_process=*/true);
  for (const std::string& each : changed) {
    librados::bufferlist payload;
    (void)io_->notify2(WatchObject(each), payload, kNotifyTimeoutMs, nullptr);  // best effort
  }
}

void RadosWatches::Post(Event event) {
  {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  wake_.notify_one();
}

void RadosWatches::Dispatch() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !events_.empty(); });
    if (stopping_) return;
    Event event = std::move(events_.front());
    events_.pop_front();
    Remote* remote = nullptr;
    if (event.rewatch) {
      auto it = remote_.find(event.space);
      if (it != remote_.end() && it->second.users > 0) remote = &it->second;
    }
    if (remote != nullptr) {
      // Entries of remote_ are never erased, so `remote` stays valid.
      const bool was_watching = remote->watching;
      const uint64_t old_handle = remote->handle;
      remote->watching = false;
      Context* context = remote->context.get();
      lock.unlock();
      if (was_watching) io_->unwatch2(old_handle);
      bool watching = false;
      const uint64_t handle = StartWatch(event.space, context, &watching);
      lock.lock();
      remote->handle = handle;
      remote->watching = watching;
    }
    Context* acking = nullptr;
    if (event.ack) {
      auto it = remote_.find(event.space);
      if (it != remote_.end()) acking = it->second.context.get();
    }
    lock.unlock();
    // A dropped watch may have missed notifies: reported as another
    // process's change too.
    local_.Notify({event.space}, /*from_other_process=*/true);
    if (acking != nullptr) acking->Ack(event.notify_id, event.cookie);
    lock.lock();
  }
}

}  // namespace cellfs::storage
