// Making and freeing windows: MPI_Win_create, _allocate, _allocate_shared,
// _create_dynamic (with attach/detach), _shared_query and _free. Every
// creation duplicates the user's communicator (the window's private
// communicator), learns every member's size and displacement unit (so an
// origin checks ranges itself), agrees on the outcome, and starts the
// target handler.
#include "direct.hpp"
#include "memory.hpp"
#include "origin.hpp"
#include "window.hpp"

#include "../comm/objects.hpp"
#include "../internal/comm.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"

#include <algorithm>

namespace ftmpi::rma {
namespace {

int check_create(MPI_Comm comm, MPI_Aint size, int disp_unit, MPI_Info info, const void *out) {
    if (!comm::valid(comm)) return MPI_ERR_COMM;
    if (comm->inter) return MPI_ERR_COMM;
    if (size < 0) return MPI_ERR_SIZE;
    if (disp_unit <= 0) return MPI_ERR_DISP;
    if (info != MPI_INFO_NULL && !comm::valid(info)) return MPI_ERR_INFO;
    if (out == nullptr) return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

// Everything but the memory: the private communicator and what every member
// exposes. `base` is used by MPI_Win_create; the other flavors fill it.
int make_window(MPI_Comm comm, int flavor, void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Win *out) {
    auto *win = new ftmpi_win_s;
    if (int e = PMPI_Comm_dup(comm, &win->comm)) {
        delete win;
        return e;
    }
    PMPI_Comm_set_errhandler(win->comm, MPI_ERRORS_RETURN);
    PMPI_Comm_rank(win->comm, &win->rank);
    PMPI_Comm_size(win->comm, &win->size);
    for (int r = 0; r < win->size; ++r) win->worlds.push_back(comm::world_rank_of(win->comm, r));
    win->flavor = flavor;
    win->base = base;
    win->bytes = flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0 : size;
    win->disp_unit = disp_unit;
    win->errhandler = MPI_ERRORS_ARE_FATAL;  // MPI-3.1 §8.3: the default for windows
    comm::retain(win->errhandler);
    if (info != MPI_INFO_NULL) win->info = info->entries;
    *out = win;
    // MPI_Win_allocate's memory is a segment the members on this host map
    // (direct.hpp), or private memory when the host cannot hold one.
    int code = MPI_SUCCESS;
    if (flavor == MPI_WIN_FLAVOR_ALLOCATE && allocate_segment(win) != MPI_SUCCESS) code = allocate_private(win);
    std::vector<SegmentName> segments;
    const int gathered = gather_exposure(win->comm, win->bytes, disp_unit, win->own_segment.name, &win->sizes,
                                         &win->disp_units, &segments);
    if (gathered != MPI_SUCCESS) return gathered;
    if (code == MPI_SUCCESS && flavor == MPI_WIN_FLAVOR_ALLOCATE) map_peers(win, segments);
    return code;
}

// The end every creation shares: the same outcome at every member, then
// the handler; a failed creation frees what it made.
int finish(MPI_Win win, int code, MPI_Win *out) {
    int worst = code;
    if (int e = PMPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, win->comm)) worst = e;
    unlink_own_segment(win);  // every member has mapped what it could
    if (worst == MPI_SUCCESS) worst = start_handler(win);
    if (worst != MPI_SUCCESS) {
        destroy(win);
        *out = MPI_WIN_NULL;
        return worst;
    }
    register_window(win);
    *out = win;
    return MPI_SUCCESS;
}

int create(MPI_Comm comm, int flavor, void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Win *out) {
    MPI_Win win = MPI_WIN_NULL;
    int code = make_window(comm, flavor, base, size, disp_unit, info, &win);
    if (win == MPI_WIN_NULL) return code;
    if (code == MPI_SUCCESS && flavor == MPI_WIN_FLAVOR_SHARED) code = allocate_shared(win);
    return finish(win, code, out);
}

}  // namespace

char *load_store_address(MPI_Win win, int rank) {
    const size_t r = static_cast<size_t>(rank);
    if (win->sizes[r] == 0) return nullptr;
    if (win->flavor == MPI_WIN_FLAVOR_SHARED) return win->shm + win->shm_offsets[r];
    if (rank == win->rank) return static_cast<char *>(win->base);
    return win->flavor == MPI_WIN_FLAVOR_ALLOCATE ? mapped_memory(win, rank) : nullptr;
}

int gather_exposure(MPI_Comm comm, MPI_Aint bytes, int disp_unit, SegmentName segment, std::vector<MPI_Aint> *sizes,
                    std::vector<int> *units, std::vector<SegmentName> *segments) {
    int n = 0;
    PMPI_Comm_size(comm, &n);
    constexpr int fields = 4;
    MPI_Aint mine[fields] = {bytes, disp_unit, static_cast<MPI_Aint>(segment.pid), static_cast<MPI_Aint>(segment.seq)};
    std::vector<MPI_Aint> all(fields * static_cast<size_t>(n));
    if (int e = PMPI_Allgather(mine, fields, MPI_AINT, all.data(), fields, MPI_AINT, comm)) return e;
    sizes->clear();
    units->clear();
    segments->clear();
    for (size_t r = 0; r < static_cast<size_t>(n); ++r) {
        const MPI_Aint *f = &all[fields * r];
        sizes->push_back(f[0]);
        units->push_back(static_cast<int>(f[1]));
        segments->push_back(SegmentName{static_cast<int64_t>(f[2]), static_cast<int64_t>(f[3])});
    }
    return MPI_SUCCESS;
}

void destroy(MPI_Win win) {
    stop_handler(win);
    unregister_window(win);
    if (win->comm != MPI_COMM_NULL) PMPI_Comm_free(&win->comm);
    release_memory(win);
    if (win->errhandler != nullptr) comm::release(win->errhandler);
    delete win;
}

}  // namespace ftmpi::rma

