// Decoding of the job topic's failure events (events.hpp).
#include "ft/events.hpp"

#include <harness/common/pack.hpp>

#include <csignal>
#include <cstdlib>

namespace ftmpi::ft {

std::string kind_of(const std::vector<uint8_t> &payload) {
    harness::Unpacker in(payload);
    std::string kind;
    return in.str(kind) ? kind : std::string();
}

bool parse_tag(const std::string &tag, int *rank, int *incarnation) {
    if (tag.empty()) return false;
    char *end = nullptr;
    long r = std::strtol(tag.c_str(), &end, 10);
    if (end == tag.c_str() || r < 0 || r > 1 << 30) return false;
    long inc = 0;
    if (*end == '.') {
        const char *start = end + 1;
        inc = std::strtol(start, &end, 10);
        if (end == start || inc < 0 || inc > 1 << 30) return false;
    }
    if (*end != '\0') return false;
    *rank = static_cast<int>(r);
    *incarnation = static_cast<int>(inc);
    return true;
}

std::string signal_name(int sig) {
    switch (sig) {
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    case SIGQUIT: return "SIGQUIT";
    default: return "signal " + std::to_string(sig);
    }
}

std::optional<FailureEvent> decode_failure(const std::vector<uint8_t> &payload) {
    harness::Unpacker in(payload);
    std::string kind;
    if (!in.str(kind)) return std::nullopt;
    FailureEvent e;
    if (kind == "proc_exit") {
        std::string member, tag;
        int64_t handle = 0, pid = 0;
        int32_t code = 0, sig = 0;
        if (!in.str(member) || !in.i64(handle) || !in.i64(pid) || !in.str(tag) || !in.i32(code) || !in.i32(sig))
            return std::nullopt;
        if (!parse_tag(tag, &e.rank, &e.incarnation)) return std::nullopt;
        // The process's last lifecycle word (spawn_notify, absent from older
        // daemons): "initialized" means it ended without MPI_Finalize, a
        // failure whatever its status; "finalized" is a normal end.
        std::string mpi_state;
        if (!in.done() && !in.str(mpi_state)) return std::nullopt;
        if (sig != 0)
            e.why = "killed by signal " + std::to_string(sig) + " (" + signal_name(sig) + ") on member " + member;
        else
            e.why = "exited with status " + std::to_string(code);
        if (sig == 0 && mpi_state == "finalized")
            e.normal_exit = true;
        else if (sig == 0 && mpi_state.empty())
            e.normal_exit = code == 0;
        if (sig == 0 && mpi_state != "finalized") e.why += " before MPI_Finalize";
        return e;
    }
    if (kind == "rank_lost") {
        int32_t rank = 0, inc = 0;
        std::string member, why;
        if (!in.i32(rank) || !in.i32(inc) || !in.str(member) || !in.str(why) || rank < 0) return std::nullopt;
        e.rank = rank;
        e.incarnation = inc;
        e.why = "lost with its host " + member + ": " + why;
        return e;
    }
    if (kind == "fence") {
        int32_t rank = 0, inc = 0, by = 0;
        std::string why;
        if (!in.i32(rank) || !in.i32(inc) || !in.i32(by) || !in.str(why) || rank < 0) return std::nullopt;
        e.rank = rank;
        e.incarnation = inc;
        e.why = why + " (fenced by rank " + std::to_string(by) + ")";
        return e;
    }
    return std::nullopt;
}

bool decode_respawn(const std::vector<uint8_t> &payload, int *round, std::vector<int> *ranks) {
    harness::Unpacker in(payload);
    std::string kind;
    int32_t r = 0, n = 0;
    if (!in.str(kind) || kind != "respawn" || !in.i32(r) || !in.i32(n) || n < 0) return false;
    ranks->clear();
    for (int32_t i = 0; i < n; ++i) {
        int32_t rank = 0;
        if (!in.i32(rank)) return false;
        ranks->push_back(rank);
    }
    *round = r;
    return true;
}

bool decode_respawn_failed(const std::vector<uint8_t> &payload, int *round, int *rank) {
    harness::Unpacker in(payload);
    std::string kind;
    int32_t r = 0, k = 0;
    if (!in.str(kind) || kind != "respawn_failed" || !in.i32(r) || !in.i32(k)) return false;
    *round = r;
    *rank = k;
    return true;
}

bool decode_promote(const std::vector<uint8_t> &payload, Promotion *out) {
    harness::Unpacker in(payload);
    std::string kind;
    int32_t standby = 0, round = 0, rank = 0, incarnation = 0;
    if (!in.str(kind) || kind != "promote" || !in.i32(standby) || !in.i32(round) || !in.i32(rank) ||
        !in.i32(incarnation))
        return false;
    if (standby < 0 || round < 0 || rank < 0 || incarnation < 0) return false;
    *out = Promotion{standby, round, rank, incarnation};
    return true;
}

PromoteMatch match_promote(const std::vector<uint8_t> &payload, int number, int world_size) {
    PromoteMatch m;
    if (kind_of(payload) != "promote") return m;
    Promotion p;
    if (!decode_promote(payload, &p)) {
        m.ignored = "a promote event whose fields do not parse (expected i32 standby, round, rank, incarnation, none "
                    "negative)";
        return m;
    }
    if (p.standby != number) return m;
    if (p.rank >= world_size || p.incarnation < 1 || p.round < 1) {
        m.error = "its promote names rank " + std::to_string(p.rank) + " incarnation " + std::to_string(p.incarnation) +
            " round " + std::to_string(p.round) + ", no replacement in a job of " + std::to_string(world_size) +
            " ranks (rank below the size, incarnation and round 1 or more)";
        return m;
    }
    m.promotion = p;
    return m;
}

std::vector<uint8_t> encode_fence(int rank, int incarnation, int by_rank, const std::string &why) {
    harness::Packer out;
    out.str("fence").i32(rank).i32(incarnation).i32(by_rank).str(why);
    return out.take();
}

}  // namespace ftmpi::ft
