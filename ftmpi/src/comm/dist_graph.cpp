// Distributed graph topologies (MPI-3.1 §7.5.4): each process
// knows only its own in- and out-neighbours. `reorder` is accepted and
// ignored; the new communicator has all of comm_old's processes in order.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "agree.hpp"
#include "objects.hpp"
#include "topology.hpp"

#include <algorithm>
#include <cstring>

using namespace ftmpi::comm;

namespace {
bool is_weighted(const int weights[]) {
    return weights != MPI_UNWEIGHTED;
}

const Topology *dist_graph_of(MPI_Comm comm) {
    return comm->topology && comm->topology->kind == Topology::Kind::dist_graph ? comm->topology.get() : nullptr;
}

bool ranks_ok(int n, const int ranks[], int size) {
    for (int i = 0; i < n; ++i)
        if (ranks[i] < 0 || ranks[i] >= size) return false;
    return true;
}

// Copies the weights, or zeros for an unweighted graph.
std::vector<int> weights_of(int n, const int weights[]) {
    if (!is_weighted(weights) || weights == MPI_WEIGHTS_EMPTY || weights == nullptr)
        return std::vector<int>(static_cast<size_t>(n), 0);
    return std::vector<int>(weights, weights + n);
}
}  // namespace

extern "C" int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                              const int sourceweights[], int outdegree, const int destinations[],
                                              const int destweights[], MPI_Info info, int reorder,
                                              MPI_Comm *comm_dist_graph) noexcept {
    const char *fn = "MPI_Dist_graph_create_adjacent";
    (void)reorder;
    if (!valid(comm_old) || comm_old->inter) return raise(comm_old, MPI_ERR_COMM, fn);
    if (info != MPI_INFO_NULL && !valid(info)) return raise(comm_old, MPI_ERR_INFO, fn);
    if (comm_dist_graph == nullptr || indegree < 0 || outdegree < 0 || (indegree > 0 && sources == nullptr) ||
        (outdegree > 0 && destinations == nullptr))
        return raise(comm_old, MPI_ERR_ARG, fn);
    if (!ranks_ok(indegree, sources, comm_old->size) || !ranks_ok(outdegree, destinations, comm_old->size))
        return raise(comm_old, MPI_ERR_RANK, fn);
    auto t = std::make_shared<Topology>();
    t->kind = Topology::Kind::dist_graph;
    t->weighted = is_weighted(sourceweights) && is_weighted(destweights);
    t->in_sources.assign(sources, sources + indegree);
    t->out_destinations.assign(destinations, destinations + outdegree);
    t->in_weights = weights_of(indegree, sourceweights);
    t->out_weights = weights_of(outdegree, destweights);
    return raise(comm_old, make_topology_comm(comm_old, comm_old->size, std::move(t), comm_dist_graph), fn);
}
FTMPI_PMPI(Dist_graph_create_adjacent)

