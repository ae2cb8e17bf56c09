#include "job.hpp"

#include "hosts.hpp"
#include "job_io.hpp"
#include "job_notices.hpp"
#include "job_process.hpp"
#include "job_watchers.hpp"

#include <harness/common/crypto.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <pthread.h>
#include <set>
#include <thread>
#include <unistd.h>

namespace harness::ftmpirun {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using spawn_client::SpawnClient;

constexpr std::chrono::milliseconds kStopGrace{5000};
constexpr int kMaxSpawn = 4096;  // processes one MPI_Comm_spawn may ask for
// The most world ranks a job may reach: libftmpi refuses connections from
// higher ones (max_world_ranks in ftmpi/src/transport/frame.hpp).
constexpr int kMaxWorldRanks = 1 << 16;

// The job's state, touched only by the controller (run_job's thread).
class Job {
public:
    Job(const JobSpec &spec, Printer &printer, Inbox &inbox)
        : spec_(spec), printer_(printer), inbox_(inbox), notices_(spec, printer),
          outcome_(spec.job_id, static_cast<int>(spec.ranks.size()), spec.ft.comm_mode) {}

    // Opens one controller connection per daemon of the placement.
    bool connect_daemons() {
        for (const auto &r : spec_.ranks) {
            if (control_.count(r.member_id)) continue;
            auto c = open_client(r.tcp, spec_.key);
            if (!c) {
                printer_.note("cannot reach daemon " + r.member_id + " at " + r.tcp.to_string() + ": " +
                              c.error().describe());
                return false;
            }
            control_.emplace(r.member_id, std::move(c).value());
        }
        return true;
    }

    // Wire-up: a directory on the one host, or the DRD across hosts. One
    // host means every process of the job, not only its first ranks: a hot
    // standby or a policy's replacement on another host could neither read
    // the directory nor be reached at the loopback address it listens on.
    bool prepare_wireup() {
        std::vector<std::string> rank_daemons, job_hosts;
        for (const auto &r : spec_.ranks) rank_daemons.push_back(r.member_id);
        for (const auto &h : spec_.hosts) job_hosts.push_back(h.member_id);
        const bool places_beyond_ranks = spec_.recovery != nullptr || spec_.standbys > 0;
        const auto single = single_job_daemon(rank_daemons, job_hosts, places_beyond_ranks);
        if (!single) return true;
        std::array<std::uint8_t, 6> rnd{};
        random_bytes(rnd);
        wireup_dir_ = "/tmp/ftmpi-job" + std::to_string(spec_.job_id) + "-" + to_hex(rnd);
        dir_member_ = *single;
        auto made = run_helper(control_.at(dir_member_), {"mkdir", "-m", "700", wireup_dir_});
        if (!made) {
            printer_.note("cannot create the wire-up directory " + wireup_dir_ + " on daemon " + dir_member_ + ": " +
                          made.error().describe());
            dir_member_.clear();
            return false;
        }
        wireup_ = "dir:" + wireup_dir_;
        return true;
    }
    void cleanup_wireup() {
        if (dir_member_.empty() || dead_.count(dir_member_)) return;
        (void)run_helper(control_.at(dir_member_), {"rm", "-rf", wireup_dir_});
    }

    // Starts every rank; on failure kills and reaps what started and returns
    // ftmpirun's status.
    std::optional<int> start_ranks() {
        const int np = static_cast<int>(spec_.ranks.size());
        for (int r = 0; r < np; ++r) {
            auto started = start_process(r, 0, spec_.ranks[r], {});
            if (!started) {
                printer_.note("cannot start rank " + std::to_string(r) + " on daemon " + spec_.ranks[r].member_id +
                              ": " + started.error().message);
                kill_all(SIGKILL);
                reap_started();
                return started.error().status == HARNESS_ERR_NOT_FOUND ? 127 : 1;
            }
            // Only rank 0 reads our stdin; the others see EOF at once.
            if (r != 0 || !spec_.forward_stdin)
                (void)control_.at(spec_.ranks[r].member_id).write_stdin(procs_[r].handle, {}, true, 0ms);
        }
        for (int k = 0; k < spec_.standbys; ++k) {
            const RankPlace where = standby_place();
            auto started = start_process(0, 0, where, {"FTMPI_STANDBY=" + std::to_string(k)}, nullptr, k);
            if (!started) {
                printer_.note("cannot start standby " + std::to_string(k) + " on daemon " + where.member_id + ": " +
                              started.error().message);
                kill_all(SIGKILL);
                reap_started();
                return 1;
            }
            (void)control_.at(where.member_id).write_stdin(started->handle, {}, true, 0ms);
        }
        return std::nullopt;
    }

