/* File views (MPI-3.1 §13.3): a vector filetype that interleaves the ranks'
 * blocks, a subarray filetype for a 2-D block decomposition, and the
 * external32 representation; every file is checked byte for byte with plain
 * POSIX reads. */
#include "io_test.h"

#include <stdint.h>

#define BLOCK  3 /* ints per rank per round */
#define ROUNDS 50
#define G      24 /* global G x G array of ints */

static int is_big_endian_int(const unsigned char *p, int v) {
    return p[0] == (unsigned char)((uint32_t)v >> 24) && p[1] == (unsigned char)((uint32_t)v >> 16) &&
        p[2] == (unsigned char)((uint32_t)v >> 8) && p[3] == (unsigned char)v;
}

int main(int argc, char **argv) {
    int rank, size;
    char name[256];
    io_test_init(&argc, &argv, "views", &rank, &size, name, sizeof name);
    MPI_File fh;
    MPI_Status st;
    int count;

    /* 1. Vector filetype: round k holds every rank's BLOCK ints in rank order. */
    MPI_Datatype strided, tile;
    MPI_Type_vector(1, BLOCK, BLOCK * size, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, (MPI_Aint)(BLOCK * size * sizeof(int)), &tile);
    MPI_Type_commit(&tile);
    MPI_Type_free(&strided);
    int mine[BLOCK * ROUNDS], back[BLOCK * ROUNDS];
    for (int i = 0; i < BLOCK * ROUNDS; ++i) mine[i] = rank * 100000 + i;
    const MPI_Offset header = 16;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_MPI(
        MPI_File_set_view(fh, header + (MPI_Offset)rank * BLOCK * sizeof(int), MPI_INT, tile, "native", MPI_INFO_NULL));
    MPI_Type_free(&tile); /* the view keeps its own reference */
    /* First half independently, second half collectively. */
    const int half = BLOCK * ROUNDS / 2;
    CHECK_MPI(MPI_File_write(fh, mine, half, MPI_INT, &st));
    CHECK_MPI(MPI_File_write_all(fh, mine + half, BLOCK * ROUNDS - half, MPI_INT, &st));
    MPI_Offset pos, byte;
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == BLOCK * ROUNDS, "position %lld etypes", (long long)pos);
    CHECK_MPI(MPI_File_get_byte_offset(fh, BLOCK + 1, &byte));
    CHECK(byte == header + (MPI_Offset)(rank * BLOCK + BLOCK * size + 1) * (MPI_Offset)sizeof(int), "byte offset %lld",
          (long long)byte);
    MPI_Offset disp;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(disp == header + (MPI_Offset)rank * BLOCK * (MPI_Offset)sizeof(int) && et == MPI_INT &&
              strcmp(rep, "native") == 0,
          "get_view");
    MPI_Aint lb, extent;
    MPI_Type_get_extent(ft, &lb, &extent);
    CHECK(extent == (MPI_Aint)(BLOCK * size * sizeof(int)), "filetype extent %ld", (long)extent);
    MPI_Type_free(&ft);
    CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_all(fh, back, BLOCK * ROUNDS, MPI_INT, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == BLOCK * ROUNDS, "read_all count %d", count);
    for (int i = 0; i < BLOCK * ROUNDS; ++i) CHECK(back[i] == mine[i], "vector view [%d] = %d", i, back[i]);
    CHECK_MPI(MPI_File_close(&fh));
    if (rank == 0) {
        int *all = malloc(sizeof(int) * BLOCK * ROUNDS * size + header);
        long n = io_slurp(name, (unsigned char *)all, (long)(sizeof(int) * BLOCK * ROUNDS * size + header));
        CHECK(n == (long)(header + sizeof(int) * BLOCK * ROUNDS * size), "file has %ld bytes", n);
        const int *data = (const int *)((const char *)all + header);
        for (int k = 0; k < ROUNDS; ++k)
            for (int r = 0; r < size; ++r)
                for (int b = 0; b < BLOCK; ++b)
                    CHECK(data[(k * size + r) * BLOCK + b] == r * 100000 + k * BLOCK + b, "file round %d rank %d", k,
                          r);
        free(all);
        MPI_File_delete(name, MPI_INFO_NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. Subarray filetype: a G x G array split into a px x py grid of blocks. */
    int dims[2] = {0, 0};
    MPI_Dims_create(size, 2, dims);
    const int px = rank / dims[1], py = rank % dims[1];
    const int rows = G / dims[0], cols = G / dims[1];
    int sizes[2] = {G, G}, sub[2] = {rows, cols}, starts[2] = {px * rows, py * cols};
    MPI_Datatype block;
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &block);
    MPI_Type_commit(&block);
    int *local = malloc(sizeof(int) * rows * cols), *again = malloc(sizeof(int) * rows * cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) local[i * cols + j] = (starts[0] + i) * G + (starts[1] + j);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, block, "native", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_write_all(fh, local, rows * cols, MPI_INT, &st));
    CHECK_MPI(MPI_File_read_at_all(fh, 0, again, rows * cols, MPI_INT, &st));
    for (int i = 0; i < rows * cols; ++i) CHECK(again[i] == local[i], "subarray read back [%d]", i);
    CHECK_MPI(MPI_File_close(&fh));
    if (rank == 0) {
        int all[G * G];
        long n = io_slurp(name, (unsigned char *)all, (long)sizeof all);
        const int covered_rows = rows * dims[0], covered_cols = cols * dims[1];
        CHECK(n >= (long)sizeof(int) * ((covered_rows - 1) * G + covered_cols), "subarray file has %ld bytes", n);
        for (int i = 0; i < covered_rows; ++i)
            for (int j = 0; j < covered_cols; ++j) CHECK(all[i * G + j] == i * G + j, "subarray file (%d,%d)", i, j);
        MPI_File_delete(name, MPI_INFO_NULL);
    }
    MPI_Type_free(&block);
    free(local);
    free(again);
    MPI_Barrier(MPI_COMM_WORLD);

    /* 3. external32: big-endian in the file, native again when read back;
     * a derived memory type (ints with gaps) packs through the conversion. */
    int values[8], gapped[16], read8[8];
    for (int i = 0; i < 8; ++i) {
        values[i] = (rank + 1) * 0x01020304 + i;
        gapped[2 * i] = values[i];
        gapped[2 * i + 1] = -1;
    }
    MPI_Datatype every_other;
    MPI_Type_vector(8, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    CHECK(strcmp(rep, "external32") == 0, "datarep %s", rep);
    CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * 8, gapped, 1, every_other, &st));
    double d = 1.0 + rank, dback = 0;
    MPI_Aint dext;
    CHECK_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &dext));
    CHECK(dext == 8, "external32 extent of MPI_DOUBLE %ld", (long)dext);
    CHECK_MPI(MPI_File_read_at_all(fh, (MPI_Offset)rank * 8, read8, 8, MPI_INT, &st));
    for (int i = 0; i < 8; ++i) CHECK(read8[i] == values[i], "external32 round trip [%d]", i);
    CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)size * 32, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_write_at(fh, rank, &d, 1, MPI_DOUBLE, &st));
    CHECK_MPI(MPI_File_read_at(fh, rank, &dback, 1, MPI_DOUBLE, &st));
    CHECK(dback == d, "external32 double round trip %g", dback);
    /* long double is IEEE binary128 in the file (16 bytes, as the standard's
     * table says), whatever the native format; a long is 4 bytes there. */
    MPI_Aint lext = 0;
    CHECK_MPI(MPI_File_get_type_extent(fh, MPI_LONG, &lext));
    CHECK(lext == 4, "external32 extent of MPI_LONG %ld", (long)lext);
    CHECK_MPI(
        MPI_File_set_view(fh, (MPI_Offset)size * 40, MPI_LONG_DOUBLE, MPI_LONG_DOUBLE, "external32", MPI_INFO_NULL));
    long double ld = 1.5L + rank, ldback = 0;
    CHECK_MPI(MPI_File_write_at(fh, rank, &ld, 1, MPI_LONG_DOUBLE, &st));
    CHECK_MPI(MPI_File_read_at(fh, rank, &ldback, 1, MPI_LONG_DOUBLE, &st));
    CHECK(ldback == ld, "external32 long double round trip %Lg", ldback);
    /* Views of types whose external32 size is not native (long) would need
     * rescaled displacements: refused, not written wrong. */
    CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL), MPI_ERR_CONVERSION);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        unsigned char raw[4096];
        long n = io_slurp(name, raw, sizeof raw);
        CHECK(n == (long)size * 56, "external32 file has %ld bytes", n);
        /* 1.5 as big-endian binary128: 3f ff 80 00 … */
        CHECK(raw[size * 40] == 0x3f && raw[size * 40 + 1] == 0xff && raw[size * 40 + 2] == 0x80 &&
                  raw[size * 40 + 15] == 0,
              "long double not binary128");
        for (int r = 0; r < size; ++r)
            for (int i = 0; i < 8; ++i)
                CHECK(is_big_endian_int(raw + (r * 8 + i) * 4, (r + 1) * 0x01020304 + i),
                      "rank %d int %d not big-endian", r, i);
        /* 1.0 as a big-endian IEEE double is 3f f0 00 … */
        CHECK(raw[size * 32] == 0x3f && raw[size * 32 + 1] == 0xf0, "double not big-endian");
    }
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Type_free(&every_other);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
    MPI_Finalize();
    return 0;
}
