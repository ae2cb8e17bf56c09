/* Says what the launcher gave this rank, one line, for the mpiexec option
 * tests (CMakeLists.txt): its rank and size, which program it is (PROGRAM,
 * set at compile time: two builds of this file make an MPMD job) and its
 * first argument, the comm mode, MPI_COMM_WORLD's error handler and
 * MPI_INFO_ENV's mpi_initial_errhandler, the CPUs it may run on, and $FOO. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef PROGRAM
#define PROGRAM "whoami"
#endif

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    const char *handler = eh == MPI_ERRORS_RETURN ? "return" : eh == MPI_ERRORS_ARE_FATAL ? "fatal" : "other";
    char info_value[128] = "unset";
    int flag = 0;
    MPI_Info_get(MPI_INFO_ENV, "mpi_initial_errhandler", sizeof info_value - 1, info_value, &flag);
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; ++c)
        if (CPU_ISSET(c, &set)) first = c;
    int *universe = NULL, has_universe = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &has_universe);
    const char *mode = getenv("FTMPI_COMM_MODE");
    const char *foo = getenv("FOO");
    /* A barrier first, so every rank is up before anyone prints. */
    MPI_Barrier(MPI_COMM_WORLD);
    printf("whoami rank=%d size=%d program=%s arg=%s comm_mode=%s errhandler=%s info_errhandler=%s cpus=%d "
           "first_cpu=%d universe=%d foo=%s\n",
           rank, size, PROGRAM, argc > 1 ? argv[1] : "-", mode ? mode : "-", handler, flag ? info_value : "unset",
           CPU_COUNT(&set), first, has_universe ? *universe : -1, foo ? foo : "-");
    MPI_Finalize();
    return 0;
}
