// REBUILD and REBUILD_APPEND on MPI_COMM_WORLD (RECOVERY.md):
// ask ftmpirun for replacements (`respawn`), learn which ones started
// (`respawned` / `respawn_failed`), wait for their connections, agree among
// the survivors on which joined, admit them, and hand them the state.
// REBUILD asks again for every gap an earlier round left (RECOVERY.md
// "Gaps in REBUILD"), so a later round gives the program its full size back.
#include "recovery.hpp"

#include "../../internal/ft.hpp"
#include "../../runtime/log.hpp"
#include "../../settings/values.hpp"

#include <harness/common/pack.hpp>

#include <algorithm>
#include <chrono>
#include <string>

namespace ftmpi::ft::recovery {
namespace {
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds setting_ms(ftmpi::settings::Id id) {
    return std::chrono::milliseconds(ftmpi::settings::current().number(id));
}

int ms_left(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}

std::vector<uint8_t> respawn_event(int round, const std::vector<int> &worlds) {
    harness::Packer p;
    p.str("respawn").i32(round).i32(static_cast<int32_t>(worlds.size()));
    for (int w : worlds) p.i32(w);
    return p.take();
}

// Reads (kind, round, rank) of a respawned/respawn_failed payload.
bool round_and_rank(const std::vector<uint8_t> &payload, int *round, int *rank, harness::Unpacker &u) {
    std::string kind;
    int32_t ro = 0, ra = 0;
    if (!u.str(kind) || !u.i32(ro) || !u.i32(ra)) return false;
    (void)payload;
    *round = ro;
    *rank = ra;
    return true;
}

// The incarnation ftmpirun started for `world` in `round`; 0 when it could
// not start one (respawn_failed) or did not answer by the deadline.
int wait_started(int round, int world, Clock::time_point deadline) {
    int incarnation = 0;
    auto started = [&](const std::vector<uint8_t> &payload) {
        harness::Unpacker u(payload);
        int ro = 0, ra = 0;
        int32_t inc = 0;
        if (!round_and_rank(payload, &ro, &ra, u) || ro != round || ra != world || !u.i32(inc)) return false;
        incarnation = inc;
        return true;
    };
    auto refused = [&](const std::vector<uint8_t> &payload) {
        harness::Unpacker u(payload);
        int ro = 0, ra = 0;
        return round_and_rank(payload, &ro, &ra, u) && ro == round && ra == world;
    };
    // Two kinds answer; look at both in short slices until the deadline.
    for (;;) {
        if (wait_event("respawned", started, std::min(200, ms_left(deadline)))) return incarnation;
        if (wait_event("respawn_failed", refused, 0)) return 0;
        if (ms_left(deadline) == 0) return 0;
    }
}
// The replacement `world`.`incarnation` connected here by the deadline.
// Its failure event ends the wait early: a replacement that died before it
// joined (or while it started) does not hold the round for FTMPI_JOIN_MS.
bool joined_here(int world, int incarnation, Clock::time_point deadline) {
    for (;;) {
        if (p2p::wait_joined({world}, {incarnation}, std::min(200, ms_left(deadline))) == MPI_SUCCESS) return true;
        if (failed_at(world, incarnation) || ms_left(deadline) == 0) return false;
    }
}
}  // namespace

int rebuild_world(const std::vector<int> &failed_ranks, int mode, Rebuilt *out) {
    MPI_Comm world = MPI_COMM_WORLD;
    const std::vector<int> &old = world->group->world;
    // The slots (comm ranks) this round fills and their world ranks: the
    // failed members, then (REBUILD) every gap an earlier round left.
    std::vector<int> slots = failed_ranks;
    if (mode == FTMPI_COMM_MODE_REBUILD)
        for (int slot : gap_slots(world)) slots.push_back(slot);
    std::vector<int> to_fill;
    for (size_t i = 0; i < slots.size(); ++i)
        to_fill.push_back(i < failed_ranks.size() ? old[static_cast<size_t>(slots[i])] : slots[i]);
    const int round = std::max(ft::round(), world->ft.round) + 1;

    // Every survivor asks (ftmpirun acts once per (round, rank)), so the
    // request does not depend on any one survivor living through it.
    publish(respawn_event(round, to_fill));
    log::info("REBUILD round %d: asked ftmpirun to replace %zu world rank(s)", round, to_fill.size());
    const auto deadline = Clock::now() + setting_ms(ftmpi::settings::Id::respawn);
    std::vector<int> incarnations(to_fill.size(), 0);
    for (size_t i = 0; i < to_fill.size(); ++i) {
        incarnations[i] = wait_started(round, to_fill[i], deadline);
        log::info("REBUILD round %d: world rank %d %s", round, to_fill[i],
                  incarnations[i] > 0 ? ("incarnation " + std::to_string(incarnations[i]) + " started").c_str()
                                      : "gets no replacement (respawn_failed, or no answer in time)");
    }

    // Their connections (each replacement connects to every live rank).
    const auto join_deadline = Clock::now() + setting_ms(ftmpi::settings::Id::join);
    // Bit i of the flag: the i-th replacement joined here. (The agreed
    // failed set cannot say it: the agreement adds every member it knows
    // failed, and the replacements are still failed in p2p until admitted.)
    // More than 32 replacements in one round: the rest stay gaps.
    Agreement joins;
    joins.flag = 0;
    for (size_t i = 0; i < to_fill.size() && i < 32; ++i)
        if (incarnations[i] > 0 && joined_here(to_fill[i], incarnations[i], join_deadline)) joins.flag |= 1u << i;
    // The survivors may have seen different things (a deadline here, a
    // connection there): they agree (AND), and a replacement joins only if
    // it joined everywhere. The replacements are not asked.
    int err = agree(agreement_comm(world), joins);
    if (err != MPI_SUCCESS) return err;
    auto joined_everywhere = [&](size_t i) { return i < 32 && (joins.flag >> i & 1u) != 0; };
    for (size_t i = 0; i < to_fill.size(); ++i)
        log::info("REBUILD round %d: world rank %d incarnation %d %s", round, to_fill[i], incarnations[i],
                  joined_everywhere(i) ? "joined" : "did not join: stays a gap");

    out->round = round;
    out->world.clear();
    if (mode == FTMPI_COMM_MODE_REBUILD_APPEND)
        out->world = shape_after(world, failed_ranks, FTMPI_COMM_MODE_SHRINK);
    else
        out->world = old;
    for (size_t i = 0; i < to_fill.size(); ++i) {
        const int w = to_fill[i];
        const bool joined = joined_everywhere(i);
        if (joined) {
            p2p::admit(w, incarnations[i]);
            set_incarnation(w, incarnations[i], round);
            out->replacements.push_back(w);
        }
        if (mode == FTMPI_COMM_MODE_REBUILD_APPEND) {
            if (joined) out->world.push_back(w);
        } else {
            out->world[static_cast<size_t>(slots[i])] = joined ? w : -1;
        }
    }
    return MPI_SUCCESS;
}

void send_state(const Rebuilt &r) {
    if (r.replacements.empty()) return;
    MPI_Comm world = MPI_COMM_WORLD;
    const int world_size = static_cast<int>(std::max<size_t>(world->group->world.size(), 1));
    // Header: round, group extent, agreements so far on MPI_COMM_WORLD, number
    // of world ranks, the recovery's shadow epoch; body: the group, then
    // every world rank's incarnation.
    int32_t header[5] = {r.round, static_cast<int32_t>(world->group->world.size()),
                         static_cast<int32_t>(world->ft.agreements.load()), 0,
                         static_cast<int32_t>(shadow_epoch(world) + 1)};  // the shape being installed
    std::vector<int32_t> body(world->group->world.begin(), world->group->world.end());
    int max_world = 0;
    for (int w : world->group->world) max_world = std::max(max_world, w + 1);
    max_world = std::max(max_world, world_size);
    header[3] = max_world;
    for (int w = 0; w < max_world; ++w) body.push_back(incarnation(w));
    // Every survivor sends it (the replacement keeps the first), so the
    // state does not depend on one survivor living through the recovery.
    for (int w : r.replacements) {
        const int dest = comm::comm_rank_of_world(world, w);
        if (dest == MPI_UNDEFINED) continue;
        p2p::send(header, 5, MPI_INT32_T, dest, state_header_tag, world, p2p::Channel::collective);
        p2p::send(body.data(), static_cast<int>(body.size()), MPI_INT32_T, dest, state_body_tag, world,
                  p2p::Channel::collective);
    }
}

}  // namespace ftmpi::ft::recovery
