// Graph topologies (MPI-3.1 §7.5.3, 7.5.5) and MPI_Topo_test.
// `reorder` is accepted and ignored (identity mapping).
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "objects.hpp"
#include "topology.hpp"

using namespace ftmpi::comm;

namespace {
const Topology *graph_of(MPI_Comm comm) {
    return comm->topology && comm->topology->kind == Topology::Kind::graph ? comm->topology.get() : nullptr;
}

int check_graph(MPI_Comm comm) {
    if (!valid(comm) || comm->inter) return MPI_ERR_COMM;
    return graph_of(comm) != nullptr ? MPI_SUCCESS : MPI_ERR_TOPOLOGY;
}

// index must be non-decreasing from 0 and every edge a node of the graph.
bool valid_graph(int nnodes, const int index[], const int edges[]) {
    int previous = 0;
    for (int i = 0; i < nnodes; ++i) {
        if (index[i] < previous) return false;
        previous = index[i];
    }
    for (int e = 0; e < previous; ++e)
        if (edges[e] < 0 || edges[e] >= nnodes) return false;
    return true;
}
}  // namespace

extern "C" int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                                MPI_Comm *comm_graph) noexcept {
    const char *fn = "MPI_Graph_create";
    (void)reorder;
    if (!valid(comm_old) || comm_old->inter) return raise(comm_old, MPI_ERR_COMM, fn);
    if (comm_graph == nullptr || nnodes < 0 || (nnodes > 0 && index == nullptr))
        return raise(comm_old, MPI_ERR_ARG, fn);
    if (nnodes > comm_old->size) return raise(comm_old, MPI_ERR_ARG, fn);
    if (nnodes > 0 && index[nnodes - 1] > 0 && edges == nullptr) return raise(comm_old, MPI_ERR_ARG, fn);
    if (!valid_graph(nnodes, index, edges)) return raise(comm_old, MPI_ERR_ARG, fn);
    auto t = std::make_shared<Topology>();
    t->kind = Topology::Kind::graph;
    t->index.assign(index, index + nnodes);
    const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    t->edges.assign(edges, edges + nedges);
    return raise(comm_old, make_topology_comm(comm_old, nnodes, std::move(t), comm_graph), fn);
}
FTMPI_PMPI(Graph_create)

extern "C" int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges) noexcept {
    if (int err = check_graph(comm)) return raise(comm, err, "MPI_Graphdims_get");
    if (nnodes == nullptr || nedges == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Graphdims_get");
    const Topology &t = *graph_of(comm);
    *nnodes = static_cast<int>(t.index.size());
    *nedges = static_cast<int>(t.edges.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Graphdims_get)

extern "C" int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) noexcept {
    if (int err = check_graph(comm)) return raise(comm, err, "MPI_Graph_get");
    const Topology &t = *graph_of(comm);
    if (maxindex < 0 || maxedges < 0 || (maxindex > 0 && index == nullptr) || (maxedges > 0 && edges == nullptr))
        return raise(comm, MPI_ERR_ARG, "MPI_Graph_get");
    for (size_t i = 0; i < t.index.size() && i < static_cast<size_t>(maxindex); ++i) index[i] = t.index[i];
    for (size_t e = 0; e < t.edges.size() && e < static_cast<size_t>(maxedges); ++e) edges[e] = t.edges[e];
    return MPI_SUCCESS;
}
FTMPI_PMPI(Graph_get)

namespace {
// [first, last) of rank's neighbours in edges.
bool neighbour_range(const Topology &t, int rank, int &first, int &last) {
    if (rank < 0 || static_cast<size_t>(rank) >= t.index.size()) return false;
    first = rank == 0 ? 0 : t.index[static_cast<size_t>(rank) - 1];
    last = t.index[static_cast<size_t>(rank)];
    return true;
}
}  // namespace

extern "C" int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors) noexcept {
    if (int err = check_graph(comm)) return raise(comm, err, "MPI_Graph_neighbors_count");
    if (nneighbors == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Graph_neighbors_count");
    int first = 0, last = 0;
    if (!neighbour_range(*graph_of(comm), rank, first, last))
        return raise(comm, MPI_ERR_RANK, "MPI_Graph_neighbors_count");
    *nneighbors = last - first;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Graph_neighbors_count)

extern "C" int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) noexcept {
    if (int err = check_graph(comm)) return raise(comm, err, "MPI_Graph_neighbors");
    const Topology &t = *graph_of(comm);
    int first = 0, last = 0;
    if (!neighbour_range(t, rank, first, last)) return raise(comm, MPI_ERR_RANK, "MPI_Graph_neighbors");
    if (maxneighbors < 0 || (maxneighbors > 0 && neighbors == nullptr))
        return raise(comm, MPI_ERR_ARG, "MPI_Graph_neighbors");
    for (int e = first, i = 0; e < last && i < maxneighbors; ++e, ++i) neighbors[i] = t.edges[static_cast<size_t>(e)];
    return MPI_SUCCESS;
}
FTMPI_PMPI(Graph_neighbors)

extern "C" int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank) noexcept {
    (void)index;
    (void)edges;
    if (!valid(comm) || comm->inter) return raise(comm, MPI_ERR_COMM, "MPI_Graph_map");
    if (newrank == nullptr || nnodes < 0) return raise(comm, MPI_ERR_ARG, "MPI_Graph_map");
    if (nnodes > comm->size) return raise(comm, MPI_ERR_ARG, "MPI_Graph_map");
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Graph_map)

extern "C" int MPI_Topo_test(MPI_Comm comm, int *status) noexcept {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, "MPI_Topo_test");
    if (status == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Topo_test");
    if (!comm->topology)
        *status = MPI_UNDEFINED;
    else if (comm->topology->kind == Topology::Kind::cart)
        *status = MPI_CART;
    else
        *status = comm->topology->kind == Topology::Kind::graph ? MPI_GRAPH : MPI_DIST_GRAPH;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Topo_test)
