// Cluster formation: how a DRD server with no raft state learns whether to
// bootstrap the VM's raft cluster or to wait to be added to it.
//
// Deciding once, when the plugin loads, is not enough: when every daemon
// starts without vm/drd and loads it on demand, each one sees the others
// alive and none would bootstrap; when some daemons never load it, they must
// not count. A server alone in the VM bootstraps at once. Otherwise a
// forming server asks, every round, the DRD of every live member
// (raft_info, which reports its formation state):
//   * a member whose raft runs (resumed, bootstrapped, or waiting to be
//     added) means a cluster exists: start raft empty; its leader adds us;
//   * a member that does not answer for sure (unreachable, timeout) leaves
//     the question open: try again next round;
//   * a member without vm/drd loaded ("not loaded": NOT_FOUND) takes no part;
//   * otherwise propose: become a candidate, then ask everybody again, and
//     bootstrap only if still no member runs raft or is a candidate. A
//     candidate that sees a candidate with a smaller member id withdraws.
// Two servers cannot both bootstrap: each became a candidate before its
// second look and stays one until it runs raft, so whichever looked at the
// other last saw it as a candidate (or running) and did not bootstrap.
#include "service.hpp"

#include <algorithm>

#include <harness/hlib/hlib.hpp>

namespace harness::drd {

namespace {

using namespace std::chrono_literals;

// What one member's DRD said about itself.
enum class Seen { absent, forming, candidate, started, unknown };

struct Peer {
    std::string member_id;
    Seen seen = Seen::unknown;
};

}  // namespace

const char *formation_name(Formation f) {
    switch (f) {
    case Formation::forming: return "forming";
    case Formation::candidate: return "candidate";
    case Formation::started: return "started";
    }
    return "?";
}

bool Service::form_once() {
    auto ask = [&](const MemberEntry &m) {
        auto reply = call_member(m.address, "raft_info", {}, Clock::now() + 1s);
        if (!reply) return reply.error().status == HARNESS_ERR_NOT_FOUND ? Seen::absent : Seen::unknown;
        Unpacker u(*reply);
        std::int64_t raft_id = 0;
        std::string address, formation;
        if (!u.i64(raft_id) || !u.str(address)) return Seen::unknown;
        // A DRD that does not report its formation always starts raft at load.
        if (!u.str(formation) || formation == formation_name(Formation::started)) return Seen::started;
        if (formation == formation_name(Formation::candidate)) return Seen::candidate;
        if (formation == formation_name(Formation::forming)) return Seen::forming;
        return Seen::unknown;
    };
    auto members = this->members();
    auto start = [&](bool bootstrap, const std::string &why) {
        auto r = node_->begin(bootstrap, Clock::now() + 2s);
        if (!r) {
            log(3, "vm/drd: cannot start the raft server: " + r.error().describe());
            return false;
        }
        formation_ = Formation::started;
        log(1, "vm/drd: raft server " + std::to_string(node_->id()) + " started: " + why);
        return true;
    };
    // Alone in the VM (a launcher's single-job daemon, a VM's first daemon):
    // nobody to ask or to race with, so no round trip through this daemon,
    // which may be busy loading this very plugin for the request that wants
    // the directory.
    if (std::none_of(members.begin(), members.end(), [](const MemberEntry &m) { return !m.is_self && m.alive; }))
        return start(true, "no other member is alive; bootstrapping the VM's cluster");
    if (!callable_) {
        // Until the daemon answers for this DRD, a candidacy would be
        // invisible to the others (they would see "not loaded").
        for (const auto &m : members) {
            if (m.is_self) callable_ = ask(m) == Seen::forming;
        }
        if (!callable_) return false;
    }

    // The first look may make this server a candidate; the second decides.
    for (int look = 0; look < 2; ++look) {
        std::vector<Peer> peers;
        for (const auto &m : members) {
            if (m.is_self || !m.alive) continue;
            peers.push_back(Peer{m.id, ask(m)});
        }
        for (const auto &p : peers) {
            if (p.seen == Seen::started)
                return start(false, "member " + p.member_id + " runs the VM's cluster; waiting to be added");
        }
        for (const auto &p : peers) {
            if (p.seen == Seen::unknown) return false;
        }
        bool other_candidate = false;
        for (const auto &p : peers) {
            if (p.seen != Seen::candidate) continue;
            if (p.member_id < member_id_) {
                if (formation_ == Formation::candidate)
                    log(1, "vm/drd: member " + p.member_id + " also proposes to form the cluster; leaving it to it");
                formation_ = Formation::forming;
                return false;
            }
            other_candidate = true;
        }
        if (formation_ == Formation::forming) {
            formation_ = Formation::candidate;
            members = this->members();
            continue;
        }
        if (other_candidate) return false;  // it withdraws when it sees this one
        return start(true, "no other daemon runs it; bootstrapping the VM's cluster");
    }
    return false;
}

}  // namespace harness::drd
