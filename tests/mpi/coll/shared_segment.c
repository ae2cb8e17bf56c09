/* The short collectives that go through a communicator's shared segment
 * when all of its members run on one host (Barrier; Bcast, Reduce,
 * Allreduce, Gather, Allgather, Scatter, Alltoall up to
 * FTMPI_COLL_SHM_BYTES): what makes that path different from messages. Plain MPI: it also passes with Open MPI and MPICH, and
 * over TCP only, where the same calls run as messages.
 *
 *  - many back-to-back calls with changing roots and data, so members run
 *    ahead of each other and reuse the segment's buffers;
 *  - members describing the same data with different datatypes (a
 *    contiguous type here, a strided vector there, a type whose data starts
 *    past its buffer's address elsewhere): the data crosses in its packed
 *    form;
 *  - a non-commutative user op: the result must be the rank-order product;
 *  - Allreduce of doubles: every member must get the same bits;
 *  - sizes on both sides of the segment's capacity, MPI_IN_PLACE,
 *    communicators made by split and dup, and the non-blocking forms (which
 *    run as messages) interleaved with the blocking ones on one
 *    communicator;
 *  - a Barrier behind a peer's large send that needs this member's reply;
 *  - more communicators with collectives than a process keeps segments for. */
#include "support/check.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* 2x2 integer matrices, multiplied: associative, not commutative. */
typedef struct {
    long a, b, c, d;
} mat;
static void mat_mul(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    mat *x = in, *y = inout;
    for (int i = 0; i < *len; ++i) {
        mat r = {x[i].a * y[i].a + x[i].b * y[i].c, x[i].a * y[i].b + x[i].b * y[i].d,
                 x[i].c * y[i].a + x[i].d * y[i].c, x[i].c * y[i].b + x[i].d * y[i].d};
        y[i] = r;
    }
}
static mat mat_of(int r) {
    mat m = {1, r + 1, r % 3, 1};
    return m;
}

static void back_to_back(MPI_Comm comm) {
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    for (int i = 0; i < 2000; ++i) {
        const int root = (i / 3) % n;
        long v[4] = {0, 0, 0, 0};
        if (me == root)
            for (int k = 0; k < 4; ++k) v[k] = 1000L * i + k + root;
        CHECK_MPI(MPI_Bcast(v, 4, MPI_LONG, root, comm));
        for (int k = 0; k < 4; ++k) CHECK(v[k] == 1000L * i + k + root, "bcast %d: got %ld", i, v[k]);
        long mine = i + me, sum = -1, max = -1;
        CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm));
        CHECK(sum == (long)n * i + (long)n * (n - 1) / 2, "allreduce %d: got %ld", i, sum);
        CHECK_MPI(MPI_Reduce(&mine, &max, 1, MPI_LONG, MPI_MAX, root, comm));
        if (me == root) CHECK(max == i + n - 1, "reduce %d: got %ld", i, max);
        if (i % 7 == 0) CHECK_MPI(MPI_Barrier(comm));
    }
}

/* 12 ints described three ways: plain, every other int of 24, and from
 * byte 4 of the buffer on. A user op (predefined ops need predefined types
 * in some MPIs) adds them up whichever way this member describes them. */
static MPI_Datatype strided, shifted;
static void int_sum(void *in, void *inout, int *len, MPI_Datatype *type) {
    int n = *len, stride = 1, skip = 0;
    if (*type == strided) n = 12 * *len, stride = 2;
    if (*type == shifted) n = 12 * *len, skip = 1;
    const int *a = (const int *)in + skip;
    int *b = (int *)inout + skip;
    for (int k = 0; k < n; ++k) b[k * stride] += a[k * stride];
}

