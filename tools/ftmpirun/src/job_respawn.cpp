// job_respawn.cpp — the job's recovery side (job_controller.hpp): the
// recovery policy's plan for a failed rank, made when ftmpirun sees the
// fault (job_recovery.hpp); fencing the ranks a slide moves; replacements
// started at the survivors' respawn request; hot standbys, placed at the
// start, promoted to a failed rank, dismissed at the end.
#include "job_controller.hpp"

#include <algorithm>
#include <csignal>

namespace harness::ftmpirun {

namespace {
using namespace std::chrono_literals;
}  // namespace

// Standbys that were never promoted end with the job.
void Job::dismiss_standbys() {
    for (auto &p : procs_)
        if (p.waiting_standby() && !p.done && !dead_.count(p.place.member_id)) {
            p.done = true;
            (void)control_.at(p.place.member_id).signal(p.handle, SIGKILL, true);
        }
}

// A standby goes to a job host that runs no rank (a spare), in turn, else
// to the one running the fewest of the job's processes.
RankPlace Job::standby_place() const {
    std::vector<RankPlace> idle;
    for (const auto &h : spec_.hosts) {
        bool busy = false;
        for (const auto &r : spec_.ranks) busy |= r.member_id == h.member_id;
        if (!busy) idle.push_back(h);
    }
    int standbys = 0;
    for (const auto &p : procs_) standbys += p.standby >= 0;
    if (!idle.empty()) return idle[static_cast<std::size_t>(standbys) % idle.size()];
    auto counted = count_processes(spec_.hosts);
    auto chosen = choose_replacement_host("", false, counted);
    for (const auto &h : spec_.hosts)
        if (chosen && h.member_id == *chosen) return h;
    return spec_.hosts.front();
}

// A promoted standby that failed: its daemon's exit notice names no
// rank (it started as a standby), so the survivors learn it here, and
// its shared-memory files, which the daemon cleans up by the rank it
// started with, are removed here.
void Job::after_promoted_failure(Process &p) {
    if (!p.lost_published) {
        p.lost_published = true;
        publish(pack_rank_lost(p.rank, p.incarnation, p.place.member_id, "promoted standby ended"),
                "rank_lost for rank " + p.label());
    }
    if (dead_.count(p.place.member_id)) return;
    std::string job = std::to_string(spec_.job_id) + "-" + job_key_;
    const std::string files = "ftmpi." + job + "." + std::to_string(p.rank) + "." + std::to_string(p.incarnation);
    auto removed = run_helper(
        control_.at(p.place.member_id),
        {"find", "/dev/shm", "-maxdepth", "1", "(", "-name", files, "-o", "-name", files + ".*", ")", "-delete"});
    if (!removed || *removed != 0)
        printer_.note("cannot remove the shared-memory files of rank " + p.label() + " on daemon " + p.place.member_id);
}

int Job::host_index(const std::string &member) const {
    for (std::size_t h = 0; h < spec_.hosts.size(); ++h)
        if (spec_.hosts[h].member_id == member) return static_cast<int>(h);
    return -1;
}

JobFacts Job::facts() const {
    JobFacts f;
    for (std::size_t h = 0; h < spec_.hosts.size(); ++h) {
        HostFacts hf;
        hf.member_id = spec_.hosts[h].member_id;
        hf.alive = !dead_.count(hf.member_id);
        hf.switch_name = h < spec_.host_switch.size() ? spec_.host_switch[h] : std::string();
        for (const auto &p : procs_) hf.processes += !p.done && p.place.member_id == hf.member_id;
        f.hosts.push_back(hf);
    }
    for (const auto &[rank, plan] : plans_)
        if (plan.kind == RankPlan::Kind::start_on) f.planned_hosts.push_back(plan.host);
    // A daemon seen to stop answering is down for the detectors before
    // the VM declares it failed.
    for (std::size_t i : lost_seen_)
        if (int h = host_index(procs_.at(i).place.member_id); h >= 0)
            f.hosts[static_cast<std::size_t>(h)].alive = false;
    f.rank_host.assign(spec_.ranks.size(), -1);
    f.standby_host.assign(static_cast<std::size_t>(spec_.standbys), -1);
    for (const auto &p : procs_) {
        if (p.waiting_standby()) {
            if (!p.done) f.standby_host[static_cast<std::size_t>(p.standby)] = host_index(p.place.member_id);
        } else if (p.rank >= 0 && p.rank < static_cast<int>(f.rank_host.size())) {
            f.rank_host[static_cast<std::size_t>(p.rank)] = host_index(p.place.member_id);
        }
    }
    return f;
}

// The policy decides where p's rank goes next; the ranks a slide moves
// are fenced as the survivors learn of p's loss, so their recovery takes
// them in the same round. lost: p's daemon stopped answering (its host
// counts as failed before the VM says so).
// at_host ≥ 0: the fault is at that job host (a planned host that died
// before the rank started there), not at p's.
void Job::plan_recovery(const Process &p, bool lost, int at_host) {
    const int rank = p.rank;
    const int host = at_host >= 0 ? at_host : host_index(p.place.member_id);
    const bool host_failed = at_host >= 0 || lost || !p.lost_why.empty() || dead_.count(p.place.member_id) > 0;
    auto outcome = spec_.recovery->on_fault(rank, p.incarnation, host, host_failed, facts());
    for (const auto &n : outcome.notes) printer_.note(n);
    for (const auto &[r, plan] : outcome.plans) plans_[r] = plan;
    await_respawn(rank, p.incarnation);
    // The survivors learn of the lost rank when the VM declares its
    // daemon failed (rank_lost); fenced before that, the moved ranks
    // would be agreed on first and the lost rank in a second round.
    const bool lost_unconfirmed = host_failed && !dead_.count(p.place.member_id) && at_host < 0;
    for (int moved : outcome.moved) {
        if (lost_unconfirmed)
            fence_when_declared_[p.place.member_id].push_back(moved);
        else
            fence_moved(moved);
    }
}

// Kills the process of a rank a slide moves (its plan says where to).
void Job::fence_moved(int rank) {
    Process *latest = latest_process(rank);
    if (!latest || latest->done || !plans_.count(rank)) return;
    await_respawn(rank, latest->incarnation);
    const RankPlan &to = plans_.at(rank);
    latest->moved_why =
        "moved to daemon " + spec_.hosts[static_cast<std::size_t>(to.host)].member_id + " by the sliding substitution";
    printer_.note("rank " + latest->label() + " is " + latest->moved_why + ": killing it");
    if (dead_.count(latest->place.member_id)) return;
    auto killed = control_.at(latest->place.member_id).signal(latest->handle, SIGKILL, true);
    if (!killed) printer_.note("cannot kill rank " + latest->label() + ": " + killed.error().describe());
}

Process *Job::latest_process(int rank) {
    Process *latest = nullptr;
    for (auto &p : procs_)
        if (p.rank == rank && !p.waiting_standby() && (!latest || p.incarnation > latest->incarnation)) latest = &p;
    return latest;
}

void Job::on_respawn(const RespawnRequest &r) {
    const int np = static_cast<int>(spec_.ranks.size());
    // A slide's ranks start in its pipeline order.
    std::vector<int> ranks = r.ranks;
    auto order = [&](int rank) {
        auto it = plans_.find(rank);
        return it == plans_.end() ? 0 : it->second.order;
    };
    std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) { return order(a) < order(b); });
    for (int rank : ranks) {
        if (!respawned_.insert({r.round, rank}).second) continue;  // once per (round, rank)
        if (rank >= np) {
            publish(pack_respawn_failed(r.round, rank,
                                        "no rank " + std::to_string(rank) + " in a job of " + std::to_string(np)),
                    "respawn_failed");
            continue;
        }
        respawn_one(r.round, rank);
    }
}

