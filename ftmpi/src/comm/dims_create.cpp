// MPI_Dims_create: a balanced grid of nnodes processes. The free
// dimensions get the factorization whose largest and smallest factors are
// closest (72 over 2 is 9 x 8, not 12 x 6 as a greedy split of the prime
// factors gives), listed in non-increasing order as MPICH and Open MPI do.
// Among those with the same spread the one that is largest read from the
// smallest factor up wins: the largest smallest factor (5040 over 3 is
// 21 x 16 x 15, not 20 x 18 x 14), then the largest second smallest (98784
// over 5 is 14 x 14 x 9 x 8 x 7, not 14 x 12 x 12 x 7 x 7), and so on; MPICH
// answers so, and its topo/dims5 expects exactly that.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"

#include <algorithm>
#include <vector>

using ftmpi::comm::raise;

namespace {
std::vector<int> divisors_of(int n) {
    std::vector<int> small, large;
    for (int d = 1; static_cast<long>(d) * d <= n; ++d)
        if (n % d == 0) {
            small.push_back(d);
            if (d != n / d) large.push_back(n / d);
        }
    small.insert(small.end(), large.rbegin(), large.rend());
    return small;  // ascending
}

// Searches the non-increasing factorizations of `rest` into `slots`
// factors, each at most `cap`, for the one with the smallest spread
// (largest - smallest), ties broken by comparing the factors from the
// smallest up (the larger wins).
struct BalancedSearch {
    const std::vector<int> &divisors;
    std::vector<int> current, best;
    long best_spread = -1;

    bool better_tie(const std::vector<int> &a, const std::vector<int> &b) const {
        return std::lexicographical_compare(b.rbegin(), b.rend(), a.rbegin(), a.rend());
    }

    void run(int rest, int slots, int cap) {
        if (slots == 1) {
            if (rest > cap) return;
            current.push_back(rest);
            const long spread = static_cast<long>(current.front()) - current.back();
            if (best_spread < 0 || spread < best_spread || (spread == best_spread && better_tie(current, best))) {
                best_spread = spread;
                best = current;
            }
            current.pop_back();
            return;
        }
        // The leading factor of the rest is at least its slots-th root.
        for (int d : divisors) {
            if (d > cap || d > rest) break;
            if (rest % d != 0) continue;
            long power = 1;
            for (int i = 0; i < slots && power < rest; ++i) power *= d;
            if (power < rest) continue;
            if (best_spread >= 0 && !current.empty() && current.front() - d > best_spread) continue;
            current.push_back(d);
            run(rest / d, slots - 1, d);
            current.pop_back();
        }
    }
};
}  // namespace

extern "C" int MPI_Dims_create(int nnodes, int ndims, int dims[]) noexcept {
    const char *fn = "MPI_Dims_create";
    if (nnodes < 0 || ndims < 0 || (ndims > 0 && dims == nullptr)) return raise(MPI_COMM_NULL, MPI_ERR_ARG, fn);
    long fixed = 1;
    int free_dims = 0;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] < 0) return raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn);
        if (dims[i] == 0)
            ++free_dims;
        else
            fixed *= dims[i];
    }
    if (ndims == 0) return nnodes == 1 || nnodes == 0 ? MPI_SUCCESS : raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn);
    if (nnodes == 0 || fixed == 0 || nnodes % fixed != 0) return raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn);
    const int rest = static_cast<int>(nnodes / fixed);
    if (free_dims == 0) return rest == 1 ? MPI_SUCCESS : raise(MPI_COMM_NULL, MPI_ERR_DIMS, fn);

    const std::vector<int> divisors = divisors_of(rest);
    BalancedSearch search{divisors, {}, {}, -1};
    search.run(rest, free_dims, rest);
    const std::vector<int> &grid = search.best;
    size_t next = 0;
    for (int i = 0; i < ndims; ++i)
        if (dims[i] == 0) dims[i] = grid[next++];
    return MPI_SUCCESS;
}
FTMPI_PMPI(Dims_create)
