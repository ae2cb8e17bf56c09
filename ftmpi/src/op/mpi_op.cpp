// MPI_Op_create, MPI_Op_free, MPI_Op_commutative, MPI_Reduce_local.
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/op.hpp"
#include "internal/pmpi.hpp"
#include "op.hpp"

#include <new>

namespace ftmpi::op {

int create_user(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute, MPI_Op *op, const char *function) {
    if ((!fn && !fn_c) || !op) return comm::raise_unattached(MPI_ERR_ARG, function);
    auto *o = new (std::nothrow) ftmpi_op_s;
    if (!o) return comm::raise_unattached(MPI_ERR_NO_MEM, function);
    o->user = fn;
    o->user_c = fn_c;
    o->commute = commute != 0;
    *op = o;
    return MPI_SUCCESS;
}

}  // namespace ftmpi::op

extern "C" int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op) noexcept {
    return ftmpi::op::create_user(user_fn, nullptr, commute, op, "MPI_Op_create");
}
FTMPI_PMPI(Op_create)

// Drops the user's reference; a pending collective using the op holds its own.
extern "C" int MPI_Op_free(MPI_Op *op) noexcept {
    if (!op || !*op || (*op)->predefined) return ftmpi::comm::raise_unattached(MPI_ERR_OP, "MPI_Op_free");
    ftmpi::op::release(*op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Op_free)

extern "C" int MPI_Op_commutative(MPI_Op op, int *commute) noexcept {
    if (!op) return ftmpi::comm::raise_unattached(MPI_ERR_OP, "MPI_Op_commutative");
    if (!commute) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Op_commutative");
    *commute = ftmpi::op::commutative(op) ? 1 : 0;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Op_commutative)

extern "C" int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                                MPI_Op op) noexcept {
    constexpr const char *fn = "MPI_Reduce_local";
    if (!op) return ftmpi::comm::raise_unattached(MPI_ERR_OP, fn);
    if (!ftmpi::dt::valid(datatype)) return ftmpi::comm::raise_unattached(MPI_ERR_TYPE, fn);
    if (count < 0) return ftmpi::comm::raise_unattached(MPI_ERR_COUNT, fn);
    if (count > 0 && (!inbuf || !inoutbuf)) return ftmpi::comm::raise_unattached(MPI_ERR_BUFFER, fn);
    // Neither buffer may be MPI_IN_PLACE (there is no other one to stand
    // for), nor may they be the same memory (MPI-3.1 §5.9.7).
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE || (count > 0 && inbuf == inoutbuf))
        return ftmpi::comm::raise_unattached(MPI_ERR_BUFFER, fn);
    return ftmpi::comm::raise_unattached(ftmpi::op::apply(op, inbuf, inoutbuf, count, datatype), fn);
}
FTMPI_PMPI(Reduce_local)