extern "C" int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                     const int destinations[], const int weights[], MPI_Info info, int reorder,
                                     MPI_Comm *comm_dist_graph) noexcept {
    const char *fn = "MPI_Dist_graph_create";
    (void)reorder;
    if (!valid(comm_old) || comm_old->inter) return raise(comm_old, MPI_ERR_COMM, fn);
    if (info != MPI_INFO_NULL && !valid(info)) return raise(comm_old, MPI_ERR_INFO, fn);
    if (comm_dist_graph == nullptr || n < 0 || (n > 0 && (sources == nullptr || degrees == nullptr)))
        return raise(comm_old, MPI_ERR_ARG, fn);
    // My edges as (source, destination, weight) triples.
    std::vector<int> mine;
    int k = 0;
    long total = 0;
    for (int i = 0; i < n; ++i) total += std::max(degrees[i], 0);
    // Bad input is reported by every process (below), so nobody is left waiting.
    bool bad = total > 0 && destinations == nullptr;
    for (int i = 0; i < n && !bad; ++i) {
        if (degrees[i] < 0 || sources[i] < 0 || sources[i] >= comm_old->size) bad = true;
        for (int d = 0; d < std::max(degrees[i], 0); ++d, ++k) {
            const int dest = destinations[k];
            if (dest < 0 || dest >= comm_old->size) bad = true;
            const bool w = is_weighted(weights) && weights != MPI_WEIGHTS_EMPTY && weights != nullptr;
            mine.insert(mine.end(), {sources[i], dest, w ? weights[k] : 0});
        }
    }
    // Everyone's edge count (and whether anyone's input was bad), then the
    // edges themselves padded to the longest list.
    int32_t count[2] = {static_cast<int32_t>(mine.size() / 3), bad ? 1 : 0};
    std::vector<unsigned char> counts;
    int err = allgather(whole(comm_old), count, sizeof count, counts);
    if (err != MPI_SUCCESS) return raise(comm_old, err, fn);
    int32_t longest = 0;
    for (int r = 0; r < comm_old->size; ++r) {
        int32_t c[2];
        std::memcpy(c, counts.data() + static_cast<size_t>(r) * sizeof c, sizeof c);
        if (c[1] != 0) return raise(comm_old, MPI_ERR_ARG, fn);  // every process fails alike
        longest = std::max(longest, c[0]);
    }
    const size_t record = static_cast<size_t>(longest) * 3 * sizeof(int);
    std::vector<unsigned char> padded(record, 0), all;
    if (!mine.empty()) std::memcpy(padded.data(), mine.data(), mine.size() * sizeof(int));
    err = allgather(whole(comm_old), padded.data(), record, all);
    if (err != MPI_SUCCESS) return raise(comm_old, err, fn);

    auto t = std::make_shared<Topology>();
    t->kind = Topology::Kind::dist_graph;
    t->weighted = is_weighted(weights);
    for (int r = 0; r < comm_old->size; ++r) {
        int32_t c[2];
        std::memcpy(c, counts.data() + static_cast<size_t>(r) * sizeof c, sizeof c);
        for (int e = 0; e < c[0]; ++e) {
            int edge[3];
            std::memcpy(edge, all.data() + static_cast<size_t>(r) * record + static_cast<size_t>(e) * sizeof edge,
                        sizeof edge);
            if (edge[0] == comm_old->rank) {
                t->out_destinations.push_back(edge[1]);
                t->out_weights.push_back(edge[2]);
            }
            if (edge[1] == comm_old->rank) {
                t->in_sources.push_back(edge[0]);
                t->in_weights.push_back(edge[2]);
            }
        }
    }
    return raise(comm_old, make_topology_comm(comm_old, comm_old->size, std::move(t), comm_dist_graph), fn);
}
FTMPI_PMPI(Dist_graph_create)

extern "C" int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted) noexcept {
    const char *fn = "MPI_Dist_graph_neighbors_count";
    if (!valid(comm) || comm->inter) return raise(comm, MPI_ERR_COMM, fn);
    const Topology *t = dist_graph_of(comm);
    if (t == nullptr) return raise(comm, MPI_ERR_TOPOLOGY, fn);
    if (indegree == nullptr || outdegree == nullptr || weighted == nullptr) return raise(comm, MPI_ERR_ARG, fn);
    *indegree = static_cast<int>(t->in_sources.size());
    *outdegree = static_cast<int>(t->out_destinations.size());
    *weighted = t->weighted ? 1 : 0;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Dist_graph_neighbors_count)

extern "C" int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                        int maxoutdegree, int destinations[], int destweights[]) noexcept {
    const char *fn = "MPI_Dist_graph_neighbors";
    if (!valid(comm) || comm->inter) return raise(comm, MPI_ERR_COMM, fn);
    const Topology *t = dist_graph_of(comm);
    if (t == nullptr) return raise(comm, MPI_ERR_TOPOLOGY, fn);
    if (maxindegree < 0 || maxoutdegree < 0 || (maxindegree > 0 && sources == nullptr) ||
        (maxoutdegree > 0 && destinations == nullptr))
        return raise(comm, MPI_ERR_ARG, fn);
    const bool want_in_w = t->weighted && is_weighted(sourceweights) && sourceweights != nullptr;
    const bool want_out_w = t->weighted && is_weighted(destweights) && destweights != nullptr;
    for (size_t i = 0; i < t->in_sources.size() && i < static_cast<size_t>(maxindegree); ++i) {
        sources[i] = t->in_sources[i];
        if (want_in_w) sourceweights[i] = t->in_weights[i];
    }
    for (size_t i = 0; i < t->out_destinations.size() && i < static_cast<size_t>(maxoutdegree); ++i) {
        destinations[i] = t->out_destinations[i];
        if (want_out_w) destweights[i] = t->out_weights[i];
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Dist_graph_neighbors)
