// The collective algorithms, one per file (algo_<collective>_<name>.cpp).
// Each appends its rounds to a Schedule; it may assume the arguments were
// checked by the binding, count > 0 where that matters, and an
// intracommunicator unless its name says inter. `sendbuf` may be MPI_IN_PLACE
// where the standard allows it. Which algorithm runs is decided in select.cpp.
#pragma once

#include "schedule.hpp"

namespace ftmpi::coll {

// Barrier
void barrier_dissemination(Schedule &);
void barrier_tree(Schedule &);
void barrier_inter(Schedule &);

// Bcast
void bcast_binomial(Schedule &, void *buf, int count, MPI_Datatype, int root);
void bcast_pipeline(Schedule &, void *buf, int count, MPI_Datatype, int root, int segment_bytes);
void bcast_inter(Schedule &, void *buf, int count, MPI_Datatype, int root);

// Reduce
void reduce_binomial(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op, int root);
void reduce_inter(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op, int root);

// Allreduce
void allreduce_recursive_doubling(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op);
void allreduce_ring(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op);
void allreduce_reduce_bcast(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op);
// Reduce-scatter by recursive halving + allgather by recursive doubling; commutative ops.
void allreduce_rabenseifner(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op);
void allreduce_inter(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op);

// Reduce_scatter (recvcounts per rank) and Reduce_scatter_block (recvcounts all equal)
void reduce_scatter_ring(Schedule &, const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype, MPI_Op);
// Commutative ops, no gaps (like the ring).
void reduce_scatter_recursive_halving(Schedule &, const void *sendbuf, void *recvbuf, const int recvcounts[],
                                      MPI_Datatype, MPI_Op);
void reduce_scatter_reduce_scatterv(Schedule &, const void *sendbuf, void *recvbuf, const int recvcounts[],
                                    MPI_Datatype, MPI_Op);
// Intercommunicator: recvcounts over the local group; the whole vector to every remote rank.
void reduce_scatter_inter(Schedule &, const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype, MPI_Op);
// Intercommunicator, block form: local size * recvcount divisible by the remote size.
void reduce_scatter_block_inter(Schedule &, const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype, MPI_Op);

// Scan and Exscan
void scan_recursive_doubling(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op,
                             bool exclusive);
void scan_linear(Schedule &, const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op, bool exclusive);

// Gather(v) and Scatter(v)
void gather_linear(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount, MPI_Datatype,
                   int root);
void gather_binomial(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount, MPI_Datatype,
                     int root);
void gatherv_linear(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, const int rcounts[],
                    const int displs[], MPI_Datatype, int root);
void scatter_linear(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount, MPI_Datatype,
                    int root);
void scatter_binomial(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount,
                      MPI_Datatype, int root);
void gather_inter(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount, MPI_Datatype,
                  int root);
void scatter_inter(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount, MPI_Datatype,
                   int root);
void scatterv_linear(Schedule &, const void *sendbuf, const int scounts[], const int displs[], MPI_Datatype,
                     void *recvbuf, int rcount, MPI_Datatype, int root);
// Intercommunicator: counts and displacements at the root, indexed by remote rank.
void gatherv_inter(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, const int rcounts[],
                   const int displs[], MPI_Datatype, int root);
void scatterv_inter(Schedule &, const void *sendbuf, const int scounts[], const int displs[], MPI_Datatype,
                    void *recvbuf, int rcount, MPI_Datatype, int root);

// Allgather(v)
void allgather_ring(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount, MPI_Datatype);
void allgather_bruck(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount,
                     MPI_Datatype);
void allgatherv_ring(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, const int rcounts[],
                     const int displs[], MPI_Datatype);
// Intercommunicator: the remote group's blocks (rcounts, displs indexed by remote rank).
void allgather_inter(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, int rcount,
                     MPI_Datatype);
void allgatherv_inter(Schedule &, const void *sendbuf, int scount, MPI_Datatype, void *recvbuf, const int rcounts[],
                      const int displs[], MPI_Datatype);

// Alltoall with its equal blocks (Bruck: ceil(log2 p) rounds; short messages).
void alltoall_bruck(Schedule &, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                    MPI_Datatype rtype);

// Alltoall(v,w), all in Alltoallw's form: displacements in bytes.
void alltoallw_linear(Schedule &, const void *sendbuf, const int scounts[], const int sdispls[],
                      const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                      const MPI_Datatype rtypes[]);
void alltoallw_pairwise(Schedule &, const void *sendbuf, const int scounts[], const int sdispls[],
                        const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                        const MPI_Datatype rtypes[]);

// Intercommunicator: every array indexed by remote rank.
void alltoallw_inter(Schedule &, const void *sendbuf, const int scounts[], const int sdispls[],
                     const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                     const MPI_Datatype rtypes[]);

}  // namespace ftmpi::coll
