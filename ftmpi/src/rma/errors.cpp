// Errors on windows: the live-window registry, ftmpi::rma::raise (the
// window's error handler, MPI_ERRORS_ARE_FATAL by default as for
// communicators), and the MPI_Win_*_errhandler bindings.
#include "window.hpp"

#include "../comm/objects.hpp"
#include "../internal/errors.hpp"
#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"

#include <atomic>
#include <unordered_set>

namespace ftmpi::rma {
namespace {
std::mutex window_registry_mutex;
std::unordered_set<MPI_Win> live_windows;
// Bumped by every free: a thread that found a window live keeps the answer
// until the next free, so operations on a live window take no lock here.
std::atomic<uint64_t> registry_generation{0};
thread_local MPI_Win known_live = MPI_WIN_NULL;
thread_local uint64_t known_live_generation = ~uint64_t{0};

[[noreturn]] void die_on_window(MPI_Win win, int code, const char *function) {
    const std::string subject = "window " + (win->name.empty() ? std::string("(unnamed)") : win->name);
    comm::abort_fatal(code, function, subject.c_str());
}
}  // namespace

void register_window(MPI_Win win) {
    std::lock_guard lk(window_registry_mutex);
    live_windows.insert(win);
}

void unregister_window(MPI_Win win) {
    std::lock_guard lk(window_registry_mutex);
    live_windows.erase(win);
    registry_generation.fetch_add(1, std::memory_order_acq_rel);
}

bool valid(MPI_Win win) {
    if (win == MPI_WIN_NULL) return false;
    const uint64_t generation = registry_generation.load(std::memory_order_acquire);
    if (win == known_live && generation == known_live_generation) return true;
    std::lock_guard lk(window_registry_mutex);
    if (live_windows.count(win) == 0) return false;
    known_live = win;
    known_live_generation = generation;
    return true;
}

int raise(MPI_Win win, int code, const char *function) {
    if (code == MPI_SUCCESS) return code;
    if (!valid(win)) return comm::raise(MPI_COMM_NULL, code, function);
    // The FT-MPI modes' spelling of a process failure, and ABORT mode's end
    // of the job, follow the communicator the window was made on.
    code = ft::reported_code(win->comm, code, function);
    ft::abort_if_required(win->comm, code, function);
    MPI_Errhandler eh;
    {
        std::lock_guard lk(window_registry_mutex);
        eh = win->errhandler;
    }
    if (eh == nullptr || eh->kind == ftmpi_errhandler_s::Kind::fatal) die_on_window(win, code, function);
    if (eh->kind == ftmpi_errhandler_s::Kind::user && eh->function != nullptr) {
        // Window handlers are kept in the comm part's struct; the pointer was
        // a MPI_Win_errhandler_function when it was created.
        auto *fn = reinterpret_cast<MPI_Win_errhandler_function *>(eh->function);
        MPI_Win handle = win;
        fn(&handle, &code, function);  // the call returns what the handler left (comm/errhandler.cpp)
    }
    return code;
}

int check_window(MPI_Win win) {
    if (!valid(win)) return MPI_ERR_WIN;
    if (p2p::is_revoked(win->comm)) return MPIX_ERR_REVOKED;
    return MPI_SUCCESS;
}

int check_peer(MPI_Win win, int rank) {
    if (rank < 0 || rank >= win->size) return MPI_SUCCESS;  // the callers check ranges themselves
    const int world = win->worlds[static_cast<size_t>(rank)];
    return world >= 0 && ft::member_failed(win->comm, world) ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS;
}

void set_errhandler(MPI_Win win, MPI_Errhandler eh) {
    comm::retain(eh);
    MPI_Errhandler old;
    {
        std::lock_guard lk(window_registry_mutex);
        old = win->errhandler;
        win->errhandler = eh;
    }
    if (old != nullptr) comm::release(old);
}

}  // namespace ftmpi::rma

using namespace ftmpi;

extern "C" int MPI_Win_create_errhandler(MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler) noexcept {
    constexpr const char *fn = "MPI_Win_create_errhandler";
    if (function == nullptr || errhandler == nullptr) return comm::raise(MPI_COMM_NULL, MPI_ERR_ARG, fn);
    auto *eh = new (std::nothrow) ftmpi_errhandler_s;
    if (eh == nullptr) return comm::raise(MPI_COMM_NULL, MPI_ERR_NO_MEM, fn);
    eh->kind = ftmpi_errhandler_s::Kind::user;
    eh->function = reinterpret_cast<MPI_Comm_errhandler_function *>(function);
    comm::register_object(eh);
    *errhandler = eh;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_create_errhandler)

extern "C" int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) noexcept {
    constexpr const char *fn = "MPI_Win_set_errhandler";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    if (!comm::valid(errhandler)) return rma::raise(win, MPI_ERR_ARG, fn);
    rma::set_errhandler(win, errhandler);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_set_errhandler)

extern "C" int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler) noexcept {
    constexpr const char *fn = "MPI_Win_get_errhandler";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    if (errhandler == nullptr) return rma::raise(win, MPI_ERR_ARG, fn);
    std::lock_guard lk(rma::window_registry_mutex);
    MPI_Errhandler eh = win->errhandler != nullptr ? win->errhandler : MPI_ERRORS_ARE_FATAL;
    comm::retain(eh);  // the caller frees it with MPI_Errhandler_free
    *errhandler = eh;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_get_errhandler)

extern "C" int MPI_Win_call_errhandler(MPI_Win win, int errorcode) noexcept {
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, "MPI_Win_call_errhandler");
    rma::raise(win, errorcode, "MPI_Win_call_errhandler");
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_call_errhandler)
