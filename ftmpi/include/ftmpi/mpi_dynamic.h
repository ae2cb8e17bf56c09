/* ftmpi/mpi_dynamic.h — part of mpi.h: process creation (MPI-3.1 chapter 10).
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_DYNAMIC_H
#define FTMPI_MPI_DYNAMIC_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_dynamic.h"
#endif

/* New processes are started by the job's launcher (ftmpirun) through the
 * VM; they get world ranks after the job's others (ftmpi/src/spawn). */
FTMPI_API(Comm_spawn,
          (const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm,
           int array_of_errcodes[]))
FTMPI_API(Comm_spawn_multiple,
          (int count, char *array_of_commands[], char **array_of_argv[], const int array_of_maxprocs[],
           const MPI_Info array_of_info[], int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]))
FTMPI_API(Comm_get_parent, (MPI_Comm * parent))
FTMPI_API(Comm_disconnect, (MPI_Comm * comm))

#endif
