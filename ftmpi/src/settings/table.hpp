// The settings table of libftmpi: every FTMPI_* environment variable the
// library reads, with its type, default, allowed values and one line of help.
//
// This is the one place a setting is declared. libftmpi reads the values once
// (values.hpp) and MPI_Init refuses an invalid one with a message naming the
// variable, the value and what is allowed; ftmpi_info prints the table and
// checks the current environment against it. A new setting is an Id and one
// entry in table.cpp (a static_assert there keeps the two in the same order).
#pragma once

#include <span>
#include <string_view>

namespace ftmpi::settings {

// boolean: 1, 0, yes, no, on, off, true, false. integer: decimal (or 0x
// hexadecimal) within [min, max]. size: bytes, an integer with an optional K,
// M or G suffix (powers of 1024). duration: a whole number of `unit` (ms, us
// or s). string: any text. choice: one of `choices`.
enum class Type { boolean, integer, size, duration, string, choice };

// Who sets the variable: the user (directly or through an ftmpirun option),
// or the launcher alone, for each rank (the job's identity and wire-up).
enum class Origin { user, launcher };

enum class Id : int {
    log_level,
    verbose,
    // The job, as the launcher describes it to each rank.
    job,
    job_key,
    rank,
    size,
    wireup,
    restarted,
    incarnation,
    round,
    standby,
    world_base,
    world_ranks,
    world_gaps,
    universe_size,
    parent,
    spawn_timeout,
    local_rank,
    local_size,
    appnum,
    initial_errhandler,
    // Placement and output.
    bind,
    bind_cpus,
    output_buffering,
    address,
    // Point-to-point and the comm drivers.
    transports,
    ranks_per_node,
    wireup_timeout,
    eager_limit,
    spin,
    progress_idle,
    yield_when_idle,
    tcp_keepalive,
    shm_ring_bytes,
    shm_cma,
    shm_cma_min,
    rma_direct,
    // Fault tolerance.
    comm_mode,
    msg_mode,
    coll_strict,
    notifier,
    confirm,
    daemon_lost,
    daemon_hung,
    cominfo,
    respawn,
    join,
    join_connect,
    join_state,
    standby_wait,
    // Collectives.
    coll_table,
    coll_shm_bytes,
    count
};

struct Setting {
    Id id;
    const char *name;  // short name, as ftmpi_info shows it
    const char *env;   // the environment variable
    Type type;
    const char *fallback;  // the default, written as a value; nullptr: unset, decided at run time (see help)
    long long min;         // integer, size, duration: the allowed range, inclusive
    long long max;
    const char *choices;  // choice: the allowed names, comma-separated
    const char *unit;     // duration: "ms", "us" or "s"
    Origin origin;
    const char *help;
};

// A family of variables named by a prefix and a part's own word, such as
// FTMPI_COLL_ALLREDUCE: the part that owns the words checks the values.
struct Family {
    const char *pattern;  // as documented: FTMPI_COLL_<COLLECTIVE>
    const char *prefix;   // FTMPI_COLL_
    const char *help;
};

std::span<const Setting> table();
const Setting &setting(Id id);
// The entry whose variable is `env`, or nullptr.
const Setting *find(std::string_view env);
std::span<const Family> families();

const char *type_name(Type type);
const char *origin_name(Origin origin);

}  // namespace ftmpi::settings
