// A replacement process's part in the recovery that
// started it (REBUILD modes): MPI_Init calls ft::join_as_replacement once
// the engine is connected. The survivors send the recovered state of
// MPI_COMM_WORLD (rebuild.cpp send_state); this installs it.
#include "recovery.hpp"

#include "../../internal/ft.hpp"
#include "../../internal/runtime.hpp"
#include "../../settings/values.hpp"

#include <sched.h>

#include <chrono>

namespace ftmpi::ft {

namespace {

// Fellow replacements of this round that this one is not connected to at
// their new incarnation: it read a fellow's old record at start (the fellow
// had not written its new one yet), could not reach that dead address and
// took the rank for failed. The fellow, which read ours, connects itself
// when our connection does not come (transport/tcp_join.cpp), and that
// connection renews the rank here. MPI_Init waits for it, bounded: returning
// before, this process would meet the survivors' next agreement with the
// fellow counted failed and start a recovery of its own.
void wait_for_fellows(const std::vector<int> &group) {
    std::vector<int> fellows, incarnations;
    for (int w : group) {
        if (w < 0 || w == runtime::world_rank()) continue;
        const int inc = incarnation(w);
        if (p2p::peer_incarnation(w) < inc) {
            fellows.push_back(w);
            incarnations.push_back(inc);
        }
    }
    if (fellows.empty()) return;
    const auto connect_ms = ftmpi::settings::current().number(ftmpi::settings::Id::join_connect);
    (void)p2p::wait_joined(fellows, incarnations, static_cast<int>(2 * connect_ms + 1000));
}

}  // namespace

int join_as_replacement() {
    using namespace recovery;
    using Clock = std::chrono::steady_clock;
    MPI_Comm world = MPI_COMM_WORLD;
    const auto deadline =
        Clock::now() + std::chrono::milliseconds(ftmpi::settings::current().number(ftmpi::settings::Id::join_state));

    // From whichever survivor is first (all of them send it).
    int32_t header[5] = {0, 0, 0, 0, 0};
    MPI_Request req = MPI_REQUEST_NULL;
    int err =
        p2p::irecv(header, 5, MPI_INT32_T, MPI_ANY_SOURCE, state_header_tag, world, p2p::Channel::collective, &req);
    if (err != MPI_SUCCESS) return err;
    MPI_Status st{};
    for (int done = 0;;) {
        err = p2p::test_all(1, &req, &done, &st);
        if (err != MPI_SUCCESS) return err;
        if (done) break;
        if (Clock::now() >= deadline)
            return MPIX_ERR_PROC_FAILED;  // nobody recovered us: the request stays, MPI_Init fails
        sched_yield();
    }
    const int source = st.MPI_SOURCE, extent = header[1], nworld = header[3];
    if (extent <= 0 || nworld <= 0) return MPI_ERR_INTERN;
    std::vector<int32_t> body(static_cast<size_t>(extent + nworld));
    err = p2p::recv(body.data(), static_cast<int>(body.size()), MPI_INT32_T, source, state_body_tag, world,
                    p2p::Channel::collective, MPI_STATUS_IGNORE);
    if (err != MPI_SUCCESS) return err;

    const int round = header[0];
    for (int w = 0; w < nworld; ++w) {
        const int inc = body[static_cast<size_t>(extent + w)];
        if (inc != incarnation(w)) set_incarnation(w, inc, round);
    }
    install_group(world, std::vector<int>(body.begin(), body.begin() + extent));
    wait_for_fellows(std::vector<int>(body.begin(), body.begin() + extent));
    world->ft.round = round;
    world->ft.agreements.store(static_cast<uint32_t>(header[2]));
    next_shadow(world, static_cast<uint32_t>(header[4]));
    world->ft.recovered_at = failure_count();
    world->ft.state.store(FTMPI_COMM_OK);
    grant_joined_world_pass();
    return MPI_SUCCESS;
}

}  // namespace ftmpi::ft
