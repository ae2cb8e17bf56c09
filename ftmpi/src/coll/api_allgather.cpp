// MPI_Allgather(v) and their I-forms. On an intercommunicator each group
// receives the other group's blocks (recvcounts and displs indexed by remote
// rank), and MPI_IN_PLACE is refused (MPI_ERR_BUFFER).
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "node.hpp"
#include "select.hpp"

namespace ftmpi::coll {
namespace {

int check_send(MPI_Comm comm, const void *sendbuf, int scount, MPI_Datatype stype) {
    return sendbuf == MPI_IN_PLACE ? in_place_on_inter(comm, sendbuf) : check_data(scount, stype);
}

int check_allgather(MPI_Comm comm, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                    MPI_Datatype rtype) {
    return first_error(check_send(comm, sendbuf, scount, stype), check_data(rcount, rtype),
                       recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS,
                       comm->inter
                           ? aliased(sendbuf, recvbuf, scount > 0)
                           : aliased(sendbuf, block_of(recvbuf, MPI_Aint{comm->rank} * rcount, rtype), scount > 0));
}

void build_allgather(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                     MPI_Datatype rtype) {
    if (sendbuf != MPI_IN_PLACE) s.hold(stype);
    s.hold(rtype);
    if (s.comm()->inter) return allgather_inter(s, sendbuf, scount, stype, recvbuf, rcount, rtype);
    const size_t block = data_bytes(rcount, rtype);
    switch (choose<AllgatherAlgorithm>(Collective::allgather, s.size(), block).algorithm) {
    case AllgatherAlgorithm::ring: return allgather_ring(s, sendbuf, scount, stype, recvbuf, rcount, rtype);
    case AllgatherAlgorithm::bruck: return allgather_bruck(s, sendbuf, scount, stype, recvbuf, rcount, rtype);
    case AllgatherAlgorithm::shm:  // a communicator that cannot use it
    case AllgatherAlgorithm::automatic: break;
    }
    if (s.size() <= 2 || block >= threshold::allgather_ring_bytes)
        return allgather_ring(s, sendbuf, scount, stype, recvbuf, rcount, rtype);
    allgather_bruck(s, sendbuf, scount, stype, recvbuf, rcount, rtype);
}

int check_allgatherv(MPI_Comm comm, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                     const int rcounts[], const int displs[], MPI_Datatype rtype) {
    int err = first_error(check_send(comm, sendbuf, scount, stype), check_counts(peer_count(comm), rcounts, rtype),
                          displs == nullptr || recvbuf == MPI_IN_PLACE ? MPI_ERR_ARG : MPI_SUCCESS);
    if (err != MPI_SUCCESS) return err;
    return comm->inter ? aliased(sendbuf, recvbuf, scount > 0)
                       : aliased(sendbuf, block_of(recvbuf, displs[comm->rank], rtype), scount > 0);
}

void build_allgatherv(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                      const int rcounts[], const int displs[], MPI_Datatype rtype) {
    if (sendbuf != MPI_IN_PLACE) s.hold(stype);
    s.hold(rtype);
    if (s.comm()->inter) return allgatherv_inter(s, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype);
    allgatherv_ring(s, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype);
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm) noexcept {
    return blocking_or(
        "MPI_Allgather", comm,
        [&] { return check_allgather(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); },
        [&] { return node::allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); },
        [&](Schedule &s) { build_allgather(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); });
}
FTMPI_PMPI(Allgather)

extern "C" int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Iallgather", comm, request,
        [&] { return check_allgather(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); },
        [&](Schedule &s) { build_allgather(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); });
}
FTMPI_PMPI(Iallgather)

extern "C" int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                              MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Allgatherv", comm,
        [&] { return check_allgatherv(comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype); },
        [&](Schedule &s) { build_allgatherv(s, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype); });
}
FTMPI_PMPI(Allgatherv)

extern "C" int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Iallgatherv", comm, request,
        [&] { return check_allgatherv(comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype); },
        [&](Schedule &s) { build_allgatherv(s, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype); });
}
FTMPI_PMPI(Iallgatherv)
