// MPI_Init/Init_thread/Finalize/Abort and the
// runtime state the other parts read (internal/runtime.hpp).
//
// The job comes from the launcher's environment (FTMPI_JOB, FTMPI_RANK,
// FTMPI_SIZE, FTMPI_WIREUP); without it the program is a singleton job of
// one rank. Every FTMPI_* setting is checked first (settings/table.hpp): an
// invalid value ends the job with a message naming it. Init connects the
// ranks (wire-up + TCP mesh), then lets the comm part build MPI_COMM_WORLD
// and MPI_COMM_SELF, then starts fault tolerance
// (ft::init: the notifier). The collectives' algorithm settings and
// decision tables are read first (coll::init_selection), so a bad one ends
// the job before it connects. A REBUILD replacement (FTMPI_RESTARTED=1,
// FTMPI_INCARNATION=k, FTMPI_ROUND=r) publishes a record with its
// incarnation, connects to every live rank, joins the survivors' recovery
// (ft::join_as_replacement) and returns MPI_INIT_RESTARTED_NODE. A hot
// standby (FTMPI_STANDBY=k, runtime/standby.hpp) does the rank-independent
// part (settings, collective selection, comm-driver plugins, a daemon
// connection), waits for the job to promote it, and then goes on as that
// replacement. MPI-4 sessions share the runtime (start_session /
// end_session below).
#include "coll/select.hpp"
#include "ft/notifier.hpp"
#include "internal/cominfo.hpp"
#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/ft.hpp"
#include "internal/pmpi.hpp"
#include "internal/runtime.hpp"
#include "internal/spawn.hpp"
#include "p2p/engine.hpp"
#include "runtime/comm_drivers.hpp"
#include "runtime/init.hpp"
#include "runtime/lifecycle.hpp"
#include "runtime/log.hpp"
#include "runtime/standby.hpp"
#include "runtime/startup_failures.hpp"
#include "runtime/wireup.hpp"
#include "settings/values.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>
#include <utility>

namespace ftmpi::runtime {

namespace {

enum class State { fresh, running, finalized };
std::atomic<State> state{State::fresh};
std::mutex init_mutex;
int my_rank = 0, my_size = 1, provided_level = MPI_THREAD_SINGLE;
std::thread::id main_thread;

// Who MPI_Init's failure is about: "rank 3", or "standby 0" until a hot
// standby is promoted.
std::string init_subject() {
    const settings::Values &env = settings::current();
    if (env.is_set(settings::Id::standby) && env.valid(settings::Id::standby))
        return "standby " + env.given(settings::Id::standby);
    return "rank " + std::to_string(my_rank);
}

[[noreturn]] void init_failed(const std::string &why) {
    log::error("MPI_Init failed on %s: %s", init_subject().c_str(), why.c_str());
    _exit(1);
}

// A hot standby (runtime/standby.hpp) makes sense only where failed ranks
// are replaced and something can promote it: REBUILD modes, a job of a VM.
void check_standby_allowed(const settings::Values &env) {
    using settings::Id;
    const std::string mode = env.text(Id::comm_mode);
    if (mode != "rebuild" && mode != "rebuild-append")
        init_failed("FTMPI_STANDBY is set but FTMPI_COMM_MODE=" + mode +
                    ": a hot standby only replaces failed ranks, in the rebuild and rebuild-append modes");
    const char *hcore = std::getenv("HARNESS_HCORE");
    if (!env.is_set(Id::job) || hcore == nullptr || *hcore == '\0')
        init_failed("FTMPI_STANDBY is set but the job runs under no VM (FTMPI_JOB and HARNESS_HCORE): nothing can "
                    "promote it");
    if (!env.text(Id::parent).empty()) init_failed("FTMPI_STANDBY is set in a process started by MPI_Comm_spawn");
}

// The standby's promotion written where a replacement started by ftmpirun
// has it (its environment), read again: from here on nothing tells this
// process from that replacement (FTMPI_STANDBY goes, FTMPI_RANK is its rank).
// setenv runs before any thread of libftmpi reads the environment.
const settings::Values &become_replacement(const ft::Promotion &p) {
    ::setenv("FTMPI_RANK", std::to_string(p.rank).c_str(), 1);
    ::setenv("FTMPI_RESTARTED", "1", 1);
    ::setenv("FTMPI_INCARNATION", std::to_string(p.incarnation).c_str(), 1);
    ::setenv("FTMPI_ROUND", std::to_string(p.round).c_str(), 1);
    ::unsetenv("FTMPI_STANDBY");
    return settings::read_after_promotion();
}

}  // namespace

namespace {
// FTMPI_WORLD_GAPS: "FROM-TO[,FROM-TO...]", world ranks FROM..TO (both
// included) below `below`, into absent[r] = 1. "" or the reason it is wrong.
std::string parse_world_gaps(const std::string &text, int below, std::vector<char> *absent) {
    absent->assign(static_cast<size_t>(std::max(below, 0)), 0);
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        const std::string range = text.substr(start, end - start);
        int from = -1, to = -1;
        char extra = 0;
        if (std::sscanf(range.c_str(), "%d-%d%c", &from, &to, &extra) != 2 || from < 0 || to < from || to >= below)
            return "\"" + range + "\" is not FROM-TO with FROM <= TO below FTMPI_WORLD_BASE";
        for (int r = from; r <= to; ++r) (*absent)[static_cast<size_t>(r)] = 1;
        start = end + 1;
    }
    return {};
}
}  // namespace

