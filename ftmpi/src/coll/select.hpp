// Which algorithm a collective runs, decided in this order:
//
//  1. a forced algorithm: FTMPI_COLL_<NAME>=<algorithm>[:<segment bytes>]
//     read once at MPI_Init (an unknown name makes MPI_Init fail with the
//     valid names), or FTMPI_Coll_force at run time (tests, ftmpi_tune);
//  2. the decision table named by FTMPI_COLL_TABLE, if set;
//  3. the default table compiled in (default_table.txt);
//  4. the built-in rules in each api_<name>.cpp (the thresholds below),
//     also used when the choice cannot run the call (a ring for a
//     non-commutative op, Bruck for Alltoallv).
//
// Every member of a communicator must make the same choice (the algorithms'
// messages must match), so the choice depends only on what every member
// sees alike: the rank count, the message size and the op.
#pragma once

#include "algorithm_names.hpp"

#include <cstddef>
#include <string>

namespace ftmpi::coll {

// One enum per collective, value 0 = automatic (the built-in rules); the
// other values follow the names in algorithm_names.cpp. `shm` is the
// shared-memory path (node.hpp); a communicator that cannot use it runs
// the built-in rules.
enum class BarrierAlgorithm : uint8_t { automatic, dissemination, tree, shm };
enum class BcastAlgorithm : uint8_t { automatic, binomial, pipeline, shm };
enum class ReduceAlgorithm : uint8_t { automatic, binomial, shm };
enum class AllreduceAlgorithm : uint8_t { automatic, recursive_doubling, ring, reduce_bcast, rabenseifner, shm };
enum class ReduceScatterAlgorithm : uint8_t { automatic, ring, reduce_scatterv, recursive_halving };
enum class ScanAlgorithm : uint8_t { automatic, linear, recursive_doubling };  // Scan and Exscan
enum class RootedAlgorithm : uint8_t { automatic, linear, binomial, shm };     // Gather and Scatter
enum class AllgatherAlgorithm : uint8_t { automatic, ring, bruck, shm };
enum class AlltoallAlgorithm : uint8_t { automatic, linear, pairwise, bruck, shm };

template <class Algorithm>
struct Choice {
    Algorithm algorithm;
    int segment;  // bytes, for segmented algorithms; 0 = their default
};

// The raw choice for collective c with `ranks` taking part and `bytes` of
// message (table.hpp says what bytes means per collective).
Choice<uint8_t> choose_raw(Collective c, int ranks, size_t bytes);

template <class Algorithm>
Choice<Algorithm> choose(Collective c, int ranks, size_t bytes) {
    const Choice<uint8_t> raw = choose_raw(c, ranks, bytes);
    return {static_cast<Algorithm>(raw.algorithm), raw.segment};
}

// Called by MPI_Init before the job connects: reads the FTMPI_COLL_<NAME>
// overrides and the tables. Returns "" or what is wrong, for MPI_Init to
// report (an unknown algorithm with the valid names, a table's file:line).
std::string init_selection();

// Forces an algorithm for collective `collective` in this process (names as
// in algorithm_names.hpp; "" or null restores the tables). `algorithm` may
// end in ":<segment bytes>" for a segmented algorithm. Returns "" or the
// error.
std::string force(const char *collective, const char *algorithm);

// The built-in rules' crossover points (step 4 above); the default table
// states the same ones explicitly.
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
