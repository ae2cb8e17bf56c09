// memory_record_store.hpp — RecordStore in memory, for unit tests.
//
// Linearizable by construction (one mutex). fail_next(n) makes the next n
// calls fail with HARNESS_ERR_UNREACHABLE, as a DRD without a leader would,
// and cas_fails_after_commit makes one CAS commit and still report an error
// (the "did it happen?" case a client of a replicated store must survive).
#pragma once

#include "record_store.hpp"

#include <map>
#include <mutex>

namespace harness::vmsvc {

class MemoryRecordStore final : public RecordStore {
public:
    Result<std::optional<StoredRecord>> get(const std::string &key, bool linearizable) override;
    Result<CasOutcome> cas(const std::string &key, std::int64_t expected_version,
                           std::span<const std::uint8_t> value) override;
    Result<bool> del(const std::string &key) override;
    Result<std::vector<StoredRecord>> scan(const std::string &prefix, bool linearizable) override;

    void fail_next(int calls);
    void commit_then_fail_next_cas();
    std::size_t size() const;
    std::size_t cas_calls() const;

private:
    bool take_failure();
    mutable std::mutex mutex_;
    std::map<std::string, StoredRecord> records_;
    int failures_left_ = 0;
    bool commit_then_fail_ = false;
    std::size_t cas_calls_ = 0;
};

}  // namespace harness::vmsvc
