// What ftmpi_tune measures: for each collective, the algorithms to try
// (names as FTMPI_Coll_force takes them, a segment size after ':') and one
// call of the collective with a message of a given size. "bytes" means what
// the decision table means by it (ftmpi/src/coll/README.md): the message
// for Bcast/Reduce/Allreduce/Scan/Exscan, one rank's block for
// Gather/Scatter/Allgather, one peer's block for Alltoall, the whole vector
// for Reduce_scatter; Barrier has no size.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace ftmpi_tune {

struct Collective {
    std::string name;                     // table name ("reduce_scatter")
    std::vector<std::string> candidates;  // FTMPI_Coll_force algorithm strings
    bool sized;                           // false: barrier (one row for every size)
};

// Every collective with a choice; `quick` tries one segment size only.
std::vector<Collective> collectives(bool quick);

// Buffers for every call up to max_bytes at `ranks` ranks.
class Buffers {
public:
    Buffers(size_t max_bytes, int ranks);
    char *send() { return send_.data(); }
    char *recv() { return recv_.data(); }

private:
    std::vector<char> send_, recv_;
};

// One call of collective `name` with `bytes` (MPI_INT data, MPI_SUM).
int run_once(const std::string &name, size_t bytes, Buffers &buffers, MPI_Comm comm);

// False when `candidate` would not run as itself for this call (the library
// would fall back to its built-in rule, so its time would be misnamed).
bool applies(const std::string &name, const std::string &candidate, size_t bytes, int ranks);

}  // namespace ftmpi_tune