void Job::respawn_one(int round, int rank) {
    // A gap the policy chose (IGNORE): the survivors ask for it again at
    // every later round, and the answer stays no.
    if (auto gap = chosen_gaps_.find(rank); gap != chosen_gaps_.end()) {
        publish(pack_respawn_failed(round, rank, gap->second), "respawn_failed");
        return;
    }
    // The rank's latest process: it is failed in the job's view, so it
    // must not run on (fail-stop) — kill it if it still does.
    Process *latest = latest_process(rank);
    if (!latest->done && !dead_.count(latest->place.member_id))
        (void)control_.at(latest->place.member_id).signal(latest->handle, SIGKILL, true);
    const int incarnation = latest->incarnation + 1;
    const std::string failed_on = latest->place.member_id;

    auto fail = [&](const std::string &why) {
        printer_.note("cannot start a replacement for rank " + std::to_string(rank) + " (round " +
                      std::to_string(round) + "): " + why);
        publish(pack_respawn_failed(round, rank, why), "respawn_failed");
    };
    // The recovery policy's plan, made when the failure was seen; made
    // again when it was not seen, or when the host it chose died since.
    auto take_plan = [&]() -> std::optional<RankPlan> {
        auto it = plans_.find(rank);
        if (it == plans_.end()) return std::nullopt;
        RankPlan taken = it->second;
        plans_.erase(it);
        return taken;
    };
    std::optional<RankPlan> plan = take_plan();
    const bool stale = plan && plan->kind == RankPlan::Kind::start_on &&
        dead_.count(spec_.hosts[static_cast<std::size_t>(plan->host)].member_id);
    if (stale)
        printer_.note("daemon " + spec_.hosts[static_cast<std::size_t>(plan->host)].member_id + ", planned for rank " +
                      std::to_string(rank) + ", failed since; deciding again");
    if ((!plan || stale) && spec_.recovery && rebuilds()) {
        // A stale plan's host is where the policy (and its placement)
        // put the rank: the fault is there.
        plan_recovery(*latest, false, stale ? plan->host : -1);
        plan = take_plan();
    }
    awaiting_respawn_.erase(rank);  // asked for: what is waited on now is the start
    if (plan && plan->kind == RankPlan::Kind::leave_out) {
        if (plan->chosen) chosen_gaps_[rank] = plan->why;
        printer_.note("rank " + std::to_string(rank) + " gets no replacement (round " + std::to_string(round) +
                      "): " + plan->why);
        publish(pack_respawn_failed(round, rank, plan->why), "respawn_failed");
        return;
    }
    if (plan && plan->kind == RankPlan::Kind::promote && promote(round, rank, incarnation, plan->standby)) return;
    RankPlace where;
    if (plan && plan->kind == RankPlan::Kind::start_on &&
        !dead_.count(spec_.hosts[static_cast<std::size_t>(plan->host)].member_id)) {
        where = spec_.hosts[static_cast<std::size_t>(plan->host)];
    } else {
        if (plan) printer_.note("the planned place for rank " + std::to_string(rank) + " is gone; choosing again");
        const std::vector<RankPlace> candidates = alive_candidates();
        const std::vector<Candidate> counted = count_processes(candidates);
        bool failed_on_alive = false;
        for (const auto &c : candidates) failed_on_alive |= c.member_id == failed_on;
        auto chosen = choose_replacement_host(failed_on, failed_on_alive, counted);
        if (!chosen)
            return fail(dir_member_.empty() ? "no alive daemon left"
                                            : "the job's only daemon " + dir_member_ + " failed");
        for (const auto &c : candidates)
            if (c.member_id == *chosen) where = c;
    }

    auto started = start_process(rank, incarnation, where, replacement_environment(incarnation, round));
    if (!started) return fail("daemon " + where.member_id + ": " + started.error().describe());
    (void)control_.at(where.member_id).write_stdin(started->handle, {}, true, 0ms);
    outcome_.replacement_started(rank);
    start_follower(procs_.size() - 1);
    awaiting_init_[procs_.size() - 1] = {rank, incarnation, std::chrono::steady_clock::now()};
    printer_.note("started rank " + std::to_string(rank) + "." + std::to_string(incarnation) + " on daemon " +
                  where.member_id + " (round " + std::to_string(round) + ") to replace rank " + std::to_string(rank) +
                  (incarnation > 1 ? "." + std::to_string(incarnation - 1) : ""));
    publish(pack_respawned(round, rank, incarnation, where.member_id), "respawned");
}

