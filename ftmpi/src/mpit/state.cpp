// MPI_T_init_thread and MPI_T_finalize: the nesting count, and the handles
// and sessions that live until the count is back to zero (mpit.hpp).
#include "internal/pmpi.hpp"
#include "mpit/mpit.hpp"

#include <algorithm>
#include <cstring>

namespace ftmpi::mpit {

std::mutex &lock() {
    static std::mutex m;
    return m;
}

State &state() {
    static State s;
    return s;
}

void copy_string(std::string_view text, char *out, int *len) {
    if (len == nullptr) return;
    if (out == nullptr || *len <= 0) {
        *len = static_cast<int>(text.size()) + 1;
        return;
    }
    const std::size_t n = std::min(text.size(), static_cast<std::size_t>(*len - 1));
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
    *len = static_cast<int>(n) + 1;
}

extern "C" {

// Usable before MPI_Init and after MPI_Finalize; every thread level is
// served (one lock guards the interface).
int MPI_T_init_thread(int required, int *provided) noexcept {
    try {
        if (provided == nullptr || required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
            return MPI_T_ERR_INVALID;
        std::lock_guard guard(lock());
        ++state().nesting;
        *provided = required;
        return MPI_SUCCESS;
    } catch (...) {
        return MPI_T_ERR_MEMORY;
    }
}
FTMPI_PMPI(T_init_thread)

// The last finalize frees every handle and session still allocated.
int MPI_T_finalize(void) noexcept {
    return call([] {
        State &s = state();
        if (--s.nesting > 0) return MPI_SUCCESS;
        for (MPI_T_cvar_handle h : s.cvar_handles) delete h;
        for (MPI_T_pvar_session session : s.sessions) delete session;
        s.cvar_handles.clear();
        s.sessions.clear();
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_finalize)

}  // extern "C"

}  // namespace ftmpi::mpit
