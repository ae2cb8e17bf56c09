// The communication calls: MPI_Put, Get, Accumulate, Get_accumulate,
// Fetch_and_op, Compare_and_swap and their request-based forms. Each one
// describes an Operation and starts it (origin.cpp); the synchronisation
// call that ends the epoch (or the R* request) completes it.
#include "origin.hpp"

#include "../internal/pmpi.hpp"

namespace ftmpi::rma {
namespace {

int start(MPI_Win win, const char *fn, const Operation &op, MPI_Request *request) noexcept {
    if (request != nullptr) *request = MPI_REQUEST_NULL;
    return guarded(win, fn, [&] { return start_operation(win, op, request); });
}

Operation transfer(Kind kind, const void *origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                   int target_count, MPI_Datatype target_type) {
    Operation op;
    op.kind = kind;
    op.target = target;
    op.disp = disp;
    op.target_count = target_count;
    op.target_type = target_type;
    if (kind == Kind::get) {
        op.result = const_cast<void *>(origin);
        op.result_count = origin_count;
        op.result_type = origin_type;
    } else {
        op.origin = origin;
        op.origin_count = origin_count;
        op.origin_type = origin_type;
    }
    return op;
}

Operation get_accumulate(const void *origin, int origin_count, MPI_Datatype origin_type, void *result, int result_count,
                         MPI_Datatype result_type, int target, MPI_Aint disp, int target_count,
                         MPI_Datatype target_type, MPI_Op op) {
    Operation o =
        transfer(Kind::get_accumulate, origin, origin_count, origin_type, target, disp, target_count, target_type);
    o.result = result;
    o.result_count = result_count;
    o.result_type = result_type;
    o.op = op;
    return o;
}

}  // namespace
}  // namespace ftmpi::rma

using namespace ftmpi;
using rma::Kind;

extern "C" int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) noexcept {
    return rma::start(win, "MPI_Put",
                      rma::transfer(Kind::put, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                    target_count, target_datatype),
                      nullptr);
}
FTMPI_PMPI(Put)

extern "C" int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) noexcept {
    return rma::start(win, "MPI_Get",
                      rma::transfer(Kind::get, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                    target_count, target_datatype),
                      nullptr);
}
FTMPI_PMPI(Get)

extern "C" int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                              MPI_Win win) noexcept {
    rma::Operation o = rma::transfer(Kind::accumulate, origin_addr, origin_count, origin_datatype, target_rank,
                                     target_disp, target_count, target_datatype);
    o.op = op;
    return rma::start(win, "MPI_Accumulate", o, nullptr);
}
FTMPI_PMPI(Accumulate)

extern "C" int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                  void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                                  MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                                  MPI_Win win) noexcept {
    return rma::start(win, "MPI_Get_accumulate",
                      rma::get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count,
                                          result_datatype, target_rank, target_disp, target_count, target_datatype, op),
                      nullptr);
}
FTMPI_PMPI(Get_accumulate)

extern "C" int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                                MPI_Aint target_disp, MPI_Op op, MPI_Win win) noexcept {
    return rma::start(win, "MPI_Fetch_and_op",
                      rma::get_accumulate(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp,
                                          1, datatype, op),
                      nullptr);
}
FTMPI_PMPI(Fetch_and_op)

extern "C" int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                                    MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                                    MPI_Win win) noexcept {
    rma::Operation o =
        rma::transfer(Kind::compare_and_swap, origin_addr, 1, datatype, target_rank, target_disp, 1, datatype);
    o.compare = compare_addr;
    o.result = result_addr;
    o.result_count = 1;
    o.result_type = datatype;
    return rma::start(win, "MPI_Compare_and_swap", o, nullptr);
}
FTMPI_PMPI(Compare_and_swap)

extern "C" int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                        MPI_Request *request) noexcept {
    if (request == nullptr) return rma::raise(win, MPI_ERR_REQUEST, "MPI_Rput");
    return rma::start(win, "MPI_Rput",
                      rma::transfer(Kind::put, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                    target_count, target_datatype),
                      request);
}
FTMPI_PMPI(Rput)

extern "C" int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                        MPI_Request *request) noexcept {
    if (request == nullptr) return rma::raise(win, MPI_ERR_REQUEST, "MPI_Rget");
    return rma::start(win, "MPI_Rget",
                      rma::transfer(Kind::get, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                    target_count, target_datatype),
                      request);
}
FTMPI_PMPI(Rget)

extern "C" int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                               MPI_Win win, MPI_Request *request) noexcept {
    if (request == nullptr) return rma::raise(win, MPI_ERR_REQUEST, "MPI_Raccumulate");
    rma::Operation o = rma::transfer(Kind::accumulate, origin_addr, origin_count, origin_datatype, target_rank,
                                     target_disp, target_count, target_datatype);
    o.op = op;
    return rma::start(win, "MPI_Raccumulate", o, request);
}
FTMPI_PMPI(Raccumulate)

extern "C" int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                   void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                                   MPI_Win win, MPI_Request *request) noexcept {
    if (request == nullptr) return rma::raise(win, MPI_ERR_REQUEST, "MPI_Rget_accumulate");
    return rma::start(win, "MPI_Rget_accumulate",
                      rma::get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count,
                                          result_datatype, target_rank, target_disp, target_count, target_datatype, op),
                      request);
}
FTMPI_PMPI(Rget_accumulate)
