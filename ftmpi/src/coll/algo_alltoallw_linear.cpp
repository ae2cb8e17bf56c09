// Linear alltoallw: every send and receive posted at
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
    const int p = s.size(), r = s.rank();
    char *out = static_cast<char *>(recvbuf);
    if (sendbuf == MPI_IN_PLACE) {
        const int extent = s.comm()->size;  // the layout covers every comm rank
        std::vector<MPI_Aint> displs(rdispls, rdispls + extent);
        sendbuf = in_place_input(s, recvbuf, extent, rcounts, displs.data(), rtypes);
        scounts = rcounts;
        sdispls = rdispls;
        stypes = rtypes;
    }
    const char *src = static_cast<const char *>(sendbuf);
    for (int k = 1; k < p; ++k) {
        const int to = (r + k) % p, from = (r - k + p) % p;            // view ranks
        const int to_c = s.comm_rank(to), from_c = s.comm_rank(from);  // buffer positions
        s.recv(out + rdispls[from_c], rcounts[from_c], rtypes[from_c], from);
        s.send(src + sdispls[to_c], scounts[to_c], stypes[to_c], to);
    }
    s.end_round();
    const int me = s.comm_rank(r);
    copy_step(s, src + sdispls[me], scounts[me], stypes[me], out + rdispls[me], rcounts[me], rtypes[me]);
}

}  // namespace ftmpi::coll