int init_before_join(int required, int *provided, bool *restarted) {
    std::lock_guard<std::mutex> lk(init_mutex);
    *restarted = false;
    if (state.load() != State::fresh) return MPI_ERR_OTHER;  // MPI may be initialized once
    using settings::Id;
    const settings::Values *env = &settings::read_at_init();
    my_rank = env->integer(Id::world_base) + env->integer(Id::rank);  // for the messages, until checked
    if (const std::string problems = env->problems_text(); !problems.empty()) init_failed(problems);
    // A hot standby first does what does not depend on its rank.
    std::optional<Standby> standby;
    if (env->is_set(Id::standby)) {
        check_standby_allowed(*env);
        standby.emplace(env->text(Id::job), env->integer(Id::standby));
    }
    JobInfo job;
    job.job = env->is_set(Id::job) ? env->text(Id::job) : "singleton";
    job.world_base = env->integer(Id::world_base);
    job.world_size = env->integer(Id::size);
    job.size = std::max(env->integer(Id::world_ranks), job.world_base + job.world_size);
    job.wireup = env->text(Id::wireup);
    const bool spawned = !env->text(Id::parent).empty();
    if (spawned && job.world_base < 1) init_failed("FTMPI_PARENT is set but FTMPI_WORLD_BASE is not");
    if (std::string why = parse_world_gaps(env->text(Id::world_gaps), job.world_base, &job.absent); !why.empty())
        init_failed("FTMPI_WORLD_GAPS=" + env->text(Id::world_gaps) + ": " + why);
    if (job.size > 1 && job.wireup.empty()) init_failed("FTMPI_SIZE > 1 but FTMPI_WIREUP is not set");
    // Bad collective settings stop the job here, before it connects.
    if (std::string error = coll::init_selection(); !error.empty()) init_failed(error);
    std::optional<CommDrivers> drivers;
    if (!spawned && job.size > 1) {
        try {
            // Only rank 0 says which drivers it could not load; a standby is silent.
            drivers = load_comm_drivers(standby ? -1 : job.world_base + env->integer(Id::rank));
        } catch (const std::exception &e) {
            init_failed(e.what());
        }
    }
    if (standby) {
        Standby::Limits limits;
        limits.world_size = job.world_size;
        limits.give_up = std::chrono::milliseconds(env->number(Id::standby_wait));
        limits.daemon_lost = std::chrono::milliseconds(env->number(Id::daemon_lost));
        limits.daemon_hung = std::chrono::milliseconds(env->number(Id::daemon_hung));
        auto promoted = standby->wait_for_promotion(limits);
        if (!promoted) {
            log::error("hot standby %d leaves the job: %s", env->integer(Id::standby),
                       promoted.error().message.c_str());
            _exit(1);
        }
        env = &become_replacement(*promoted);
        ft::adopt_daemon_connection(standby->take_connection());
    }

    const int rank_in_world = env->integer(Id::rank);
    job.rank = job.world_base + rank_in_world;
    my_rank = job.rank;
    if (job.world_size < 1 || rank_in_world < 0 || rank_in_world >= job.world_size)
        init_failed("FTMPI_RANK=" + std::to_string(rank_in_world) + " FTMPI_SIZE=" + std::to_string(job.world_size) +
                    " is not a rank of the job");
    if (env->flag(Id::restarted)) {
        job.restarted = true;
        job.incarnation = env->integer(Id::incarnation);
        job.round = env->integer(Id::round);
        if (job.incarnation < 1 || job.round < 1)
            init_failed("FTMPI_RESTARTED=1 needs FTMPI_INCARNATION >= 1 and FTMPI_ROUND >= 1 (got " +
                        std::to_string(job.incarnation) + ", " + std::to_string(job.round) + ")");
        p2p::Engine::get().set_identity(job.incarnation, job.round);
    }
    my_size = job.size;
    main_thread = std::this_thread::get_id();
    provided_level = std::min(std::max(required, MPI_THREAD_SINGLE), MPI_THREAD_MULTIPLE);

    const auto timeout = std::chrono::milliseconds(env->number(Id::wireup_timeout));
    transport::RouterOptions options;
    // FTMPI_JOB_KEY (from ftmpirun) keeps two VMs' jobs of one id apart in
    // what the drivers name on this host (shared-memory files).
    options.job = env->is_set(Id::job_key) ? job.job + "-" + env->text(Id::job_key) : job.job;
    options.rank = job.rank;
    options.size = job.size;
    // Under a launcher even a job of one process listens: it may spawn.
    options.reachable_alone = !job.wireup.empty();
    if (spawned) {
        // Spawned processes reach the job over TCP (Router::join_spawned).
        options.first_sibling = job.world_base;
        for (int r = 0; r < static_cast<int>(job.absent.size()); ++r)
            if (job.absent[static_cast<size_t>(r)]) options.absent.push_back(r);
        options.listen_host = listen_host(job);
        options.preference = {"tcp"};
    } else if (job.size > 1) {
        options.listen_host = listen_host(job);
        options.ranks_per_node = env->integer(Id::ranks_per_node);
        options.preference = std::move(drivers->preference);
        options.plugins = std::move(drivers->plugins);
    }
    // The VM's failure notices: a rank that ends while the job wires up is
    // not waited for (startup_failures.hpp).
    StartupFailures notices(job);
    std::string error = p2p::Engine::get().start(options, [&](const std::string &card) {
        Contacts contacts = exchange_contacts(job, card, timeout, notices);
        p2p::Engine::Wired wired;
        wired.cards = std::move(contacts.cards);
        wired.ended.assign(contacts.ended.begin(), contacts.ended.end());
        wired.ended_since = [&notices](int rank, std::string *why) { return notices.ended_now(rank, why); };
        if (job.restarted) wired.reread = [job](int rank) { return reread_contact(job, rank); };
        return wired;
    });
    if (!error.empty()) init_failed(error);
    state.store(State::running);
    comm::init_world(job.rank, job.world_base, job.world_size);
    ft::init();
    cominfo::start();                   // after the failure list and the world exist
    p2p::Engine::get().open_reports();  // a peer that failed during the wire-up is known from here
    // A spawned process meets its parents before its program runs.
    if (int e = spawn::connect_parent(); e != MPI_SUCCESS)
        init_failed("cannot connect to the processes that spawned this one (error " + std::to_string(e) + ")");
    // From here an exit without MPI_Finalize is a process failure.
    report_lifecycle("initialized");
    if (provided) *provided = provided_level;
    *restarted = job.restarted;
    return MPI_SUCCESS;
}

