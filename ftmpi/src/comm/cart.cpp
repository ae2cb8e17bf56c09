// Cartesian topologies (MPI-3.1 §7.5.1–7.5.5): row-major rank
// order; `reorder` is accepted and ignored (identity mapping), which the
// standard allows.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "agree.hpp"
#include "objects.hpp"
#include "topology.hpp"

#include <memory>

using namespace ftmpi::comm;

namespace ftmpi::comm {

int cart_rank_of(const Topology &t, const std::vector<int> &coords) {
    int rank = 0;
    for (size_t i = 0; i < t.dims.size(); ++i) rank = rank * t.dims[i] + coords[i];
    return rank;
}

std::vector<int> cart_coords_of(const Topology &t, int rank) {
    std::vector<int> coords(t.dims.size());
    for (size_t i = t.dims.size(); i-- > 0;) {
        coords[i] = rank % t.dims[i];
        rank /= t.dims[i];
    }
    return coords;
}

// The first `n` ranks of comm as a new communicator carrying `topology`
// (MPI_COMM_NULL for the others). Collective over comm.
int make_topology_comm(MPI_Comm comm, int n, std::shared_ptr<Topology> topology, MPI_Comm *out) {
    uint32_t context = 0;
    int err = allocate_context(comm, &context);
    if (err != MPI_SUCCESS) return err;
    if (comm->rank >= n) {
        release_context(context);
        *out = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    std::vector<int> world(comm->group->world.begin(), comm->group->world.begin() + n);
    *out = make_comm(make_group(std::move(world)), nullptr, context, comm);
    (*out)->topology = std::move(topology);
    return MPI_SUCCESS;
}

}  // namespace ftmpi::comm

namespace {
const Topology *cart_of(MPI_Comm comm) {
    return comm->topology && comm->topology->kind == Topology::Kind::cart ? comm->topology.get() : nullptr;
}

// Checks comm is a valid Cartesian communicator; the error code otherwise.
int check_cart(MPI_Comm comm) {
    if (!valid(comm) || comm->inter) return MPI_ERR_COMM;
    return cart_of(comm) != nullptr ? MPI_SUCCESS : MPI_ERR_TOPOLOGY;
}

// Product of dims, or -1 when a dim is not positive.
long grid_size(int ndims, const int dims[]) {
    long n = 1;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] <= 0) return -1;
        n *= dims[i];
        if (n > (1L << 31)) return -1;
    }
    return n;
}
}  // namespace

extern "C" int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                               MPI_Comm *comm_cart) noexcept {
    const char *fn = "MPI_Cart_create";
    (void)reorder;
    if (!valid(comm_old) || comm_old->inter) return raise(comm_old, MPI_ERR_COMM, fn);
    if (comm_cart == nullptr || ndims < 0 || (ndims > 0 && (dims == nullptr || periods == nullptr)))
        return raise(comm_old, MPI_ERR_ARG, fn);
    const long n = grid_size(ndims, dims);
    if (n < 0) return raise(comm_old, MPI_ERR_DIMS, fn);
    if (n > comm_old->size) return raise(comm_old, MPI_ERR_TOPOLOGY, fn);
    auto t = std::make_shared<Topology>();
    t->kind = Topology::Kind::cart;
    t->dims.assign(dims, dims + ndims);
    for (int i = 0; i < ndims; ++i) t->periods.push_back(periods[i] ? 1 : 0);
    return raise(comm_old, make_topology_comm(comm_old, static_cast<int>(n), std::move(t), comm_cart), fn);
}
FTMPI_PMPI(Cart_create)

extern "C" int MPI_Cartdim_get(MPI_Comm comm, int *ndims) noexcept {
    if (int err = check_cart(comm)) return raise(comm, err, "MPI_Cartdim_get");
    if (ndims == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Cartdim_get");
    *ndims = static_cast<int>(cart_of(comm)->dims.size());
    return MPI_SUCCESS;
}
FTMPI_PMPI(Cartdim_get)

extern "C" int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) noexcept {
    if (int err = check_cart(comm)) return raise(comm, err, "MPI_Cart_get");
    const Topology &t = *cart_of(comm);
    const int nd = static_cast<int>(t.dims.size());
    if (maxdims < nd || (nd > 0 && (dims == nullptr || periods == nullptr || coords == nullptr)))
        return raise(comm, MPI_ERR_ARG, "MPI_Cart_get");
    const auto mine = cart_coords_of(t, comm->rank);
    for (int i = 0; i < nd; ++i) {
        dims[i] = t.dims[static_cast<size_t>(i)];
        periods[i] = t.periods[static_cast<size_t>(i)];
        coords[i] = mine[static_cast<size_t>(i)];
    }
    return MPI_SUCCESS;
}
FTMPI_PMPI(Cart_get)

