#include "vm_service_kit/memory_record_store.hpp"

namespace harness::vmsvc {

namespace {
Error unreachable() {
    return make_error(HARNESS_ERR_UNREACHABLE, "memory store: injected failure");
}
}  // namespace

bool MemoryRecordStore::take_failure() {
    if (failures_left_ <= 0) return false;
    --failures_left_;
    return true;
}

Result<std::optional<StoredRecord>> MemoryRecordStore::get(const std::string &key, bool) {
    std::lock_guard lock(mutex_);
    if (take_failure()) return unreachable();
    auto it = records_.find(key);
    if (it == records_.end()) return std::optional<StoredRecord>{};
    return std::optional<StoredRecord>{it->second};
}

Result<CasOutcome> MemoryRecordStore::cas(const std::string &key, std::int64_t expected_version,
                                          std::span<const std::uint8_t> value) {
    std::lock_guard lock(mutex_);
    ++cas_calls_;
    if (take_failure()) return unreachable();
    auto it = records_.find(key);
    std::int64_t current = it == records_.end() ? 0 : it->second.version;
    if (current != expected_version) return CasOutcome{false, current};
    auto &r = records_[key];
    r.key = key;
    r.value.assign(value.begin(), value.end());
    r.version = current + 1;
    if (commit_then_fail_) {
        commit_then_fail_ = false;
        return unreachable();
    }
    return CasOutcome{true, r.version};
}

Result<bool> MemoryRecordStore::del(const std::string &key) {
    std::lock_guard lock(mutex_);
    if (take_failure()) return unreachable();
    return records_.erase(key) > 0;
}

Result<std::vector<StoredRecord>> MemoryRecordStore::scan(const std::string &prefix, bool) {
    std::lock_guard lock(mutex_);
    if (take_failure()) return unreachable();
    std::vector<StoredRecord> out;
    for (auto it = records_.lower_bound(prefix); it != records_.end() && it->first.starts_with(prefix); ++it)
        out.push_back(it->second);
    return out;
}

void MemoryRecordStore::fail_next(int calls) {
    std::lock_guard lock(mutex_);
    failures_left_ = calls;
}

void MemoryRecordStore::commit_then_fail_next_cas() {
    std::lock_guard lock(mutex_);
    commit_then_fail_ = true;
}

std::size_t MemoryRecordStore::size() const {
    std::lock_guard lock(mutex_);
    return records_.size();
}

std::size_t MemoryRecordStore::cas_calls() const {
    std::lock_guard lock(mutex_);
    return cas_calls_;
}

}  // namespace harness::vmsvc
