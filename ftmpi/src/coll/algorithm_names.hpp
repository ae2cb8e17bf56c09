// The names of the collectives and of their algorithms, as the decision
// table, the FTMPI_COLL_<NAME> overrides and FTMPI_Coll_force spell them.
// One enum per collective (select.hpp) indexes the same list, so a name
// parsed here is that enum's value. Names compare case-insensitively
// ("ALLREDUCE" in an environment variable, "allreduce" in a table).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ftmpi::coll {

// Every collective with a choice of algorithm. Scan and Exscan, Gather and
// Scatter are chosen separately (they are measured separately) but share
// their algorithm lists.
enum class Collective : uint8_t {
    barrier,
    bcast,
    reduce,
    allreduce,
    reduce_scatter,
    scan,
    exscan,
    gather,
    scatter,
    allgather,
    alltoall,
};
inline constexpr int collective_count = 11;

// Lower-case name ("reduce_scatter").
const char *collective_name(Collective);
std::optional<Collective> collective_from_name(std::string_view);
// "barrier, bcast, ..." for error messages.
std::string collective_names();

// Algorithm 0 is "automatic" (no name): the built-in rules decide.
// Algorithm names of a collective, in its enum's order from 1.
const char *algorithm_name(Collective, uint8_t algorithm);
std::optional<uint8_t> algorithm_from_name(Collective, std::string_view);
// "recursive_doubling, ring, ..." for error messages.
std::string algorithm_names(Collective);
// Algorithms that cut the message into segments of a size the table or the
// override gives (seg=BYTES); the others refuse a segment size.
bool segmented(Collective, uint8_t algorithm);
int algorithm_count(Collective);  // named algorithms (the enum's last value)

}  // namespace ftmpi::coll
