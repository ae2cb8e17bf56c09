/* Collective buffering (two-phase) on and off must give the same file:
 * an interleaved (vector) pattern and a contiguous block pattern written
 * with write_all under several hint sets — default (automatic: the
 * aggregators for the interleaved pattern only), romio_cb_write=disable,
 * collective buffering enabled with cb_nodes=2 and a tiny cb_buffer_size
 * (many blocks, two aggregators), and with cb_nodes=size — and read back with
 * read_all under the same hints; a read_all past the end of the file. */
#include "io_test.h"

#define ROUNDS 37
#define BLOCK  5

static void set_hints(MPI_Info info, int variant, int size) {
    char v[32];
    switch (variant) {
    case 1:
        MPI_Info_set(info, "romio_cb_write", "disable");
        MPI_Info_set(info, "romio_cb_read", "disable");
        break;
    case 2:
        MPI_Info_set(info, "romio_cb_write", "enable");
        MPI_Info_set(info, "romio_cb_read", "enable");
        MPI_Info_set(info, "cb_nodes", "2");
        MPI_Info_set(info, "cb_buffer_size", "64");
        break;
    case 3:
        snprintf(v, sizeof v, "%d", size);
        MPI_Info_set(info, "romio_cb_write", "enable");
        MPI_Info_set(info, "romio_cb_read", "enable");
        MPI_Info_set(info, "cb_nodes", v);
        break;
    default: break;
    }
}

/* Writes the pattern under hint set `variant`, checks a read_all, returns the file. */
static unsigned char *write_variant(const char *name, int variant, int rank, int size, long *len) {
    MPI_Info info;
    MPI_Info_create(&info);
    set_hints(info, variant, size);
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    MPI_Datatype vec, tile;
    MPI_Type_vector(1, BLOCK, BLOCK * size, MPI_DOUBLE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)sizeof(double) * BLOCK * size, &tile);
    MPI_Type_commit(&tile);
    double mine[ROUNDS * BLOCK], back[ROUNDS * BLOCK];
    for (int i = 0; i < ROUNDS * BLOCK; ++i) mine[i] = rank + i / 1000.0;
    MPI_Status st;
    /* Interleaved part. */
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * BLOCK * sizeof(double), MPI_DOUBLE, tile, "native", info));
    CHECK_MPI(MPI_File_write_all(fh, mine, ROUNDS * BLOCK, MPI_DOUBLE, &st));
    CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_all(fh, back, ROUNDS * BLOCK, MPI_DOUBLE, &st));
    for (int i = 0; i < ROUNDS * BLOCK; ++i) CHECK(back[i] == mine[i], "variant %d interleaved [%d]", variant, i);
    /* Contiguous blocks after it, at explicit offsets in bytes. */
    const MPI_Offset after = (MPI_Offset)sizeof(double) * ROUNDS * BLOCK * size;
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", info));
    CHECK_MPI(MPI_File_write_at_all(fh, after + (MPI_Offset)rank * sizeof mine, mine, ROUNDS * BLOCK, MPI_DOUBLE, &st));
    CHECK_MPI(MPI_File_read_at_all(fh, after + (MPI_Offset)((rank + 1) % size) * sizeof mine, back, ROUNDS * BLOCK,
                                   MPI_DOUBLE, &st));
    for (int i = 0; i < ROUNDS * BLOCK; ++i)
        CHECK(back[i] == (rank + 1) % size + i / 1000.0, "variant %d block [%d]", variant, i);
    /* A read past the end of the file, the same range at every rank (so the
     * automatic mode aggregates it): the count is what the file holds, and
     * the buffer past it keeps what it had. */
    double tail[8];
    for (int i = 0; i < 8; ++i) tail[i] = -1.0;
    CHECK_MPI(MPI_File_read_at_all(fh, 2 * after - 3 * (MPI_Offset)sizeof(double), tail, 8, MPI_DOUBLE, &st));
    int got = -1;
    MPI_Get_count(&st, MPI_DOUBLE, &got);
    CHECK(got == 3, "variant %d: read past the end counted %d doubles", variant, got);
    CHECK(tail[2] == size - 1 + (ROUNDS * BLOCK - 1) / 1000.0, "variant %d: last double %g", variant, tail[2]);
    for (int i = 3; i < 8; ++i) CHECK(tail[i] == -1.0, "variant %d: tail[%d] = %g past the end", variant, i, tail[i]);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Type_free(&tile);
    MPI_Type_free(&vec);
    MPI_Info_free(&info);
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned char *bytes = NULL;
    if (rank == 0) {
        *len = (long)(2 * sizeof mine * size);
        bytes = malloc((size_t)*len + 1);
        CHECK(io_slurp(name, bytes, *len + 1) == *len, "variant %d: file size", variant);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    return bytes;
}

int main(int argc, char **argv) {
    int rank, size;
    char name[256];
    io_test_init(&argc, &argv, "cb", &rank, &size, name, sizeof name);
    long len0 = 0, len = 0;
    unsigned char *reference = write_variant(name, 0, rank, size, &len0);
    if (rank == 0) {
        /* The reference itself, independently of MPI's read path. */
        const double *d = (const double *)reference;
        for (int k = 0; k < ROUNDS; ++k)
            for (int r = 0; r < size; ++r)
                for (int b = 0; b < BLOCK; ++b)
                    CHECK(d[(k * size + r) * BLOCK + b] == r + (k * BLOCK + b) / 1000.0, "file round %d rank %d", k, r);
        d += ROUNDS * BLOCK * size;
        for (int r = 0; r < size; ++r)
            for (int i = 0; i < ROUNDS * BLOCK; ++i)
                CHECK(d[r * ROUNDS * BLOCK + i] == r + i / 1000.0, "file block %d", r);
    }
    for (int variant = 1; variant <= 3; ++variant) {
        unsigned char *other = write_variant(name, variant, rank, size, &len);
        if (rank == 0) {
            CHECK(len == len0 && memcmp(reference, other, (size_t)len) == 0, "hint set %d wrote another file", variant);
            free(other);
        }
    }
    free(reference);
    MPI_Finalize();
    return 0;
}
