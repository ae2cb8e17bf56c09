// Performance-variable sessions and handles: allocation, start/stop,
// read/write/reset (the variables are in pvars.cpp).
//
// A continuous variable's handle reads the source as it is. A handle of a
// variable that is started and stopped keeps what the source gained while
// it was started: kept + (source now - base) while started, kept while
// stopped; reset and write set kept and take the source's value as base.
#include "internal/pmpi.hpp"
#include "mpit/mpit.hpp"

#include <algorithm>
#include <cstring>

namespace ftmpi::mpit {

namespace {

bool live(MPI_T_pvar_session session) {
    return session != MPI_T_PVAR_SESSION_NULL && state().sessions.count(session) != 0;
}

// The handle of `session`, or nullptr.
ftmpi_t_pvar_handle_s *handle_of(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
    for (const auto &h : session->handles)
        if (h.get() == handle) return h.get();
    return nullptr;
}

unsigned long long value_of(const ftmpi_t_pvar_handle_s &h) {
    const Pvar &p = pvar(h.index);
    if (p.continuous) return p.source();
    return h.started ? h.kept + (p.source() - h.base) : h.kept;
}

void set_value(ftmpi_t_pvar_handle_s &h, unsigned long long value) {
    h.kept = value;
    h.base = pvar(h.index).source();
}

void put(const ftmpi_t_pvar_handle_s &h, void *buf) {
    const unsigned long long value = value_of(h);
    if (pvar(h.index).counter) {
        std::memcpy(buf, &value, sizeof value);
    } else {
        const auto narrow = static_cast<unsigned long>(value);
        std::memcpy(buf, &narrow, sizeof narrow);
    }
}

// Runs `one` on the session's handle, or on each of its handles for
// MPI_T_PVAR_ALL_HANDLES (those `one` refuses are skipped then).
template <typename One>
int each_handle(MPI_T_pvar_session session, MPI_T_pvar_handle handle, One one) {
    return call([&] {
        if (!live(session)) return MPI_T_ERR_INVALID_SESSION;
        if (handle == MPI_T_PVAR_ALL_HANDLES) {
            for (const auto &h : session->handles) one(*h);
            return MPI_SUCCESS;
        }
        ftmpi_t_pvar_handle_s *h = handle_of(session, handle);
        return h == nullptr ? MPI_T_ERR_INVALID_HANDLE : one(*h);
    });
}

// Runs `one` on a single handle (read and write take no ALL_HANDLES).
template <typename One>
int single_handle(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf, One one) {
    return call([&] {
        if (!live(session)) return MPI_T_ERR_INVALID_SESSION;
        ftmpi_t_pvar_handle_s *h = handle == MPI_T_PVAR_ALL_HANDLES ? nullptr : handle_of(session, handle);
        if (h == nullptr) return MPI_T_ERR_INVALID_HANDLE;
        if (buf == nullptr) return MPI_T_ERR_INVALID;
        return one(*h);
    });
}

}  // namespace

extern "C" {

int MPI_T_pvar_session_create(MPI_T_pvar_session *session) noexcept {
    return call([&] {
        if (session == nullptr) return MPI_T_ERR_INVALID;
        auto made = std::make_unique<ftmpi_t_pvar_session_s>();
        state().sessions.insert(made.get());
        *session = made.release();
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_session_create)

// Frees the session's handles too.
int MPI_T_pvar_session_free(MPI_T_pvar_session *session) noexcept {
    return call([&] {
        if (session == nullptr || !live(*session)) return MPI_T_ERR_INVALID_SESSION;
        state().sessions.erase(*session);
        delete *session;
        *session = MPI_T_PVAR_SESSION_NULL;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_session_free)

// Every variable is bound to no object: obj_handle is not looked at. A
// continuous variable's handle starts started.
int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *, MPI_T_pvar_handle *handle,
                            int *count) noexcept {
    return call([&] {
        if (!live(session)) return MPI_T_ERR_INVALID_SESSION;
        if (!valid_index(pvar_index, pvar_count())) return MPI_T_ERR_INVALID_INDEX;
        if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
        const bool continuous = pvar(pvar_index).continuous;
        session->handles.push_back(
            std::make_unique<ftmpi_t_pvar_handle_s>(ftmpi_t_pvar_handle_s{pvar_index, continuous, 0, 0}));
        *handle = session->handles.back().get();
        *count = 1;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_handle_alloc)

int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle) noexcept {
    return call([&] {
        if (!live(session)) return MPI_T_ERR_INVALID_SESSION;
        if (handle == nullptr || *handle == MPI_T_PVAR_ALL_HANDLES || handle_of(session, *handle) == nullptr)
            return MPI_T_ERR_INVALID_HANDLE;
        std::erase_if(session->handles, [&](const auto &h) { return h.get() == *handle; });
        *handle = MPI_T_PVAR_HANDLE_NULL;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_handle_free)

int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) noexcept {
    return each_handle(session, handle, [](ftmpi_t_pvar_handle_s &h) {
        if (pvar(h.index).continuous) return MPI_T_ERR_PVAR_NO_STARTSTOP;
        if (!h.started) h.base = pvar(h.index).source();
        h.started = true;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_start)

int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) noexcept {
    return each_handle(session, handle, [](ftmpi_t_pvar_handle_s &h) {
        if (pvar(h.index).continuous) return MPI_T_ERR_PVAR_NO_STARTSTOP;
        h.kept = value_of(h);
        h.started = false;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_stop)

int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf) noexcept {
    return single_handle(session, handle, buf, [&](ftmpi_t_pvar_handle_s &h) {
        put(h, buf);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_read)

int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf) noexcept {
    return single_handle(session, handle, buf, [&](ftmpi_t_pvar_handle_s &h) {
        if (pvar(h.index).readonly) return MPI_T_ERR_PVAR_NO_WRITE;
        unsigned long long value;  // only counters are writable
        std::memcpy(&value, buf, sizeof value);
        set_value(h, value);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_write)

int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) noexcept {
    return each_handle(session, handle, [](ftmpi_t_pvar_handle_s &h) {
        if (pvar(h.index).readonly) return MPI_T_ERR_PVAR_NO_WRITE;
        set_value(h, 0);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_reset)

// Atomic for every variable: the interface's lock is held throughout.
int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf) noexcept {
    return single_handle(session, handle, buf, [&](ftmpi_t_pvar_handle_s &h) {
        if (pvar(h.index).readonly) return MPI_T_ERR_PVAR_NO_WRITE;
        put(h, buf);
        set_value(h, 0);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_pvar_readreset)

}  // extern "C"

}  // namespace ftmpi::mpit
