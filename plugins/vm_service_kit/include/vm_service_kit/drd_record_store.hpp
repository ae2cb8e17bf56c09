// drd_record_store.hpp — RecordStore on the real DRD (vm/drd) of this daemon.
//
// Calls vm/drd's PACKED functions in-process through the host API's
// call_local (ABI 1.1), exactly as the contract (plugins/VM_SERVICES.md)
// lists them; every write asks for "voters" replication, so it is
// acknowledged only once committed on a majority.
#pragma once

#include "record_store.hpp"

#include <harness/common/plugin.h>

namespace harness::vmsvc {

class DrdRecordStore final : public RecordStore {
public:
    explicit DrdRecordStore(const harness_host_api *host) : host_(host) {}

    // Whether the host offers call_local at all (ABI 1.1 daemons).
    static bool host_supports(const harness_host_api *host);

    Result<std::optional<StoredRecord>> get(const std::string &key, bool linearizable) override;
    Result<CasOutcome> cas(const std::string &key, std::int64_t expected_version,
                           std::span<const std::uint8_t> value) override;
    Result<bool> del(const std::string &key) override;
    Result<std::vector<StoredRecord>> scan(const std::string &prefix, bool linearizable) override;

private:
    Result<Bytes> call(const char *function, const Packer &args);
    const harness_host_api *host_;
};

}  // namespace harness::vmsvc
