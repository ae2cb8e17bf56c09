/* What the one-sided tests share: support/check.h, and the window handler
 * set to return errors (the default for windows is MPI_ERRORS_ARE_FATAL). */
#ifndef RMA_TEST_H
#define RMA_TEST_H

#include "support/check.h"

#include <mpi-ext.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static inline void rma_errors_return(MPI_Win win) {
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
}

#endif
