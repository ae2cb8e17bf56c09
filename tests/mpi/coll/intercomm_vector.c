/*
 * The intercommunicator forms of the collectives with per-rank blocks:
 * Allgather(v), Alltoall(v,w), Gatherv, Scatterv and Reduce_scatter(_block),
 * blocking and non-blocking, with the standard's intercommunicator meaning:
 * a group's result is made of the other group's data. World is split into a
 * lower half (group 0, the larger one at an odd size) and an upper half
 * (group 1, ranked in reverse world order, so local ranks are not world
 * ranks shifted). The two groups pass different counts where the standard
 * allows it, so a side that used its own counts for the other's data shows.
 * MPI_IN_PLACE, which the standard forbids on an intercommunicator, must be
 * refused. A persistent Alltoall runs on it too. Needs at least 2 ranks.
 */
#include "check.h"

#include <string.h>

static int group, other, lrank, lsize, rsize;

/* An element sent by rank `from` of group `g` to rank `to` of the other group. */
static int code(int g, int from, int to, int i) {
    return g * 1000000 + from * 10000 + to * 100 + i + 1;
}

/* Block sizes that differ between the groups and between ranks (0 included). */
static int vcount(int g, int from, int to) {
    return (from + 2 * to + g) % 3;
}

/* Runs the blocking call, or the non-blocking one (which sets r_) and waits. */
#define RUN(nb, blocking, nonblocking)                                                                                 \
    do {                                                                                                               \
        if (nb) {                                                                                                      \
            MPI_Request r_ = MPI_REQUEST_NULL;                                                                         \
            CHECK_MPI(nonblocking);                                                                                    \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                                               \
        } else {                                                                                                       \
            CHECK_MPI(blocking);                                                                                       \
        }                                                                                                              \
    } while (0)

static void fill(int *buf, int n, int v) {
    for (int i = 0; i < n; ++i) buf[i] = v;
}

/* Allgather: every rank gets the other group's blocks, in its rank order;
 * group g sends 2 + g elements. */
static void test_allgather(MPI_Comm inter, int nb) {
    const int scount = 2 + group, rcount = 2 + other;
    int send[3], recv[5 * 3];
    for (int i = 0; i < scount; ++i) send[i] = code(group, lrank, 0, i);
    fill(recv, 15, -1);
    RUN(nb, MPI_Allgather(send, scount, MPI_INT, recv, rcount, MPI_INT, inter),
        MPI_Iallgather(send, scount, MPI_INT, recv, rcount, MPI_INT, inter, &r_));
    for (int r = 0; r < rsize; ++r)
        for (int i = 0; i < rcount; ++i)
            CHECK(recv[r * rcount + i] == code(other, r, 0, i), "Allgather nb=%d from %d [%d] = %d", nb, r, i,
                  recv[r * rcount + i]);
    CHECK(recv[rsize * rcount] == -1, "Allgather wrote past the blocks");
}

/* Allgatherv: remote rank r's block has vcount(other, r, 0) elements, laid
 * out in reverse rank order with a one-element hole after each block. */
static void test_allgatherv(MPI_Comm inter, int nb) {
    int send[3], recv[5 * 4], counts[5], displs[5];
    const int scount = vcount(group, lrank, 0);
    for (int i = 0; i < scount; ++i) send[i] = code(group, lrank, 0, i);
    int at = 0;
    for (int r = rsize - 1; r >= 0; --r) {
        counts[r] = vcount(other, r, 0);
        displs[r] = at;
        at += counts[r] + 1;
    }
    fill(recv, 20, -1);
    RUN(nb, MPI_Allgatherv(send, scount, MPI_INT, recv, counts, displs, MPI_INT, inter),
        MPI_Iallgatherv(send, scount, MPI_INT, recv, counts, displs, MPI_INT, inter, &r_));
    for (int r = 0; r < rsize; ++r) {
        for (int i = 0; i < counts[r]; ++i)
            CHECK(recv[displs[r] + i] == code(other, r, 0, i), "Allgatherv nb=%d from %d [%d] = %d", nb, r, i,
                  recv[displs[r] + i]);
        CHECK(recv[displs[r] + counts[r]] == -1, "Allgatherv nb=%d wrote into the hole after %d", nb, r);
    }
}

/* Alltoall: block j of the send buffer goes to remote rank j; group g sends
 * 1 + g elements per block. */
