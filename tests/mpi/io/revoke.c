/* MPIX_File_revoke (the fault-tolerance chapter's MPI_FILE_REVOKE): after a
 * revoke, collective and independent operations on the file return
 * MPIX_ERR_REVOKED at every rank — also at ranks already waiting in a
 * collective for the revoker, which never joins it — close frees the handle
 * locally, and the communicator the file was opened on is untouched. */
#include "io_test.h"

#include <mpi-ext.h>

int main(int argc, char **argv) {
    int rank, size;
    char name[256];
    io_test_init(&argc, &argv, "revoke", &rank, &size, name, sizeof name);
    MPI_File fh;
    MPI_Status st;
    int data[16];
    for (int i = 0; i < 16; ++i) data[i] = rank;

    /* 1. Revoke, then everybody calls the same collective. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_write_at_all(fh, rank * (MPI_Offset)sizeof data, data, 16, MPI_INT, &st));
    /* Everybody is out of the first write before the revoke: a revoke
     * interrupts an operation still in progress anywhere (with
     * MPIX_ERR_REVOKED there), as on a communicator. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) CHECK_MPI(MPI_File_revoke(fh));
    CHECK_CLASS(MPI_File_write_at_all(fh, rank * (MPI_Offset)sizeof data, data, 16, MPI_INT, &st), MPIX_ERR_REVOKED);
    CHECK_CLASS(MPI_File_write_at(fh, 0, data, 1, MPI_INT, &st), MPIX_ERR_REVOKED);
    CHECK_CLASS(MPI_File_read_all(fh, data, 1, MPI_INT, &st), MPIX_ERR_REVOKED);
    CHECK_CLASS(MPI_File_sync(fh), MPIX_ERR_REVOKED);
    MPI_Request req;
    CHECK_CLASS(MPI_File_iwrite_at(fh, 0, data, 1, MPI_INT, &req), MPIX_ERR_REVOKED);
    MPI_Offset fsize;
    CHECK_MPI(MPI_File_get_size(fh, &fsize)); /* local queries still answer */
    CHECK(fsize == size * (MPI_Offset)sizeof data, "size %lld", (long long)fsize);
    CHECK_CLASS(MPI_File_close(&fh), MPIX_ERR_REVOKED);
    CHECK(fh == MPI_FILE_NULL, "close of a revoked file kept the handle");
    /* The file's revoke does not touch the user's communicator. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. The others are inside write_all when rank 0 revokes instead of
     * joining: their call ends with MPIX_ERR_REVOKED, nobody hangs. */
    if (size > 1) {
        CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        if (rank == 0) {
            int x;
            /* Wait until every other rank is about to enter write_all. */
            for (int r = 1; r < size; ++r) MPI_Recv(&x, 1, MPI_INT, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK_MPI(MPIX_File_revoke(fh));
        } else {
            int x = 0;
            MPI_Send(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
            CHECK_CLASS(MPI_File_write_all(fh, data, 16, MPI_INT, &st), MPIX_ERR_REVOKED);
        }
        CHECK_CLASS(MPI_File_close(&fh), MPIX_ERR_REVOKED);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
    MPI_Finalize();
    return 0;
}
