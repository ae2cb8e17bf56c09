// Owner: coll (mpicoll). Linear alltoallw: every send and receive posted at
// once, own block copied locally. One step; the transport overlaps all
// transfers. Alltoall and Alltoallv reach it with their displacements turned
// into bytes.
#include "algorithms.hpp"
#include "alltoall_input.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

#include <vector>

namespace ftmpi::coll {

void alltoallw_linear(Schedule &s, const void *sendbuf, const int scounts[], const int sdispls[],
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
    for (int k = 1; k < p; ++k) {
        const int to = (r + k) % p, from = (r - k + p) % p;
        s.recv(out + rdispls[from], rcounts[from], rtypes[from], from);
        s.send(src + sdispls[to], scounts[to], stypes[to], to);
    }
    s.end_round();
    copy_step(s, src + sdispls[r], scounts[r], stypes[r], out + rdispls[r], rcounts[r], rtypes[r]);
}

}  // namespace ftmpi::coll
