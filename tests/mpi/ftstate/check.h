/* Helpers of the ftstate tests: the checks of support/check.h, ending only
 * this rank (with failures around, a test must not depend on MPI to report
 * its own), the tests' common opening, an attribute that must be present,
 * and a real death. */
#ifndef FTSTATE_CHECK_H
#define FTSTATE_CHECK_H

#define CHECK_ENDS_RANK_ONLY
#include "support/check.h"

#include <mpi-ext.h>
#include <mpi.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* MPI_Init, check_rank_ set, and errors returned on MPI_COMM_WORLD (a
 * failure is then a return code the test looks at). Returns the world's
 * size, which must be at least min_size. */
static inline int ftstate_init(int *argc, char ***argv, int min_size) {
    int size = 0;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= min_size, "needs at least %d ranks", min_size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    return size;
}

/* An int attribute of comm that must be present. */
static inline int int_attr(MPI_Comm comm, int key) {
    int *value = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(comm, key, &value, &flag));
    CHECK(flag && value != NULL, "attribute %d missing", key);
    return *value;
}

/* Dies now, for real: no handler, no MPI_Finalize, no bye to the peers. */
static inline void die_by_sigkill(void) {
    fflush(stdout);
    fflush(stderr);
    raise(SIGKILL);
    _exit(137);
}

#endif