static void mixed_types(void) {
    MPI_Datatype type;
    MPI_Op sum;
    MPI_Op_create(int_sum, 1, &sum);
    int count;
    MPI_Type_vector(12, 1, 2, MPI_INT, &strided); /* every other int of 24 */
    MPI_Type_commit(&strided);
    const MPI_Aint four = 4;
    MPI_Type_create_hindexed_block(1, 12, &four, MPI_INT, &shifted); /* 12 ints from byte 4 on */
    MPI_Type_commit(&shifted);
    int buf[24 + 2], out[24 + 2], *data = buf + 1, *result = out + 1;
    for (int round = 0; round < 50; ++round) {
        for (int k = 0; k < 26; ++k) buf[k] = out[k] = -7;
        void *at = data;
        switch (rank % 3) {
        case 0: type = MPI_INT, count = 12; break;
        case 1: type = strided, count = 1; break;
        default: type = shifted, count = 1, at = buf; break;
        }
        const int stride = rank % 3 == 1 ? 2 : 1;
        void *result_at = rank % 3 == 2 ? (void *)out : (void *)result;
        for (int k = 0; k < 12; ++k) data[k * stride] = round + k * (rank + 1);
        CHECK_MPI(MPI_Allreduce(at, result_at, count, type, sum, MPI_COMM_WORLD));
        for (int k = 0; k < 12; ++k) {
            const int want = size * round + k * size * (size + 1) / 2;
            CHECK(result[k * stride] == want, "mixed types round %d element %d: got %d, want %d", round, k,
                  result[k * stride], want);
            if (stride == 2) CHECK(result[k * 2 + 1] == -7, "mixed types: a gap was written");
        }
        CHECK(out[0] == -7 && result[stride * 11 + 1] == -7, "mixed types: written outside the data");
        const int root = round % size;
        if (rank == root)
            for (int k = 0; k < 12; ++k) data[k * stride] = 5 * round + k;
        else
            for (int k = 0; k < 12; ++k) data[k * stride] = -1;
        CHECK_MPI(MPI_Bcast(at, count, type, root, MPI_COMM_WORLD));
        for (int k = 0; k < 12; ++k)
            CHECK(data[k * stride] == 5 * round + k, "mixed bcast round %d element %d: got %d", round, k,
                  data[k * stride]);
    }
    MPI_Type_free(&strided);
    MPI_Type_free(&shifted);
    MPI_Op_free(&sum);
}

static void non_commutative(void) {
    MPI_Datatype mat_type;
    MPI_Type_contiguous(4, MPI_LONG, &mat_type);
    MPI_Type_commit(&mat_type);
    MPI_Op op;
    MPI_Op_create(mat_mul, 0, &op);
    mat want[3];
    for (int e = 0; e < 3; ++e) {
        want[e] = mat_of(e);
        for (int r = 1; r < size; ++r) {
            mat next = mat_of(r + e);
            int one = 1;
            mat_mul(&want[e], &next, &one, NULL); /* next = want op next */
            want[e] = next;
        }
    }
    for (int round = 0; round < 20; ++round) {
        mat in[3], out[3];
        for (int e = 0; e < 3; ++e) in[e] = mat_of(rank + e);
        memset(out, 0, sizeof out);
        CHECK_MPI(MPI_Allreduce(in, out, 3, mat_type, op, MPI_COMM_WORLD));
        for (int e = 0; e < 3; ++e)
            CHECK(memcmp(&out[e], &want[e], sizeof(mat)) == 0, "non-commutative allreduce element %d wrong", e);
        const int root = round % size;
        memset(out, 0, sizeof out);
        CHECK_MPI(MPI_Reduce(in, out, 3, mat_type, op, root, MPI_COMM_WORLD));
        if (rank == root)
            for (int e = 0; e < 3; ++e)
                CHECK(memcmp(&out[e], &want[e], sizeof(mat)) == 0, "non-commutative reduce element %d wrong", e);
    }
    MPI_Op_free(&op);
    MPI_Type_free(&mat_type);
}

/* Sums of doubles whose result depends on the order: every member must
 * still get the same bits. */
static void same_bits(void) {
    enum { n = 64 };
    double in[n], out[n], first[n];
    for (int k = 0; k < n; ++k) in[k] = ((rank + k) % 2 ? 1e8 : 1e-8) / (rank + k + 3);
    CHECK_MPI(MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    memcpy(first, out, sizeof out);
    CHECK_MPI(MPI_Bcast(first, n, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    CHECK(memcmp(first, out, sizeof out) == 0, "allreduce results differ between members");
}

/* Around the capacity (8 KiB by default): both paths agree. */
static void sizes_and_in_place(void) {
    const int counts[] = {1, 1023, 1024, 1025, 2048, 4096};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        const int count = counts[c];
        double *v = malloc(sizeof(double) * (size_t)count);
        for (int k = 0; k < count; ++k) v[k] = rank + k;
        CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        for (int k = 0; k < count; ++k)
            CHECK(v[k] == (double)size * k + size * (size - 1) / 2.0, "count %d element %d: %g", count, k, v[k]);
        for (int k = 0; k < count; ++k) v[k] = rank + k;
        if (rank == size - 1)
            CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_MIN, size - 1, MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Reduce(v, NULL, count, MPI_DOUBLE, MPI_MIN, size - 1, MPI_COMM_WORLD));
        if (rank == size - 1)
            for (int k = 0; k < count; ++k) CHECK(v[k] == k, "reduce count %d element %d: %g", count, k, v[k]);
        free(v);
    }
}

static void mixed_with_nonblocking(MPI_Comm comm) {
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    for (int i = 0; i < 200; ++i) {
        int a = i, b = -1, c = me, d = -1;
        MPI_Request r[2];
        CHECK_MPI(MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_MAX, comm, &r[0]));
        CHECK_MPI(MPI_Allreduce(&c, &d, 1, MPI_INT, MPI_SUM, comm));
        CHECK_MPI(MPI_Ibarrier(comm, &r[1]));
        CHECK_MPI(MPI_Barrier(comm));
        CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        CHECK(b == i && d == n * (n - 1) / 2, "interleaved %d: %d %d", i, b, d);
    }
}

