// id_allocator.hpp — unique ids per space, reserved from the DRD in blocks.
//
// The DRD record `naming/<space>` holds pack(i64 next), the lowest id not yet
// reserved by anyone (absent: 1). The active instance reserves a block
// [next, next + max(count, block)) with one compare-and-set that moves the
// record forward, then hands ids out of the block from memory. An id is only
// ever handed out of a block this instance reserved by a successful CAS, so
// no id is issued twice — across failovers, restarts of every daemon, and even
// two instances that both believe they are active. What a failover costs is
// the unused rest of the old block: ids skip ahead, they never repeat. A new
// term (a takeover) drops the blocks held, so ids keep increasing VM-wide.
#pragma once

#include "vm_service_kit/record_store.hpp"

#include <map>
#include <mutex>

namespace harness::vmsvc {

struct NamingLimits {
    std::int64_t block = 64;           // ids reserved per DRD write
    std::int64_t max_count = 1 << 20;  // ids per allocate call
};

class IdAllocator {
public:
    IdAllocator(RecordStore &store, NamingLimits limits = {}) : store_(store), limits_(limits) {}

    // Ids first … first+count−1.
    Result<std::int64_t> allocate(const std::string &space, std::int64_t count, std::int64_t term);

    static std::string key_of(const std::string &space) { return "naming/" + space; }

private:
    struct Block {
        std::int64_t next = 0;
        std::int64_t limit = 0;  // exclusive
    };
    RecordStore &store_;
    NamingLimits limits_;
    std::mutex mutex_;
    std::int64_t term_ = -1;
    std::map<std::string, Block> blocks_;
};

}  // namespace harness::vmsvc
