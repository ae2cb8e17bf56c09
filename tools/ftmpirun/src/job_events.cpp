#include "job_events.hpp"

namespace harness::ftmpirun {

JobRequest parse_job_event(std::span<const std::uint8_t> payload) {
    JobRequest out;
    Unpacker u(payload);
    std::string kind;
    if (!u.str(kind)) return out;
    if (kind == "fence") {
        FenceRequest f;
        std::int32_t rank = 0, inc = 0, by = 0;
        if (!u.i32(rank) || !u.i32(inc) || !u.i32(by) || !u.str(f.why) || rank < 0 || inc < 0) {
            out.malformed = "fence";
            return out;
        }
        f.rank = rank;
        f.incarnation = inc;
        f.by_rank = by;
        out.fence = std::move(f);
    } else if (kind == "respawn") {
        RespawnRequest r;
        std::int32_t round = 0, n = 0;
        if (!u.i32(round) || !u.i32(n) || n < 0 || n > 1 << 20) {
            out.malformed = "respawn";
            return out;
        }
        r.round = round;
        for (std::int32_t i = 0; i < n; ++i) {
            std::int32_t rank = 0;
            if (!u.i32(rank) || rank < 0) {
                out.malformed = "respawn";
                return out;
            }
            r.ranks.push_back(rank);
        }
        out.respawn = std::move(r);
    }
    return out;
}

Bytes pack_rank_lost(int rank, int incarnation, const std::string &member, const std::string &why) {
    Packer p;
    p.str("rank_lost").i32(rank).i32(incarnation).str(member).str(why);
    return p.take();
}

Bytes pack_respawned(int round, int rank, int incarnation, const std::string &member) {
    Packer p;
    p.str("respawned").i32(round).i32(rank).i32(incarnation).str(member);
    return p.take();
}

Bytes pack_respawn_failed(int round, int rank, const std::string &why) {
    Packer p;
    p.str("respawn_failed").i32(round).i32(rank).str(why);
    return p.take();
}

Bytes pack_fence(int rank, int incarnation, int by_rank, const std::string &why) {
    Packer p;
    p.str("fence").i32(rank).i32(incarnation).i32(by_rank).str(why);
    return p.take();
}

Bytes pack_respawn(int round, const std::vector<int> &ranks) {
    Packer p;
    p.str("respawn").i32(round).i32(static_cast<std::int32_t>(ranks.size()));
    for (int r : ranks) p.i32(r);
    return p.take();
}

}  // namespace harness::ftmpirun