static void test_alltoall(MPI_Comm inter, int nb) {
    const int scount = 1 + group, rcount = 1 + other;
    int send[5 * 2], recv[5 * 2 + 1];
    for (int j = 0; j < rsize; ++j)
        for (int i = 0; i < scount; ++i) send[j * scount + i] = code(group, lrank, j, i);
    fill(recv, 11, -1);
    RUN(nb, MPI_Alltoall(send, scount, MPI_INT, recv, rcount, MPI_INT, inter),
        MPI_Ialltoall(send, scount, MPI_INT, recv, rcount, MPI_INT, inter, &r_));
    for (int r = 0; r < rsize; ++r)
        for (int i = 0; i < rcount; ++i)
            CHECK(recv[r * rcount + i] == code(other, r, lrank, i), "Alltoall nb=%d from %d [%d] = %d", nb, r, i,
                  recv[r * rcount + i]);
    CHECK(recv[rsize * rcount] == -1, "Alltoall wrote past the blocks");
}

/* Alltoallv: rank a of group g sends vcount(g, a, b) elements to remote rank
 * b; send blocks packed in reverse order, receive blocks with holes. */
static void test_alltoallv(MPI_Comm inter, int nb) {
    int send[5 * 3], recv[5 * 4], scounts[5], sdispls[5], rcounts[5], rdispls[5];
    int at = 0;
    for (int j = rsize - 1; j >= 0; --j) {
        scounts[j] = vcount(group, lrank, j);
        sdispls[j] = at;
        for (int i = 0; i < scounts[j]; ++i) send[at + i] = code(group, lrank, j, i);
        at += scounts[j];
    }
    at = 0;
    for (int r = 0; r < rsize; ++r) {
        rcounts[r] = vcount(other, r, lrank);
        rdispls[r] = at;
        at += rcounts[r] + 1;
    }
    fill(recv, 20, -1);
    RUN(nb, MPI_Alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, inter),
        MPI_Ialltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, inter, &r_));
    for (int r = 0; r < rsize; ++r) {
        for (int i = 0; i < rcounts[r]; ++i)
            CHECK(recv[rdispls[r] + i] == code(other, r, lrank, i), "Alltoallv nb=%d from %d [%d] = %d", nb, r, i,
                  recv[rdispls[r] + i]);
        CHECK(recv[rdispls[r] + rcounts[r]] == -1, "Alltoallv nb=%d wrote into the hole after %d", nb, r);
    }
}

/* Alltoallw: the pair (a, b) exchanges 2 doubles when a + b is odd, else 3
 * ints, which the receiver takes as one 3-int contiguous type. Byte
 * displacements; each block in its own 32-byte slot. */
static void test_alltoallw(MPI_Comm inter, int nb) {
    MPI_Datatype three;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &three));
    CHECK_MPI(MPI_Type_commit(&three));
    enum { SLOT = 32 };
    double send_slots[5 * SLOT / sizeof(double)], recv_slots[5 * SLOT / sizeof(double)]; /* aligned for doubles */
    char *send = (char *)send_slots, *recv = (char *)recv_slots;
    int scounts[5], sdispls[5], rcounts[5], rdispls[5];
    MPI_Datatype stypes[5], rtypes[5];
    for (int j = 0; j < rsize; ++j) {
        const int odd = (lrank + j) % 2;
        sdispls[j] = (rsize - 1 - j) * SLOT;
        rdispls[j] = j * SLOT;
        scounts[j] = odd ? 2 : 3;
        stypes[j] = odd ? MPI_DOUBLE : MPI_INT;
        rcounts[j] = odd ? 2 : 1;
        rtypes[j] = odd ? MPI_DOUBLE : three;
        for (int i = 0; i < scounts[j]; ++i) {
            if (odd)
                ((double *)(send + sdispls[j]))[i] = code(group, lrank, j, i) + 0.5;
            else
                ((int *)(send + sdispls[j]))[i] = code(group, lrank, j, i);
        }
    }
    memset(recv_slots, 0xff, sizeof recv_slots);
    RUN(nb, MPI_Alltoallw(send, scounts, sdispls, stypes, recv, rcounts, rdispls, rtypes, inter),
        MPI_Ialltoallw(send, scounts, sdispls, stypes, recv, rcounts, rdispls, rtypes, inter, &r_));
    for (int r = 0; r < rsize; ++r) {
        const int odd = (lrank + r) % 2;
        for (int i = 0; i < (odd ? 2 : 3); ++i) {
            if (odd) {
                const double got = ((double *)(recv + rdispls[r]))[i];
                CHECK(got == code(other, r, lrank, i) + 0.5, "Alltoallw nb=%d from %d [%d] = %g", nb, r, i, got);
            } else {
                const int got = ((int *)(recv + rdispls[r]))[i];
                CHECK(got == code(other, r, lrank, i), "Alltoallw nb=%d from %d [%d] = %d", nb, r, i, got);
            }
        }
    }
    MPI_Type_free(&three);
}

