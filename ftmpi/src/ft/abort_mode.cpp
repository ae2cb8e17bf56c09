// ABORT comm mode at the error handler: a communicator in
// ABORT mode that meets MPIX_ERR_PROC_FAILED ends the job gracefully, even
// when its handler is MPI_ERRORS_RETURN or a user function (FT-MPI: "cannot
// be trapped").
#include "ft/failure_list.hpp"

#include "internal/runtime.hpp"
#include "runtime/log.hpp"

#include <cstdio>

namespace ftmpi::ft {

void abort_if_required(MPI_Comm comm, int code, const char *function) {
    if (code != MPIX_ERR_PROC_FAILED || comm == nullptr) return;
    if (comm->ft.comm_mode.load() != FTMPI_COMM_MODE_ABORT) return;
    sync_with_p2p();
    const CommFailures f = comm_failures(comm, comm->ft.recovered_at);
    const std::string what = f.whys.empty() ? std::string("a process it needs failed") : f.whys.back();
    log::error("%s: %s; comm mode ABORT: ending the job", function != nullptr ? function : "MPI call", what.c_str());
    runtime::abort_job(code);
}

}  // namespace ftmpi::ft
