// The predefined operations: MPI_SUM is &ftmpi_op_sum.object and so on
// (CONTRACTS.md). Constant-initialized, so they are usable from any static
// initializer.
#include "op.hpp"

#define FTMPI_OP_DEFINE(name)                                                                                          \
    __attribute__((visibility("default")))                                                                             \
    ftmpi_predefined_op_u ftmpi_op_##name{std::in_place, ftmpi::op::Id::name, true, true, nullptr, 1};

extern "C" {

FTMPI_OP_DEFINE(max)
FTMPI_OP_DEFINE(min)
FTMPI_OP_DEFINE(sum)
FTMPI_OP_DEFINE(prod)
FTMPI_OP_DEFINE(land)
FTMPI_OP_DEFINE(band)
FTMPI_OP_DEFINE(lor)
FTMPI_OP_DEFINE(bor)
FTMPI_OP_DEFINE(lxor)
FTMPI_OP_DEFINE(bxor)
FTMPI_OP_DEFINE(maxloc)
FTMPI_OP_DEFINE(minloc)
FTMPI_OP_DEFINE(replace)
FTMPI_OP_DEFINE(no_op)
}
