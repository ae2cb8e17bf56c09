#include "faults.hpp"

#include <sstream>

namespace harness::chaos {

std::string_view name(Fault f) {
    switch (f) {
    case Fault::rank_kill: return "rank-kill";
    case Fault::daemon_kill: return "daemon-kill";
    case Fault::two_kills: return "two-kills";
    case Fault::rank_stop: return "rank-stop";
    case Fault::rank_exit: return "rank-exit";
    case Fault::link_cut: return "link-cut";
    case Fault::init_kill: return "init-kill";
    case Fault::recovery_kill: return "recovery-kill";
    }
    return "?";
}

std::string_view name(Outcome o) {
    switch (o) {
    case Outcome::ok: return "OK";
    case Outcome::wrong_answer: return "WRONG-ANSWER";
    case Outcome::hang: return "HANG";
    case Outcome::crash: return "CRASH";
    case Outcome::aborted: return "ABORTED";
    case Outcome::orphans: return "ORPHANS";
    }
    return "?";
}

std::optional<Fault> parse_fault(std::string_view text) {
    for (Fault f : kAllFaults)
        if (name(f) == text) return f;
    return std::nullopt;
}

std::optional<std::vector<Fault>> parse_faults(const std::string &list, std::string *bad) {
    if (list == "all") return std::vector<Fault>(std::begin(kAllFaults), std::end(kAllFaults));
    std::vector<Fault> out;
    std::istringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        auto f = parse_fault(item);
        if (!f) {
            *bad = item;
            return std::nullopt;
        }
        out.push_back(*f);
    }
    if (out.empty()) *bad = list;
    return out.empty() ? std::nullopt : std::optional(out);
}

Outcome expected_outcome(Fault, const std::string &mode) {
    return mode == "abort" ? Outcome::aborted : Outcome::ok;
}

}  // namespace harness::chaos
