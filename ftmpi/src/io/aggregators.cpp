// Which members do the file access of a two-phase collective: by default
// the lowest rank on each host (host names gathered once, at open), as
// ROMIO's one-aggregator-per-node default; with the cb_nodes hint, that many
// ranks spread evenly over the communicator. A BLANK gap (a rank with no
// process behind it, after an FT-MPI recovery) is never an aggregator.
#include "internals.hpp"

#include "../internal/comm.hpp"
#include "../internal/pmpi.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace ftmpi::io {
namespace {

std::vector<int> live_ranks(MPI_File fh) {
    std::vector<int> live;
    for (int r = 0; r < fh->size; ++r)
        if (comm::world_rank_of(fh->comm, r) >= 0) live.push_back(r);
    return live;
}

}  // namespace

int find_host_leaders(MPI_File fh) {
    char me[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    PMPI_Get_processor_name(me, &len);
    std::vector<char> all(static_cast<size_t>(fh->size) * MPI_MAX_PROCESSOR_NAME);
    if (int err = PMPI_Allgather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                                 fh->comm))
        return err;
    std::vector<std::string> seen;
    fh->host_leaders.clear();
    for (int r : live_ranks(fh)) {  // a gap's slot was left empty by the allgather
        std::string host(all.data() + static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME,
                         strnlen(all.data() + static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME, MPI_MAX_PROCESSOR_NAME));
        if (std::find(seen.begin(), seen.end(), host) == seen.end()) {
            seen.push_back(host);
            fh->host_leaders.push_back(r);
        }
    }
    return MPI_SUCCESS;
}

std::vector<int> aggregators(MPI_File fh) {
    std::vector<int> aggs;
    const std::vector<int> live = live_ranks(fh);
    const int n = static_cast<int>(live.size());
    if (fh->hints.cb_nodes > 0 && n > 0) {
        const int k = std::min(fh->hints.cb_nodes, n);
        for (int i = 0; i < k; ++i) aggs.push_back(live[static_cast<size_t>(static_cast<int64_t>(i) * n / k)]);
        return aggs;
    }
    aggs = fh->host_leaders;
    if (aggs.empty()) aggs.push_back(live.empty() ? 0 : live.front());
    return aggs;
}

}  // namespace ftmpi::io
