// What the reporter publishes besides the communicators themselves: the
// names programs gave them, and a bounded log of this process's failure and
// recovery events (the newest 256; older ones are counted as dropped). One
// instance per process, filled by the hooks of internal/cominfo.hpp.
#pragma once

#include "mpi.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace ftmpi::cominfo {

// Milliseconds since the epoch: events of different hosts are merged by it.
int64_t wall_ms();

class Journal {
public:
    static constexpr size_t max_events = 256;

    // Appends one event; `event` gets "seq" and "time_ms".
    void add(nlohmann::json event);
    void set_name(MPI_Comm comm, const std::string &name);
    void forget(MPI_Comm comm);
    // The name the program gave comm ("" if none; MPI_COMM_WORLD's default).
    std::string name_of(MPI_Comm comm);
    // The events kept so far, oldest first, and how many were dropped.
    nlohmann::json events(int64_t *dropped);

private:
    std::mutex mu_;
    std::deque<nlohmann::json> events_;
    int64_t next_seq_ = 1;
    int64_t dropped_ = 0;
    std::map<MPI_Comm, std::string> names_;
};

Journal &journal();

}  // namespace ftmpi::cominfo
