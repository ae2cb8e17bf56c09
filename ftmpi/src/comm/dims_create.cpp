// MPI_Dims_create: a balanced grid of nnodes processes.
// Prime factors, largest first, go to the currently smallest free dimension;
// the free dimensions are then listed in non-increasing order.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"

#include <algorithm>
#include <functional>
#include <vector>

using ftmpi::comm::raise;

namespace {
std::vector<int> prime_factors(int n) {
    std::vector<int> f;
    for (int p = 2; static_cast<long>(p) * p <= n; ++p)
        while (n % p == 0) {
            f.push_back(p);
            n /= p;
        }
    if (n > 1) f.push_back(n);
    return f;
}
}  // namespace

extern "C" int MPI_Dims_create(int nnodes, int ndims, int dims[]) noexcept {
    const char *fn = "MPI_Dims_create";
    if (nnodes < 0 || ndims < 0 || (ndims > 0 && dims == nullptr)) return raise(MPI_COMM_NULL, MPI_ERR_ARG, fn);
    long fixed = 1;
    int free_dims = 0;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] < 0) return raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn);
        if (dims[i] == 0) ++free_dims;
        else fixed *= dims[i];
    }
    if (ndims == 0) return nnodes == 1 || nnodes == 0 ? MPI_SUCCESS : raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn);
    if (nnodes == 0 || fixed == 0 || nnodes % fixed != 0) return raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn);
    const int rest = static_cast<int>(nnodes / fixed);
    if (free_dims == 0) return rest == 1 ? MPI_SUCCESS : raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn);

    std::vector<int> grid(static_cast<size_t>(free_dims), 1);
    auto factors = prime_factors(rest);
    std::sort(factors.begin(), factors.end(), std::greater<>());
    for (int p : factors) *std::min_element(grid.begin(), grid.end()) *= p;
    std::sort(grid.begin(), grid.end(), std::greater<>());
    size_t next = 0;
    for (int i = 0; i < ndims; ++i)
        if (dims[i] == 0) dims[i] = grid[next++];
    return MPI_SUCCESS;
}
FTMPI_PMPI(Dims_create)
