// Which algorithm a collective runs. The bindings choose by message size,
// process count and op (see each api_<name>.cpp); the environment variable
// FTMPI_COLL_<NAME> (e.g. FTMPI_COLL_ALLREDUCE=ring) forces one, for tests
// and tuning. A forced algorithm that cannot run the call (a ring for a
// non-commutative op) falls back to the automatic choice.
#pragma once

#include <string_view>

namespace ftmpi::coll {

// The value of FTMPI_COLL_<collective> ("" when unset), read at each call.
std::string_view forced_algorithm(const char *collective);

// Crossover points, measured on the 2-vCPU development VMs over TCP loopback
// (bench/mpi, see bench/mpi/README.md).
namespace threshold {
// Bcast: binomial below, segmented pipeline at and above (bytes), with this segment.
inline constexpr size_t bcast_pipeline_bytes = 256 * 1024;
inline constexpr int bcast_segment_bytes = 64 * 1024;
// Allreduce: recursive doubling below, ring at and above (bytes), if commutative and count >= p.
inline constexpr size_t allreduce_ring_bytes = 64 * 1024;
// Gather/Scatter: binomial below, linear at and above (bytes per rank).
inline constexpr size_t gather_linear_bytes = 8 * 1024;
// Allgather: Bruck below, ring at and above (bytes per rank).
inline constexpr size_t allgather_ring_bytes = 8 * 1024;
// Alltoall: all at once below, pairwise at and above (bytes per rank).
inline constexpr size_t alltoall_pairwise_bytes = 32 * 1024;
// Reduce_scatter: reduce + scatterv below, ring at and above (total bytes), if commutative.
inline constexpr size_t reduce_scatter_ring_bytes = 64 * 1024;
// Barrier: dissemination up to this many ranks, tree above.
inline constexpr int barrier_tree_ranks = 16;
}  // namespace threshold

}  // namespace ftmpi::coll
