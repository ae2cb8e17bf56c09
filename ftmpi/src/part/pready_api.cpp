// MPI_Pready, MPI_Pready_range, MPI_Pready_list and MPI_Parrived.
//
// A call checks every partition it names before it marks any, so a wrong
// one loses nothing: MPI_ERR_REQUEST for a request that is not a
// partitioned one of the right side or not active (before MPI_Start, or
// once every partition of the round is ready), MPI_ERR_ARG for a partition
// out of range or marked ready twice in a round.
#include "internal/errors.hpp"
#include "internal/p2p.hpp"
#include "internal/pmpi.hpp"
#include "part/partitioned.hpp"

#include <span>

namespace ftmpi::part {
namespace {

bool in_range(const Partitioned &p, int partition) {
    return partition >= 0 && partition < p.partitions;
}

// Marks `partitions` ready (each checked first); once all are, the round's
// message goes out as soon as the matching receive is known.
int mark_ready(Partitioned &p, std::span<const int> partitions) {
    p2p::AdvancesDeferred deferred;  // the round's driver takes mu too
    std::lock_guard lock(p.mu);
    if (!p.send || !p.active || p.ready_count == p.partitions) return MPI_ERR_REQUEST;
    std::vector<char> marked = p.ready;
    for (int partition : partitions) {
        if (!in_range(p, partition) || marked[static_cast<std::size_t>(partition)]) return MPI_ERR_ARG;
        marked[static_cast<std::size_t>(partition)] = 1;
    }
    p.ready = std::move(marked);
    p.ready_count += static_cast<int>(partitions.size());
    if (p.ready_count == p.partitions) p.advance_locked();  // an error ends the round: Wait reports it
    return MPI_SUCCESS;
}

// Runs `body` on the partitioned request, errors through its communicator's
// handler (MPI_COMM_WORLD's for a request that is no partitioned one).
template <typename Body>
int on_request(MPI_Request request, const char *function, Body body) {
    std::shared_ptr<Partitioned> p;
    try {
        p = find(request);
    } catch (...) {
        return comm::raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, function);
    }
    if (!p) return comm::raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, function);
    return comm::guarded(p->comm, function, [&] { return body(*p); });
}

}  // namespace

extern "C" {

int MPI_Pready(int partition, MPI_Request request) noexcept {
    return on_request(request, "MPI_Pready", [&](Partitioned &p) { return mark_ready(p, std::span(&partition, 1)); });
}
FTMPI_PMPI(Pready)

int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request) noexcept {
    return on_request(request, "MPI_Pready_range", [&](Partitioned &p) {
        if (partition_low > partition_high || !in_range(p, partition_low) || !in_range(p, partition_high))
            return MPI_ERR_ARG;
        std::vector<int> all;
        for (int k = partition_low; k <= partition_high; ++k) all.push_back(k);
        return mark_ready(p, all);
    });
}
FTMPI_PMPI(Pready_range)

int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) noexcept {
    return on_request(request, "MPI_Pready_list", [&](Partitioned &p) {
        if (length < 0 || (length > 0 && array_of_partitions == nullptr)) return MPI_ERR_ARG;
        return mark_ready(p, std::span(array_of_partitions, static_cast<std::size_t>(length)));
    });
}
FTMPI_PMPI(Pready_list)

// True once the whole message arrived (every partition at once), and on an
// inactive request (as MPI_Test answers for one). The round then has ended:
// MPI_Test and MPI_Wait complete the request at once.
int MPI_Parrived(MPI_Request request, int partition, int *flag) noexcept {
    return on_request(request, "MPI_Parrived", [&](Partitioned &p) {
        if (p.send) return MPI_ERR_REQUEST;
        if (flag == nullptr || !in_range(p, partition)) return MPI_ERR_ARG;
        p2p::AdvancesDeferred deferred;
        std::lock_guard lock(p.mu);
        *flag = !p.active || p.advance_locked();
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Parrived)

}  // extern "C"

}  // namespace ftmpi::part