    // Standbys that were never promoted end with the job.
    void dismiss_standbys() {
        for (auto &p : procs_)
            if (p.waiting_standby() && !p.done && !dead_.count(p.place.member_id)) {
                p.done = true;
                (void)control_.at(p.place.member_id).signal(p.handle, SIGKILL, true);
            }
    }

    void start_followers() {
        for (std::size_t i = 0; i < procs_.size(); ++i) start_follower(i);
    }

    std::int64_t rank0_handle() const { return procs_.at(0).handle; }
    int live() const { return live_; }

    void kill_all(int sig) {
        for (auto &p : procs_)
            if (p.handle && !p.done && !dead_.count(p.place.member_id))
                (void)control_.at(p.place.member_id).signal(p.handle, sig, true);
    }

    // Everything the controller is told; stopping: the job is already ending
    // (timeout, user signal, abort), so failures are not acted on again.
    void handle(const Event &ev, bool stopping) {
        switch (ev.kind) {
        case Event::Kind::process_end: return on_process_end(ev.process, ev.exit, stopping);
        case Event::Kind::member_failed: return on_member_failed(ev.member, ev.member_left, stopping);
        case Event::Kind::fence: return stopping ? void() : on_fence(ev.fence);
        case Event::Kind::respawn: return stopping ? void() : on_respawn(ev.respawn);
        case Event::Kind::spawn: return on_spawn(ev.spawn, stopping);
        case Event::Kind::signal: return;
        }
    }

    bool aborting() const { return aborting_; }

    void finish_threads() {
        for (auto &t : followers_) t.join();
    }

    int status(bool quiet) {
        if (spec_.ft.comm_mode != CommMode::abort && !aborting_ && !quiet) {
            std::string summary = outcome_.summary();
            if (!summary.empty()) printer_.note(summary);
        }
        return outcome_.status();
    }

private:
    // A process MPI_Comm_spawn asked for: what it runs and its place in its
    // own MPI_COMM_WORLD (its environment says the rest).
    struct Spawned {
        RankProgram program;
        int rank_in_world = 0;
        int world_size = 0;
    };

    // standby ≥ 0: hot standby k (PROMOTE), which is no rank until promoted.
    Result<spawn_client::Started> start_process(int rank, int incarnation, const RankPlace &where,
                                                const std::vector<std::string> &extra_env,
                                                const Spawned *spawned = nullptr, int standby = -1) {
        spawn_client::SpawnSpec s;
        const RankProgram &program = spawned ? spawned->program : spec_.programs.at(spec_.program_of_rank.at(rank));
        s.argv = program.argv;
        s.env = program.env;
        s.env.push_back("FTMPI_JOB=" + std::to_string(spec_.job_id));
        s.env.push_back("FTMPI_JOB_KEY=" + job_key_);
        // A standby has no rank until promoted; without FTMPI_RANK its daemon
        // does not take it for rank 0 when it cleans up after it.
        if (standby < 0) s.env.push_back("FTMPI_RANK=" + std::to_string(spawned ? spawned->rank_in_world : rank));
        s.env.push_back("FTMPI_SIZE=" + std::to_string(spawned ? spawned->world_size : spec_.ranks.size()));
        s.env.push_back("FTMPI_WIREUP=" + wireup_);
        for (auto &kv : ft_environment(spec_.ft)) s.env.push_back(std::move(kv));
        if (standby < 0 && static_cast<std::size_t>(rank) < spec_.rank_env.size())
            for (const auto &kv : spec_.rank_env[rank]) s.env.push_back(kv);
        for (const auto &kv : extra_env) s.env.push_back(kv);
        s.cwd = program.cwd;
        s.tag = standby >= 0 ? "standby" + std::to_string(standby)
            : incarnation    ? std::to_string(rank) + "." + std::to_string(incarnation)
                             : std::to_string(rank);
        s.notify_topic = "job/" + std::to_string(spec_.job_id);
        auto client = control_of(where);
        if (!client) return client.error();
        auto started = (*client)->spawn(s);
        if (!started) return started.error();
        Process p;
        p.rank = rank;
        p.incarnation = incarnation;
        p.place = where;
        p.handle = started->handle;
        p.standby = standby;
        if (standby >= 0) p.rank = -1;  // no rank until promoted
        procs_.push_back(p);
        if (standby < 0) ++live_;
        return started;
    }