/* Gather, Allgather, Scatter and Alltoall, back to back with changing
 * roots and block sizes (slots reused while others still read), then each
 * with MPI_IN_PLACE, then blocks too large for the segment. */
static void movement(MPI_Comm comm) {
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int *send = malloc(sizeof(int) * 64 * 8), *recv = malloc(sizeof(int) * 64 * 8);
    for (int i = 0; i < 400; ++i) {
        const int root = (i / 2) % n, blk = 1 + i % 5;
        for (int k = 0; k < blk; ++k) send[k] = i * 100 + me * 10 + k;
        for (int k = 0; k < n * blk; ++k) recv[k] = -1;
        CHECK_MPI(MPI_Allgather(send, blk, MPI_INT, recv, blk, MPI_INT, comm));
        for (int m = 0; m < n; ++m)
            for (int k = 0; k < blk; ++k)
                CHECK(recv[m * blk + k] == i * 100 + m * 10 + k, "allgather %d: [%d][%d] = %d", i, m, k,
                      recv[m * blk + k]);
        for (int k = 0; k < n * blk; ++k) recv[k] = -1;
        CHECK_MPI(MPI_Gather(send, blk, MPI_INT, recv, blk, MPI_INT, root, comm));
        if (me == root)
            for (int m = 0; m < n; ++m)
                for (int k = 0; k < blk; ++k)
                    CHECK(recv[m * blk + k] == i * 100 + m * 10 + k, "gather %d: [%d][%d] = %d", i, m, k,
                          recv[m * blk + k]);
        for (int k = 0; k < n * blk; ++k) send[k] = i * 1000 + k;
        int mine[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
        CHECK_MPI(MPI_Scatter(send, blk, MPI_INT, mine, blk, MPI_INT, root, comm));
        for (int k = 0; k < blk; ++k) CHECK(mine[k] == i * 1000 + me * blk + k, "scatter %d: [%d] = %d", i, k, mine[k]);
        for (int m = 0; m < n; ++m)
            for (int k = 0; k < blk; ++k) send[m * blk + k] = i * 1000 + me * 64 + m * 8 + k;
        CHECK_MPI(MPI_Alltoall(send, blk, MPI_INT, recv, blk, MPI_INT, comm));
        for (int m = 0; m < n; ++m)
            for (int k = 0; k < blk; ++k)
                CHECK(recv[m * blk + k] == i * 1000 + m * 64 + me * 8 + k, "alltoall %d: [%d][%d] = %d", i, m, k,
                      recv[m * blk + k]);
    }
    /* In place. */
    for (int m = 0; m < n; ++m) recv[m] = m == me ? 7 * me : -1;
    CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, 1, MPI_INT, comm));
    for (int m = 0; m < n; ++m) CHECK(recv[m] == 7 * m, "allgather in place [%d] = %d", m, recv[m]);
    const int root = n - 1;
    for (int m = 0; m < n; ++m) recv[m] = m == me ? 3 * me : -1;
    if (me == root)
        CHECK_MPI(MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, recv, 1, MPI_INT, root, comm));
    else
        CHECK_MPI(MPI_Gather(&recv[me], 1, MPI_INT, NULL, 1, MPI_INT, root, comm));
    if (me == root)
        for (int m = 0; m < n; ++m) CHECK(recv[m] == 3 * m, "gather in place [%d] = %d", m, recv[m]);
    for (int m = 0; m < n; ++m) send[m] = 5 * m;
    int one = -1;
    if (me == root)
        CHECK_MPI(MPI_Scatter(send, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, root, comm));
    else
        CHECK_MPI(MPI_Scatter(NULL, 1, MPI_INT, &one, 1, MPI_INT, root, comm));
    if (me != root) CHECK(one == 5 * me, "scatter in place: %d", one);
    for (int m = 0; m < n; ++m) recv[m] = me * 100 + m;
    CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, 1, MPI_INT, comm));
    for (int m = 0; m < n; ++m) CHECK(recv[m] == m * 100 + me, "alltoall in place [%d] = %d", m, recv[m]);
    free(send);
    free(recv);
    /* Blocks of 2 KiB: every member's fits a slot (Gather, Allgather) but
     * not all of them together (Scatter, Alltoall). */
    enum { big = 512 };
    int *a = malloc(sizeof(int) * big * (size_t)n), *b = malloc(sizeof(int) * big * (size_t)n);
    for (int k = 0; k < big * n; ++k) a[k] = me * 100000 + k;
    CHECK_MPI(MPI_Alltoall(a, big, MPI_INT, b, big, MPI_INT, comm));
    for (int m = 0; m < n; ++m)
        CHECK(b[m * big + 3] == m * 100000 + me * big + 3, "large alltoall from %d: %d", m, b[m * big + 3]);
    CHECK_MPI(MPI_Allgather(a, big, MPI_INT, b, big, MPI_INT, comm));
    for (int m = 0; m < n; ++m) CHECK(b[m * big + 5] == m * 100000 + 5, "large allgather from %d", m);
    free(a);
    free(b);
}

