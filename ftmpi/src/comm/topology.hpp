// The virtual topology cached on a communicator by
// MPI_Cart_create / MPI_Graph_create (and kept by MPI_Comm_dup).
#pragma once

#include "../internal/comm.hpp"

#include <memory>
#include <vector>

namespace ftmpi::comm {

struct Topology {
    enum class Kind { cart, graph, dist_graph };
    Kind kind = Kind::cart;
    // Cartesian: extent and periodicity per dimension (row-major ranks).
    std::vector<int> dims;
    std::vector<int> periods;
    // Graph: MPI's index/edges arrays as the user gave them.
    std::vector<int> index;
    std::vector<int> edges;
    // Distributed graph: this process's own neighbours (MPI-3.1 §7.5.4).
    std::vector<int> in_sources, in_weights;
    std::vector<int> out_destinations, out_weights;
    bool weighted = false;
};

// Row-major Cartesian helpers shared by cart.cpp and the shift/sub code.
int cart_rank_of(const Topology &, const std::vector<int> &coords);
std::vector<int> cart_coords_of(const Topology &, int rank);

// The first `n` ranks of comm as a new communicator carrying `topology`
// (MPI_COMM_NULL for the others). Collective over comm.
int make_topology_comm(MPI_Comm comm, int n, std::shared_ptr<Topology> topology, MPI_Comm *out);

}  // namespace ftmpi::comm