/* Gatherv and Scatterv rooted at the last rank of group `from`: the root
 * passes MPI_ROOT, the rest of its group MPI_PROC_NULL (with no buffers),
 * the other group the root's rank. Blocks of vcount(other, r, 1) elements in
 * reverse order with holes. */
static void test_gatherv_scatterv(MPI_Comm inter, int from, int nb) {
    const int root_here = group == from && lrank == lsize - 1;
    const int root = group == from ? (root_here ? MPI_ROOT : MPI_PROC_NULL) : rsize - 1;
    int counts[5], displs[5], all[5 * 4], mine[3];
    int at = 0;
    for (int r = rsize - 1; r >= 0; --r) {
        counts[r] = vcount(other, r, 1);
        displs[r] = at;
        at += counts[r] + 1;
    }
    const int count = vcount(group, lrank, 1);
    for (int i = 0; i < count; ++i) mine[i] = code(group, lrank, 1, i);
    fill(all, 20, -1);
    if (group != from)
        RUN(nb, MPI_Gatherv(mine, count, MPI_INT, NULL, NULL, NULL, MPI_INT, root, inter),
            MPI_Igatherv(mine, count, MPI_INT, NULL, NULL, NULL, MPI_INT, root, inter, &r_));
    else if (root_here)
        RUN(nb, MPI_Gatherv(NULL, 0, MPI_INT, all, counts, displs, MPI_INT, root, inter),
            MPI_Igatherv(NULL, 0, MPI_INT, all, counts, displs, MPI_INT, root, inter, &r_));
    else
        RUN(nb, MPI_Gatherv(NULL, 0, MPI_INT, NULL, NULL, NULL, MPI_INT, root, inter),
            MPI_Igatherv(NULL, 0, MPI_INT, NULL, NULL, NULL, MPI_INT, root, inter, &r_));
    if (root_here)
        for (int r = 0; r < rsize; ++r) {
            for (int i = 0; i < counts[r]; ++i)
                CHECK(all[displs[r] + i] == code(other, r, 1, i), "Gatherv nb=%d from %d [%d] = %d", nb, r, i,
                      all[displs[r] + i]);
            CHECK(all[displs[r] + counts[r]] == -1, "Gatherv nb=%d wrote into the hole after %d", nb, r);
        }

    /* Scatterv hands each remote rank back its block, shifted by 7. */
    if (root_here)
        for (int r = 0; r < rsize; ++r)
            for (int i = 0; i < counts[r]; ++i) all[displs[r] + i] += 7;
    fill(mine, 3, -1);
    if (group != from)
        RUN(nb, MPI_Scatterv(NULL, NULL, NULL, MPI_INT, mine, count, MPI_INT, root, inter),
            MPI_Iscatterv(NULL, NULL, NULL, MPI_INT, mine, count, MPI_INT, root, inter, &r_));
    else if (root_here)
        RUN(nb, MPI_Scatterv(all, counts, displs, MPI_INT, NULL, 0, MPI_INT, root, inter),
            MPI_Iscatterv(all, counts, displs, MPI_INT, NULL, 0, MPI_INT, root, inter, &r_));
    else
        RUN(nb, MPI_Scatterv(NULL, NULL, NULL, MPI_INT, NULL, 0, MPI_INT, root, inter),
            MPI_Iscatterv(NULL, NULL, NULL, MPI_INT, NULL, 0, MPI_INT, root, inter, &r_));
    if (group != from) {
        for (int i = 0; i < count; ++i)
            CHECK(mine[i] == code(group, lrank, 1, i) + 7, "Scatterv nb=%d [%d] = %d", nb, i, mine[i]);
        CHECK(count == 3 || mine[count] == -1, "Scatterv nb=%d wrote past its count", nb);
    }
}