namespace {

// Brings the runtime up (MPI_Init's work); MPI_INIT_RESTARTED_NODE in a
// REBUILD replacement.
int start_runtime(int required, int *provided) {
    bool restarted = false;
    if (int e = init_before_join(required, provided, &restarted); e != MPI_SUCCESS) return e;
    if (!restarted) return MPI_SUCCESS;
    if (int e = ft::join_as_replacement(); e != MPI_SUCCESS)
        init_failed("this replacement of rank " + std::to_string(my_rank) + " could not join the recovery (error " +
                    std::to_string(e) + ")");
    return MPI_INIT_RESTARTED_NODE;
}

// The World Model (MPI_Init .. MPI_Finalize) and the Sessions Model
// (MPI_Session_init .. MPI_Session_finalize, src/session) share one
// runtime: it starts with the first of them and ends once MPI_Finalize (if
// MPI_Init was called) and the last MPI_Session_finalize have been called
// (MPI-4.0 §11.3). MPI_Initialized and MPI_Finalized answer for the World
// Model alone. The runtime cannot start twice: a session after the end
// answers MPI_ERR_OTHER.
std::mutex models_mutex;
std::atomic<bool> world_started{false}, world_ended{false};
// MPI_Finalize has returned: MPI_Finalized's answer. Not world_ended, which
// is set on entry: the attribute delete callbacks MPI_Finalize runs on
// MPI_COMM_SELF must still see MPI_Finalized false (it is true once
// MPI_Finalize has completed).
std::atomic<bool> world_finalized{false};
int live_sessions = 0;  // under models_mutex
// A REBUILD replacement whose first call was MPI_Session_init: its later
// MPI_Init still says MPI_INIT_RESTARTED_NODE (under models_mutex).
bool restart_unreported = false;

int init(int required, int *provided) {
    std::lock_guard lk(models_mutex);
    if (world_started.load()) return MPI_ERR_OTHER;  // MPI_Init twice, or after MPI_Finalize
    if (state.load() == State::running) {            // a session started the runtime
        world_started = true;
        main_thread = std::this_thread::get_id();  // MPI_Is_thread_main: the thread of MPI_Init
        if (provided) *provided = provided_level;
        return std::exchange(restart_unreported, false) ? MPI_INIT_RESTARTED_NODE : MPI_SUCCESS;
    }
    const int e = start_runtime(required, provided);
    if (e == MPI_SUCCESS || e == MPI_INIT_RESTARTED_NODE) world_started = true;
    return e;
}

}  // namespace

