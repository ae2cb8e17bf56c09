/* The shared file pointer (MPI-3.1 §13.4.4): write_shared from every rank
 * gives whole, non-overlapping records; write_ordered puts them in rank
 * order after what is there; read_ordered and read_shared read them back;
 * seek_shared and get_position_shared agree everywhere. */
#include "io_test.h"

#define REC 64 /* ints in a record */
#define PER 20 /* records each rank writes with write_shared */

int main(int argc, char **argv) {
    int rank, size;
    char name[256];
    io_test_init(&argc, &argv, "shared", &rank, &size, name, sizeof name);
    MPI_File fh;
    MPI_Status st;
    int rec[REC], back[REC];
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));

    /* Records tagged (rank, sequence) in every int. */
    for (int k = 0; k < PER; ++k) {
        for (int i = 0; i < REC; ++i) rec[i] = rank * 1000 + k;
        CHECK_MPI(MPI_File_write_shared(fh, rec, REC, MPI_INT, &st));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset pos;
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)size * PER * REC, "shared position %lld after write_shared", (long long)pos);

    /* Ordered: rank order, after the shared records. */
    for (int i = 0; i < REC; ++i) rec[i] = -(rank + 1);
    CHECK_MPI(MPI_File_write_ordered(fh, rec, REC, MPI_INT, &st));
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)size * (PER + 1) * REC, "shared position %lld after write_ordered", (long long)pos);

    if (rank == 0) {
        const long total = (long)size * (PER + 1) * REC;
        int *all = malloc(sizeof(int) * (size_t)total);
        CHECK(io_slurp(name, (unsigned char *)all, total * (long)sizeof(int)) == total * (long)sizeof(int),
              "file size");
        int *seen = calloc((size_t)size * PER, sizeof(int));
        for (long r = 0; r < (long)size * PER; ++r) {
            const int tag = all[r * REC];
            for (int i = 1; i < REC; ++i) CHECK(all[r * REC + i] == tag, "record %ld torn", r);
            const int who = tag / 1000, k = tag % 1000;
            CHECK(who >= 0 && who < size && k < PER, "record %ld has tag %d", r, tag);
            ++seen[who * PER + k];
        }
        for (int i = 0; i < size * PER; ++i) CHECK(seen[i] == 1, "record %d written %d times", i, seen[i]);
        /* A rank's own records keep their order. */
        for (int who = 0; who < size; ++who) {
            int last = -1;
            for (long r = 0; r < (long)size * PER; ++r)
                if (all[r * REC] / 1000 == who) {
                    CHECK(all[r * REC] % 1000 > last, "rank %d's records out of order", who);
                    last = all[r * REC] % 1000;
                }
        }
        for (int r = 0; r < size; ++r)
            for (int i = 0; i < REC; ++i)
                CHECK(all[((long)size * PER + r) * REC + i] == -(r + 1), "ordered record of rank %d", r);
        free(seen);
        free(all);
    }

    /* Read back in rank order from the ordered part. */
    CHECK_MPI(MPI_File_seek_shared(fh, (MPI_Offset)size * PER * REC, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_ordered(fh, back, REC, MPI_INT, &st));
    for (int i = 0; i < REC; ++i) CHECK(back[i] == -(rank + 1), "read_ordered [%d] = %d", i, back[i]);
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)size * (PER + 1) * REC, "after read_ordered %lld", (long long)pos);
    /* SEEK_END, then SEEK_CUR back one record per rank. */
    CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_END));
    CHECK_MPI(MPI_File_seek_shared(fh, -(MPI_Offset)size * REC, MPI_SEEK_CUR));
    CHECK_MPI(MPI_File_read_shared(fh, back, REC, MPI_INT, &st));
    CHECK(back[0] < 0 && back[0] >= -size, "read_shared got %d", back[0]);
    /* Split ordered forms. */
    CHECK_MPI(MPI_File_seek_shared(fh, (MPI_Offset)size * PER * REC, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_ordered_begin(fh, back, REC, MPI_INT));
    CHECK_MPI(MPI_File_read_ordered_end(fh, back, &st));
    CHECK(back[0] == -(rank + 1), "split read_ordered");
    /* set_view resets the shared pointer. */
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 0, "set_view left the shared pointer at %lld", (long long)pos);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
    MPI_Finalize();
    return 0;
}
