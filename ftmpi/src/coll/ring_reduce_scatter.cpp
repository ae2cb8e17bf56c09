// The reduce-scatter half of the ring algorithms (ring_reduce_scatter.hpp).
#include "ring_reduce_scatter.hpp"

#include "buffers.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

#include <algorithm>

namespace ftmpi::coll {

void even_blocks(int count, int p, std::vector<int> &displs, std::vector<int> &counts) {
    displs.resize(p);
    counts.resize(p);
    for (int i = 0, at = 0; i < p; ++i) {
        counts[i] = count / p + (i < count % p ? 1 : 0);
        displs[i] = at;
        at += counts[i];
    }
}

void ring_reduce_scatter(Schedule &s, char *acc, const std::vector<int> &displs, const std::vector<int> &counts,
                         MPI_Datatype type, MPI_Op op, int shift) {
    const int p = s.size(), r = s.rank();
    if (p < 2) return;
    const int next = (r + 1) % p, prev = (r - 1 + p) % p;
    const int largest = *std::max_element(counts.begin(), counts.end());
    char *incoming = s.scratch_for(largest, type);
    auto block = [&](int b) { return ((b % p) + p) % p; };
    // Step k receives block r - k + shift - 2 and sends the one received in
    // step k-1, so the last step (k = p-2) receives block r + shift.
    for (int k = 0; k < p - 1; ++k) {
        const int out = block(r - k + shift - 1), in = block(r - k + shift - 2);
        s.send(element(acc, displs[out], type), counts[out], type, next);
        s.recv(incoming, counts[in], type, prev);
        if (counts[in] > 0) reduce_step(s, op, incoming, element(acc, displs[in], type), counts[in], type);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
