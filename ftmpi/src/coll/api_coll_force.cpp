// FTMPI_Coll_force (mpi-ext.h): forcing an algorithm at run time, for tests
// that run every algorithm in one job and for ftmpi_tune. It has no
// communicator, so an error is returned (and said on stderr), not raised.
#include "mpi-ext.h"
#include "runtime/log.hpp"
#include "select.hpp"

#include <cstdio>

extern "C" int FTMPI_Coll_force(const char *collective, const char *algorithm) {
    try {
        const std::string error = ftmpi::coll::force(collective, algorithm);
        if (error.empty()) return MPI_SUCCESS;
        ftmpi::log::warn("FTMPI_Coll_force(%s, %s): %s", collective ? collective : "NULL",
                         algorithm ? algorithm : "NULL", error.c_str());
        return MPI_ERR_ARG;
    } catch (...) {
        return MPI_ERR_INTERN;
    }
}
extern "C" __typeof__(FTMPI_Coll_force) PFTMPI_Coll_force __attribute__((weak, alias("FTMPI_Coll_force")));