/* More communicators with collectives than a process keeps segments for
 * (128): the later ones run as messages, all of them right. */
static void many_communicators(void) {
    enum { count = 140 };
    MPI_Comm comms[count];
    for (int c = 0; c < count; ++c) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[c]));
        long v = c + rank, sum = 0;
        CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, comms[c]));
        CHECK(sum == (long)size * c + (long)size * (size - 1) / 2, "communicator %d: sum %ld", c, sum);
    }
    for (int c = count - 1; c >= 0; --c) {
        long v = c, max = -1;
        CHECK_MPI(MPI_Allreduce(&v, &max, 1, MPI_LONG, MPI_MAX, comms[c]));
        CHECK(max == c, "communicator %d again: %ld", c, max);
        CHECK_MPI(MPI_Comm_free(&comms[c]));
    }
}

/* A member in Barrier must still answer a peer's large send that the peer
 * must finish before it reaches the Barrier (a rendezvous needs the
 * receiver's reply): waiting on the segment keeps p2p moving. */
static void barrier_behind_a_send(void) {
    if (size < 2) return;
    enum { n = 1 << 18 };
    int *big = malloc(sizeof(int) * n);
    for (int round = 0; round < 5; ++round) {
        if (rank == 0) {
            MPI_Request r;
            CHECK_MPI(MPI_Irecv(big, n, MPI_INT, 1, round, MPI_COMM_WORLD, &r));
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            CHECK(big[n - 1] == round, "rendezvous round %d: got %d", round, big[n - 1]);
        } else {
            if (rank == 1) {
                for (int k = 0; k < n; ++k) big[k] = round;
                CHECK_MPI(MPI_Send(big, n, MPI_INT, 0, round, MPI_COMM_WORLD));
            }
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
    }
    free(big);
}

/* Segments are named only while their communicator is set up: nothing of
 * this job's stays in /dev/shm under a collective's name (libftmpi's are
 * /dev/shm/ftmpi.<job>[-<key>].<rank>.<incarnation>.coll.*; other MPIs
 * have no FTMPI_JOB and nothing to find). */
static void no_names_left(void) {
    const char *job = getenv("FTMPI_JOB");
    DIR *dir = opendir("/dev/shm");
    if (job == NULL || dir == NULL) {
        if (dir) closedir(dir);
        return;
    }
    char prefix[300];
    snprintf(prefix, sizeof prefix, "ftmpi.%s", job);
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        CHECK(strncmp(e->d_name, prefix, strlen(prefix)) != 0 || strstr(e->d_name, ".coll.") == NULL,
              "/dev/shm/%s is still there", e->d_name);
    closedir(dir);
}

int main(int argc, char **argv) {
    test_init(&argc, &argv, &rank, &size);
    back_to_back(MPI_COMM_WORLD);
    movement(MPI_COMM_WORLD);
    mixed_types();
    non_commutative();
    same_bits();
    sizes_and_in_place();
    mixed_with_nonblocking(MPI_COMM_WORLD);
    barrier_behind_a_send();
    many_communicators();
    MPI_Comm half, copy;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &copy));
    back_to_back(half);
    back_to_back(copy);
    movement(half);
    mixed_with_nonblocking(half);
    MPI_Comm_free(&half);
    MPI_Comm_free(&copy);
    no_names_left();
    MPI_Finalize();
    if (rank == 0) printf("shared segment collectives: ok\n");
    return 0;
}