// Hot standby k takes the rank's place: told first (it is waiting in
// MPI_Init), then the survivors learn of the replacement as for a start.
// False when that standby is gone (the caller starts a process instead).
bool Job::promote(int round, int rank, int incarnation, int standby) {
    for (auto &p : procs_) {
        if (p.standby != standby || !p.waiting_standby() || p.done || dead_.count(p.place.member_id)) continue;
        p.promoted = true;
        p.rank = rank;
        p.incarnation = incarnation;
        ++live_;
        outcome_.replacement_started(rank);
        publish(pack_promote(standby, round, rank, incarnation), "promote");
        printer_.note("promoted standby " + std::to_string(standby) + " on daemon " + p.place.member_id + " to rank " +
                      std::to_string(rank) + "." + std::to_string(incarnation) + " (round " + std::to_string(round) +
                      ")");
        publish(pack_respawned(round, rank, incarnation, p.place.member_id), "respawned");
        return true;
    }
    printer_.note("standby " + std::to_string(standby) + " is gone; starting a process for rank " +
                  std::to_string(rank) + " instead");
    return false;
}

// Where new processes may start: the job's alive daemons (with a wire-up
// directory, only its host), else any alive daemon of the VM.
std::vector<RankPlace> Job::alive_candidates() const {
    std::vector<RankPlace> candidates;
    for (const auto &h : spec_.hosts)
        if (!dead_.count(h.member_id) && (dir_member_.empty() || h.member_id == dir_member_)) candidates.push_back(h);
    if (candidates.empty() && dir_member_.empty())
        for (const auto &d : spec_.vm)
            if (!dead_.count(d.member_id)) candidates.push_back({d.member_id, d.tcp});
    return candidates;
}

std::vector<Candidate> Job::count_processes(const std::vector<RankPlace> &candidates) const {
    std::vector<Candidate> counted;
    for (const auto &c : candidates) {
        int n = 0;
        for (const auto &p : procs_)
            if (!p.done && p.place.member_id == c.member_id) ++n;
        counted.push_back({c.member_id, n});
    }
    return counted;
}

}  // namespace harness::ftmpirun
