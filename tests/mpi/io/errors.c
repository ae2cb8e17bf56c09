/* Error classes for bad arguments and file-system errors (MPI-3.1 §13.7,
 * §13.8): every call returns (files default to MPI_ERRORS_RETURN) with the
 * class the standard names. */
#include "io_test.h"

/* Two blocks of MPI_INT: (displacement, length) in ints, committed. */
static void make_indexed(int d0, int l0, int d1, int l1, MPI_Datatype *type) {
    int disps[2] = {d0, d1}, lens[2] = {l0, l1};
    CHECK_MPI(MPI_Type_indexed(2, lens, disps, MPI_INT, type));
    CHECK_MPI(MPI_Type_commit(type));
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char name[256], missing[300];
    io_scratch_name(MPI_COMM_WORLD, "errors", name, sizeof name);
    snprintf(missing, sizeof missing, "%s.missing", name);
    MPI_File fh;

    /* Access modes. */
    CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh),
                MPI_ERR_AMODE);
    CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
                MPI_ERR_AMODE);
    CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
    CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh),
                MPI_ERR_AMODE);
    CHECK(fh == MPI_FILE_NULL, "a failed open left a handle");
    /* Different amodes at different ranks. */
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1)
        CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | (rank == 0 ? MPI_MODE_RDWR : MPI_MODE_WRONLY),
                                  MPI_INFO_NULL, &fh),
                    MPI_ERR_NOT_SAME);

    /* File-system errors. */
    CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE);
    CHECK_CLASS(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_close(&fh));
    CHECK_CLASS(
        MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
        MPI_ERR_FILE_EXISTS);
    CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, "/", MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_ERR_BAD_FILE);

    /* Bad handles and arguments. */
    int x = 0;
    MPI_Status st;
    CHECK_CLASS(MPI_File_write_at(MPI_FILE_NULL, 0, &x, 1, MPI_INT, &st), MPI_ERR_FILE);
    CHECK_CLASS(MPI_File_close(&fh), MPI_ERR_FILE); /* fh is MPI_FILE_NULL after the failed open */
    CHECK_CLASS(MPI_File_open(MPI_COMM_NULL, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_COMM);

    /* Access-mode violations on an open file. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    CHECK_CLASS(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_READ_ONLY);
    CHECK_CLASS(MPI_File_write_at_all(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_READ_ONLY);
    CHECK_CLASS(MPI_File_set_size(fh, 0), MPI_ERR_READ_ONLY);
    CHECK_CLASS(MPI_File_read_at(fh, 0, &x, -1, MPI_INT, &st), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_File_read_at(fh, 0, &x, 1, MPI_DATATYPE_NULL, &st), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG);
    CHECK_CLASS(MPI_File_seek(fh, 0, 12345), MPI_ERR_ARG);
    CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-representation", MPI_INFO_NULL),
                MPI_ERR_UNSUPPORTED_DATAREP);
    /* A filetype that is not a whole number of etypes. */
    CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_INT, "native", MPI_INFO_NULL), MPI_ERR_TYPE);
    /* Filetypes (and etypes) whose displacements go below zero or backwards:
     * MPI_ERR_IO (the standard forbids them and names no class; ROMIO's).
     * One that overlaps itself is for files opened read-only only. */
    MPI_Datatype negative, backward, overlapping;
    make_indexed(-2, 1, 2, 1, &negative);
    make_indexed(3, 1, 0, 1, &backward);
    make_indexed(0, 3, 1, 1, &overlapping);
    CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_INT, negative, "native", MPI_INFO_NULL), MPI_ERR_IO);
    CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_INT, backward, "native", MPI_INFO_NULL), MPI_ERR_IO);
    CHECK_CLASS(MPI_File_set_view(fh, 0, backward, backward, "native", MPI_INFO_NULL), MPI_ERR_IO);
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, overlapping, "native", MPI_INFO_NULL));
    CHECK_MPI(MPI_File_set_view(fh, 0, overlapping, overlapping, "native", MPI_INFO_NULL));
    /* Only whole etypes are accessed. */
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    char c;
    CHECK_CLASS(MPI_File_read_at(fh, 0, &c, 1, MPI_CHAR, &st), MPI_ERR_TYPE);
    /* A collective with a bad argument at one rank fails at every rank. */
    int rc = MPI_File_read_at_all(fh, rank == 0 ? -5 : 0, &x, 1, MPI_INT, &st);
    CHECK(rc != MPI_SUCCESS, "read_at_all succeeded although rank 0 gave a negative offset");
    CHECK_CLASS(MPI_File_iread_at(fh, -1, &x, 1, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_File_close(&fh));

    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_INT, overlapping, "native", MPI_INFO_NULL), MPI_ERR_IO);
    CHECK_CLASS(MPI_File_set_view(fh, 0, overlapping, overlapping, "native", MPI_INFO_NULL), MPI_ERR_IO);
    CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_INT, negative, "native", MPI_INFO_NULL), MPI_ERR_IO);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Type_free(&negative);
    MPI_Type_free(&backward);
    MPI_Type_free(&overlapping);

    CHECK_CLASS(MPI_Register_datarep("mine", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                     (MPI_Datarep_extent_function *)1, NULL),
                MPI_ERR_UNSUPPORTED_DATAREP);

    /* SEQUENTIAL files have only the shared file pointer. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
    CHECK_CLASS(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st), MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK_CLASS(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK_MPI(MPI_File_write_shared(fh, &x, 1, MPI_INT, &st));
    CHECK_MPI(MPI_File_close(&fh));

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_MPI(MPI_File_delete(name, MPI_INFO_NULL));
    MPI_Finalize();
    return 0;
}
