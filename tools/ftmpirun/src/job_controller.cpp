// job_controller.cpp — the job's start and the events of its run: processes
// that end, daemons the VM declares failed, fence requests and
// MPI_Comm_spawn (job_controller.hpp).
#include "job_controller.hpp"

#include <algorithm>
#include <csignal>

namespace harness::ftmpirun {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using spawn_client::SpawnClient;

constexpr int kMaxSpawn = 4096;  // processes one MPI_Comm_spawn may ask for
// The most world ranks a job may reach: libftmpi refuses connections from
// higher ones (max_world_ranks in ftmpi/src/transport/frame.hpp).
constexpr int kMaxWorldRanks = 1 << 16;

}  // namespace

// Opens one controller connection per daemon of the placement.
bool Job::connect_daemons() {
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
bool Job::prepare_wireup() {
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

void Job::cleanup_wireup() {
    if (dir_member_.empty() || dead_.count(dir_member_)) return;
    (void)run_helper(control_.at(dir_member_), {"rm", "-rf", wireup_dir_});
}

// Starts every rank; on failure kills and reaps what started and returns
// ftmpirun's status.
std::optional<int> Job::start_ranks() {
    const int np = static_cast<int>(spec_.ranks.size());
    for (int r = 0; r < np; ++r) {
        auto started = start_process(r, 0, spec_.ranks[r], {});
        if (!started) {
            printer_.note("cannot start rank " + std::to_string(r) + " on daemon " + spec_.ranks[r].member_id + ": " +
                          started.error().message);
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

void Job::start_followers() {
    for (std::size_t i = 0; i < procs_.size(); ++i) start_follower(i);
}

void Job::kill_all(int sig) {
    for (auto &p : procs_)
        if (p.handle && !p.done && !dead_.count(p.place.member_id))
            (void)control_.at(p.place.member_id).signal(p.handle, sig, true);
}

// Everything the controller is told; stopping: the job is already ending
// (timeout, user signal, abort), so failures are not acted on again.
void Job::handle(const Event &ev, bool stopping) {
    switch (ev.kind) {
    case Event::Kind::process_end: return on_process_end(ev.process, ev.exit, stopping);
    case Event::Kind::member_failed: return on_member_failed(ev.member, ev.member_left, stopping);
    case Event::Kind::fence: return stopping ? void() : on_fence(ev.fence);
    case Event::Kind::respawn: return stopping ? void() : on_respawn(ev.respawn);
    case Event::Kind::spawn: return on_spawn(ev.spawn, stopping);
    case Event::Kind::signal: return;
    }
}

// Every process is accounted for: a follower still waiting waits on a
// daemon for nothing the job needs (one the VM declared failed, or a
// dismissed standby's), so its wait is ended rather than waited out.
void Job::finish_threads() {
    for (auto &p : procs_) p.following->stop();
    for (auto &t : followers_) t.join();
}

int Job::status(bool quiet) {
    if (spec_.ft.comm_mode != CommMode::abort && !aborting_ && !quiet) {
        std::string summary = outcome_.summary();
        if (!summary.empty()) printer_.note(summary);
    }
    return outcome_.status();
}

// standby ≥ 0: hot standby k (PROMOTE), which is no rank until promoted.
Result<spawn_client::Started> Job::start_process(int rank, int incarnation, const RankPlace &where,
                                                 const std::vector<std::string> &extra_env, const Spawned *spawned,
                                                 int standby) {
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

Result<SpawnClient *> Job::control_of(const RankPlace &where) {
    auto it = control_.find(where.member_id);
    if (it != control_.end()) return &it->second;
    auto c = open_client(where.tcp, spec_.key);
    if (!c) return c.error();
    return &control_.emplace(where.member_id, std::move(c).value()).first->second;
}

void Job::start_follower(std::size_t i) {
    followers_.emplace_back([this, i, p = procs_[i]] { follow_process(i, p, spec_.key, printer_, inbox_); });
}

// Waits (bounded) for the processes started so far to end after a kill.
void Job::reap_started() {
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

void Job::on_process_end(std::size_t i, RankExit x, bool stopping) {
    Process &p = procs_.at(i);
    if (p.done) return;  // already recorded as lost with its daemon, or a dismissed standby
    p.done = true;
    awaiting_init_.erase(i);
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

void Job::record(const Process &p, const RankExit &x, bool stopping) {
    OnRankExit what = outcome_.record(x);
    std::string who = x.describe("daemon " + p.place.member_id) +
        (p.fenced_by >= 0 && x.signal ? " (fenced at the request of rank " + std::to_string(p.fenced_by) + ")" : "") +
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

void Job::publish(const Bytes &event, const std::string &what) {
    if (spec_.ft.comm_mode == CommMode::abort) return;  // nobody listens: the job ends at the first failure
    notices_.publish(event, what);
}

// The VM declared a daemon failed: each of the job's processes on it is
// lost (published as rank_lost, so every rank learns it even if its own
// connections did not break).
void Job::on_member_failed(const std::string &member, bool left, bool stopping) {
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
        p.lost_why =
            left ? "its daemon " + member + " left the VM" : "its daemon " + member + " was declared failed by the VM";
        publish(pack_rank_lost(p.rank, p.incarnation, member, p.lost_why), "rank_lost for rank " + p.label());
        if (!p.done) {
            RankExit x;
            x.rank = p.rank;
            x.incarnation = p.incarnation;
            on_process_end(i, x, stopping);
        }
    }
    // Its processes are accounted for: their followers stop waiting on it
    // (a host cut off would hold each for its long poll and request timeout).
    for (auto &p : procs_)
        if (p.place.member_id == member) p.following->stop();
    // The ranks a slide moves for this host's loss go now, with it.
    auto waiting = fence_when_declared_.extract(member);
    if (!waiting.empty() && !stopping)
        for (int moved : waiting.mapped()) fence_moved(moved);
}

void Job::on_fence(const FenceRequest &f) {
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

// MPI_Comm_spawn: starts the processes (world ranks after every one the
// job used, one MPI_COMM_WORLD for all apps, each on the least loaded
// candidate or on the daemon its "host" names) and answers the request.
// A failure to start any of them kills those started and answers
// spawn_failed; the parents' MPI_Comm_spawn returns MPI_ERR_SPAWN.
void Job::on_spawn(const SpawnRequest &r, bool stopping) {
    auto refuse = [&](const std::string &why) { notices_.publish(pack_spawn_failed(r.id, why), "spawn_failed"); };
    if (stopping) return refuse("the job is ending");
    int total = 0;
    for (const auto &a : r.apps) {
        if (a.count < 1 || a.count > kMaxSpawn || a.command.empty())
            return refuse("each command needs a name and from 1 to " + std::to_string(kMaxSpawn) + " processes");
        total += a.count;
    }
    if (total < 1 || total > kMaxSpawn) return refuse("from 1 to " + std::to_string(kMaxSpawn) + " processes");
    const int base = std::max(next_rank_, r.lowest_base);
    if (base + total > kMaxWorldRanks)
        return refuse("the job would pass " + std::to_string(kMaxWorldRanks) + " world ranks");
    if (base > next_rank_) {
        // The parents numbered another job's processes there: skipped for good.
        world_gaps_ += (world_gaps_.empty() ? "" : ",") + std::to_string(next_rank_) + "-" + std::to_string(base - 1);
        next_rank_ = base;
    }
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
                    "FTMPI_APPNUM=" + std::to_string(app), "FTMPI_WORLD_GAPS=" + world_gaps_};
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

}  // namespace harness::ftmpirun
