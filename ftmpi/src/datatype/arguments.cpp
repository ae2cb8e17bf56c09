// What MPI_Type_get_envelope/get_contents report: a constructor's arguments
// as ints and addresses, or, when a large-count (`_c`) constructor was given
// a value no int holds, all of them as large counts (MPI-4.0 §5.1.13).
#include "type.hpp"

#include <algorithm>
#include <climits>

namespace ftmpi::dt {

void record_arguments(Type *t, std::vector<Count> integers, std::vector<Aint> addresses) {
    const bool ints_hold_them =
        std::all_of(integers.begin(), integers.end(), [](Count n) { return n >= INT_MIN && n <= INT_MAX; });
    if (ints_hold_them) {
        t->ints.assign(integers.begin(), integers.end());
        t->aints = std::move(addresses);
        return;
    }
    t->large_counts = std::move(integers);
    t->large_counts.insert(t->large_counts.end(), addresses.begin(), addresses.end());
}

}  // namespace ftmpi::dt
