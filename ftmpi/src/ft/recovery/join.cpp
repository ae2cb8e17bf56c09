// A replacement process's part in the recovery that
// started it (REBUILD modes): MPI_Init calls ft::join_as_replacement once
// the engine is connected. The survivors send the recovered state of
// MPI_COMM_WORLD (rebuild.cpp send_state); this installs it.
#include "recovery.hpp"

#include "../../internal/ft.hpp"
#include "../../internal/runtime.hpp"
#include "../../settings/values.hpp"
#include "ft/events.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>

namespace ftmpi::ft {

namespace recovery {
bool failed_at(int world, int incarnation) {
    auto is_it = [&](const std::vector<uint8_t> &payload) {
        auto f = decode_failure(payload);
        return f && f->rank == world && f->incarnation >= incarnation;
    };
    return wait_event("proc_exit", is_it, 0) || wait_event("rank_lost", is_it, 0);
}
}  // namespace recovery

namespace {
using recovery::failed_at;

// Fellow replacements of this round that this one is not connected to at
// their new incarnation: it read a fellow's old record at start (the fellow
// had not written its new one yet), could not reach that dead address and
// took the rank for failed. Returning so, this process would meet the
// survivors' next agreement with the fellow counted failed and start a
// recovery of its own. Between fellows the higher rank connects to the
// lower (transport/tcp_join.cpp). A lower fellow waits for our connection
// (and makes its own after FTMPI_JOIN_CONNECT_MS): we read its record
// again, which the survivors' state says is of the new incarnation by now
// (the fellow wrote it before it joined them), and connect. A higher
// fellow read our new record (we wrote ours before we read its old one)
// and connects to us. Each wait ends at the deadline or at the fellow's
// failure event: it then stays failed here, as at the survivors.
void wait_for_fellows(const std::vector<int> &group) {
    const int me = runtime::world_rank();
    const auto connect_ms = ftmpi::settings::current().number(ftmpi::settings::Id::join_connect);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(2 * connect_ms + 1000);
    auto left_ms = [&] {
        return static_cast<int>(std::max<long long>(
            0,
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                .count()));
    };
    std::vector<int> higher, higher_incarnations;
    for (int w : group) {
        if (w < 0 || w == me) continue;
        const int inc = incarnation(w);
        if (p2p::peer_incarnation(w) >= inc) continue;
        if (w > me) {
            higher.push_back(w);
            higher_incarnations.push_back(inc);
            continue;
        }
        (void)p2p::reach_fellow(w, inc, left_ms(), [w, inc] { return failed_at(w, inc); });
    }
    if (!higher.empty()) (void)p2p::wait_joined(higher, higher_incarnations, left_ms());
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
