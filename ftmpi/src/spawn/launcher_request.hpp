// Asking the job's launcher (ftmpirun) for new processes: a `spawn` event on
// the job's topic job/<FTMPI_JOB> in the VM's events service, answered by
// `spawned` (the world ranks it gave them) or `spawn_failed` (why not).
// The encodings are ftmpirun's too (tools/ftmpirun/src/job_events.hpp).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace ftmpi::spawn {

// One command of MPI_Comm_spawn(_multiple) and where it runs.
struct App {
    std::string command;
    std::vector<std::string> argv;  // arguments after the command
    int count = 0;
    std::string host;  // info "host": a daemon's member id or host name; "" any
    std::string wdir;  // info "wdir"; "" the launcher's
};

// What the launcher started: world ranks base..base+count-1, and the
// spawn's number in the job (both sides derive their bridge tag from it).
struct Started {
    int spawn_id = 0;
    int base = 0;
    int count = 0;
};

// Publishes the request and waits for its answer until `timeout`. Returns
// "" and fills *out, or says why nothing was started. `lowest_base`: the
// new processes' world ranks start there at the least (the numbers below
// were given to another job's processes; the launcher skips them).
std::string request_spawn(const std::vector<App> &apps, int leader_world, int lowest_base,
                          std::chrono::milliseconds timeout, Started *out);

}  // namespace ftmpi::spawn