using namespace ftmpi;

extern "C" int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                              MPI_Win *win) noexcept {
    constexpr const char *fn = "MPI_Win_create";
    if (int e = rma::check_create(comm, size, disp_unit, info, win)) return comm::raise(comm, e, fn);
    if (size > 0 && base == nullptr) return comm::raise(comm, MPI_ERR_BASE, fn);
    return comm::guarded(comm, fn,
                         [&] { return rma::create(comm, MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, win); });
}
FTMPI_PMPI(Win_create)

extern "C" int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                MPI_Win *win) noexcept {
    constexpr const char *fn = "MPI_Win_allocate";
    if (int e = rma::check_create(comm, size, disp_unit, info, win)) return comm::raise(comm, e, fn);
    if (baseptr == nullptr) return comm::raise(comm, MPI_ERR_ARG, fn);
    return comm::guarded(comm, fn, [&] {
        int e = rma::create(comm, MPI_WIN_FLAVOR_ALLOCATE, nullptr, size, disp_unit, info, win);
        if (e == MPI_SUCCESS) *static_cast<void **>(baseptr) = (*win)->base;
        return e;
    });
}
FTMPI_PMPI(Win_allocate)

extern "C" int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                       MPI_Win *win) noexcept {
    constexpr const char *fn = "MPI_Win_allocate_shared";
    if (int e = rma::check_create(comm, size, disp_unit, info, win)) return comm::raise(comm, e, fn);
    if (baseptr == nullptr) return comm::raise(comm, MPI_ERR_ARG, fn);
    return comm::guarded(comm, fn, [&] {
        int e = rma::create(comm, MPI_WIN_FLAVOR_SHARED, nullptr, size, disp_unit, info, win);
        if (e == MPI_SUCCESS) *static_cast<void **>(baseptr) = (*win)->base;
        return e;
    });
}
FTMPI_PMPI(Win_allocate_shared)

extern "C" int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) noexcept {
    constexpr const char *fn = "MPI_Win_create_dynamic";
    if (int e = rma::check_create(comm, 0, 1, info, win)) return comm::raise(comm, e, fn);
    return comm::guarded(comm, fn, [&] { return rma::create(comm, MPI_WIN_FLAVOR_DYNAMIC, nullptr, 0, 1, info, win); });
}
FTMPI_PMPI(Win_create_dynamic)

