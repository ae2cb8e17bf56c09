// A hot standby (FTMPI_STANDBY=k, ftmpirun --standby): a process started
// with the job that waits in MPI_Init, ahead of any failure, until the job
// makes it a failed rank's replacement (the PROMOTE protocol,
// ft/RECOVERY.md "Hot standbys"). MPI_Init does all the work that does not
// depend on the rank first (settings, collective selection, comm-driver
// plugins, this connection to the local daemon), then waits here for the
// `promote` addressed to k on the job topic job/<FTMPI_JOB>; promoted, the
// process goes on exactly as the REBUILD replacement the event names.
//
// While it waits a standby is no rank: it has published no contact, made no
// connection, no shared-memory file and no cominfo record, and has written
// no lifecycle word; it prints nothing.
#pragma once

#include "ft/events.hpp"

#include <harness/common/result.hpp>
#include <harness/hlib/hlib.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace ftmpi::runtime {

class Standby {
public:
    // Standby `number` of job `job`; connects to the local daemon now (a
    // daemon that does not answer yet is tried again by wait()).
    Standby(std::string job, int number);

    struct Limits {
        int world_size = 1;                       // a promote must name a rank below it
        std::chrono::milliseconds give_up{0};     // FTMPI_STANDBY_MS; 0: no bound
        std::chrono::milliseconds daemon_lost{};  // FTMPI_DAEMON_LOST_MS: a daemon gone this long is lost
        std::chrono::milliseconds daemon_hung{};  // FTMPI_DAEMON_HUNG_MS: a silent daemon this long is lost
    };
    // Waits for this standby's promote and returns it. An error says why the
    // standby must end instead: its daemon counts as lost (daemon_watch.hpp:
    // daemon_lost after a closed connection or a refused connect,
    // daemon_hung while it stays silent), events of the topic were dropped before it read
    // them, its promote names no replacement of this job, or give_up passed.
    harness::Result<ft::Promotion> wait_for_promotion(const Limits &limits);

    // The daemon connection, for the failure notifier to go on with (empty
    // when there is none at the moment).
    std::optional<harness::hlib::VirtualMachine> take_connection() { return std::exchange(vm_, std::nullopt); }

private:
    bool connect();

    std::string topic_;
    int number_ = 0;
    std::optional<harness::hlib::VirtualMachine> vm_;
    harness::Error connect_error_;  // the last failed connect's
};

}  // namespace ftmpi::runtime
