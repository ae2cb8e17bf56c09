#include "member_records.hpp"

#include "local_drd.hpp"

namespace harness::hcore {

MemberRecords::MemberRecords(std::string self_id, Snapshot snapshot, DrdLoaded drd_loaded, const harness_host_api *host,
                             Logger &log)
    : self_id_(std::move(self_id)), snapshot_(std::move(snapshot)), drd_loaded_(std::move(drd_loaded)), host_(host),
      log_(log), worker_([this] { run(); }) {}

MemberRecords::~MemberRecords() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    worker_.join();
}

void MemberRecords::changed() {
    {
        std::lock_guard lock(mutex_);
        dirty_ = true;
    }
    wake_.notify_all();
}

void MemberRecords::run() {
    // Also every second without a change: a write that failed (no DRD
    // majority yet) or a coordinator change is caught up with.
    constexpr auto kRetry = std::chrono::seconds(1);
    std::unique_lock lock(mutex_);
    while (!stop_) {
        wake_.wait_for(lock, kRetry, [this] { return stop_ || dirty_; });
        if (stop_) break;
        dirty_ = false;
        lock.unlock();
        write_differences();
        lock.lock();
    }
}

void MemberRecords::write_differences() {
    if (!drd_loaded_()) return;
    auto members = snapshot_();
    const MemberInfo *coordinator = nullptr;
    for (const auto &m : members)
        if (m.alive && (!coordinator || m.id < coordinator->id)) coordinator = &m;
    if (!coordinator || coordinator->id != self_id_) {
        written_.clear();  // whoever coordinates later rewrites everything
        return;
    }
    for (const auto &m : members) {
        std::string key = "vm/members/" + m.id;
        Packer packed;
        packed.str(m.tcp.to_string()).str(m.alive ? "alive" : m.left ? "left" : "failed").u64(m.incarnation);
        const Bytes value = packed.take();
        auto it = written_.find(key);
        if (it != written_.end() && it->second == value) continue;
        Packer args;
        args.str(key).bytes(value).str("voters");
        if (auto r = call_local_drd(host_, "put", args); !r) {
            log_.debug("membership record " + key + " not written yet: " + r.error().describe());
            return;  // retried on the next change or second
        }
        written_[key] = value;
    }
}

}  // namespace harness::hcore
