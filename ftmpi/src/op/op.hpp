// The object behind an MPI_Op handle: a predefined operation (MPI_SUM is
// &ftmpi_op_sum.object) or a user function from MPI_Op_create.
#pragma once

#include <mpi.h>

#include "../internal/predefined_storage.hpp"

#include <atomic>
#include <cstdint>

namespace ftmpi::op {
enum class Id : std::uint8_t {
    user,
    max,
    min,
    sum,
    prod,
    land,
    band,
    lor,
    bor,
    lxor,
    bxor,
    maxloc,
    minloc,
    replace,
    no_op,
};
}  // namespace ftmpi::op

struct ftmpi_op_s {
    ftmpi::op::Id id = ftmpi::op::Id::user;
    bool predefined = false;
    bool commute = true;
    MPI_User_function *user = nullptr;
    std::atomic<int> refs{1};
    // MPI_Op_create_c: the user function with an MPI_Count length (last: the
    // predefined ops are aggregate-initialised without it).
    MPI_User_function_c *user_c = nullptr;
};
// The fixed-size storage of the predefined ops (internal/predefined_storage.hpp).
FTMPI_PREDEFINED_STORAGE(ftmpi_predefined_op_u, ftmpi_op_s, 128);

namespace ftmpi::op {
// MPI_Op_create (fn) and MPI_Op_create_c (fn_c): a user op, errors raised
// as `function` (mpi_op.cpp).
int create_user(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute, MPI_Op *op, const char *function);
}  // namespace ftmpi::op