extern "C" int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank) noexcept {
    if (int err = check_cart(comm)) return raise(comm, err, "MPI_Cart_rank");
    const Topology &t = *cart_of(comm);
    if (rank == nullptr || (!t.dims.empty() && coords == nullptr)) return raise(comm, MPI_ERR_ARG, "MPI_Cart_rank");
    std::vector<int> c(t.dims.size());
    for (size_t i = 0; i < t.dims.size(); ++i) {
        int x = coords[i];
        if (t.periods[i]) {
            x %= t.dims[i];
            if (x < 0) x += t.dims[i];
        } else if (x < 0 || x >= t.dims[i]) {
            return raise(comm, MPI_ERR_RANK, "MPI_Cart_rank");
        }
        c[i] = x;
    }
    *rank = cart_rank_of(t, c);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Cart_rank)

extern "C" int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) noexcept {
    if (int err = check_cart(comm)) return raise(comm, err, "MPI_Cart_coords");
    const Topology &t = *cart_of(comm);
    if (rank < 0 || rank >= comm->size) return raise(comm, MPI_ERR_RANK, "MPI_Cart_coords");
    if (maxdims < static_cast<int>(t.dims.size()) || (!t.dims.empty() && coords == nullptr))
        return raise(comm, MPI_ERR_ARG, "MPI_Cart_coords");
    const auto c = cart_coords_of(t, rank);
    for (size_t i = 0; i < c.size(); ++i) coords[i] = c[i];
    return MPI_SUCCESS;
}
FTMPI_PMPI(Cart_coords)

extern "C" int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest) noexcept {
    if (int err = check_cart(comm)) return raise(comm, err, "MPI_Cart_shift");
    const Topology &t = *cart_of(comm);
    if (rank_source == nullptr || rank_dest == nullptr) return raise(comm, MPI_ERR_ARG, "MPI_Cart_shift");
    if (direction < 0 || direction >= static_cast<int>(t.dims.size()))
        return raise(comm, MPI_ERR_DIMS, "MPI_Cart_shift");
    const auto d = static_cast<size_t>(direction);
    const auto mine = cart_coords_of(t, comm->rank);
    // The rank `offset` steps along the direction, or MPI_PROC_NULL off a
    // non-periodic edge.
    auto neighbour = [&](long offset) {
        auto c = mine;
        long x = c[d] + offset;
        if (t.periods[d]) {
            x %= t.dims[d];
            if (x < 0) x += t.dims[d];
        } else if (x < 0 || x >= t.dims[d]) {
            return MPI_PROC_NULL;
        }
        c[d] = static_cast<int>(x);
        return cart_rank_of(t, c);
    };
    *rank_dest = neighbour(disp);
    *rank_source = neighbour(-static_cast<long>(disp));
    return MPI_SUCCESS;
}
FTMPI_PMPI(Cart_shift)

extern "C" int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm) noexcept {
    if (int err = check_cart(comm)) return raise(comm, err, "MPI_Cart_sub");
    const Topology &t = *cart_of(comm);
    if (newcomm == nullptr || (!t.dims.empty() && remain_dims == nullptr))
        return raise(comm, MPI_ERR_ARG, "MPI_Cart_sub");
    // Color: my coordinates in the dropped dimensions; key: in the kept ones
    // (row-major over the kept dims is rank order within the color).
    const auto mine = cart_coords_of(t, comm->rank);
    int color = 0, key = 0;
    auto sub = std::make_shared<Topology>();
    sub->kind = Topology::Kind::cart;
    for (size_t i = 0; i < t.dims.size(); ++i) {
        if (remain_dims[i]) {
            key = key * t.dims[i] + mine[i];
            sub->dims.push_back(t.dims[i]);
            sub->periods.push_back(t.periods[i]);
        } else {
            color = color * t.dims[i] + mine[i];
        }
    }
    int err = split_comm(comm, color, key, newcomm);
    if (err != MPI_SUCCESS) return raise(comm, err, "MPI_Cart_sub");
    (*newcomm)->topology = std::move(sub);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Cart_sub)

extern "C" int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank) noexcept {
    (void)periods;
    if (!valid(comm) || comm->inter) return raise(comm, MPI_ERR_COMM, "MPI_Cart_map");
    if (newrank == nullptr || ndims < 0 || (ndims > 0 && dims == nullptr))
        return raise(comm, MPI_ERR_ARG, "MPI_Cart_map");
    const long n = grid_size(ndims, dims);
    if (n < 0) return raise(comm, MPI_ERR_DIMS, "MPI_Cart_map");
    if (n > comm->size) return raise(comm, MPI_ERR_TOPOLOGY, "MPI_Cart_map");
    *newrank = comm->rank < n ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Cart_map)