extern "C" int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr) noexcept {
    constexpr const char *fn = "MPI_Win_shared_query";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    // MPI-4.1 §12.2.3: any flavor but dynamic (whose memory is attached later).
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC) return rma::raise(win, MPI_ERR_RMA_FLAVOR, fn);
    if (size == nullptr || disp_unit == nullptr || baseptr == nullptr) return rma::raise(win, MPI_ERR_ARG, fn);
    if (rank == MPI_PROC_NULL) {
        // The lowest rank that exposes memory this process can load and store.
        rank = 0;
        while (rank + 1 < win->size && rma::load_store_address(win, rank) == nullptr) ++rank;
    }
    if (rank < 0 || rank >= win->size) return rma::raise(win, MPI_ERR_RANK, fn);
    const size_t r = static_cast<size_t>(rank);
    // Memory this process cannot reach by load/store (another member's
    // MPI_Win_create memory, an MPI_Win_allocate segment on another host):
    // size 0 and a null base.
    char *at = rma::load_store_address(win, rank);
    *size = at != nullptr ? win->sizes[r] : 0;
    *disp_unit = win->disp_units[r];
    *static_cast<void **>(baseptr) = at;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_shared_query)

extern "C" int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size) noexcept {
    constexpr const char *fn = "MPI_Win_attach";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC) return rma::raise(win, MPI_ERR_RMA_FLAVOR, fn);
    if (size < 0) return rma::raise(win, MPI_ERR_SIZE, fn);
    if (size > 0 && base == nullptr) return rma::raise(win, MPI_ERR_BASE, fn);
    std::lock_guard lk(win->target_mutex);
    const uintptr_t lo = reinterpret_cast<uintptr_t>(base);
    for (const rma::Region &r : win->attached)
        if (lo < r.base + r.size && r.base < lo + static_cast<size_t>(size))
            return rma::raise(win, MPI_ERR_RMA_ATTACH, fn);  // overlapping regions may not be attached
    win->attached.push_back(rma::Region{lo, static_cast<size_t>(size)});
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_attach)

extern "C" int MPI_Win_detach(MPI_Win win, const void *base) noexcept {
    constexpr const char *fn = "MPI_Win_detach";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC) return rma::raise(win, MPI_ERR_RMA_FLAVOR, fn);
    std::lock_guard lk(win->target_mutex);
    auto it = std::find_if(win->attached.begin(), win->attached.end(),
                           [&](const rma::Region &r) { return r.base == reinterpret_cast<uintptr_t>(base); });
    if (it == win->attached.end()) return rma::raise(win, MPI_ERR_RMA_ATTACH, fn);
    win->attached.erase(it);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Win_detach)

extern "C" int MPI_Win_free(MPI_Win *win) noexcept {
    constexpr const char *fn = "MPI_Win_free";
    if (win == nullptr || !rma::valid(*win)) return rma::raise(MPI_WIN_NULL, MPI_ERR_WIN, fn);
    MPI_Win w = *win;
    // A revoked window is freed whatever epoch it was left in: no epoch can
    // be closed on it any more.
    if (!p2p::is_revoked(w->comm)) {
        std::lock_guard lk(w->origin_mutex);
        if (w->epoch == rma::Epoch::lock || w->epoch == rma::Epoch::lock_all || w->epoch == rma::Epoch::start ||
            w->exposed)
            return rma::raise(w, MPI_ERR_RMA_SYNC, fn);  // an epoch is still open
    }
    // Collective: once every member is here, nobody targets this one any
    // more, and the handler can stop. A failure or a revoke makes the
    // barrier fail; the window is freed locally all the same.
    int code = rma::complete_operations(w, -1);
    if (int e = PMPI_Barrier(w->comm); code == MPI_SUCCESS) code = e;
    if (code != MPI_SUCCESS) rma::raise(w, code, fn);
    rma::delete_all_attributes(w);
    rma::destroy(w);
    *win = MPI_WIN_NULL;
    return code;
}
FTMPI_PMPI(Win_free)
