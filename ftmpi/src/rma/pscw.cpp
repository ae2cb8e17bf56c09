// General active-target synchronisation (post, start, complete, wait,
// test): zero-byte messages on the window's private communicator. Post
// tells each origin of the group that the exposure epoch began and
// pre-posts the receives of their complete messages; start waits for each
// target's post; complete finishes this origin's operations and tells each
// target; wait (test) waits for (tests) every origin's complete.
#include "origin.hpp"
#include "window.hpp"

#include "../internal/comm.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"

namespace ftmpi::rma {
namespace {

// The window ranks of `group`'s members; MPI_ERR_GROUP for a bad group or
// one with processes outside the window.
int ranks_of(MPI_Win win, MPI_Group group, std::vector<int> *ranks) {
    if (!comm::valid(group)) return MPI_ERR_GROUP;
    int n = 0;
    PMPI_Group_size(group, &n);
    std::vector<int> in(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) in[static_cast<size_t>(i)] = i;
    ranks->assign(static_cast<size_t>(n), MPI_UNDEFINED);
    MPI_Group wg = MPI_GROUP_NULL;
    PMPI_Comm_group(win->comm, &wg);
    const int e = PMPI_Group_translate_ranks(group, n, in.data(), wg, ranks->data());
    PMPI_Group_free(&wg);
    if (e != MPI_SUCCESS) return MPI_ERR_GROUP;
    for (int r : *ranks)
        if (r == MPI_UNDEFINED) return MPI_ERR_GROUP;
    return MPI_SUCCESS;
}

int post(MPI_Win win, MPI_Group group) {
    std::vector<int> origins;
    if (int e = ranks_of(win, group, &origins)) return e;
    {
        std::lock_guard lk(win->origin_mutex);
        if (win->exposed) return MPI_ERR_RMA_SYNC;  // an exposure epoch is open
    }
    for (int r : origins)
        if (int e = check_peer(win, r)) return e;
    std::vector<MPI_Request> completes(origins.size(), MPI_REQUEST_NULL), posts(origins.size(), MPI_REQUEST_NULL);
    for (size_t i = 0; i < origins.size(); ++i) {
        if (int e = p2p::irecv(nullptr, 0, MPI_BYTE, origins[i], tag_complete, win->comm, p2p::Channel::user,
                               &completes[i]))
            return e;
        if (int e = p2p::isend(nullptr, 0, MPI_BYTE, origins[i], tag_post, win->comm, p2p::Channel::user, &posts[i]))
            return e;
    }
    const int code = p2p::wait_all(static_cast<int>(posts.size()), posts.data(), MPI_STATUSES_IGNORE);
    std::lock_guard lk(win->origin_mutex);
    win->completes = std::move(completes);
    win->post_group = std::move(origins);
    win->exposed = true;
    return code;
}

int start(MPI_Win win, MPI_Group group) {
    std::vector<int> targets;
    if (int e = ranks_of(win, group, &targets)) return e;
    {
        std::lock_guard lk(win->origin_mutex);
        if (win->epoch != Epoch::none && win->epoch != Epoch::fence) return MPI_ERR_RMA_SYNC;
    }
    for (int r : targets)
        if (int e = check_peer(win, r)) return e;
    std::vector<MPI_Request> posts(targets.size(), MPI_REQUEST_NULL);
    for (size_t i = 0; i < targets.size(); ++i)
        if (int e = p2p::irecv(nullptr, 0, MPI_BYTE, targets[i], tag_post, win->comm, p2p::Channel::user, &posts[i]))
            return e;
    if (int e = p2p::wait_all(static_cast<int>(posts.size()), posts.data(), MPI_STATUSES_IGNORE)) return e;
    std::lock_guard lk(win->origin_mutex);
    win->start_group = std::move(targets);
    win->epoch = Epoch::start;
    return MPI_SUCCESS;
}

int complete(MPI_Win win) {
    std::vector<int> targets;
    {
        std::lock_guard lk(win->origin_mutex);
        if (win->epoch != Epoch::start) return MPI_ERR_RMA_SYNC;
        targets = win->start_group;
    }
    int code = complete_operations(win, -1);
    std::vector<MPI_Request> sends(targets.size(), MPI_REQUEST_NULL);
    for (size_t i = 0; i < targets.size(); ++i)
        if (int e =
                p2p::isend(nullptr, 0, MPI_BYTE, targets[i], tag_complete, win->comm, p2p::Channel::user, &sends[i]);
            code == MPI_SUCCESS)
            code = e;
    if (int e = p2p::wait_all(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE); code == MPI_SUCCESS)
        code = e;
    std::lock_guard lk(win->origin_mutex);
    win->start_group.clear();
    win->epoch = Epoch::none;
    return code;
}

int wait(MPI_Win win, int *flag) {
    std::vector<MPI_Request> completes;
    {
        std::lock_guard lk(win->origin_mutex);
        if (!win->exposed) return MPI_ERR_RMA_SYNC;
        completes = win->completes;
    }
    int code = MPI_SUCCESS;
    if (flag != nullptr) {
        code = p2p::test_all(static_cast<int>(completes.size()), completes.data(), flag, MPI_STATUSES_IGNORE);
        if (*flag == 0) return code;
    } else {
        code = p2p::wait_all(static_cast<int>(completes.size()), completes.data(), MPI_STATUSES_IGNORE);
    }
    std::lock_guard lk(win->origin_mutex);
    win->completes.clear();
    win->post_group.clear();
    win->exposed = false;
    return code;
}

template <typename Body>
int pscw_call(MPI_Win win, const char *fn, Body &&body) noexcept {
    if (int e = check_window(win)) return raise(win, e, fn);
    return guarded(win, fn, body);
}

}  // namespace
}  // namespace ftmpi::rma

using namespace ftmpi;

extern "C" int MPI_Win_post(MPI_Group group, int assert, MPI_Win win) noexcept {
    return rma::pscw_call(win, "MPI_Win_post", [&] {
        if (int e = rma::check_assertion(assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)) return e;
        return rma::post(win, group);
    });
}
FTMPI_PMPI(Win_post)

extern "C" int MPI_Win_start(MPI_Group group, int assert, MPI_Win win) noexcept {
    return rma::pscw_call(win, "MPI_Win_start", [&] {
        if (int e = rma::check_assertion(assert, MPI_MODE_NOCHECK)) return e;
        return rma::start(win, group);
    });
}
FTMPI_PMPI(Win_start)

extern "C" int MPI_Win_complete(MPI_Win win) noexcept {
    return rma::pscw_call(win, "MPI_Win_complete", [&] { return rma::complete(win); });
}
FTMPI_PMPI(Win_complete)

extern "C" int MPI_Win_wait(MPI_Win win) noexcept {
    return rma::pscw_call(win, "MPI_Win_wait", [&] { return rma::wait(win, nullptr); });
}
FTMPI_PMPI(Win_wait)

extern "C" int MPI_Win_test(MPI_Win win, int *flag) noexcept {
    if (flag == nullptr) return rma::raise(win, MPI_ERR_ARG, "MPI_Win_test");
    return rma::pscw_call(win, "MPI_Win_test", [&] { return rma::wait(win, flag); });
}
FTMPI_PMPI(Win_test)
