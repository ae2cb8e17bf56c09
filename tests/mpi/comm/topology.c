/* Cartesian and graph topologies: Dims_create cases, Cart_create with
 * queries, rank <-> coords round trips, shifts (periodic and not) checked
 * by real messages, Cart_sub, Cart_map; a ring graph with its queries;
 * Topo_test; bad arguments. */
#include "support/check.h"

#include <string.h>

/* mpi.h's MPI_UNWEIGHTED is the sentinel ((int *)2), as in Open MPI; GCC 12
 * takes it for a pointer to an empty object and warns at every call that
 * passes it. The calls are right: the library never reads through it. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

static void dims_case(int nnodes, int ndims, const int *given, const int *want) {
    int dims[8];
    memcpy(dims, given, sizeof(int) * (size_t)ndims);
    CHECK_MPI(MPI_Dims_create(nnodes, ndims, dims));
    for (int i = 0; i < ndims; ++i)
        CHECK(dims[i] == want[i], "Dims_create(%d, %d): dims[%d] = %d, expected %d", nnodes, ndims, i, dims[i],
              want[i]);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Dims_create: balanced, non-increasing, fixed entries kept. */
    dims_case(6, 2, (int[]){0, 0}, (int[]){3, 2});
    dims_case(12, 2, (int[]){0, 0}, (int[]){4, 3});
    dims_case(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    dims_case(7, 2, (int[]){0, 0}, (int[]){7, 1});
    dims_case(36, 2, (int[]){0, 0}, (int[]){6, 6});
    dims_case(12, 3, (int[]){0, 3, 0}, (int[]){2, 3, 2});
    dims_case(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    dims_case(8, 2, (int[]){2, 4}, (int[]){2, 4});
    int bad_dims[2] = {5, 0};
    CHECK_CLASS(MPI_Dims_create(12, 2, bad_dims), MPI_ERR_DIMS); /* 12 is not a multiple of 5 */
    int neg_dims[1] = {-1};
    CHECK_CLASS(MPI_Dims_create(4, 1, neg_dims), MPI_ERR_DIMS);

    /* A 2-D grid over all ranks, periodic in dimension 0 only. */
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    MPI_Comm cart;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart));
    int status, nd;
    CHECK_MPI(MPI_Topo_test(cart, &status));
    CHECK(status == MPI_CART, "Topo_test(cart) = %d", status);
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
    CHECK(status == MPI_UNDEFINED, "Topo_test(world) = %d", status);
    CHECK_MPI(MPI_Cartdim_get(cart, &nd));
    CHECK(nd == 2, "Cartdim_get = %d", nd);
    int gdims[2], gperiods[2], coords[2], crank;
    CHECK_MPI(MPI_Cart_get(cart, 2, gdims, gperiods, coords));
    CHECK(gdims[0] == dims[0] && gdims[1] == dims[1] && gperiods[0] == 1 && gperiods[1] == 0, "Cart_get dims/periods");
    MPI_Comm_rank(cart, &crank);
    CHECK(coords[0] == crank / dims[1] && coords[1] == crank % dims[1], "row-major coords (%d,%d) for %d", coords[0],
          coords[1], crank);
    for (int r = 0; r < size; ++r) {
        int c[2], back;
        CHECK_MPI(MPI_Cart_coords(cart, r, 2, c));
        CHECK_MPI(MPI_Cart_rank(cart, c, &back));
        CHECK(back == r, "coords/rank round trip %d -> %d", r, back);
    }
    /* Periodic wrap in dim 0; out of range in dim 1 is an error. */
    int wrap[2] = {coords[0] + dims[0], coords[1]}, wrapped;
    CHECK_MPI(MPI_Cart_rank(cart, wrap, &wrapped));
    CHECK(wrapped == crank, "periodic coordinate did not wrap: %d", wrapped);
    int off[2] = {0, dims[1]};
    CHECK_CLASS(MPI_Cart_rank(cart, off, &wrapped), MPI_ERR_RANK);

    /* Shifts, checked with messages: along dim 0 everyone has both neighbours. */
    int src, dst;
    CHECK_MPI(MPI_Cart_shift(cart, 0, 1, &src, &dst));
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&crank, 1, MPI_INT, dst, 1, &got, 1, MPI_INT, src, 1, cart, MPI_STATUS_IGNORE));
    CHECK(got == src, "shift dim 0: got %d from source %d", got, src);
    int up[2] = {(coords[0] + dims[0] - 1) % dims[0], coords[1]}, up_rank;
    CHECK_MPI(MPI_Cart_rank(cart, up, &up_rank));
    CHECK(src == up_rank, "shift dim 0 source %d, expected %d", src, up_rank);
    /* Along dim 1 (not periodic) the edges see MPI_PROC_NULL. */
    CHECK_MPI(MPI_Cart_shift(cart, 1, 1, &src, &dst));
    CHECK((coords[1] == 0) == (src == MPI_PROC_NULL), "dim 1 source %d at column %d", src, coords[1]);
    CHECK((coords[1] == dims[1] - 1) == (dst == MPI_PROC_NULL), "dim 1 dest %d at column %d", dst, coords[1]);
    got = -7;
    CHECK_MPI(MPI_Sendrecv(&crank, 1, MPI_INT, dst, 2, &got, 1, MPI_INT, src, 2, cart, MPI_STATUS_IGNORE));
    CHECK(src == MPI_PROC_NULL ? got == -7 : got == src, "shift dim 1: got %d from %d", got, src);
    CHECK_CLASS(MPI_Cart_shift(cart, 2, 1, &src, &dst), MPI_ERR_DIMS);

    /* Cart_sub keeping dim 1: my row, ordered by column. */
    int remain[2] = {0, 1};
    MPI_Comm row;
    CHECK_MPI(MPI_Cart_sub(cart, remain, &row));
    int row_rank, row_size, row_nd;
    MPI_Comm_rank(row, &row_rank);
    MPI_Comm_size(row, &row_size);
    CHECK(row_size == dims[1] && row_rank == coords[1], "Cart_sub row: %d of %d", row_rank, row_size);
    CHECK_MPI(MPI_Cartdim_get(row, &row_nd));
    CHECK(row_nd == 1, "Cart_sub dims %d", row_nd);
    int sum_check = -1;
    CHECK_MPI(MPI_Sendrecv(&coords[0], 1, MPI_INT, (row_rank + 1) % row_size, 3, &sum_check, 1, MPI_INT,
                           (row_rank + row_size - 1) % row_size, 3, row, MPI_STATUS_IGNORE));
    CHECK(sum_check == coords[0], "row neighbour is in row %d, I am in row %d", sum_check, coords[0]);

    /* Cart_map and a grid smaller than the communicator. */
    int one_dim[1] = {1}, mapped;
    CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, one_dim, periods, &mapped));
    CHECK(mapped == (rank == 0 ? 0 : MPI_UNDEFINED), "Cart_map gave %d", mapped);
    MPI_Comm small;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, one_dim, periods, 0, &small));
    CHECK((rank == 0) == (small != MPI_COMM_NULL), "1-process grid given to rank %d", rank);
    if (small != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&small));
    int too_big[1] = {size + 1};
    MPI_Comm bad;
    CHECK_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 1, too_big, periods, 0, &bad), MPI_ERR_TOPOLOGY);
    CHECK_CLASS(MPI_Cart_get(MPI_COMM_WORLD, 2, gdims, gperiods, coords), MPI_ERR_TOPOLOGY);

    /* A bidirectional ring graph over all ranks. */
    int index[64], edges[128];
    for (int i = 0; i < size; ++i) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + size - 1) % size;
        edges[2 * i + 1] = (i + 1) % size;
    }
    MPI_Comm ring;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring));
    CHECK_MPI(MPI_Topo_test(ring, &status));
    CHECK(status == MPI_GRAPH, "Topo_test(graph) = %d", status);
    int nnodes, nedges;
    CHECK_MPI(MPI_Graphdims_get(ring, &nnodes, &nedges));
    CHECK(nnodes == size && nedges == 2 * size, "Graphdims_get %d %d", nnodes, nedges);
    int gindex[64], gedges[128];
    CHECK_MPI(MPI_Graph_get(ring, size, 2 * size, gindex, gedges));
    CHECK(memcmp(gindex, index, sizeof(int) * (size_t)size) == 0 &&
              memcmp(gedges, edges, sizeof(int) * 2 * (size_t)size) == 0,
          "Graph_get differs from what was given");
    int nn, nbrs[2];
    CHECK_MPI(MPI_Graph_neighbors_count(ring, rank, &nn));
    CHECK(nn == 2, "neighbours count %d", nn);
    CHECK_MPI(MPI_Graph_neighbors(ring, rank, 2, nbrs));
    CHECK(nbrs[0] == (rank + size - 1) % size && nbrs[1] == (rank + 1) % size, "neighbours %d %d", nbrs[0], nbrs[1]);
    /* Talk to both neighbours. */
    int from_left = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, nbrs[1], 4, &from_left, 1, MPI_INT, nbrs[0], 4, ring, MPI_STATUS_IGNORE));
    CHECK(from_left == nbrs[0], "graph neighbour sent %d", from_left);
    CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &mapped));
    CHECK(mapped == rank, "Graph_map gave %d", mapped);
    CHECK_CLASS(MPI_Graph_neighbors_count(ring, size, &nn), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Graphdims_get(cart, &nnodes, &nedges), MPI_ERR_TOPOLOGY);
    int bad_edges[2] = {size, 0}, bad_index[1] = {1};
    CHECK_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 1, bad_index, bad_edges, 0, &bad), MPI_ERR_ARG);

    /* Distributed graphs: a directed ring, given adjacently (weighted) and
     * by rank 0 alone for everyone (unweighted). */
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in_w = 10 + left, out_w = 10 + rank;
    MPI_Comm dg;
    CHECK_MPI(
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &in_w, 1, &right, &out_w, MPI_INFO_NULL, 0, &dg));
    CHECK_MPI(MPI_Topo_test(dg, &status));
    CHECK(status == MPI_DIST_GRAPH, "Topo_test(dist graph) = %d", status);
    int indeg, outdeg, weighted, s_in, w_in, d_out, w_out;
    CHECK_MPI(MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
    CHECK(indeg == 1 && outdeg == 1 && weighted, "adjacent dist graph counts %d %d %d", indeg, outdeg, weighted);
    CHECK_MPI(MPI_Dist_graph_neighbors(dg, 1, &s_in, &w_in, 1, &d_out, &w_out));
    CHECK(s_in == left && w_in == 10 + left && d_out == right && w_out == 10 + rank, "adjacent neighbours");
    CHECK_MPI(MPI_Comm_free(&dg));
    int all_src[64], all_deg[64], all_dst[64];
    for (int i = 0; i < size; ++i) {
        all_src[i] = i;
        all_deg[i] = 1;
        all_dst[i] = (i + 1) % size;
    }
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, all_src, all_deg, all_dst, MPI_UNWEIGHTED,
                                    MPI_INFO_NULL, 0, &dg));
    CHECK_MPI(MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
    CHECK(indeg == 1 && outdeg == 1 && !weighted, "dist graph counts %d %d %d", indeg, outdeg, weighted);
    CHECK_MPI(MPI_Dist_graph_neighbors(dg, 1, &s_in, MPI_UNWEIGHTED, 1, &d_out, MPI_UNWEIGHTED));
    CHECK(s_in == left && d_out == right, "dist graph neighbours %d %d", s_in, d_out);
    got = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, d_out, 5, &got, 1, MPI_INT, s_in, 5, dg, MPI_STATUS_IGNORE));
    CHECK(got == left, "message along the dist graph got %d", got);
    CHECK_MPI(MPI_Comm_free(&dg));
    int bad_dst = size;
    CHECK_CLASS(
        MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, all_deg, &bad_dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &bad),
        MPI_ERR_ARG);

    /* A dup keeps the topology. */
    MPI_Comm cart_dup;
    CHECK_MPI(MPI_Comm_dup(cart, &cart_dup));
    CHECK_MPI(MPI_Topo_test(cart_dup, &status));
    CHECK(status == MPI_CART, "dup lost the topology");

    CHECK_MPI(MPI_Comm_free(&cart_dup));
    CHECK_MPI(MPI_Comm_free(&ring));
    CHECK_MPI(MPI_Comm_free(&row));
    CHECK_MPI(MPI_Comm_free(&cart));
    MPI_Finalize();
    return 0;
}
