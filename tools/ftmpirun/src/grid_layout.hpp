// grid_layout.hpp — a stencil job laid out on a host grid, for spare hosts
// and sliding substitution (docs/policies.md):
//
// * --grid AxB[xC…] is the job's logical grid of ranks (row-major, dimension
//   0 fastest); -np must be its product.
// * --spares qD(r,s) reserves s layers at the end of the first r dimensions:
//   the host grid is the logical grid plus those layers, and the ranks start
//   on the rest (the working block), one per host, in order. Without
//   --spares the host grid is the logical grid.
// * Each host's place is its hostfile "coord=X,Y"; without coordinates the
//   hosts fill the grid in order, row-major. A place no host takes is a host
//   lost from the start (it must not be in the working block).
//
// Pure, so tests check it without a VM.
#pragma once

#include "hosts.hpp"

#include <harness/common/result.hpp>

#include <string>
#include <vector>

namespace harness::ftmpirun {

struct GridLayout {
    std::vector<int> rank_extents;  // the logical grid
    std::vector<int> host_extents;  // the host grid
    std::string spares;             // "2D(2,1)"; empty: none
    std::vector<int> grid_of_host;  // job host index → grid host number
    std::vector<int> host_of_grid;  // grid host number → job host index, -1: no host there
    std::vector<int> rank_grid;     // rank → grid host number, at the start

    int grid_size() const { return static_cast<int>(host_of_grid.size()); }
    // Grid places no host took.
    std::vector<int> missing() const;
    // "(3,4)".
    std::string place(int grid_host) const;
};

// grid: --grid's text; spares: --spares's text (may be empty); hosts: the
// job's hosts in order; np: the job's size. Errors are one line.
Result<GridLayout> make_grid_layout(const std::string &grid, const std::string &spares, const std::vector<Host> &hosts,
                                    int np);

}  // namespace harness::ftmpirun
