// The VM's membership, written into the DRD (VM_SERVICES.md: prefix
// vm/members/) when vm/drd is loaded here: record vm/members/<id> = pack
// (str address, str state "alive"|"failed"|"left", u64 incarnation), replication
// "voters". Only the coordinator (the live member with the smallest id)
// writes, so members do not race each other; a new coordinator rewrites
// what differs. Writes go through the host API's call_local on a worker
// thread of their own: a DRD write waits for consensus, which must block
// neither the I/O thread nor the pool that serves loads.
#pragma once

#include "membership.hpp"

#include <harness/common/plugin.h>

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace harness::hcore {

class MemberRecords {
public:
    using Snapshot = std::function<std::vector<MemberInfo>()>;
    using DrdLoaded = std::function<bool()>;

    MemberRecords(std::string self_id, Snapshot snapshot, DrdLoaded drd_loaded, const harness_host_api *host,
                  Logger &log);
    ~MemberRecords();  // stops and joins the worker

    void changed();  // membership changed: write what differs (thread-safe)

private:
    void run();
    void write_differences();

    std::string self_id_;
    Snapshot snapshot_;
    DrdLoaded drd_loaded_;
    const harness_host_api *host_;
    Logger &log_;
    std::map<std::string, Bytes> written_;  // key → value last acknowledged by the DRD

    std::mutex mutex_;
    std::condition_variable wake_;
    bool dirty_ = true, stop_ = false;
    std::thread worker_;
};

}  // namespace harness::hcore
