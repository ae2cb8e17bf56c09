// Combines n gathered contributions in rank order (reduce_in_order.hpp).
#include "reduce_in_order.hpp"

#include "buffers.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void reduce_in_order(Schedule &s, char *blocks, int n, void *result, int count, MPI_Datatype type, MPI_Op op) {
    // Fold from the right so each step is "b(i) op acc", MPI's inout order:
    // acc = b(n-1); acc = b(n-2) op acc; ... all in block n-1, then copied out.
    const MPI_Aint stride = count;
    char *acc = element(blocks, stride * (n - 1), type);
    for (int i = n - 2; i >= 0; --i) reduce_step(s, op, element(blocks, stride * i, type), acc, count, type);
    copy_step(s, acc, count, type, result, count, type);
}

}  // namespace ftmpi::coll
