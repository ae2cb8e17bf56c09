// C++: mpi.h then mpi-ext.h (the order Open MPI's ULFM programs use).
#include <mpi-ext.h>
#include <mpi.h>

#include <cstdio>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int revoked = -1;
    if (MPIX_Comm_is_revoked(MPI_COMM_WORLD, &revoked) != MPI_SUCCESS || revoked != 0) {
        std::fprintf(stderr, "MPIX_Comm_is_revoked from C++\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    return 0;
}
