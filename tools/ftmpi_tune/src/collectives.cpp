// See collectives.hpp.
#include "collectives.hpp"

#include <algorithm>

namespace ftmpi_tune {
namespace {

int ints(size_t bytes) {
    return static_cast<int>(std::max<size_t>(1, bytes / sizeof(int)));
}

}  // namespace

std::vector<Collective> collectives(bool quick) {
    std::vector<std::string> pipelines = {"pipeline:64K"};
    if (!quick) pipelines = {"pipeline:16K", "pipeline:64K", "pipeline:256K"};
    std::vector<std::string> bcast = {"binomial"};
    bcast.insert(bcast.end(), pipelines.begin(), pipelines.end());
    return {
        {"barrier", {"dissemination", "tree"}, false},
        {"bcast", bcast, true},
        {"reduce", {"binomial"}, true},
        {"allreduce", {"recursive_doubling", "ring", "reduce_bcast", "rabenseifner"}, true},
        {"reduce_scatter", {"ring", "reduce_scatterv", "recursive_halving"}, true},
        {"scan", {"linear", "recursive_doubling"}, true},
        {"exscan", {"linear", "recursive_doubling"}, true},
        {"gather", {"linear", "binomial"}, true},
        {"scatter", {"linear", "binomial"}, true},
        {"allgather", {"ring", "bruck"}, true},
        {"alltoall", {"linear", "pairwise", "bruck"}, true},
    };
}

Buffers::Buffers(size_t max_bytes, int ranks) {
    // Alltoall and Allgather move one block per rank; Reduce_scatter's
    // vector is at most max_bytes rounded up to p ints.
    const size_t n = (max_bytes + sizeof(int)) * static_cast<size_t>(ranks) + 64;
    send_.assign(n, 1);
    recv_.assign(n, 0);
}

int run_once(const std::string &name, size_t bytes, Buffers &b, MPI_Comm comm) {
    int p = 1;
    MPI_Comm_size(comm, &p);
    const int n = ints(bytes);
    if (name == "barrier") return MPI_Barrier(comm);
    if (name == "bcast") return MPI_Bcast(b.send(), n, MPI_INT, 0, comm);
    if (name == "reduce") return MPI_Reduce(b.send(), b.recv(), n, MPI_INT, MPI_SUM, 0, comm);
    if (name == "allreduce") return MPI_Allreduce(b.send(), b.recv(), n, MPI_INT, MPI_SUM, comm);
    if (name == "reduce_scatter")
        return MPI_Reduce_scatter_block(b.send(), b.recv(), std::max(1, n / p), MPI_INT, MPI_SUM, comm);
    if (name == "scan") return MPI_Scan(b.send(), b.recv(), n, MPI_INT, MPI_SUM, comm);
    if (name == "exscan") return MPI_Exscan(b.send(), b.recv(), n, MPI_INT, MPI_SUM, comm);
    if (name == "gather") return MPI_Gather(b.send(), n, MPI_INT, b.recv(), n, MPI_INT, 0, comm);
    if (name == "scatter") return MPI_Scatter(b.send(), n, MPI_INT, b.recv(), n, MPI_INT, 0, comm);
    if (name == "allgather") return MPI_Allgather(b.send(), n, MPI_INT, b.recv(), n, MPI_INT, comm);
    if (name == "alltoall") return MPI_Alltoall(b.send(), n, MPI_INT, b.recv(), n, MPI_INT, comm);
    return MPI_ERR_ARG;
}

bool applies(const std::string &name, const std::string &candidate, size_t bytes, int ranks) {
    // The ring cuts the vector into p blocks: not below p elements.
    if (name == "allreduce" && candidate == "ring") return ints(bytes) >= ranks;
    if (name == "reduce_scatter" && (candidate == "ring" || candidate == "recursive_halving")) return ranks > 1;
    return true;
}

}  // namespace ftmpi_tune
