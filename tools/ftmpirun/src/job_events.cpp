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
    } else if (kind == "spawn") {
        SpawnRequest r;
        std::int32_t leader = 0, apps = 0;
        bool ok = u.str(r.id) && u.i32(leader) && u.i32(apps) && leader >= 0 && apps >= 0 && apps <= 1024;
        for (std::int32_t a = 0; ok && a < apps; ++a) {
            SpawnApp app;
            std::int32_t argc = 0, count = 0;
            ok = u.str(app.command) && u.i32(argc) && argc >= 0 && argc <= 4096;
            for (std::int32_t i = 0; ok && i < argc; ++i) ok = u.str(app.argv.emplace_back());
            ok = ok && u.i32(count) && u.str(app.host) && u.str(app.wdir);
            app.count = count;
            r.apps.push_back(std::move(app));
        }
        // A later field: requests of older libraries end before it.
        std::int32_t lowest = 0;
        if (ok && !u.done()) ok = u.i32(lowest) && lowest >= 0;
        if (!ok) {
            out.malformed = "spawn";
            return out;
        }
        r.leader = leader;
        r.lowest_base = lowest;
        out.spawn = std::move(r);
    }
    return out;
}

Bytes pack_spawned(const std::string &id, int spawn_id, int base, int count) {
    Packer p;
    p.str("spawned").str(id).i32(spawn_id).i32(base).i32(count);
    return p.take();
}

Bytes pack_spawn_failed(const std::string &id, const std::string &why) {
    Packer p;
    p.str("spawn_failed").str(id).str(why);
    return p.take();
}

Bytes pack_spawn(const SpawnRequest &r) {
    Packer p;
    p.str("spawn").str(r.id).i32(r.leader).i32(static_cast<std::int32_t>(r.apps.size()));
    for (const auto &a : r.apps) {
        p.str(a.command).i32(static_cast<std::int32_t>(a.argv.size()));
        for (const auto &arg : a.argv) p.str(arg);
        p.i32(a.count).str(a.host).str(a.wdir);
    }
    p.i32(r.lowest_base);
    return p.take();
}

Bytes pack_rank_lost(int rank, int incarnation, const std::string &member, const std::string &why) {
    Packer p;
    p.str("rank_lost").i32(rank).i32(incarnation).str(member).str(why);
    return p.take();
}

Bytes pack_promote(int standby, int round, int rank, int incarnation) {
    Packer p;
    p.str("promote").i32(standby).i32(round).i32(rank).i32(incarnation);
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
