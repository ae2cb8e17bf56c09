#include "job_recovery.hpp"

namespace harness::ftmpirun {

Recovery::Recovery(std::unique_ptr<policy::Policy> policy, std::optional<GridLayout> grid,
                   std::unique_ptr<policy::Placement> placement)
    : policy_(std::move(policy)), grid_(std::move(grid)), placement_(std::move(placement)) {}

std::string Recovery::host_name(int host) const {
    if (!facts_ || host < 0 || host >= static_cast<int>(facts_->hosts.size())) return "host " + std::to_string(host);
    std::string s = "daemon " + facts_->hosts[static_cast<std::size_t>(host)].member_id;
    if (grid_ && grid_->grid_of_host[static_cast<std::size_t>(host)] >= 0)
        s += " " + grid_->place(grid_->grid_of_host[static_cast<std::size_t>(host)]);
    return s;
}

Recovery::Outcome Recovery::on_fault(int rank, int incarnation, int host, bool host_failed, const JobFacts &facts) {
    Outcome out;
    facts_ = &facts;
    out_ = &out;
    fault_host_ = host;
    policy::Fault f;
    f.rank = rank;
    f.incarnation = incarnation;
    f.host = host;
    f.host_failed = host_failed;
    f.host_failures = ++faults_on_host_[host];
    if (host >= 0 && host < static_cast<int>(facts.hosts.size())) {
        const HostFacts &h = facts.hosts[static_cast<std::size_t>(host)];
        f.host_name = h.member_id;
        f.switch_name = h.switch_name;
        if (!h.switch_name.empty())
            for (const auto &other : facts.hosts) {
                if (other.switch_name != h.switch_name) continue;
                ++f.switch_hosts;
                if (!other.alive) ++f.switch_failed_hosts;
            }
    }
    policy::Decision d = policy_->decide(f);
    out.notes.push_back("policy: rank " + std::to_string(rank) + " (" + host_name(host) + "): " + d.protocol +
                        (d.detector.empty() ? "" : " by detector " + d.detector) +
                        (d.reason.empty() ? "" : " (" + d.reason + ")"));
    // (recover's reason starts with the protocol's name.)
    std::string failed = policy_->recover(f, d, *this);
    // Nothing recovered it: a gap a later round asks to refill.
    if (!failed.empty() && !out.plans.count(rank))
        out.plans[rank] = {RankPlan::Kind::leave_out, -1, -1, "the recovery policy leaves it out: " + failed};
    facts_ = nullptr;
    out_ = nullptr;
    return out;
}

std::vector<std::string> Recovery::on_host_lost(int host, const JobFacts &facts) {
    if (!placement_ || host < 0 || host >= static_cast<int>(grid_->grid_of_host.size())) return {};
    const int grid_host = grid_->grid_of_host[static_cast<std::size_t>(host)];
    if (grid_host < 0 || lost_to_placement_.count(grid_host)) return {};
    for (int h : facts.rank_host)
        if (h == host) return {};
    for (int h : facts.planned_hosts)
        if (h == host) return {};
    auto sub = placement_->fail(grid_host);
    if (!sub) return {"placement: cannot take " + grid_->place(grid_host) + " out: " + sub.error().message};
    lost_to_placement_.insert(grid_host);
    return {"placement: free host " + grid_->place(grid_host) + " lost; no slide will use it"};
}

std::string Recovery::start_on(int rank, int host) {
    if (host < 0 || host >= static_cast<int>(facts_->hosts.size())) return "no job host " + std::to_string(host);
    if (!facts_->hosts[static_cast<std::size_t>(host)].alive) return host_name(host) + " failed";
    out_->plans[rank] = {RankPlan::Kind::start_on, host, -1, {}};
    return {};
}

std::string Recovery::migrate(int rank, bool avoid_switch) {
    const std::string &avoid = facts_->hosts[static_cast<std::size_t>(fault_host_)].switch_name;
    if (placement_) return slide(rank, fault_host_, avoid_switch ? avoid : std::string());
    // The alive job host with the fewest of the job's processes, other than
    // the failed one (and off its switch when asked).
    int best = -1;
    for (int h = 0; h < static_cast<int>(facts_->hosts.size()); ++h) {
        const HostFacts &c = facts_->hosts[static_cast<std::size_t>(h)];
        if (h == fault_host_ || !c.alive) continue;
        if (avoid_switch && !avoid.empty() && c.switch_name == avoid) continue;
        if (best < 0 || c.processes < facts_->hosts[static_cast<std::size_t>(best)].processes) best = h;
    }
    if (best < 0)
        return avoid_switch && !avoid.empty() ? "no alive job host off switch " + avoid
                                              : std::string("no other alive job host");
    out_->plans[rank] = {RankPlan::Kind::start_on, best, -1, {}};
    return {};
}

// The placement plugin's substitution for the loss of `host`: every move
// becomes a plan; the ranks it moves besides `rank` are fenced by the caller.
// avoid_switch: no move onto a grid host behind that switch (refused when
// every method needs one, as migrate without a placement refuses).
std::string Recovery::slide(int rank, int host, const std::string &avoid_switch) {
    const int grid_host = grid_->grid_of_host[static_cast<std::size_t>(host)];
    if (grid_host < 0) return host_name(host) + " is not in the host grid";
    if (lost_to_placement_.count(grid_host)) return host_name(host) + " was lost before";
    std::vector<int> avoid;
    if (!avoid_switch.empty())
        for (std::size_t h = 0; h < facts_->hosts.size() && h < grid_->grid_of_host.size(); ++h)
            if (facts_->hosts[h].switch_name == avoid_switch && grid_->grid_of_host[h] >= 0 &&
                static_cast<int>(h) != host)
                avoid.push_back(grid_->grid_of_host[h]);
    auto sub = placement_->fail(grid_host, avoid);
    if (!sub)
        return "placement: " + (avoid.empty() ? std::string() : "off switch " + avoid_switch + ": ") +
            sub.error().message;
    lost_to_placement_.insert(grid_host);
    std::string moves;
    for (const auto &m : sub->moves) {
        const int to = grid_->host_of_grid[static_cast<std::size_t>(m.to)];
        if (to < 0 || !facts_->hosts[static_cast<std::size_t>(to)].alive)
            return "placement: grid place " + grid_->place(m.to) + " has no alive host";
        out_->plans[m.rank] = {RankPlan::Kind::start_on, to, -1, {}, ++next_order_};
        if (m.rank != rank) out_->moved.push_back(m.rank);
        moves += (moves.empty() ? "" : ", ") + std::string("rank ") + std::to_string(m.rank) + " " +
            grid_->place(m.from) + "→" + grid_->place(m.to);
    }
    out_->notes.push_back(
        "placement: " + host_name(host) + " lost; " +
        (sub->method.empty() ? std::string("it held no rank") : sub->method + " substitution: " + moves));
    return out_->plans.count(rank) ? std::string() : "placement: no place for rank " + std::to_string(rank);
}

std::string Recovery::promote(int rank) {
    for (int s = 0; s < static_cast<int>(facts_->standby_host.size()); ++s) {
        const int host = facts_->standby_host[static_cast<std::size_t>(s)];
        if (host < 0 || standbys_taken_.count(s) || !facts_->hosts[static_cast<std::size_t>(host)].alive) continue;
        standbys_taken_.insert(s);
        out_->plans[rank] = {RankPlan::Kind::promote, host, s, {}};
        return {};
    }
    return "no standby left";
}

void Recovery::leave_out(int rank, const std::string &reason) {
    out_->plans[rank] = {RankPlan::Kind::leave_out, -1, -1, "the recovery policy leaves it out: " + reason, 0, true};
}

}  // namespace harness::ftmpirun
