// The MPI-4 large-count (`_c`) one-sided calls: counts that fit an int go to
// the int call, larger ones are refused with MPI_ERR_COUNT; a displacement
// unit past INT_MAX is refused with MPI_ERR_DISP. Errors through the
// window's handler (the communicator's for the constructors).
#include "internal/large_count.hpp"
#include "rma/window.hpp"

using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;

namespace {

int too_large(MPI_Win win, const char *function) {
    return ftmpi::rma::raise(win, MPI_ERR_COUNT, function);
}

bool unit_fits(MPI_Aint disp_unit) {
    return disp_unit <= INT_MAX;  // a negative unit is the int call's MPI_ERR_DISP
}

}  // namespace

FTMPI_LARGE_COUNT(Accumulate, win,
                  (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win),
                  (origin_count, target_count),
                  (origin_addr, narrow(origin_count), origin_datatype, target_rank, target_disp, narrow(target_count),
                   target_datatype, op, win))

FTMPI_LARGE_COUNT(Get_accumulate, win,
                  (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr,
                   MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                   MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win),
                  (origin_count, result_count, target_count),
                  (origin_addr, narrow(origin_count), origin_datatype, result_addr, narrow(result_count),
                   result_datatype, target_rank, target_disp, narrow(target_count), target_datatype, op, win))

FTMPI_LARGE_COUNT(Get, win,
                  (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win),
                  (origin_count, target_count),
                  (origin_addr, narrow(origin_count), origin_datatype, target_rank, target_disp, narrow(target_count),
                   target_datatype, win))

FTMPI_LARGE_COUNT(Put, win,
                  (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win),
                  (origin_count, target_count),
                  (origin_addr, narrow(origin_count), origin_datatype, target_rank, target_disp, narrow(target_count),
                   target_datatype, win))

FTMPI_LARGE_COUNT(Raccumulate, win,
                  (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                   MPI_Request *request),
                  (origin_count, target_count),
                  (origin_addr, narrow(origin_count), origin_datatype, target_rank, target_disp, narrow(target_count),
                   target_datatype, op, win, request))

FTMPI_LARGE_COUNT(Rget_accumulate, win,
                  (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr,
                   MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                   MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request),
                  (origin_count, result_count, target_count),
                  (origin_addr, narrow(origin_count), origin_datatype, result_addr, narrow(result_count),
                   result_datatype, target_rank, target_disp, narrow(target_count), target_datatype, op, win, request))

FTMPI_LARGE_COUNT(Rget, win,
                  (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                   MPI_Request *request),
                  (origin_count, target_count),
                  (origin_addr, narrow(origin_count), origin_datatype, target_rank, target_disp, narrow(target_count),
                   target_datatype, win, request))

FTMPI_LARGE_COUNT(Rput, win,
                  (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                   MPI_Request *request),
                  (origin_count, target_count),
                  (origin_addr, narrow(origin_count), origin_datatype, target_rank, target_disp, narrow(target_count),
                   target_datatype, win, request))

extern "C" int MPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                MPI_Win *win) noexcept {
    if (!unit_fits(disp_unit)) return ftmpi::comm::raise(comm, MPI_ERR_DISP, "MPI_Win_create_c");
    return MPI_Win_create(base, size, narrow(disp_unit), info, comm, win);
}
FTMPI_PMPI(Win_create_c)

extern "C" int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                  MPI_Win *win) noexcept {
    if (!unit_fits(disp_unit)) return ftmpi::comm::raise(comm, MPI_ERR_DISP, "MPI_Win_allocate_c");
    return MPI_Win_allocate(size, narrow(disp_unit), info, comm, baseptr, win);
}
FTMPI_PMPI(Win_allocate_c)

extern "C" int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                         MPI_Win *win) noexcept {
    if (!unit_fits(disp_unit)) return ftmpi::comm::raise(comm, MPI_ERR_DISP, "MPI_Win_allocate_shared_c");
    return MPI_Win_allocate_shared(size, narrow(disp_unit), info, comm, baseptr, win);
}
FTMPI_PMPI(Win_allocate_shared_c)

extern "C" int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                                      void *baseptr) noexcept {
    if (disp_unit == nullptr) return ftmpi::rma::raise(win, MPI_ERR_ARG, "MPI_Win_shared_query_c");
    int unit = 0;
    const int e = MPI_Win_shared_query(win, rank, size, &unit, baseptr);
    if (e == MPI_SUCCESS) *disp_unit = unit;
    return e;
}
FTMPI_PMPI(Win_shared_query_c)
