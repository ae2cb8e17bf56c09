// MPI_Scan, MPI_Exscan and their I-forms.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "select.hpp"

namespace ftmpi::coll {
namespace {

int check_scan(MPI_Comm comm, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op) {
    return first_error(intra_only(comm), check_data(count, type), check_op(op, type),
                       recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS, aliased(sendbuf, recvbuf, count > 0));
}

// Recursive doubling takes log2 p steps; the chain takes p-1 but sends one
// message per rank. Measured: doubling wins from 3 ranks on (bench/mpi).
void build_scan(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                bool exclusive) {
    s.hold(type);
    s.hold(op);
    if (count == 0 || s.size() < 1) return;
    const auto algorithm =
        choose<ScanAlgorithm>(exclusive ? Collective::exscan : Collective::scan, s.size(), data_bytes(count, type))
            .algorithm;
    if (algorithm == ScanAlgorithm::linear || (algorithm == ScanAlgorithm::automatic && s.size() <= 2))
        return scan_linear(s, sendbuf, recvbuf, count, type, op, exclusive);
    scan_recursive_doubling(s, sendbuf, recvbuf, count, type, op, exclusive);
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Scan", comm, [&] { return check_scan(comm, sendbuf, recvbuf, count, type, op); },
        [&](Schedule &s) { build_scan(s, sendbuf, recvbuf, count, type, op, false); });
}
FTMPI_PMPI(Scan)

extern "C" int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                         MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Iscan", comm, request, [&] { return check_scan(comm, sendbuf, recvbuf, count, type, op); },
        [&](Schedule &s) { build_scan(s, sendbuf, recvbuf, count, type, op, false); });
}
FTMPI_PMPI(Iscan)

extern "C" int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Exscan", comm, [&] { return check_scan(comm, sendbuf, recvbuf, count, type, op); },
        [&](Schedule &s) { build_scan(s, sendbuf, recvbuf, count, type, op, true); });
}
FTMPI_PMPI(Exscan)

extern "C" int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                           MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Iexscan", comm, request, [&] { return check_scan(comm, sendbuf, recvbuf, count, type, op); },
        [&](Schedule &s) { build_scan(s, sendbuf, recvbuf, count, type, op, true); });
}
FTMPI_PMPI(Iexscan)
