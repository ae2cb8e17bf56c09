// The count and displacement arrays of the large-count (`_c`) v- and
// w-collectives narrowed to the int arrays of the int calls, kept as long
// as the call (or, shared, the persistent request) needs them. The length
// of an array is the group it addresses, found from the communicator; a
// communicator that is not valid gives empty arrays, and the int call
// reports MPI_ERR_COMM.
#pragma once

#include "api_common.hpp"
#include "internal/comm.hpp"
#include "internal/large_count.hpp"

#include <deque>
#include <vector>

namespace ftmpi::coll {

class NarrowedArrays {
public:
    explicit NarrowedArrays(MPI_Comm comm) : comm_(comm), valid_(comm::valid(comm)) {}

    // The first n of `values` as ints (MPI_Aint displacements are the same
    // type as MPI_Count); null stays null. ok() turns false when one is no int.
    const int *operator()(const MPI_Count *values, int n) {
        if (values == nullptr) return nullptr;
        std::vector<int> &kept = kept_.emplace_back();
        ok_ = large_count::narrow_all(values, n, &kept) && ok_;
        return kept.data();
    }
    bool ok() const { return ok_; }

    // Entries per array: the remote group (intercommunicators) or the group.
    int peers() const { return valid_ ? peer_count(comm_) : 0; }
    int local() const { return valid_ ? comm_->size : 0; }
    // The root's arrays only: the others' are not significant (and may be
    // shorter or null).
    int at_root(int root) const {
        if (!valid_) return 0;
        return (comm_->inter ? root == MPI_ROOT : root == comm_->rank) ? peers() : 0;
    }
    // In- and out-degree of the communicator's topology (0 without one:
    // the int call reports MPI_ERR_TOPOLOGY).
    int in_degree() const { return degrees().first; }
    int out_degree() const { return degrees().second; }

private:
    std::pair<int, int> degrees() const;

    MPI_Comm comm_;
    bool valid_;
    bool ok_ = true;
    std::deque<std::vector<int>> kept_;  // a deque: earlier arrays keep their address
};

}  // namespace ftmpi::coll