/* A non-commutative, associative op on digits: a . b = the digits of a
 * followed by those of b, so the result spells the order of combination. */
static void concat(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < *len; ++i) {
        int scale = 1;
        for (int v = b[i]; v > 0; v /= 10) scale *= 10;
        b[i] = a[i] * scale + b[i];
    }
}

/* 12 elements, cut into group g's own counts: 3, 0, then the rest at 3 ranks. */
static void split_counts(int n, int counts[]) {
    int rest = 12;
    for (int j = 0; j < n - 1; ++j) {
        counts[j] = j % 2 ? 0 : 3 + j;
        rest -= counts[j];
    }
    counts[n - 1] = rest;
}

/* Reduce_scatter: the reduction of the other group's 12-element vectors,
 * cut by this group's counts; with MPI_SUM and with the digit concatenation,
 * which must read remote rank 0's digit first. */
static void test_reduce_scatter(MPI_Comm inter, MPI_Op concat_op, int nb) {
    int counts[5], send[12], recv[13], offset = 0;
    split_counts(lsize, counts);
    for (int j = 0; j < lrank; ++j) offset += counts[j];
    for (int i = 0; i < 12; ++i) send[i] = code(group, lrank, 0, i);
    fill(recv, 13, -1);
    RUN(nb, MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, inter),
        MPI_Ireduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, inter, &r_));
    for (int i = 0; i < counts[lrank]; ++i) {
        int want = 0;
        for (int r = 0; r < rsize; ++r) want += code(other, r, 0, offset + i);
        CHECK(recv[i] == want, "Reduce_scatter nb=%d [%d] = %d, want %d", nb, i, recv[i], want);
    }
    CHECK(recv[counts[lrank]] == -1, "Reduce_scatter nb=%d wrote past its count", nb);

    for (int i = 0; i < 12; ++i) send[i] = lrank + 1;
    fill(recv, 13, -1);
    RUN(nb, MPI_Reduce_scatter(send, recv, counts, MPI_INT, concat_op, inter),
        MPI_Ireduce_scatter(send, recv, counts, MPI_INT, concat_op, inter, &r_));
    int want = 0;
    for (int r = 0; r < rsize; ++r) want = want * 10 + r + 1;
    for (int i = 0; i < counts[lrank]; ++i)
        CHECK(recv[i] == want, "Reduce_scatter (concat) nb=%d [%d] = %d, want %d", nb, i, recv[i], want);
}

/* Reduce_scatter_block: both groups' vectors hold lsize * rsize * 2 elements,
 * so each rank of group g receives 2 * rsize. */
static void test_reduce_scatter_block(MPI_Comm inter, MPI_Op concat_op, int nb) {
    const int count = 2 * rsize, total = lsize * count;
    int send[5 * 5 * 2], recv[5 * 2 + 1];
    for (int i = 0; i < total; ++i) send[i] = code(group, lrank, 0, i);
    fill(recv, 11, -1);
    RUN(nb, MPI_Reduce_scatter_block(send, recv, count, MPI_INT, MPI_SUM, inter),
        MPI_Ireduce_scatter_block(send, recv, count, MPI_INT, MPI_SUM, inter, &r_));
    for (int i = 0; i < count; ++i) {
        int want = 0;
        for (int r = 0; r < rsize; ++r) want += code(other, r, 0, lrank * count + i);
        CHECK(recv[i] == want, "Reduce_scatter_block nb=%d [%d] = %d, want %d", nb, i, recv[i], want);
    }
    CHECK(recv[count] == -1, "Reduce_scatter_block nb=%d wrote past its count", nb);

    for (int i = 0; i < total; ++i) send[i] = lrank + 1;
    RUN(nb, MPI_Reduce_scatter_block(send, recv, count, MPI_INT, concat_op, inter),
        MPI_Ireduce_scatter_block(send, recv, count, MPI_INT, concat_op, inter, &r_));
    int want = 0;
    for (int r = 0; r < rsize; ++r) want = want * 10 + r + 1;
    for (int i = 0; i < count; ++i)
        CHECK(recv[i] == want, "Reduce_scatter_block (concat) nb=%d [%d] = %d, want %d", nb, i, recv[i], want);
}

