// MPI_IN_PLACE for Alltoall(v,w): copies recvbuf aside so the algorithms run as with a sendbuf; the blocks
// an alltoallw exchanges (alltoall_input.hpp).
#include "alltoall_input.hpp"

#include "internal/comm.hpp"
#include "internal/datatype.hpp"
#include "steps.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

namespace ftmpi::coll {

char *in_place_input(Schedule &s, void *recvbuf, int n, const int counts[], const MPI_Aint byte_displs[],
                     const MPI_Datatype types[]) {
    MPI_Aint low = std::numeric_limits<MPI_Aint>::max(), high = std::numeric_limits<MPI_Aint>::min();
    for (int i = 0; i < n; ++i) {
        if (counts[i] <= 0) continue;
        const MPI_Aint first = byte_displs[i] + dt::true_lb(types[i]);
        const MPI_Aint last = first + dt::true_extent(types[i]) + (counts[i] - 1) * dt::extent(types[i]);
        low = std::min(low, first);
        high = std::max(high, last);
    }
    if (low >= high) return static_cast<char *>(recvbuf);  // nothing to send
    char *copy = s.scratch(static_cast<size_t>(high - low)) - low;
    // Taken now, at the call, when recvbuf still holds the input.
    std::memcpy(copy + low, static_cast<char *>(recvbuf) + low, static_cast<size_t>(high - low));
    return copy;
}

AlltoallwBlocks::AlltoallwBlocks(Schedule &s, const void *sendbuf, const int scounts[], const int sdispls[],
                                 const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                                 const MPI_Datatype rtypes[])
    : s_(s), src_(static_cast<const char *>(sendbuf)), scounts_(scounts), sdispls_(sdispls), stypes_(stypes),
      out_(static_cast<char *>(recvbuf)), rcounts_(rcounts), rdispls_(rdispls), rtypes_(rtypes) {
    if (sendbuf != MPI_IN_PLACE) return;
    const int extent = s.comm()->size;  // the layout covers every comm rank
    std::vector<MPI_Aint> displs(rdispls, rdispls + extent);
    src_ = in_place_input(s, recvbuf, extent, rcounts, displs.data(), rtypes);
    scounts_ = rcounts;
    sdispls_ = rdispls;
    stypes_ = rtypes;
}

void AlltoallwBlocks::exchange(int k) const {
    const int p = s_.size(), r = s_.rank();
    const int to = (r + k) % p, from = (r - k + p) % p;              // view ranks
    const int to_c = s_.comm_rank(to), from_c = s_.comm_rank(from);  // buffer positions
    s_.recv(out_ + rdispls_[from_c], rcounts_[from_c], rtypes_[from_c], from);
    s_.send(src_ + sdispls_[to_c], scounts_[to_c], stypes_[to_c], to);
}

void AlltoallwBlocks::copy_own() const {
    const int me = s_.comm_rank(s_.rank());
    copy_step(s_, src_ + sdispls_[me], scounts_[me], stypes_[me], out_ + rdispls_[me], rcounts_[me], rtypes_[me]);
}

}  // namespace ftmpi::coll