int start_session(int required, int *provided) {
    std::lock_guard lk(models_mutex);
    if (state.load() == State::finalized) return MPI_ERR_OTHER;
    if (state.load() == State::fresh) {
        const int e = start_runtime(required, provided);
        if (e != MPI_SUCCESS && e != MPI_INIT_RESTARTED_NODE) return e;
        restart_unreported = e == MPI_INIT_RESTARTED_NODE;
    } else if (provided) {
        *provided = provided_level;
    }
    ++live_sessions;
    return MPI_SUCCESS;
}

bool initialized() {
    return state.load() != State::fresh;
}
bool finalized() {
    return state.load() == State::finalized;
}
int world_rank() {
    return my_rank;
}
int world_size() {
    return my_size;
}
int thread_level() {
    return provided_level;
}
static void mark_finalized() {
    state.store(State::finalized);
}
static bool is_main_thread() {
    return std::this_thread::get_id() == main_thread;
}

// MPI_Finalize's work, when the last model ends (models_mutex held).
static int teardown() {
    try {
        cominfo::stop();  // its last record still lists the communicators
        spawn::forget_parent();
        const std::vector<int> connected = comm::connected_world_ranks();
        comm::finalize_world();
        ft::finalize();  // the notifier stops before the engine it feeds
        p2p::Engine::get().finalize(connected);
    } catch (...) {
        return MPI_ERR_INTERN;
    }
    mark_finalized();
    report_lifecycle("finalized");
    return MPI_SUCCESS;
}

// MPI_Finalize: MPI_ERR_OTHER without MPI_Init (or twice); else the
// runtime ends now, or with the last session if sessions still use it.
static int end_world() {
    std::lock_guard lk(models_mutex);
    // A runtime brought up without MPI_Init or a session (init_before_join,
    // as the engine-level join test does) is the World Model's too.
    const bool world = world_started.load() || live_sessions == 0;
    if (!world || world_ended.load() || state.load() != State::running) return MPI_ERR_OTHER;
    world_ended = true;
    const int code = live_sessions > 0 ? MPI_SUCCESS : teardown();
    world_finalized = true;
    return code;
}

int end_session() {
    std::lock_guard lk(models_mutex);
    if (live_sessions == 0 || state.load() != State::running) return MPI_ERR_OTHER;
    if (--live_sessions > 0 || (world_started.load() && !world_ended.load())) return MPI_SUCCESS;
    return teardown();
}

void abort_job(int code) {
    // Before anything else: the launcher must see an abort, not a failure.
    report_lifecycle("aborted");
    std::fflush(stdout);
    if (state.load() == State::running) p2p::Engine::get().abort(code);
    _exit(code & 0xff ? code & 0xff : 1);
}

}  // namespace ftmpi::runtime

using namespace ftmpi;

extern "C" {

int MPI_Init(int *, char ***) noexcept {
    try {
        int e = runtime::init(MPI_THREAD_SINGLE, nullptr);
        if (e && e != MPI_INIT_RESTARTED_NODE) log::error("MPI_Init called twice");
        return e;
    } catch (...) {
        runtime::abort_job(1);
    }
}
FTMPI_PMPI(Init)

int MPI_Init_thread(int *, char ***, int required, int *provided) noexcept {
    try {
        int e = runtime::init(required, provided);
        if (e && e != MPI_INIT_RESTARTED_NODE) log::error("MPI_Init_thread called twice");
        return e;
    } catch (...) {
        runtime::abort_job(1);
    }
}
FTMPI_PMPI(Init_thread)

int MPI_Initialized(int *flag) noexcept {
    if (!flag) return MPI_ERR_ARG;
    *flag = runtime::world_started.load();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Initialized)

int MPI_Finalized(int *flag) noexcept {
    if (!flag) return MPI_ERR_ARG;
    *flag = runtime::world_finalized.load();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Finalized)

int MPI_Finalize(void) noexcept {
    return runtime::end_world();
}
FTMPI_PMPI(Finalize)

int MPI_Abort(MPI_Comm, int errorcode) noexcept {
    log::error("rank %d called MPI_Abort with code %d; ending the job", runtime::world_rank(), errorcode);
    runtime::abort_job(errorcode);
}
FTMPI_PMPI(Abort)

int MPI_Query_thread(int *provided) noexcept {
    if (!provided) return MPI_ERR_ARG;
    *provided = runtime::thread_level();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Query_thread)

int MPI_Is_thread_main(int *flag) noexcept {
    if (!flag) return MPI_ERR_ARG;
    *flag = runtime::is_main_thread();
    return MPI_SUCCESS;
}
FTMPI_PMPI(Is_thread_main)

}  // extern "C"
