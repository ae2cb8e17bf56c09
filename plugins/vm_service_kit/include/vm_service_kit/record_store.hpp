// record_store.hpp — the slice of the DRD that the one-per-VM services use.
//
// events and naming keep all their state in versioned records (key → bytes,
// version +1 per write) and rely on one property only: compare-and-set on a
// single key is linearizable. Behind this interface sit the real DRD
// (DrdRecordStore, through the host API's call_local) and an in-memory store
// for unit tests (MemoryRecordStore), so the services' logic is tested
// without daemons.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/result.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace harness::vmsvc {

struct StoredRecord {
    std::string key;
    Bytes value;
    std::int64_t version = 0;
};

struct CasOutcome {
    bool ok = false;
    std::int64_t current_version = 0;  // after the write when ok, else what is stored (0: absent)
};

class RecordStore {
public:
    virtual ~RecordStore() = default;
    virtual Result<std::optional<StoredRecord>> get(const std::string &key, bool linearizable) = 0;
    // expected_version 0: the key must not exist yet.
    virtual Result<CasOutcome> cas(const std::string &key, std::int64_t expected_version,
                                   std::span<const std::uint8_t> value) = 0;
    virtual Result<bool> del(const std::string &key) = 0;
    // Records whose key starts with prefix, in key order.
    virtual Result<std::vector<StoredRecord>> scan(const std::string &prefix, bool linearizable) = 0;
};

inline Bytes bytes_of(std::string_view s) {
    return Bytes(s.begin(), s.end());
}
inline std::string string_of(std::span<const std::uint8_t> b) {
    return std::string(b.begin(), b.end());
}

}  // namespace harness::vmsvc
