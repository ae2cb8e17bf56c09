/* What the two files of the MPI_T test share (mpit_calls.c, mpit_pvars.c). */
#ifndef MPIT_CHECKS_H
#define MPIT_CHECKS_H

#define CHECK_ENDS_RANK_ONLY /* also before MPI_Init and after MPI_Finalize */
#include "support/check.h"

/* MPI_T calls return their codes as they are (no error handler). */
#define CHECK_T(call, expected)                                                                                        \
    do {                                                                                                               \
        int check_t_rc_ = (call);                                                                                      \
        CHECK(check_t_rc_ == (expected), "%s returned %d, expected %s (%d)", #call, check_t_rc_, #expected,            \
              (expected));                                                                                             \
    } while (0)
#define CHECK_T_OK(call) CHECK_T(call, MPI_SUCCESS)

/* mpit_pvars.c: every performance-variable call and its wrong uses. */
void check_pvar_calls(void);
/* mpit_pvars.c: the queue lengths follow real messages (2 ranks or more). */
void check_queue_pvars(int rank, int size);

#endif
