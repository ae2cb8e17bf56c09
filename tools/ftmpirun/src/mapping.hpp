// mapping.hpp — Open MPI's placement and binding options, pure so tests check
// them without a VM: `--map-by slot|node|ppr:N:node`, `--rankfile` and the
// CPU lists a rankfile binds ranks to.
//
// * slot: rank 0 fills the first host's slots, then the next host's (hosts.hpp).
// * node: one rank per host in turn, skipping hosts whose slots are used up.
// * ppr:N:node: N ranks on each host in turn, whatever its slots.
// Beyond what a policy allows (only with oversubscribe) ranks go round robin
// over the hosts, one each.
#pragma once

#include "hosts.hpp"

#include <harness/common/result.hpp>

#include <string>
#include <vector>

namespace harness::ftmpirun {

struct MapBy {
    enum class Kind { slot, node, ppr } kind = Kind::slot;
    int per_node = 0;  // ppr
};

Result<MapBy> parse_map_by(const std::string &text);

// rank → index into hosts.
Result<std::vector<std::size_t>> place_ranks(const std::vector<Host> &hosts, int np, bool oversubscribe,
                                             const MapBy &map_by);

// One line of a rankfile: `rank N=HOST slot=CPUS`.
struct RankfileEntry {
    int rank = 0;
    std::string host;
    std::vector<int> cpus;
};

// Rankfile text: one `rank N=HOST slot=CPUS` per line, `#` comments; every
// rank at most once. CPUS: a CPU number, a range 0-3, or a list of those
// separated by commas.
Result<std::vector<RankfileEntry>> parse_rankfile(const std::string &text);
Result<std::vector<int>> parse_cpu_list(const std::string &text);
// "0,2,3" (the form ranks get in FTMPI_BIND_CPUS).
std::string cpu_list_string(const std::vector<int> &cpus);

}  // namespace harness::ftmpirun
