// MPI_IN_PLACE for Alltoall(v,w): copies recvbuf aside so the algorithms run as with a sendbuf (alltoall_input.hpp).
#include "alltoall_input.hpp"

#include "internal/datatype.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

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

}  // namespace ftmpi::coll
