// Error handlers on communicators and ftmpi::comm::raise, the
// one place where an internal error code meets the user's chosen handler.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "../internal/runtime.hpp"
#include "objects.hpp"
#include "runtime/log.hpp"

#include <cstdio>

namespace ftmpi::comm {

void abort_fatal(int code, const char *function, const char *subject) {
    std::string text = error_string_of(code);
    if (text.empty()) text = "error code " + std::to_string(code);
    log::error("%s on %s: %s (MPI_ERRORS_ARE_FATAL: aborting the job)", function != nullptr ? function : "MPI call",
               subject, text.c_str());
    runtime::abort_job(code);
}

namespace {
[[noreturn]] void die(MPI_Comm comm, int code, const char *function) {
    abort_fatal(code, function, comm != nullptr && !comm->name.empty() ? comm->name.c_str() : "a communicator");
}

// The call returns the code as the program's handler left it (a handler
// may change it, even to MPI_SUCCESS), as MPICH and Open MPI do.
int invoke(MPI_Comm comm, MPI_Errhandler eh, int code, const char *function) {
    if (eh == nullptr || eh->kind == ftmpi_errhandler_s::Kind::fatal) die(comm, code, function);
    if (eh->kind == ftmpi_errhandler_s::Kind::user && eh->function != nullptr) {
        MPI_Comm handle = comm;
        eh->function(&handle, &code, function);
    }
    return code;
}
}  // namespace

int raise(MPI_Comm comm, int code, const char *function) {
    if (code == MPI_SUCCESS) return code;
    MPI_Comm target = valid(comm) ? comm : MPI_COMM_WORLD;
    ftmpi::ft::abort_if_required(target, code, function);  // ABORT comm mode cannot be trapped
    MPI_Errhandler eh = target->errhandler;
    // A fatal end names what happened; the program and its own handler get
    // the code of the comm's fault-tolerance interface (MPI_ERR_OTHER for a
    // failure in FT-MPI's modes).
    if (eh == nullptr || eh->kind == ftmpi_errhandler_s::Kind::fatal) die(target, code, function);
    return invoke(target, eh, ftmpi::ft::reported_code(target, code, function), function);
}

int raise_through(MPI_Errhandler handler, int code, const char *function) {
    if (code == MPI_SUCCESS) return code;
    if (!valid(handler)) return raise(MPI_COMM_NULL, code, function);
    return invoke(MPI_COMM_NULL, handler, code, function);
}

}  // namespace ftmpi::comm

using namespace ftmpi::comm;

namespace ftmpi::comm {

MPI_Errhandler make_user_errhandler(MPI_Comm_errhandler_function *function) {
    auto *eh = new (std::nothrow) ftmpi_errhandler_s;
    if (eh == nullptr) return nullptr;
    eh->kind = ftmpi_errhandler_s::Kind::user;
    eh->function = function;
    register_object(eh);
    return eh;
}

}  // namespace ftmpi::comm

extern "C" int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler) noexcept {
    if (function == nullptr || errhandler == nullptr)
        return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler");
    MPI_Errhandler eh = make_user_errhandler(function);
    if (eh == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, "MPI_Comm_create_errhandler");
    *errhandler = eh;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_create_errhandler)

extern "C" int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_set_errhandler");
    if (!valid(errhandler)) return raise(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler");
    retain(errhandler);
    MPI_Errhandler old = comm->errhandler;
    comm->errhandler = errhandler;
    release(old);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_set_errhandler)

extern "C" int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_get_errhandler");
    if (errhandler == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Comm_get_errhandler");
    // The caller gets a new reference and frees it with MPI_Errhandler_free.
    retain(comm->errhandler);
    *errhandler = comm->errhandler;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_get_errhandler)

extern "C" int MPI_Errhandler_free(MPI_Errhandler *errhandler) noexcept {
    if (errhandler == nullptr || !valid(*errhandler)) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Errhandler_free");
    release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Errhandler_free)

extern "C" int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Comm_call_errhandler");
    invoke(comm, comm->errhandler, errorcode, "MPI_Comm_call_errhandler");
    return MPI_SUCCESS;
}
FTMPI_PMPI(Comm_call_errhandler)
