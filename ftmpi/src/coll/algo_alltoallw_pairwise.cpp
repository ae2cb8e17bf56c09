// Owner: coll (mpicoll). Pairwise-exchange alltoallw: in step k rank r sends
// to r+k and receives from r-k, one peer at a time, so no rank is flooded by
// p-1 senders at once: the long-message choice.
#include "algorithms.hpp"
#include "alltoall_input.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

#include <vector>

namespace ftmpi::coll {

void alltoallw_pairwise(Schedule &s, const void *sendbuf, const int scounts[], const int sdispls[],
                        const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                        const MPI_Datatype rtypes[]) {
    const int p = s.comm()->size, r = s.comm()->rank;
    char *out = static_cast<char *>(recvbuf);
    if (sendbuf == MPI_IN_PLACE) {
        std::vector<MPI_Aint> displs(rdispls, rdispls + p);
        sendbuf = in_place_input(s, recvbuf, p, rcounts, displs.data(), rtypes);
        scounts = rcounts;
        sdispls = rdispls;
        stypes = rtypes;
    }
    const char *src = static_cast<const char *>(sendbuf);
    copy_step(s, src + sdispls[r], scounts[r], stypes[r], out + rdispls[r], rcounts[r], rtypes[r]);
    for (int k = 1; k < p; ++k) {
        const int to = (r + k) % p, from = (r - k + p) % p;
        s.recv(out + rdispls[from], rcounts[from], rtypes[from], from);
        s.send(src + sdispls[to], scounts[to], stypes[to], to);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
