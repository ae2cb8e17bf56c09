// The C++ twin of hello.c, built with mpicxx: mpi.h from C++ and the
// standard library together.
#include <mpi.h>

#include <cstdio>
#include <numeric>
#include <vector>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<int> ranks(static_cast<size_t>(size));
    std::iota(ranks.begin(), ranks.end(), 0);
    int partner = (rank + 1) % size, got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, partner, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (rank == 0)
        std::printf("hello from C++: %d ranks, sum %d\n", size, std::accumulate(ranks.begin(), ranks.end(), 0));
    MPI_Finalize();
    return got == (rank + size - 1) % size ? 0 : 1;
}
