// The membership reconciler: on the leader, makes the raft configuration
// follow the VM's members. Level-triggered — every round compares what is
// with what should be and makes at most one change (c-raft allows one
// configuration change at a time), so a new leader simply carries on where a
// dead one stopped. Rounds run on every membership hook and every 300 ms.
//
// Before that, while this server has no raft state, the same thread forms
// the cluster (formation.cpp).
//
// Policy: voters up to 3 (5 once at least 5 daemons run the DRD), the rest
// standbys; a voter whose daemon is declared failed is replaced by a standby
// (promoted first, so the quorum never shrinks below what is alive) and then
// removed. A restarted daemon keeps its raft id (raft_id file under its root)
// and comes back as the same server with its log.
#include "service.hpp"

#include <harness/hlib/hlib.hpp>

#include <set>

namespace harness::drd {

namespace {

using namespace std::chrono_literals;

const char *role_name(Role r) {
    switch (r) {
    case Role::voter: return "voter";
    case Role::standby: return "standby";
    case Role::spare: return "spare";
    }
    return "?";
}

}  // namespace

void Service::reconcile_loop() {
    bool again = true;
    while (!stopping_) {
        bool forming = formation_ != Formation::started;
        {
            std::unique_lock lock(reconcile_mutex_);
            // Forming rounds are quick: a write may be waiting for a leader.
            if (!again)
                reconcile_cv_.wait_for(lock, forming ? 100ms : 300ms,
                                       [&] { return members_changed_ || stopping_.load(); });
            members_changed_ = false;
        }
        if (stopping_) break;
        try {
            // Once raft runs, reconcile at once (a leader adds the others).
            again = forming ? form_once() : reconcile_once();  // after a change, look again at once
        } catch (const std::exception &e) {
            log(3, std::string("vm/drd: membership round failed: ") + e.what());
            again = false;
        }
    }
}

bool Service::reconcile_once() {
    auto deadline = Clock::now() + 2s;
    auto view = node_->view(deadline);
    if (!view || !view->is_leader) return false;
    auto members = this->members();
    auto records = server_records();
    std::map<std::string, const MemberEntry *> by_id;
    for (const auto &m : members) by_id[m.id] = &m;

    auto record_server = [&](std::uint64_t raft_id, const MemberEntry &m) {
        Packer p;
        p.str(m.id).str(m.address);
        return node_->submit(Command{Op::put, kServersPrefix + std::to_string(raft_id), p.take(), 0}, deadline);
    };

    // 1. This daemon's own record (the leader's daemon is where followers forward).
    for (const auto &m : members) {
        if (!m.is_self) continue;
        auto it = records.find(view->self_id);
        if (it == records.end() || it->second.member_id != m.id || it->second.daemon_address != m.address) {
            auto r = record_server(view->self_id, m);
            if (!r) log(2, "vm/drd: cannot record this server: " + r.error().describe());
            return r.ok();
        }
    }

    std::set<std::uint64_t> in_config;
    for (const auto &s : view->servers) in_config.insert(s.id);
    std::set<std::string> mapped;  // member ids that have a raft server in the configuration
    for (const auto &[id, rec] : records)
        if (in_config.count(id)) mapped.insert(rec.member_id);

    // 2. A live daemon without a server: learn its raft id and address, add it.
    for (const auto &m : members) {
        if (!m.alive || m.is_self || mapped.count(m.id)) continue;
        auto reply = call_member(m.address, "raft_info", {}, Clock::now() + 1s);
        if (!reply) {
            log(0, "vm/drd: member " + m.id + " has no drd yet: " + reply.error().describe());
            continue;
        }
        Unpacker u(*reply);
        std::int64_t raft_id = 0;
        std::string raft_address, formation;
        if (!u.i64(raft_id) || !u.str(raft_address) || raft_id <= 0) {
            log(2, "vm/drd: member " + m.id + " sent a malformed raft_info reply");
            continue;
        }
        // A server still forming has not started raft: it starts (empty)
        // once it sees this one running, and is added in a later round. (A
        // reply without the field comes from a DRD that always starts raft.)
        if (u.str(formation) && formation != formation_name(Formation::started)) {
            log(0, "vm/drd: member " + m.id + " is still " + formation);
            continue;
        }
        auto id = static_cast<std::uint64_t>(raft_id);
        // A restarted server that could not get its old port back: take the
        // stale address out first; a later round adds it at the new one.
        for (const auto &s : view->servers) {
            if (s.id != id || s.address == raft_address) continue;
            auto removed = node_->remove(id, deadline);
            log(removed ? 1 : 2,
                "vm/drd: member " + m.id + " moved its raft server " + std::to_string(id) + " from " + s.address +
                    " to " + raft_address + "; removing the old address" +
                    (removed ? "" : ": " + removed.error().describe()));
            return removed.ok();
        }
        if (auto r = record_server(id, m); !r) {
            log(2, "vm/drd: cannot record server of member " + m.id + ": " + r.error().describe());
            return false;
        }
        if (!in_config.count(id)) {
            auto added = node_->add(id, raft_address, deadline);
            log(added ? 1 : 2,
                "vm/drd: adding member " + m.id + " (raft server " + std::to_string(id) + " at " + raft_address + ")" +
                    (added ? "" : ": " + added.error().describe()));
            return added.ok();
        }
        return true;
    }

    // 3. Roles. A server whose record is missing is left alone (unknown).
    std::vector<const ServerInfo *> live_voters, dead_voters, live_standbys, live_spares, dead_others;
    std::size_t live = 0;
    for (const auto &s : view->servers) {
        auto rec = records.find(s.id);
        if (rec == records.end()) continue;
        auto m = by_id.find(rec->second.member_id);
        bool alive = s.id == view->self_id || (m != by_id.end() && m->second->alive);
        live += alive ? 1 : 0;
        if (s.role == Role::voter)
            (alive ? live_voters : dead_voters).push_back(&s);
        else if (!alive)
            dead_others.push_back(&s);
        else if (s.role == Role::standby)
            live_standbys.push_back(&s);
        else
            live_spares.push_back(&s);
    }
    std::size_t target = live >= 5 ? 5 : 3;
    // Logs a change; true when it succeeded (a failed one waits for the next round).
    auto change = [&](const std::string &what, std::uint64_t id, Result<void> r) {
        auto who = records.count(id) ? records[id].member_id : std::to_string(id);
        log(r ? 1 : 2, "vm/drd: " + what + " " + who + (r ? "" : ": " + r.error().describe()));
        return r.ok();
    };
    if (live_voters.size() < target && (!live_standbys.empty() || !live_spares.empty())) {
        const ServerInfo *s = !live_standbys.empty() ? live_standbys.front() : live_spares.front();
        return change(s->role == Role::standby ? "promoting standby" : "making voter", s->id,
                      node_->assign(s->id, Role::voter, deadline));
    }
    if (!dead_voters.empty()) {
        return change("removing failed voter", dead_voters.front()->id,
                      node_->remove(dead_voters.front()->id, deadline));
    }
    if (!dead_others.empty()) {
        const ServerInfo *s = dead_others.front();
        return change(std::string("removing failed ") + role_name(s->role), s->id, node_->remove(s->id, deadline));
    }
    if (!live_spares.empty()) {
        return change("making standby", live_spares.front()->id,
                      node_->assign(live_spares.front()->id, Role::standby, deadline));
    }
    return false;
}

}  // namespace harness::drd
