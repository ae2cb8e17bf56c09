// Which members do the file access of a two-phase collective: by default
// the lowest rank on each host (host names gathered once, at open), as
// ROMIO's one-aggregator-per-node default; with the cb_nodes hint, that many
// ranks spread evenly over the communicator.
#include "internals.hpp"

#include "../internal/pmpi.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace ftmpi::io {

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
    for (int r = 0; r < fh->size; ++r) {
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
    if (fh->hints.cb_nodes > 0) {
        const int k = std::min(fh->hints.cb_nodes, fh->size);
        for (int i = 0; i < k; ++i) aggs.push_back(static_cast<int>(static_cast<int64_t>(i) * fh->size / k));
        return aggs;
    }
    aggs = fh->host_leaders;
    if (aggs.empty()) aggs.push_back(0);
    return aggs;
}

}  // namespace ftmpi::io
