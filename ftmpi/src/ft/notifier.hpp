// The notifier: a thread per process that long-polls the
// job topic job/<FTMPI_JOB> through the local daemon's vm/events and turns
// failure events into p2p::notify_failed, so every process learns every
// failure from the VM (FT_CONTRACTS.md "One mechanism"). It also keeps the
// transport's suspicions (a connection broke without bye) until an event
// confirms them or FTMPI_CONFIRM_MS passes, and watches its own daemon.
#pragma once

#include <harness/hlib/hlib.hpp>

#include <optional>

namespace ftmpi::ft {
// Forget a suspicion of `world` (it was declared failed).
void forget_suspicion(int world);
}  // namespace ftmpi::ft

namespace ftmpi::ft {
// A connection to the local daemon the notifier starts with instead of
// making one (a promoted hot standby's: runtime/standby.hpp). Before
// start_notifier; an empty one changes nothing.
void adopt_daemon_connection(std::optional<harness::hlib::VirtualMachine> vm);
// Starts the notifier when the job runs under a VM whose events service
// answers (FTMPI_JOB and HARNESS_HCORE set, comm mode not ABORT): true
// then, and confirm() becomes true. Otherwise logs why (FTMPI_VERBOSE) and
// returns false.
bool start_notifier();
// Stops the thread (it ends within one long-poll round, ~0.5 s).
void stop_notifier();
}  // namespace ftmpi::ft

namespace ftmpi::ft {
// A broken connection to `world` waits for the VM's confirmation (process
// state UNAVAILABLE).
bool is_suspected(int world);
// A replacement for `world` was requested (`respawn` for a round later than
// this process's) and has neither been admitted (recovery moves the round
// on when it admits it) nor failed to start: process state JOINING.
bool is_joining(int world);
}  // namespace ftmpi::ft
