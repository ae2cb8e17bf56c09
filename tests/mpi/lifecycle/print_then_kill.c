/* What a rank prints just before it is killed reaches ftmpirun: every rank
 * prints "before-kill <rank>" with printf (no fflush) and then SIGKILLs
 * itself. With a pipe as stdout and the C library's default buffering the
 * line would die with the process; libftmpi makes stdout line-buffered. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("before-kill %d\n", rank);
    raise(SIGKILL);
    return 1;
}
