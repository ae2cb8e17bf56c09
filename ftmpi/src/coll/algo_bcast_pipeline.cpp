// Segmented pipeline broadcast along a chain
// root -> root+1 -> ...: the message is cut into segments and in step i a
// rank receives segment i while forwarding segment i-1, so every link carries
// data at once. Time ~ (p - 2 + segments) * segment time: for large messages
// this approaches one message time, where a binomial tree pays log2 p.
#include "algorithms.hpp"
#include "buffers.hpp"
#include "internal/comm.hpp"

#include <algorithm>

namespace ftmpi::coll {

void bcast_pipeline(Schedule &s, void *buf, int count, MPI_Datatype type, int root, int segment_bytes) {
    const int p = s.size();
    const int v = (s.rank() - root + p) % p;
    const int prev = (s.rank() - 1 + p) % p, next = (s.rank() + 1) % p;
    const bool has_next = v + 1 < p;
    const int element_bytes = std::max<int>(1, static_cast<int>(dt::size(type)));
    const int per_segment = std::clamp(segment_bytes / element_bytes, 1, count);
    const int segments = (count + per_segment - 1) / per_segment;
    auto seg_count = [&](int i) { return std::min(per_segment, count - i * per_segment); };
    auto seg_buf = [&](int i) { return element(buf, static_cast<MPI_Aint>(i) * per_segment, type); };
    for (int i = 0; i <= segments; ++i) {
        if (v == 0) {
            if (i < segments) s.send(seg_buf(i), seg_count(i), type, next);
        } else {
            if (i < segments) s.recv(seg_buf(i), seg_count(i), type, prev);
            if (i > 0 && has_next) s.send(seg_buf(i - 1), seg_count(i - 1), type, next);
        }
        s.end_round();
    }
}

}  // namespace ftmpi::coll
