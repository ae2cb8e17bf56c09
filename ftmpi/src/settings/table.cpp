// The entries of the settings table (table.hpp).
#include "settings/table.hpp"

#include <array>
#include <climits>

namespace ftmpi::settings {

namespace {

constexpr long long no_limit = LLONG_MAX;
constexpr long long int_max = INT_MAX;

constexpr Setting boolean(Id id, const char *name, const char *env, const char *fallback, Origin origin,
                          const char *help) {
    return {id, name, env, Type::boolean, fallback, 0, 1, nullptr, nullptr, origin, help};
}
constexpr Setting integer(Id id, const char *name, const char *env, const char *fallback, long long min, long long max,
                          Origin origin, const char *help) {
    return {id, name, env, Type::integer, fallback, min, max, nullptr, nullptr, origin, help};
}
constexpr Setting size(Id id, const char *name, const char *env, const char *fallback, long long min, long long max,
                       const char *help) {
    return {id, name, env, Type::size, fallback, min, max, nullptr, nullptr, Origin::user, help};
}
constexpr Setting duration(Id id, const char *name, const char *env, const char *fallback, const char *unit,
                           long long min, long long max, const char *help) {
    return {id, name, env, Type::duration, fallback, min, max, nullptr, unit, Origin::user, help};
}
constexpr Setting text(Id id, const char *name, const char *env, const char *fallback, Origin origin,
                       const char *help) {
    return {id, name, env, Type::string, fallback, 0, 0, nullptr, nullptr, origin, help};
}
constexpr Setting choice(Id id, const char *name, const char *env, const char *fallback, const char *choices,
                         Origin origin, const char *help) {
    return {id, name, env, Type::choice, fallback, 0, 0, choices, nullptr, origin, help};
}

constexpr Origin user = Origin::user;
constexpr Origin launcher = Origin::launcher;

constexpr std::array<Setting, static_cast<std::size_t>(Id::count)> entries{{
    choice(Id::log_level, "log_level", "FTMPI_LOG_LEVEL", "warn", "error,warn,info,debug", user,
           "which of libftmpi's messages on stderr are printed: this level and the more severe ones"),
    boolean(Id::verbose, "verbose", "FTMPI_VERBOSE", "0", user,
            "say what the failure notifier and the recovery do (the same as FTMPI_LOG_LEVEL=info)"),

    text(Id::job, "job", "FTMPI_JOB", nullptr, launcher,
         "the job id; unset: a singleton job of one rank (stdout buffering is left alone too)"),
    text(Id::job_key, "job_key", "FTMPI_JOB_KEY", "", launcher,
         "keeps two VMs' jobs of one id apart in the names the drivers create on a host"),
    integer(Id::rank, "rank", "FTMPI_RANK", "0", 0, int_max, launcher, "this process's rank in MPI_COMM_WORLD"),
    integer(Id::size, "size", "FTMPI_SIZE", "1", 1, int_max, launcher, "the number of ranks in MPI_COMM_WORLD"),
    text(Id::wireup, "wireup", "FTMPI_WIREUP", "", launcher,
         "where the ranks exchange their contacts: dir:<path> or drd: (needed when the job has more than one rank)"),
    boolean(Id::restarted, "restarted", "FTMPI_RESTARTED", "0", launcher,
            "this process is a replacement started by a REBUILD recovery"),
    integer(Id::incarnation, "incarnation", "FTMPI_INCARNATION", "0", 0, int_max, launcher,
            "a replacement's incarnation (its predecessor's + 1)"),
    integer(Id::round, "round", "FTMPI_ROUND", "0", 0, int_max, launcher,
            "the recovery round that started a replacement"),
    integer(Id::standby, "standby", "FTMPI_STANDBY", nullptr, 0, int_max, launcher,
            "this process is hot standby number N (ftmpirun --standby): MPI_Init waits until the job promotes it to "
            "a failed rank's replacement (REBUILD modes); FTMPI_RANK means nothing until then"),
    integer(Id::world_base, "world_base", "FTMPI_WORLD_BASE", "0", 0, int_max, launcher,
            "a spawned process's world rank in the job is this plus its rank in its MPI_COMM_WORLD"),
    integer(Id::world_ranks, "world_ranks", "FTMPI_WORLD_RANKS", "0", 0, int_max, launcher,
            "processes the job had started when this one started (0: FTMPI_WORLD_BASE + FTMPI_SIZE)"),
    text(Id::world_gaps, "world_gaps", "FTMPI_WORLD_GAPS", "", launcher,
         "world ranks below FTMPI_WORLD_BASE that are no process of the job, FROM-TO[,FROM-TO...] (numbers its "
         "processes gave to another job's processes): a spawned process neither waits for nor connects to them"),
    integer(Id::universe_size, "universe_size", "FTMPI_UNIVERSE_SIZE", nullptr, 1, int_max, launcher,
            "MPI_UNIVERSE_SIZE: the slots of the job's hosts (ftmpirun); unset: the size of MPI_COMM_WORLD"),
    text(Id::parent, "parent", "FTMPI_PARENT", "", launcher,
         "a spawned process's parents: LEADER:SPAWN, their leader's world rank and the number of the spawn"),
    integer(Id::spawn_timeout, "spawn_timeout_ms", "FTMPI_SPAWN_MS", "60000", 1, int_max, user,
            "how long MPI_Comm_spawn waits for the launcher to start the processes and for them to connect"),
    integer(Id::local_rank, "local_rank", "FTMPI_LOCAL_RANK", "0", 0, int_max, launcher,
            "this rank's index among the job's ranks on its host (chooses the core to bind to)"),
    integer(Id::local_size, "local_size", "FTMPI_LOCAL_SIZE", "0", 0, int_max, launcher,
            "the number of the job's ranks on this host; 0: not known"),
    integer(Id::appnum, "appnum", "FTMPI_APPNUM", nullptr, 0, int_max, user,
            "the MPI_APPNUM attribute of MPI_COMM_WORLD; unset: 0"),
    choice(Id::initial_errhandler, "initial_errhandler", "FTMPI_INITIAL_ERRHANDLER", "mpi_errors_are_fatal",
           "mpi_errors_are_fatal,mpi_errors_abort,mpi_errors_return", launcher,
           "the error handler MPI_COMM_WORLD and MPI_COMM_SELF start with (mpiexec --initial-errhandler)"),

    choice(Id::bind, "bind", "FTMPI_BIND", "none", "none,core,auto", launcher,
           "bind the rank to one core (core), only when the host's ranks fit its CPUs (auto), or not (ftmpirun "
           "--bind-to)"),
    text(Id::bind_cpus, "bind_cpus", "FTMPI_BIND_CPUS", "", launcher,
         "bind the rank to these CPUs, e.g. 0,2 (ftmpirun --rankfile); overrides FTMPI_BIND"),
    choice(Id::output_buffering, "output_buffering", "FTMPI_OUTPUT_BUFFERING", "line", "line,full,none", launcher,
           "the ranks' stdout buffering under a launcher (ftmpirun --output-buffering)"),
    text(Id::address, "address", "FTMPI_ADDRESS", "", user,
         "the address this rank listens on with drd: wire-up; empty: the host's first non-loopback IPv4 address"),

    text(Id::transports, "transports", "FTMPI_TRANSPORTS", "shm,tcp", user,
         "the comm drivers to use, in order of preference (tcp is always the last resort)"),
    integer(Id::ranks_per_node, "ranks_per_node", "FTMPI_RANKS_PER_NODE", "0", 0, int_max, user,
            "treat each group of this many consecutive ranks as one host (testing the drivers); 0: the real hosts"),
    duration(Id::wireup_timeout, "wireup_timeout", "FTMPI_WIREUP_TIMEOUT_MS", "60000", "ms", 1, int_max,
             "how long MPI_Init waits for the other ranks' contacts and connections (not for a rank the VM says "
             "ended)"),
    size(Id::eager_limit, "eager_limit", "FTMPI_EAGER_LIMIT", "0", 0, 1LL << 40,
         "messages larger than this use the rendezvous protocol; 0: each driver's own limit"),
    duration(Id::spin, "spin", "FTMPI_SPIN_US", nullptr, "us", 0, 1000000000,
             "how long a waiting call polls before it blocks; unset: 2000, or 50 when the host runs more ranks than "
             "it has CPUs"),
    duration(Id::progress_idle, "progress_idle", "FTMPI_PROGRESS_IDLE_US", "1000", "us", 0, 1000000000,
             "how long no thread must have been in MPI before the progress thread polls"),
    boolean(Id::yield_when_idle, "yield_when_idle", "FTMPI_YIELD_WHEN_IDLE", nullptr, user,
            "give the core away between polling steps; unset: only when the host runs more ranks than it has CPUs"),
    duration(Id::tcp_keepalive, "tcp_keepalive", "FTMPI_TCP_KEEPALIVE_S", "30", "s", 1, 1000000,
             "idle time before TCP keepalive probes; a silent peer is lost about 15 s after it"),
    size(Id::shm_ring_bytes, "shm_ring_bytes", "FTMPI_SHM_RING_BYTES", "256K", 1, no_limit,
         "bytes of each shared-memory ring (the shm driver rounds up to a power of two within 4K..64M)"),
    choice(Id::shm_cma, "shm_cma", "FTMPI_SHM_CMA", "1", "1,0", user,
           "large shared-memory messages by a single copy between processes (1) or through the ring (0)"),
    size(Id::shm_cma_min, "shm_cma_min", "FTMPI_SHM_CMA_MIN", "4M", 0, no_limit,
         "data frames of at least this many bytes go between ranks of one host by single copy (process_vm_readv), "
         "smaller ones through the shared ring"),
    boolean(Id::rma_direct, "rma_direct", "FTMPI_RMA_DIRECT", "1", user,
            "one-sided operations on MPI_Win_allocate windows go straight to the memory of targets on this host (1) "
            "or always through the target's handler (0)"),

    choice(Id::comm_mode, "comm_mode", "FTMPI_COMM_MODE", "ulfm", "ulfm,abort,blank,shrink,rebuild,rebuild-append",
           launcher, "what a process failure does to communicators (ftmpirun --comm-mode)"),
    choice(Id::msg_mode, "msg_mode", "FTMPI_MSG_MODE", "cont", "cont,nop", launcher,
           "after a failure, go on with operations not involving the dead process (cont) or fail them all (nop)"),
    boolean(Id::coll_strict, "coll_strict", "FTMPI_COLL_STRICT", "0", launcher,
            "collectives give the right result everywhere or an error everywhere (ftmpirun --strict-collectives)"),
    choice(Id::notifier, "notifier", "FTMPI_NOTIFIER", "unordered", "unordered,ordered", launcher,
           "ordered: every rank sees failures in the same order (ftmpirun --ordered-notifier)"),
    duration(Id::confirm, "confirm", "FTMPI_CONFIRM_MS", "3000", "ms", 0, 1000000000,
             "how long a suspected failure waits for the VM to confirm it"),
    duration(Id::daemon_lost, "daemon_lost", "FTMPI_DAEMON_LOST_MS", "5000", "ms", 100, 1000000000,
             "a rank whose own daemon has closed its connection or refuses connects this long leaves the job"),
    duration(Id::daemon_hung, "daemon_hung", "FTMPI_DAEMON_HUNG_MS", "60000", "ms", 100, 1000000000,
             "a rank whose own daemon keeps its connection open but answers nothing this long (hung, not just "
             "slow) leaves the job"),
    boolean(Id::cominfo, "cominfo", "FTMPI_COMINFO", "1", user,
            "report this rank's communicators, process states and recoveries to the VM for the cominfo tool"),
    duration(Id::respawn, "respawn", "FTMPI_RESPAWN_MS", "20000", "ms", 1, int_max,
             "REBUILD: how long the survivors wait for ftmpirun to start the replacements"),
    duration(Id::join, "join", "FTMPI_JOIN_MS", "10000", "ms", 1, int_max,
             "REBUILD: how long the survivors wait for the started replacements to connect"),
    duration(Id::join_connect, "join_connect", "FTMPI_JOIN_CONNECT_MS", "3000", "ms", 1, int_max,
             "how long a replacement or a spawned process tries each rank before it takes it for dead"),
    duration(Id::join_state, "join_state", "FTMPI_JOIN_STATE_MS", "60000", "ms", 1, int_max,
             "how long a replacement waits for the survivors to send it the recovered state"),
    duration(Id::standby_wait, "standby_wait", "FTMPI_STANDBY_MS", "0", "ms", 0, int_max,
             "how long a hot standby waits to be promoted before it exits with status 1; 0: until promoted or its "
             "daemon is gone"),

    text(Id::coll_table, "coll_table", "FTMPI_COLL_TABLE", "", user,
         "a decision table file that takes precedence over the built-in one (written by ftmpi_tune)"),
    size(Id::coll_shm_bytes, "coll_shm_bytes", "FTMPI_COLL_SHM_BYTES", "8K", 0, 64 << 10,
         "the largest message of a collective through a communicator's shared segment when all of its members "
         "run on one host (the decision table picks the shm algorithm); 0: never"),
}};

constexpr bool in_id_order() {
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (static_cast<std::size_t>(entries[i].id) != i) return false;
    return true;
}
static_assert(in_id_order(), "the entries must be in the order of Id");

constexpr std::array<Family, 1> family_entries{{
    {"FTMPI_COLL_<COLLECTIVE>", "FTMPI_COLL_",
     "force one collective's algorithm, e.g. FTMPI_COLL_ALLREDUCE=ring or bcast_pipeline:65536 (checked at MPI_Init)"},
}};

}  // namespace

std::span<const Setting> table() {
    return entries;
}

const Setting &setting(Id id) {
    return entries[static_cast<std::size_t>(id)];
}

const Setting *find(std::string_view env) {
    for (const Setting &s : entries)
        if (env == s.env) return &s;
    return nullptr;
}

std::span<const Family> families() {
    return family_entries;
}

const char *type_name(Type type) {
    switch (type) {
    case Type::boolean: return "bool";
    case Type::integer: return "integer";
    case Type::size: return "size";
    case Type::duration: return "duration";
    case Type::string: return "string";
    case Type::choice: return "choice";
    }
    return "?";
}

const char *origin_name(Origin origin) {
    return origin == Origin::launcher ? "set by ftmpirun" : "user";
}

}  // namespace ftmpi::settings
