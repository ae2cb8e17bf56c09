// Owner: coll (mpicoll). See p2p_test.hpp.
#include "p2p_test.hpp"

namespace ftmpi::p2p {
// Weak: resolved to core's definition when it exists, else null.
__attribute__((weak)) int test_all(int n, MPI_Request *requests, int *flag, MPI_Status *statuses);
}  // namespace ftmpi::p2p

namespace ftmpi::coll {

int test_all(int n, MPI_Request *requests, int *flag, MPI_Status *statuses) {
    if (&p2p::test_all != nullptr) return p2p::test_all(n, requests, flag, statuses);
    return PMPI_Testall(n, requests, flag, statuses);
}

}  // namespace ftmpi::coll
