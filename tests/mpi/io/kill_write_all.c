/* A rank killed (SIGKILL) while the others are in MPI_File_write_all, ULFM
 * mode: every survivor's write_all returns MPIX_ERR_PROC_FAILED — the same
 * class everywhere, checked over the shrunken communicator — and the next
 * collective on the file fails the same way; nobody hangs. The victim is
 * FT_KILL_RANK; FT_IO_HINT=key=value adds a file hint (cb_nodes=2 makes
 * rank 2 an aggregator, romio_cb_write=disable writes independently). */
#include "inject.h"

#define COUNT 8192

int main(int argc, char **argv) {
    int rank, size;
    MPI_Comm comm = ft_init_work(&argc, &argv, &rank, &size);
    const int victim = ft_kill_rank();
    CHECK(victim >= 0 && victim < size, "FT_KILL_RANK=%d with %d ranks", victim, size);

    char name[256];
    if (rank == 0) snprintf(name, sizeof name, "/tmp/ftmpi-io-kill-%ld", (long)getpid());
    CHECK_MPI(MPI_Bcast(name, sizeof name, MPI_CHAR, 0, comm));
    MPI_Info info;
    MPI_Info_create(&info);
    /* Through the aggregators unless FT_IO_HINT says otherwise (the default,
     * automatic, would let each rank write its own block here). */
    MPI_Info_set(info, "romio_cb_write", "enable");
    const char *hint = getenv("FT_IO_HINT");
    if (hint && strchr(hint, '=')) {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(strchr(hint, '=') - hint), hint);
        MPI_Info_set(info, key, strchr(hint, '=') + 1);
    }
    MPI_File fh;
    CHECK_MPI(MPI_File_open(comm, name, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    MPI_Info_free(&info);
    static double data[COUNT];
    for (int i = 0; i < COUNT; ++i) data[i] = rank * COUNT + i;
    MPI_Status st;
    CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * sizeof data, data, COUNT, MPI_DOUBLE, &st));

    /* Everybody is past the first write; the victim dies instead of joining
     * the second, while the others are in it. */
    ft_sync_before_kill(comm, victim);
    if (rank == victim) {
        printf("rank %d: dying before write_all\n", rank);
        ft_die();
    }
    const int rc = MPI_File_write_at_all(fh, (MPI_Offset)rank * sizeof data, data, COUNT, MPI_DOUBLE, &st);
    CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED, "write_all gave %s", error_class_name(rc));
    printf("rank %d: write_all returned %s\n", rank, error_class_name(rc));
    /* The file stays broken for collectives: the next one fails too. */
    CHECK_CLASS(MPI_File_read_at_all(fh, 0, data, 1, MPI_DOUBLE, &st), MPIX_ERR_PROC_FAILED);
    int crc = MPI_File_close(&fh);
    CHECK(ft_ok_or_failed(crc) && fh == MPI_FILE_NULL, "close gave %s", error_class_name(crc));

    /* Every survivor saw the same class. */
    MPI_Comm alive;
    MPIX_Comm_revoke(comm);
    CHECK_MPI(MPIX_Comm_shrink(comm, &alive));
    int mine = error_class(rc), lo, hi;
    CHECK_MPI(MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, alive));
    CHECK_MPI(MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, alive));
    CHECK(lo == hi, "survivors disagree on write_all's outcome (%d vs %d)", lo, hi);
    int alive_rank;
    MPI_Comm_rank(alive, &alive_rank);
    if (alive_rank == 0) unlink(name);
    MPI_Comm_free(&alive);
    MPI_Finalize();
    return 0;
}
