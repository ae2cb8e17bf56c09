// The per-communicator questions p2p asks on its paths
// (blocks_user_ops, any_source_blocked) and the communicator state.
#include "ft/comm_state.hpp"

#include "ft/failure_list.hpp"
#include "ft/notifier.hpp"
#include "ft/settings.hpp"
#include "internal/cominfo.hpp"

#include <algorithm>

namespace ftmpi::ft {

bool abort_mode() {
    return settings().comm_mode == FTMPI_COMM_MODE_ABORT;
}

int comm_state(MPI_Comm comm) {
    const int stored = comm->ft.state.load(std::memory_order_relaxed);
    if (stored == FTMPI_COMM_RECOVER || stored == FTMPI_COMM_FAILED) return stored;
    if (has_failure_since(comm, comm->ft.recovered_at)) return FTMPI_COMM_DETECTED;
    // Stored DETECTED with nothing failed since the last recovery: the
    // recovery reset recovered_at but left the mark.
    return stored == FTMPI_COMM_DETECTED ? FTMPI_COMM_OK : stored;
}

int proc_state(MPI_Comm comm, int world) {
    if (world < 0) return FTMPI_PROC_FAILED;  // a BLANK gap
    if (member_failed(comm, world)) return is_joining(world) ? FTMPI_PROC_JOINING : FTMPI_PROC_FAILED;
    if (is_suspected(world)) return FTMPI_PROC_UNAVAILABLE;
    return FTMPI_PROC_OK;
}

bool blocks_user_ops(MPI_Comm comm) {
    if (comm == nullptr) return false;
    // "RECOVERED becomes OK at its next operation": this is that operation.
    int s = comm->ft.state.load(std::memory_order_relaxed);
    if (s == FTMPI_COMM_RECOVERED && comm->ft.state.compare_exchange_strong(s, FTMPI_COMM_OK)) cominfo::changed();
    if (failure_count() <= comm->ft.recovered_at) return false;
    if (comm->ft.msg_mode.load(std::memory_order_relaxed) != FTMPI_MSG_MODE_NOP) return false;
    return has_failure_since(comm, comm->ft.recovered_at);
}

bool any_source_blocked(MPI_Comm comm) {
    if (comm == nullptr) return false;
    const uint64_t from =
        std::max<uint64_t>(comm->ft.acked_upto.load(std::memory_order_relaxed), comm->ft.recovered_at);
    if (failure_count() <= from) return false;
    return has_failure_since(comm, from);
}

}  // namespace ftmpi::ft
