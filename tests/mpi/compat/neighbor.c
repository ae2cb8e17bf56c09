/* Neighbourhood collectives on Cartesian (periodic, including dimensions
 * of size 1 and 2 where both neighbours are one process, and non-periodic
 * borders), graph and distributed-graph communicators, blocking and
 * non-blocking. Every received block is checked against what its sender
 * put in its out-slot for us (MPI-3.1 §7.6 neighbour order). */
#include "support/check.h"

#include <stdlib.h>

/* Cartesian: slot 2d is the negative neighbour of dimension d, 2d+1 the
 * positive one. Block k sent by rank r holds 100*r + k. The block in our
 * slot 2d came from our negative neighbour's positive slot (2d+1). */
static void cartesian(int periodic) {
    int size, rank, dims[2] = {0, 0}, periods[2] = {periodic, periodic};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    MPI_Comm_rank(cart, &rank);
    int out[4], in[4], gathered[4];
    for (int k = 0; k < 4; ++k) {
        out[k] = 100 * rank + k;
        in[k] = gathered[k] = -7;
    }
    MPI_Request r;
    CHECK_MPI(MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, cart));
    CHECK_MPI(MPI_Ineighbor_allgather(&rank, 1, MPI_INT, gathered, 1, MPI_INT, cart, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int d = 0; d < 2; ++d) {
        int neg, pos;
        MPI_Cart_shift(cart, d, 1, &neg, &pos);
        const int want_neg = neg == MPI_PROC_NULL ? -7 : 100 * neg + 2 * d + 1;
        const int want_pos = pos == MPI_PROC_NULL ? -7 : 100 * pos + 2 * d;
        CHECK(in[2 * d] == want_neg, "cart %dx%d periodic %d dim %d: negative slot %d, expected %d", dims[0], dims[1],
              periodic, d, in[2 * d], want_neg);
        CHECK(in[2 * d + 1] == want_pos, "cart %dx%d periodic %d dim %d: positive slot %d, expected %d", dims[0],
              dims[1], periodic, d, in[2 * d + 1], want_pos);
        CHECK(gathered[2 * d] == (neg == MPI_PROC_NULL ? -7 : neg), "allgather negative slot");
        CHECK(gathered[2 * d + 1] == (pos == MPI_PROC_NULL ? -7 : pos), "allgather positive slot");
    }
    /* Alltoallv with one int per neighbour at reversed displacements. */
    int counts[4] = {1, 1, 1, 1}, displs[4] = {3, 2, 1, 0}, vin[4] = {-7, -7, -7, -7};
    CHECK_MPI(MPI_Neighbor_alltoallv(out, counts, displs, MPI_INT, vin, counts, displs, MPI_INT, cart));
    /* Our slot k lands at vin[3-k]; the sender put its slot j from out[3-j]. */
    for (int d = 0; d < 2; ++d) {
        int neg, pos;
        MPI_Cart_shift(cart, d, 1, &neg, &pos);
        if (neg != MPI_PROC_NULL) CHECK(vin[3 - 2 * d] == 100 * neg + 3 - (2 * d + 1), "alltoallv negative slot");
        if (pos != MPI_PROC_NULL) CHECK(vin[3 - (2 * d + 1)] == 100 * pos + 3 - 2 * d, "alltoallv positive slot");
    }
    MPI_Comm_free(&cart);
}

/* A ring as a graph (both neighbours) and as a distributed graph (in from
 * prev, out to next). */
static void graphs(void) {
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (size < 3) return;
    int *index = malloc((size_t)size * sizeof(int)), *edges = malloc((size_t)size * 2 * sizeof(int));
    for (int i = 0; i < size; ++i) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + size - 1) % size;
        edges[2 * i + 1] = (i + 1) % size;
    }
    MPI_Comm graph;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph));
    MPI_Comm_rank(graph, &rank);
    const int prev = (rank + size - 1) % size, next = (rank + 1) % size;
    int got[2] = {-1, -1};
    CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, graph));
    CHECK(got[0] == prev && got[1] == next, "graph allgather %d %d", got[0], got[1]);
    int counts[2] = {1, 1}, displs[2] = {0, 1}, gv[2] = {-1, -1};
    CHECK_MPI(MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, gv, counts, displs, MPI_INT, graph));
    CHECK(gv[0] == prev && gv[1] == next, "graph allgatherv");
    MPI_Comm_free(&graph);

    MPI_Comm dist;
    int weight = 1; /* weighted: gcc 12 warns on reads through MPI_UNWEIGHTED's sentinel address */
    CHECK_MPI(
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, &weight, 1, &next, &weight, MPI_INFO_NULL, 0, &dist));
    double out = rank + 0.5, in = -1;
    int one = 1;
    MPI_Aint zero = 0;
    MPI_Datatype dt = MPI_DOUBLE;
    MPI_Request r;
    CHECK_MPI(MPI_Ineighbor_alltoallw(&out, &one, &zero, &dt, &in, &one, &zero, &dt, dist, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(in == prev + 0.5, "dist graph alltoallw %f", in);
    MPI_Comm_free(&dist);
    free(index);
    free(edges);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    cartesian(1);
    cartesian(0);
    graphs();
    /* Not a topology communicator: MPI_ERR_TOPOLOGY. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 0, y[4];
    CHECK_CLASS(MPI_Neighbor_allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TOPOLOGY);
    MPI_Finalize();
    return 0;
}
