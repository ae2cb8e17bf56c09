// The job's events topic job/<FTMPI_JOB> in the VM's vm/events, through the
// local daemon: the one place that knows the service's fetch and publish
// calls and their encodings. The wire-up's failure notices
// (startup_failures.hpp), the failure notifier (ft/notifier.cpp) and
// MPI_Comm_spawn's request to the launcher (spawn/launcher_request.cpp)
// read and write the topic through it.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/hlib/hlib.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace ftmpi::runtime {

struct TopicEvent {
    int64_t seq = 0;
    std::vector<uint8_t> payload;
};

// The events of `topic` after sequence number `after` (at most 256), in
// topic order, waiting up to `wait` for one when there is none. A reply
// that does not parse is an error (HARNESS_ERR_PLUGIN_FAILED), as is
// anything the call itself returns.
harness::Result<std::vector<TopicEvent>> fetch_events(harness::hlib::VirtualMachine &vm, const std::string &topic,
                                                      int64_t after, std::chrono::milliseconds wait,
                                                      std::chrono::steady_clock::time_point deadline);

// Appends `payload` to `topic`; returns its sequence number (what follows
// it in the topic comes after that).
harness::Result<int64_t> publish_event(harness::hlib::VirtualMachine &vm, const std::string &topic,
                                       const std::vector<uint8_t> &payload,
                                       std::chrono::steady_clock::time_point deadline);

}  // namespace ftmpi::runtime