/* A persistent Alltoall (MPI-4), started twice with new data in between. */
static void test_persistent(MPI_Comm inter) {
    int send[5] = {0}, recv[5] = {0}; /* the init call reads neither; the compiler cannot know */
    MPI_Request req;
    CHECK_MPI(MPI_Alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, inter, MPI_INFO_NULL, &req));
    for (int round = 0; round < 2; ++round) {
        for (int j = 0; j < rsize; ++j) send[j] = code(group, lrank, j, round);
        fill(recv, 5, -1);
        CHECK_MPI(MPI_Start(&req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int r = 0; r < rsize; ++r)
            CHECK(recv[r] == code(other, r, lrank, round), "Alltoall_init round %d from %d = %d", round, r, recv[r]);
    }
    CHECK_MPI(MPI_Request_free(&req));
}

/* MPI_IN_PLACE is not allowed on an intercommunicator (MPI_ERR_BUFFER in
 * libftmpi; other MPIs differ in the class, but must refuse). The refusal is
 * local, so it cannot desynchronize the groups. */
#ifdef FTMPI_HAVE_COLL_FORCE
#define REFUSED(call) CHECK_CLASS(call, MPI_ERR_BUFFER)
#else
#define REFUSED(call) CHECK((call) != MPI_SUCCESS, "%s accepted MPI_IN_PLACE on an intercommunicator", #call)
#endif
static void test_in_place_refused(MPI_Comm inter) {
    int buf[5 * 12], counts[5], displs[5];
    MPI_Datatype types[5];
    MPI_Request req;
    for (int i = 0; i < 5; ++i) counts[i] = 1, displs[i] = i, types[i] = MPI_INT;
    REFUSED(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, inter));
    REFUSED(MPI_Iallgather(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, inter, &req));
    REFUSED(MPI_Allgatherv(MPI_IN_PLACE, 1, MPI_INT, buf, counts, displs, MPI_INT, inter));
    REFUSED(MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, buf, 1, MPI_INT, inter));
    REFUSED(MPI_Alltoallv(MPI_IN_PLACE, counts, displs, MPI_INT, buf, counts, displs, MPI_INT, inter));
    REFUSED(MPI_Ialltoallw(MPI_IN_PLACE, counts, displs, types, buf, counts, displs, types, inter, &req));
    REFUSED(MPI_Reduce_scatter(MPI_IN_PLACE, buf, counts, MPI_INT, MPI_SUM, inter));
    REFUSED(MPI_Ireduce_scatter_block(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, inter, &req));
    /* A sender of the remote group passing MPI_IN_PLACE to a rooted call. */
    REFUSED(MPI_Gatherv(MPI_IN_PLACE, 1, MPI_INT, NULL, NULL, NULL, MPI_INT, 0, inter));
    REFUSED(MPI_Scatterv(NULL, NULL, NULL, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, inter));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size < 2 || size > 10) {
        if (rank == 0) printf("intercomm_vector: needs 2 to 10 ranks, skipped\n");
        MPI_Finalize();
        return 0;
    }
    const int lower = (size + 1) / 2;
    group = rank < lower ? 0 : 1;
    other = 1 - group;
    MPI_Comm local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, group, group == 0 ? rank : -rank, &local));
    /* Leaders: world rank 0 (group 0) and the last world rank (group 1's local rank 0). */
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group == 0 ? size - 1 : 0, 11, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(lsize == (group == 0 ? lower : size - lower) && rsize == size - lsize, "group sizes %d/%d", lsize, rsize);
    MPI_Op concat_op;
    CHECK_MPI(MPI_Op_create(concat, 0, &concat_op));

    test_in_place_refused(inter);
    for (int nb = 0; nb < 2; ++nb) {
        test_allgather(inter, nb);
        test_allgatherv(inter, nb);
        test_alltoall(inter, nb);
        test_alltoallv(inter, nb);
        test_alltoallw(inter, nb);
        test_gatherv_scatterv(inter, 0, nb);
        test_gatherv_scatterv(inter, 1, nb);
        test_reduce_scatter(inter, concat_op, nb);
        test_reduce_scatter_block(inter, concat_op, nb);
    }
    test_persistent(inter);

    MPI_Op_free(&concat_op);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("intercomm_vector: %d ranks OK\n", size);
    MPI_Finalize();
    return 0;
}
