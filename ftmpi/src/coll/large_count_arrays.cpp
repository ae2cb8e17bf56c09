// Topology degrees for the large-count neighbourhood collectives
// (large_count_arrays.hpp).
#include "large_count_arrays.hpp"

namespace ftmpi::coll {

std::pair<int, int> NarrowedArrays::degrees() const {
    if (!valid_) return {0, 0};
    int kind = MPI_UNDEFINED;
    if (PMPI_Topo_test(comm_, &kind) != MPI_SUCCESS) return {0, 0};
    if (kind == MPI_CART) {
        int ndims = 0;
        PMPI_Cartdim_get(comm_, &ndims);
        return {2 * ndims, 2 * ndims};
    }
    if (kind == MPI_GRAPH) {
        int n = 0;
        PMPI_Graph_neighbors_count(comm_, comm_->rank, &n);
        return {n, n};
    }
    if (kind == MPI_DIST_GRAPH) {
        int in = 0, out = 0, weighted = 0;
        PMPI_Dist_graph_neighbors_count(comm_, &in, &out, &weighted);
        return {in, out};
    }
    return {0, 0};
}

}  // namespace ftmpi::coll
