// The fault-tolerance settings of this process, taken from the settings
// table (settings/table.hpp) at MPI_Init (ft::init): the launch modes ftmpirun
// passes (FT_CONTRACTS.md "Launch options and environment") and the
// notifier's timings. MPI_Init has refused an invalid value before this.
#pragma once

#include <string>

namespace ftmpi::ft {

struct Settings {
    int comm_mode;               // FTMPI_COMM_MODE: ulfm|abort|blank|shrink|rebuild|rebuild-append
    int msg_mode;                // FTMPI_MSG_MODE: cont|nop
    bool strict = false;         // FTMPI_COLL_STRICT=1
    bool ordered = false;        // FTMPI_NOTIFIER=ordered: never declare a suspect locally
    int confirm_ms = 3000;       // FTMPI_CONFIRM_MS: how long a suspicion waits for the VM
    int daemon_lost_ms = 5000;   // FTMPI_DAEMON_LOST_MS: own daemon gone (closed, refused) this long -> exit
    int daemon_hung_ms = 60000;  // FTMPI_DAEMON_HUNG_MS: own daemon silent, connection open, this long -> exit
    bool cominfo = true;         // FTMPI_COMINFO: report to the VM for the cominfo tool
    bool verbose = false;        // FTMPI_VERBOSE or FTMPI_LOG_LEVEL=info: say what the notifier does
    bool restarted = false;      // FTMPI_RESTARTED=1: a replacement started by REBUILD
    int incarnation = 0;         // FTMPI_INCARNATION
    int round = 0;               // FTMPI_ROUND
    std::string job;             // FTMPI_JOB ("" when not launched by ftmpirun)
    bool have_daemon = false;    // HARNESS_HCORE set: a daemon may be asked

    Settings();
};

// Takes the values from the settings table; called by init().
void load_settings();
// The settings as last loaded (defaults before MPI_Init).
const Settings &settings();

// Names as ftmpirun's options; -1 for an unknown name.
int comm_mode_from_name(const std::string &name);
int msg_mode_from_name(const std::string &name);
const char *comm_mode_name(int mode);

}  // namespace ftmpi::ft
