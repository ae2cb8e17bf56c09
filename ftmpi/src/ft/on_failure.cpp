// What a declared failure does to this process (called by
// p2p once per world rank + incarnation, without its lock): the failure
// goes into the list, ABORT mode ends the job, communicators containing the
// failed process become DETECTED, and NOP communicators fail their pending
// user operations.
#include "ft/failure_list.hpp"
#include "ft/notifier.hpp"
#include "ft/recovery/recovery.hpp"
#include "ft/settings.hpp"

#include "internal/cominfo.hpp"
#include "internal/comm.hpp"
#include "internal/p2p.hpp"
#include "internal/runtime.hpp"
#include "runtime/log.hpp"

#include <cstdio>

namespace ftmpi::ft {
namespace {

// A communicator that has `f`'s process as a member learns it failed. (The
// recovery's own agreements, on shadows, see failures through the
// agreement and are left alone.)
void mark_detected(MPI_Comm comm) {
    if (recovery::is_agreement_comm(comm) || !has_failure_since(comm, comm->ft.recovered_at)) return;
    int s = comm->ft.state.load();
    while ((s == FTMPI_COMM_OK || s == FTMPI_COMM_RECOVERED) &&
           !comm->ft.state.compare_exchange_weak(s, FTMPI_COMM_DETECTED)) {}
    if (comm->ft.msg_mode.load() == FTMPI_MSG_MODE_NOP) p2p::fail_pending(comm, MPIX_ERR_PROC_FAILED);
}

}  // namespace

void on_failure(int world, const std::string &why) {
    // The entry may be there already (sync_with_p2p got there first); the
    // reactions below happen here, once per report from p2p.
    record_failure(world, why, nullptr);
    const int64_t index = failure_index(world);
    if (index < 0) return;  // replaced meanwhile: nothing failed now
    const Failure f = failures()[static_cast<size_t>(index)];
    forget_suspicion(world);
    cominfo::failure_detected(f.world, f.incarnation, f.why);
    if (settings().verbose)
        log::info("world rank %d (incarnation %d) failed: %s", f.world, f.incarnation, f.why.c_str());
    if (abort_mode() && !runtime::finalized()) {
        log::error("world rank %d failed (%s); comm mode ABORT: ending the job", f.world, f.why.c_str());
        runtime::abort_job(MPIX_ERR_PROC_FAILED);
    }
    if (!runtime::initialized() || runtime::finalized() || !comm::valid(MPI_COMM_WORLD)) return;
    // The predefined communicators are visited explicitly: whether the
    // registry lists them is the comm part's business.
    mark_detected(MPI_COMM_WORLD);
    comm::for_each_comm([](MPI_Comm c) {
        if (c != MPI_COMM_WORLD && c != MPI_COMM_SELF) mark_detected(c);
    });
    cominfo::changed();  // the communicators' new states
}

}  // namespace ftmpi::ft
