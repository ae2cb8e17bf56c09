// MPI_Session_init/finalize, the process sets and their groups, the
// session's info (session.hpp, README.md).
#include "../comm/objects.hpp"
#include "../internal/pmpi.hpp"
#include "../internal/runtime.hpp"
#include "session/session.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <new>
#include <string>
#include <strings.h>

namespace ftmpi::session {
namespace {

constexpr std::array<const char *, 2> psets{"mpi://WORLD", "mpi://SELF"};
constexpr std::array<const char *, 4> levels{"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                             "MPI_THREAD_MULTIPLE"};

// The "thread_level" info key, as MPI_Session_init reads it (default
// MPI_THREAD_SINGLE); -1 for a value that names no level.
int thread_level_of(MPI_Info info) {
    if (info == MPI_INFO_NULL) return MPI_THREAD_SINGLE;
    char value[64];
    int flag = 0;
    if (PMPI_Info_get(info, "thread_level", static_cast<int>(sizeof value) - 1, value, &flag) != MPI_SUCCESS || !flag)
        return MPI_THREAD_SINGLE;
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (strcasecmp(value, levels[i]) == 0) return static_cast<int>(i);
    return -1;
}

// The communicator a process set's group comes from, or MPI_COMM_NULL.
MPI_Comm comm_of(const char *pset) {
    if (pset == nullptr) return MPI_COMM_NULL;
    if (strcasecmp(pset, psets[0]) == 0) return MPI_COMM_WORLD;
    if (strcasecmp(pset, psets[1]) == 0) return MPI_COMM_SELF;
    return MPI_COMM_NULL;
}

// A new info object with one key.
int info_with(const char *key, const std::string &value, MPI_Info *info) {
    if (int e = PMPI_Info_create(info)) return e;
    return PMPI_Info_set(*info, key, value.c_str());
}

}  // namespace
}  // namespace ftmpi::session

using namespace ftmpi;

// The first session (before MPI_Init, or without it) starts the runtime;
// errors go to `errhandler` (the session's from then on).
extern "C" int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session) noexcept {
    constexpr const char *fn = "MPI_Session_init";
    const MPI_Errhandler report = comm::valid(errhandler) ? errhandler : MPI_ERRHANDLER_NULL;
    if (session == nullptr || report == MPI_ERRHANDLER_NULL)
        return session::raise(MPI_SESSION_NULL, MPI_ERR_ARG, fn, report);
    if (info != MPI_INFO_NULL && !comm::valid(info)) return session::raise(MPI_SESSION_NULL, MPI_ERR_INFO, fn, report);
    const int required = session::thread_level_of(info);
    if (required < 0) return session::raise(MPI_SESSION_NULL, MPI_ERR_INFO, fn, report);
    auto *made = new (std::nothrow) ftmpi_session_s;
    if (made == nullptr) return session::raise(MPI_SESSION_NULL, MPI_ERR_NO_MEM, fn, report);
    int provided = MPI_THREAD_SINGLE;
    if (int e = runtime::start_session(required, &provided)) {
        delete made;
        return session::raise(MPI_SESSION_NULL, e, fn, report);
    }
    comm::retain(errhandler);
    made->errhandler = errhandler;
    made->thread_level = provided;
    session::register_session(made);
    *session = made;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Session_init)

// The program frees the session's communicators, groups and other objects
// first (MPI-4.0 §11.3.1); the last session's end (after MPI_Finalize, or
// without MPI_Init) ends the runtime.
extern "C" int MPI_Session_finalize(MPI_Session *session) noexcept {
    constexpr const char *fn = "MPI_Session_finalize";
    if (session == nullptr || !session::valid(*session))
        return session::raise(session ? *session : MPI_SESSION_NULL, MPI_ERR_SESSION, fn);
    MPI_Session s = *session;
    session::unregister_session(s);
    const int e = runtime::end_session();
    comm::release(s->errhandler);
    delete s;
    *session = MPI_SESSION_NULL;
    return e;  // no handler: the session is gone
}
FTMPI_PMPI(Session_finalize)

extern "C" int MPI_Session_get_num_psets(MPI_Session session, MPI_Info, int *npset_names) noexcept {
    constexpr const char *fn = "MPI_Session_get_num_psets";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    if (npset_names == nullptr) return session::raise(session, MPI_ERR_ARG, fn);
    *npset_names = static_cast<int>(session::psets.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Session_get_num_psets)

// *pset_len 0 asks for the length (with the terminating null); else the
// name, cut to *pset_len - 1 characters and terminated.
extern "C" int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info, int n, int *pset_len, char *pset_name) noexcept {
    constexpr const char *fn = "MPI_Session_get_nth_pset";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    if (n < 0 || n >= static_cast<int>(session::psets.size()) || pset_len == nullptr || *pset_len < 0)
        return session::raise(session, MPI_ERR_ARG, fn);
    const char *name = session::psets[static_cast<std::size_t>(n)];
    const int length = static_cast<int>(std::strlen(name));
    if (*pset_len == 0) {
        *pset_len = length + 1;
        return MPI_SUCCESS;
    }
    if (pset_name == nullptr) return session::raise(session, MPI_ERR_ARG, fn);
    const int kept = std::min(length, *pset_len - 1);
    std::memcpy(pset_name, name, static_cast<std::size_t>(kept));
    pset_name[kept] = '\0';
    *pset_len = length + 1;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Session_get_nth_pset)

// "mpi_size": the number of processes in the set.
extern "C" int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info) noexcept {
    constexpr const char *fn = "MPI_Session_get_pset_info";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    const MPI_Comm comm = session::comm_of(pset_name);
    if (comm == MPI_COMM_NULL || info == nullptr) return session::raise(session, MPI_ERR_ARG, fn);
    int size = 0;
    PMPI_Comm_size(comm, &size);
    return session::raise(session, session::info_with("mpi_size", std::to_string(size), info), fn);
}
FTMPI_PMPI(Session_get_pset_info)

// "thread_level": the level the session was given.
extern "C" int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used) noexcept {
    constexpr const char *fn = "MPI_Session_get_info";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    if (info_used == nullptr) return session::raise(session, MPI_ERR_ARG, fn);
    const char *level = session::levels[static_cast<std::size_t>(session->thread_level)];
    return session::raise(session, session::info_with("thread_level", level, info_used), fn);
}
FTMPI_PMPI(Session_get_info)

extern "C" int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup) noexcept {
    constexpr const char *fn = "MPI_Group_from_session_pset";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    const MPI_Comm comm = session::comm_of(pset_name);
    if (comm == MPI_COMM_NULL || newgroup == nullptr) return session::raise(session, MPI_ERR_ARG, fn);
    if (int e = PMPI_Comm_group(comm, newgroup)) return session::raise(session, e, fn);
    (*newgroup)->session_bsend_buffer = session->bsend_buffer;  // for MPI_Comm_create_from_group
    return MPI_SUCCESS;
}
FTMPI_PMPI(Group_from_session_pset)
