/* Collectives choosing by the decision tables, no algorithm forced. With
 * FTMPI_COLL_TABLE set (to ftmpi_tune's output in mpi.coll_tune.*):
 * MPI_Init must accept it and it must hold a row for every collective at
 * this rank count. Each collective must give the right result at sizes
 * around the ones the tuner measures. */
#include "check.h"

#include <string.h>

static int rank, size;

static const char *collectives[] = {"barrier", "bcast",  "reduce",  "allreduce", "reduce_scatter", "scan",
                                    "exscan",  "gather", "scatter", "allgather", "alltoall"};
#define NCOLL ((int)(sizeof collectives / sizeof collectives[0]))

/* Every collective has a row whose rank range is exactly this size. */
static void check_rows(const char *path) {
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open FTMPI_COLL_TABLE=%s", path);
    int seen[NCOLL] = {0};
    char line[512], name[64], ranks[64];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%63s %63s", name, ranks) != 2) continue;
        for (int c = 0; c < NCOLL; ++c)
            if (!strcmp(name, collectives[c]) && atoi(ranks) == size) seen[c] = 1;
    }
    fclose(f);
    for (int c = 0; c < NCOLL; ++c) CHECK(seen[c], "%s has no %s row for %d ranks", path, collectives[c], size);
}

static int value(int r, int i) {
    return r * 1009 + i;
}

static void run(int n) {
    int *in = calloc((size_t)(n * size + 1), sizeof(int)), *out = calloc((size_t)(n * size + 1), sizeof(int));
    for (int i = 0; i < n * size; ++i) in[i] = value(rank, i);
    long long sum_ranks = (long long)size * (size - 1) / 2;

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) out[i] = rank == 0 ? value(0, i) : -1;
    CHECK_MPI(MPI_Bcast(out, n, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CHECK(out[i] == value(0, i), "Bcast n=%d [%d]", n, i);

    CHECK_MPI(MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CHECK(out[i] == 1009 * sum_ranks + (long long)size * i, "Allreduce n=%d [%d]", n, i);
    CHECK_MPI(MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0)
        for (int i = 0; i < n; ++i) CHECK(out[i] == 1009 * sum_ranks + (long long)size * i, "Reduce n=%d [%d]", n, i);

    CHECK_MPI(MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i)
        CHECK(out[i] == 1009 * sum_ranks + (long long)size * (rank * n + i), "Reduce_scatter_block n=%d [%d]", n, i);

    CHECK_MPI(MPI_Scan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    long long below = (long long)rank * (rank + 1) / 2;
    for (int i = 0; i < n; ++i) CHECK(out[i] == 1009 * below + (long long)(rank + 1) * i, "Scan n=%d [%d]", n, i);
    CHECK_MPI(MPI_Exscan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    below = (long long)rank * (rank - 1) / 2;
    if (rank > 0)
        for (int i = 0; i < n; ++i) CHECK(out[i] == 1009 * below + (long long)rank * i, "Exscan n=%d [%d]", n, i);

    CHECK_MPI(MPI_Gather(in, n, MPI_INT, out, n, MPI_INT, 0, MPI_COMM_WORLD));
    if (rank == 0)
        for (int r = 0; r < size; ++r)
            for (int i = 0; i < n; ++i) CHECK(out[r * n + i] == value(r, i), "Gather n=%d block %d [%d]", n, r, i);
    CHECK_MPI(MPI_Scatter(in, n, MPI_INT, out, n, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CHECK(out[i] == value(0, rank * n + i), "Scatter n=%d [%d]", n, i);
    CHECK_MPI(MPI_Allgather(in, n, MPI_INT, out, n, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < n; ++i) CHECK(out[r * n + i] == value(r, i), "Allgather n=%d block %d [%d]", n, r, i);
    CHECK_MPI(MPI_Alltoall(in, n, MPI_INT, out, n, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < n; ++i)
            CHECK(out[r * n + i] == value(r, rank * n + i), "Alltoall n=%d from %d [%d]", n, r, i);
    free(in);
    free(out);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *path = getenv("FTMPI_COLL_TABLE");
    if (path && *path) check_rows(path);
    /* The tuner's --quick sizes are 8 B, 256 B, 8 KiB; in ints, around them. */
    static const int sizes[] = {1, 2, 3, 64, 65, 2048, 2049, 5000};
    for (int k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); ++k) run(sizes[k]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("table_run: %d ranks OK with %s\n", size, path && *path ? path : "the default table");
    MPI_Finalize();
    return 0;
}