    // A standby goes to a job host that runs no rank (a spare), in turn, else
    // to the one running the fewest of the job's processes.
    RankPlace standby_place() const {
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

    Result<SpawnClient *> control_of(const RankPlace &where) {
        auto it = control_.find(where.member_id);
        if (it != control_.end()) return &it->second;
        auto c = open_client(where.tcp, spec_.key);
        if (!c) return c.error();
        return &control_.emplace(where.member_id, std::move(c).value()).first->second;
    }

    void start_follower(std::size_t i) {
        followers_.emplace_back([this, i, p = procs_[i]] { follow_process(i, p, spec_.key, printer_, inbox_); });
    }

    // Waits (bounded) for the processes started so far to end after a kill.
    void reap_started() {
        for (auto &p : procs_) {
            if (dead_.count(p.place.member_id)) continue;
            SpawnClient &c = control_.at(p.place.member_id);
            auto deadline = Clock::now() + 10s;
            std::int64_t after = 0;
            while (Clock::now() < deadline) {
                auto st = c.status(p.handle);
                if (!st || st->state != "running") break;
                auto w = c.wait(after, 1s);
                if (!w) break;
                after = w->next_event;
            }
        }
    }

    void on_process_end(std::size_t i, RankExit x, bool stopping) {
        Process &p = procs_.at(i);
        if (p.done) return;  // already recorded as lost with its daemon, or a dismissed standby
        p.done = true;
        if (p.waiting_standby()) {
            if (!stopping)
                printer_.note("standby " + std::to_string(p.standby) + " on daemon " + p.place.member_id + " ended (" +
                              x.describe() + "); it cannot be promoted");
            return;
        }
        --live_;
        if (!p.lost_why.empty()) {
            x.lost = true;
            x.why = p.lost_why;
        }
        if (p.fenced_by >= 0 && x.signal) x.why = "fenced at the request of rank " + std::to_string(p.fenced_by);
        if (p.discarded) return;  // never part of the job: its spawn failed
        if (p.promoted) {         // its follower still knows it as the standby
            x.rank = p.rank;
            x.incarnation = p.incarnation;
        }
        if (p.promoted && x.failed()) after_promoted_failure(p);
        record(p, x, stopping);
        if (!stopping && x.failed() && !aborting_ && rebuilds() && spec_.recovery && p.moved_why.empty() &&
            !plans_.count(p.rank))
            plan_recovery(p, x.lost);
    }

    // A promoted standby that failed: its daemon's exit notice names no
    // rank (it started as a standby), so the survivors learn it here, and
    // its shared-memory files, which the daemon cleans up by the rank it
    // started with, are removed here.
    void after_promoted_failure(Process &p) {
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
            printer_.note("cannot remove the shared-memory files of rank " + p.label() + " on daemon " +
                          p.place.member_id);
    }

    bool rebuilds() const {
        return spec_.ft.comm_mode == CommMode::rebuild || spec_.ft.comm_mode == CommMode::rebuild_append;
    }

    int host_index(const std::string &member) const {
        for (std::size_t h = 0; h < spec_.hosts.size(); ++h)
            if (spec_.hosts[h].member_id == member) return static_cast<int>(h);
        return -1;
    }

    JobFacts facts() const {
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
    void plan_recovery(const Process &p, bool lost, int at_host = -1) {
        const int rank = p.rank;
        const int host = at_host >= 0 ? at_host : host_index(p.place.member_id);
        const bool host_failed = at_host >= 0 || lost || !p.lost_why.empty() || dead_.count(p.place.member_id) > 0;
        auto outcome = spec_.recovery->on_fault(rank, p.incarnation, host, host_failed, facts());
        for (const auto &n : outcome.notes) printer_.note(n);
        for (const auto &[r, plan] : outcome.plans) plans_[r] = plan;
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
    void fence_moved(int rank) {
        Process *latest = latest_process(rank);
        if (!latest || latest->done || !plans_.count(rank)) return;
        const RankPlan &to = plans_.at(rank);
        latest->moved_why = "moved to daemon " + spec_.hosts[static_cast<std::size_t>(to.host)].member_id +
            " by the sliding substitution";
        printer_.note("rank " + latest->label() + " is " + latest->moved_why + ": killing it");
        if (dead_.count(latest->place.member_id)) return;
        auto killed = control_.at(latest->place.member_id).signal(latest->handle, SIGKILL, true);
        if (!killed) printer_.note("cannot kill rank " + latest->label() + ": " + killed.error().describe());
    }

    Process *latest_process(int rank) {
        Process *latest = nullptr;
        for (auto &p : procs_)
            if (p.rank == rank && !p.waiting_standby() && (!latest || p.incarnation > latest->incarnation)) latest = &p;
        return latest;
    }

    void record(const Process &p, const RankExit &x, bool stopping) {
        OnRankExit what = outcome_.record(x);
        std::string who = x.describe("daemon " + p.place.member_id) +
            (p.fenced_by >= 0 && x.signal ? " (fenced at the request of rank " + std::to_string(p.fenced_by) + ")"
                                          : "") +
            (!p.moved_why.empty() && x.signal ? " (" + p.moved_why + ")" : "");
        if (stopping || !x.failed()) return;
        if (what == OnRankExit::abort_job) {
            aborting_ = true;
            printer_.note(who + "; aborting job " + std::to_string(spec_.job_id) +
                          (live_ > 0 ? ", killing its other ranks" : ""));
            kill_all(SIGKILL);
        } else {
            printer_.note(who + "; job " + std::to_string(spec_.job_id) + " continues (comm mode " +
                          to_string(spec_.ft.comm_mode) + ")");
        }
    }

    void publish(const Bytes &event, const std::string &what) {
        if (spec_.ft.comm_mode == CommMode::abort) return;  // nobody listens: the job ends at the first failure
        notices_.publish(event, what);
    }

    // The VM declared a daemon failed: each of the job's processes on it is
    // lost (published as rank_lost, so every rank learns it even if its own
    // connections did not break).
    void on_member_failed(const std::string &member, bool left, bool stopping) {
        if (!dead_.insert(member).second) return;
        if (spec_.recovery && rebuilds() && !stopping)
            for (const auto &n : spec_.recovery->on_host_lost(host_index(member), facts())) printer_.note(n);
        for (std::size_t i = 0; i < procs_.size(); ++i) {
            Process &p = procs_[i];
            if (p.place.member_id != member || p.lost_published) continue;
            if (p.waiting_standby()) {  // no rank: nobody to tell
                on_process_end(i, RankExit{}, stopping);
                continue;
            }
            // A process seen to end normally is not lost.
            if (p.done && p.lost_why.empty() && !lost_seen_.count(i)) continue;
            p.lost_published = true;
            p.lost_why = left ? "its daemon " + member + " left the VM"
                              : "its daemon " + member + " was declared failed by the VM";
            publish(pack_rank_lost(p.rank, p.incarnation, member, p.lost_why), "rank_lost for rank " + p.label());
            if (!p.done) {
                RankExit x;
                x.rank = p.rank;
                x.incarnation = p.incarnation;
                on_process_end(i, x, stopping);
            }
        }
        // The ranks a slide moves for this host's loss go now, with it.
        auto waiting = fence_when_declared_.extract(member);
        if (!waiting.empty() && !stopping)
            for (int moved : waiting.mapped()) fence_moved(moved);
    }

    void on_fence(const FenceRequest &f) {
        for (auto &p : procs_) {
            if (p.rank != f.rank || p.incarnation != f.incarnation) continue;
            if (p.done || p.fenced_by >= 0) return;  // already gone or being killed
            p.fenced_by = f.by_rank;
            printer_.note("rank " + p.label() + " is fenced at the request of rank " + std::to_string(f.by_rank) +
                          (f.why.empty() ? "" : " (" + f.why + ")") + ": killing it");
            if (dead_.count(p.place.member_id)) return;  // lost already; rank_lost says so
            auto killed = control_.at(p.place.member_id).signal(p.handle, SIGKILL, true);
            if (!killed) printer_.note("cannot kill rank " + p.label() + ": " + killed.error().describe());
            return;
        }
    }

    void on_respawn(const RespawnRequest &r) {
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

    void respawn_one(int round, int rank) {
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
            printer_.note("daemon " + spec_.hosts[static_cast<std::size_t>(plan->host)].member_id +
                          ", planned for rank " + std::to_string(rank) + ", failed since; deciding again");
        if ((!plan || stale) && spec_.recovery && rebuilds()) {
            // A stale plan's host is where the policy (and its placement)
            // put the rank: the fault is there.
            plan_recovery(*latest, false, stale ? plan->host : -1);
            plan = take_plan();
        }
        if (plan && plan->kind == RankPlan::Kind::leave_out) {
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
        printer_.note("started rank " + std::to_string(rank) + "." + std::to_string(incarnation) + " on daemon " +
                      where.member_id + " (round " + std::to_string(round) + ") to replace rank " +
                      std::to_string(rank) + (incarnation > 1 ? "." + std::to_string(incarnation - 1) : ""));
        publish(pack_respawned(round, rank, incarnation, where.member_id), "respawned");
    }

    // Hot standby k takes the rank's place: told first (it is waiting in
    // MPI_Init), then the survivors learn of the replacement as for a start.
    // False when that standby is gone (the caller starts a process instead).
    bool promote(int round, int rank, int incarnation, int standby) {
        for (auto &p : procs_) {
            if (p.standby != standby || !p.waiting_standby() || p.done || dead_.count(p.place.member_id)) continue;
            p.promoted = true;
            p.rank = rank;
            p.incarnation = incarnation;
            ++live_;
            outcome_.replacement_started(rank);
            publish(pack_promote(standby, round, rank, incarnation), "promote");
            printer_.note("promoted standby " + std::to_string(standby) + " on daemon " + p.place.member_id +
                          " to rank " + std::to_string(rank) + "." + std::to_string(incarnation) + " (round " +
                          std::to_string(round) + ")");
            publish(pack_respawned(round, rank, incarnation, p.place.member_id), "respawned");
            return true;
        }
        printer_.note("standby " + std::to_string(standby) + " is gone; starting a process for rank " +
                      std::to_string(rank) + " instead");
        return false;
    }

    // Where new processes may start: the job's alive daemons (with a wire-up
    // directory, only its host), else any alive daemon of the VM.
    std::vector<RankPlace> alive_candidates() const {
        std::vector<RankPlace> candidates;
        for (const auto &h : spec_.hosts)
            if (!dead_.count(h.member_id) && (dir_member_.empty() || h.member_id == dir_member_))
                candidates.push_back(h);
        if (candidates.empty() && dir_member_.empty())
            for (const auto &d : spec_.vm)
                if (!dead_.count(d.member_id)) candidates.push_back({d.member_id, d.tcp});
        return candidates;
    }
    std::vector<Candidate> count_processes(const std::vector<RankPlace> &candidates) const {
        std::vector<Candidate> counted;
        for (const auto &c : candidates) {
            int n = 0;
            for (const auto &p : procs_)
                if (!p.done && p.place.member_id == c.member_id) ++n;
            counted.push_back({c.member_id, n});
        }
        return counted;
    }

    // MPI_Comm_spawn: starts the processes (world ranks after every one the
    // job used, one MPI_COMM_WORLD for all apps, each on the least loaded
    // candidate or on the daemon its "host" names) and answers the request.
    // A failure to start any of them kills those started and answers
    // spawn_failed; the parents' MPI_Comm_spawn returns MPI_ERR_SPAWN.
    void on_spawn(const SpawnRequest &r, bool stopping) {
        auto refuse = [&](const std::string &why) { notices_.publish(pack_spawn_failed(r.id, why), "spawn_failed"); };
        if (stopping) return refuse("the job is ending");
        int total = 0;
        for (const auto &a : r.apps) {
            if (a.count < 1 || a.count > kMaxSpawn || a.command.empty())
                return refuse("each command needs a name and from 1 to " + std::to_string(kMaxSpawn) + " processes");
            total += a.count;
        }
        if (total < 1 || total > kMaxSpawn) return refuse("from 1 to " + std::to_string(kMaxSpawn) + " processes");
        if (next_rank_ + total > kMaxWorldRanks)
            return refuse("the job would pass " + std::to_string(kMaxWorldRanks) + " world ranks");
        const int base = next_rank_;
        const int spawn_id = ++spawns_;
        const std::size_t first = procs_.size();
        const std::vector<RankPlace> candidates = alive_candidates();
        const RankProgram &parent = spec_.programs.at(0);
        int rank_in_world = 0;
        for (std::size_t app = 0; app < r.apps.size(); ++app) {
            const SpawnApp &a = r.apps[app];
            std::vector<RankPlace> allowed;
            for (const auto &c : candidates)
                if (a.host.empty() || a.host == c.member_id || a.host == c.tcp.host) allowed.push_back(c);
            for (int i = 0; i < a.count; ++i, ++rank_in_world) {
                auto chosen = choose_replacement_host("", false, count_processes(allowed));
                std::string why = !chosen
                    ? (a.host.empty() ? "no alive daemon for the job" : "no alive daemon of the job is " + a.host)
                    : std::string();
                if (chosen) {
                    RankPlace where;
                    for (const auto &c : allowed)
                        if (c.member_id == *chosen) where = c;
                    Spawned s;
                    s.program.argv = {a.command};
                    s.program.argv.insert(s.program.argv.end(), a.argv.begin(), a.argv.end());
                    s.program.env = parent.env;
                    s.program.cwd = a.wdir.empty() ? parent.cwd : a.wdir;
                    s.rank_in_world = rank_in_world;
                    s.world_size = total;
                    const std::vector<std::string> env{
                        "FTMPI_WORLD_BASE=" + std::to_string(base), "FTMPI_WORLD_RANKS=" + std::to_string(base + total),
                        "FTMPI_PARENT=" + std::to_string(r.leader) + ":" + std::to_string(spawn_id),
                        "FTMPI_APPNUM=" + std::to_string(app)};
                    auto started = start_process(base + rank_in_world, 0, where, env, &s);
                    if (started) {
                        (void)control_.at(where.member_id).write_stdin(started->handle, {}, true, 0ms);
                        continue;
                    }
                    why = "daemon " + where.member_id + ": " + started.error().describe();
                }
                printer_.note("cannot start process " + std::to_string(rank_in_world) + " of an MPI_Comm_spawn (" +
                              a.command + "): " + why);
                // Those that started are killed; they keep their world ranks
                // (a process may have published its contact), the rest are
                // given to the next spawn.
                for (std::size_t p = first; p < procs_.size(); ++p) {
                    procs_[p].discarded = true;
                    (void)control_.at(procs_[p].place.member_id).signal(procs_[p].handle, SIGKILL, true);
                    start_follower(p);
                }
                next_rank_ = base + static_cast<int>(procs_.size() - first);
                return refuse(why);
            }
        }
        next_rank_ = base + total;
        outcome_.processes_added(total);
        for (std::size_t p = first; p < procs_.size(); ++p) start_follower(p);
        notices_.publish(pack_spawned(r.id, spawn_id, base, total), "spawned");
    }

public:
    // A follower saw its daemon stop answering before the VM declared it
    // failed: remember it, so a later declaration still publishes rank_lost.
    void note_lost_seen(std::size_t i) { lost_seen_.insert(i); }

private:
    const JobSpec &spec_;
    Printer &printer_;
    Inbox &inbox_;
    JobNotices notices_;
    JobOutcome outcome_;
    std::map<std::string, SpawnClient> control_;  // one controller connection per daemon
    std::vector<Process> procs_;
    std::vector<std::thread> followers_;
    std::set<std::string> dead_;  // daemons the VM declared failed

    std::set<std::size_t> lost_seen_;
    std::set<std::pair<int, int>> respawned_;  // (round, rank) already handled
    std::map<int, RankPlan> plans_;            // rank → what its next respawn does (recovery policy)
    std::map<std::string, std::vector<int>> fence_when_declared_;  // daemon → moved ranks to fence once it is declared
    int next_rank_ = static_cast<int>(spec_.ranks.size());         // the next spawned process's world rank
    int spawns_ = 0;                                               // MPI_Comm_spawn requests served
    std::string wireup_ = "drd:";
    // Tells this job apart from a job of the same id in another VM on this
    // host (job ids count from 1 in each VM): names its shared-memory files.
    std::string job_key_ = [] {
        std::array<std::uint8_t, 8> bytes{};
        harness::random_bytes(bytes);
        return harness::to_hex(bytes);
    }();
    std::string wireup_dir_;
    std::string dir_member_;
    int live_ = 0;
    bool aborting_ = false;
};

}  // namespace

int run_job(const JobSpec &spec) {
    Printer printer(spec.job_id, spec.tag_output, spec.timestamp_output);
    ::signal(SIGPIPE, SIG_IGN);
    // The signals we forward are taken by one thread with sigwait; block them
    // everywhere before any thread starts.
    sigset_t forwarded;
    sigemptyset(&forwarded);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) sigaddset(&forwarded, s);
    pthread_sigmask(SIG_BLOCK, &forwarded, nullptr);

    Inbox inbox;
    Job job(spec, printer, inbox);
    if (!job.connect_daemons() || !job.prepare_wireup()) return 1;
    if (auto failed = job.start_ranks()) {
        job.cleanup_wireup();
        return *failed;
    }

    // Followers, stdin, signals, the member watcher and the job topic.
    job.start_followers();
    int wake[2] = {-1, -1};
    std::atomic<bool> stop_stdin{false};
    std::thread stdin_thread;
    if (spec.forward_stdin && ::pipe2(wake, O_CLOEXEC) == 0)
        stdin_thread =
            std::thread([&] { forward_stdin(spec.ranks[0], job.rank0_handle(), spec.key, wake[0], stop_stdin); });
    std::thread signal_thread([&] {
        for (;;) {
            int sig = 0;
            if (sigwait(&forwarded, &sig) != 0 || sig == SIGUSR1) return;
            Event e;
            e.kind = Event::Kind::signal;
            e.sig = sig;
            inbox.post(e);
        }
    });
    StopFlag stop_watchers;
    std::thread member_thread;
    if (!spec.vm.empty()) member_thread = std::thread([&] { watch_members(spec, inbox, stop_watchers); });
    std::thread topic_thread;
    if (!spec.vm.empty()) topic_thread = std::thread([&] { read_job_topic(spec, inbox, printer, stop_watchers); });

    // The controller.
    std::optional<Clock::time_point> deadline;
    if (spec.timeout) deadline = Clock::now() + *spec.timeout;
    // After a forwarded signal the ranks get this long to end on their own.
    std::optional<Clock::time_point> grace_end;
    bool timed_out = false;
    int signals = 0;
    while (job.live() > 0) {
        std::optional<Clock::time_point> until = timed_out ? std::nullopt : deadline;
        if (grace_end && (!until || *grace_end < *until)) until = grace_end;
        auto ev = inbox.next(until);
        if (!ev) {
            if (grace_end && Clock::now() >= *grace_end) {
                grace_end.reset();
                printer.note("ranks still running " + std::to_string(kStopGrace.count() / 1000) +
                             " s after the signal; killing them");
                job.kill_all(SIGKILL);
                continue;
            }
            timed_out = true;
            printer.note("job " + std::to_string(spec.job_id) + " timed out after " +
                         std::to_string(spec.timeout->count() / 1000.0).substr(0, 6) + " s; killing its ranks");
            job.kill_all(SIGKILL);
            continue;
        }
        if (ev->kind == Event::Kind::signal) {
            // The first SIGINT/SIGTERM/SIGHUP goes to every rank as it is (they
            // may clean up); a second one, or the grace running out, kills them.
            ++signals;
            job.kill_all(signals == 1 ? ev->sig : SIGKILL);
            if (signals == 1)
                grace_end = Clock::now() + kStopGrace;
            else
                grace_end.reset();
            continue;
        }
        if (ev->kind == Event::Kind::process_end && ev->exit.lost) job.note_lost_seen(ev->process);
        job.handle(*ev, job.aborting() || timed_out || signals > 0);
    }

    job.dismiss_standbys();
    stop_watchers.set();
    if (member_thread.joinable()) member_thread.join();
    if (topic_thread.joinable()) topic_thread.join();
    job.finish_threads();
    if (stdin_thread.joinable()) {
        stop_stdin = true;
        char one = 1;
        [[maybe_unused]] ssize_t n = ::write(wake[1], &one, 1);
        stdin_thread.join();
    }
    for (int fd : wake)
        if (fd >= 0) ::close(fd);
    pthread_kill(signal_thread.native_handle(), SIGUSR1);
    signal_thread.join();
    job.cleanup_wireup();
    pthread_sigmask(SIG_UNBLOCK, &forwarded, nullptr);

    if (timed_out) return 124;
    return job.status(signals > 0);
}

}  // namespace harness::ftmpirun
