/* Helpers of the ftstate tests: the checks of support/check.h, ending only
 * this rank (with failures around, a test must not depend on MPI to report
 * its own), an attribute that must be present, and a real death. */
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
