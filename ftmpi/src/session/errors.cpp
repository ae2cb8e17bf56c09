// The live-session registry and the sessions' error handlers:
// session::raise and MPI_Session_create/set/get/call_errhandler.
#include "../internal/errors.hpp"
#include "../comm/objects.hpp"
#include "../internal/pmpi.hpp"
#include "../internal/runtime.hpp"
#include "session/session.hpp"

#include <mutex>
#include <string>
#include <unordered_set>

namespace ftmpi::session {
namespace {

std::mutex registry_mutex;
std::unordered_set<MPI_Session> live;

// The live session's handler with a reference the caller releases, or
// nullptr when `session` is not live. Read under the registry's lock so
// MPI_Session_set_errhandler or MPI_Session_finalize on another thread
// cannot free it in between.
MPI_Errhandler retained_errhandler(MPI_Session session) {
    std::lock_guard lk(registry_mutex);
    if (session == MPI_SESSION_NULL || live.count(session) == 0) return nullptr;
    comm::retain(session->errhandler);
    return session->errhandler;
}

// Runs `eh` for `code` raised on `session` (the comm part's handler when
// there is none).
int call_handler(MPI_Errhandler eh, MPI_Session session, int code, const char *function) {
    if (eh == MPI_ERRHANDLER_NULL) return runtime::initialized() ? comm::raise(MPI_COMM_NULL, code, function) : code;
    if (eh->kind == ftmpi_errhandler_s::Kind::fatal) comm::abort_fatal(code, function, "a session");
    if (eh->kind == ftmpi_errhandler_s::Kind::user && eh->function != nullptr) {
        // Kept in the comm part's struct; it was an
        // MPI_Session_errhandler_function when it was created.
        auto *fn = reinterpret_cast<MPI_Session_errhandler_function *>(eh->function);
        MPI_Session handle = session;
        fn(&handle, &code, function);  // the call returns what the handler left (comm/errhandler.cpp)
    }
    return code;
}

}  // namespace

bool valid(MPI_Session session) {
    std::lock_guard lk(registry_mutex);
    return session != MPI_SESSION_NULL && live.count(session) != 0;
}

void register_session(MPI_Session session) {
    std::lock_guard lk(registry_mutex);
    live.insert(session);
}

void unregister_session(MPI_Session session) {
    std::lock_guard lk(registry_mutex);
    live.erase(session);
}

int raise(MPI_Session session, int code, const char *function, MPI_Errhandler fallback) {
    if (code == MPI_SUCCESS) return code;
    MPI_Errhandler held = retained_errhandler(session);
    const int result = call_handler(held != nullptr ? held : fallback, session, code, function);
    comm::release(held);
    return result;
}

}  // namespace ftmpi::session

using namespace ftmpi;

extern "C" int MPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                             MPI_Errhandler *errhandler) noexcept {
    constexpr const char *fn = "MPI_Session_create_errhandler";
    if (session_errhandler_fn == nullptr || errhandler == nullptr)
        return session::raise(MPI_SESSION_NULL, MPI_ERR_ARG, fn);
    MPI_Errhandler eh =
        comm::make_user_errhandler(reinterpret_cast<MPI_Comm_errhandler_function *>(session_errhandler_fn));
    if (eh == nullptr) return session::raise(MPI_SESSION_NULL, MPI_ERR_NO_MEM, fn);
    *errhandler = eh;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Session_create_errhandler)

extern "C" int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler) noexcept {
    constexpr const char *fn = "MPI_Session_set_errhandler";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    if (!comm::valid(errhandler)) return session::raise(session, MPI_ERR_ARG, fn);
    comm::retain(errhandler);
    MPI_Errhandler old;
    {
        std::lock_guard lk(session::registry_mutex);
        old = session->errhandler;
        session->errhandler = errhandler;
    }
    comm::release(old);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Session_set_errhandler)

// A new reference, as MPI_Comm_get_errhandler gives (MPI_Errhandler_free it).
extern "C" int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler) noexcept {
    constexpr const char *fn = "MPI_Session_get_errhandler";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    if (errhandler == nullptr) return session::raise(session, MPI_ERR_ARG, fn);
    MPI_Errhandler held = session::retained_errhandler(session);
    if (held == nullptr) return session::raise(session, MPI_ERR_SESSION, fn);
    *errhandler = held;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Session_get_errhandler)

extern "C" int MPI_Session_call_errhandler(MPI_Session session, int errorcode) noexcept {
    constexpr const char *fn = "MPI_Session_call_errhandler";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    session::raise(session, errorcode, fn);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Session_call_errhandler)
