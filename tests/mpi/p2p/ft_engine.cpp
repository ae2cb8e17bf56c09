// The engine's fault-tolerance hooks that recovery and src/ft call
// (internal/p2p.hpp, FT section), exercised on 3 ranks without a VM:
//
// 1. flush/purge (FT-MPI's flush protocol): rank 1 sends rank 0 a user message,
//    an eager and a rendezvous collective-channel "stray", then everyone
//    flushes. After the flush the user message is there (Iprobe finds it
//    without waiting); purge drops the strays — the next collective message
//    rank 0 receives is the one rank 1 sent after the purge — and rank 1's
//    rendezvous stray send completes (purge answers it). Flushing twice on
//    the same context works (markers are counted). Rank 0 calls flush late
//    (after a message rank 2 sent just before its own flush), so rank 2's
//    marker usually arrives before rank 0's call — it must count then.
// 2. notify_failed from another thread while the main thread is blocked in
//    MPI_Recv from that rank: the receive ends with MPIX_ERR_PROC_FAILED,
//    failure_epoch grows by one (once, however often it is notified), later
//    sends to it fail; rank 2, whose connection rank 0 dropped, sees rank 0
//    failed (no VM: a broken connection is a failure at once).
#include "internal/comm.hpp"
#include "internal/p2p.hpp"
#include "support/check.h"

#include <mpi-ext.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace p2p = ftmpi::p2p;

namespace {

constexpr int stray_tag = 5;
constexpr int big = 1 << 20;

void flush_and_purge(int rank, int size) {
    const uint32_t context = MPI_COMM_WORLD->context;
    std::vector<int> all;
    for (int i = 0; i < size; ++i) all.push_back(i);
    std::vector<char> large(big, 'x');
    int v = 0;
    MPI_Request stray_small = MPI_REQUEST_NULL, stray_large = MPI_REQUEST_NULL;
    if (rank == 1) {
        v = 42;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
        v = -1;
        CHECK_MPI(p2p::isend(&v, 1, MPI_INT, 0, stray_tag, MPI_COMM_WORLD, p2p::Channel::collective, &stray_small));
        CHECK_MPI(p2p::isend(large.data(), big, MPI_CHAR, 0, stray_tag + 1, MPI_COMM_WORLD, p2p::Channel::collective,
                             &stray_large));
    }
    if (rank == 2) CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD));
    if (rank == 0) CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 2, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(p2p::flush(all, context));
    if (rank == 0) {
        int flag = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, &st));
        CHECK(flag, "after the flush rank 1's user message is not here");
        p2p::purge(context);
        CHECK_MPI(MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, &st));
        CHECK(flag, "purge dropped a user message between survivors");
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(v == 42, "user message %d", v);
    }
    // A second flush on the same context (the markers are counted).
    CHECK_MPI(p2p::flush(all, context));
    if (rank == 1) {
        CHECK_MPI(p2p::wait_all(1, &stray_large, MPI_STATUSES_IGNORE));  // answered by the purge
        CHECK_MPI(p2p::wait_all(1, &stray_small, MPI_STATUSES_IGNORE));
        v = 7;
        CHECK_MPI(p2p::send(&v, 1, MPI_INT, 0, stray_tag, MPI_COMM_WORLD, p2p::Channel::collective));
    }
    if (rank == 0) {
        CHECK_MPI(p2p::recv(&v, 1, MPI_INT, 1, stray_tag, MPI_COMM_WORLD, p2p::Channel::collective, MPI_STATUS_IGNORE));
        CHECK(v == 7, "the purged stray was received (%d)", v);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

void inject(int rank) {
    const int victim = 2;
    if (rank == victim) {
        // Rank 0 never sends this: the receive ends when rank 0 drops us.
        int v = 0;
        int e = MPI_Recv(&v, 1, MPI_INT, 0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "rank 2's receive from rank 0 gave class %d", error_class(e));
        return;
    }
    if (rank != 0) return;
    const uint64_t before = p2p::failure_epoch();
    std::thread notifier([] { p2p::notify_failed(victim); });
    int v = 0;
    // Whether the notice comes before or during the wait, the receive ends,
    // and no message rank 2 sent after it is taken.
    int e = MPI_Recv(&v, 1, MPI_INT, victim, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    notifier.join();
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "Recv from the injected failure gave class %d", error_class(e));
    CHECK(p2p::is_failed(victim), "rank 2 not failed");
    CHECK(p2p::failure_epoch() == before + 1, "failure_epoch %llu, expected %llu",
          static_cast<unsigned long long>(p2p::failure_epoch()), static_cast<unsigned long long>(before + 1));
    p2p::notify_failed(victim);  // once only
    CHECK(p2p::failure_epoch() == before + 1, "a second notice counted again");
    e = MPI_Send(&v, 1, MPI_INT, victim, 11, MPI_COMM_WORLD);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "Send to the injected failure gave class %d", error_class(e));
}

}  // namespace

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 3, "run on 3 ranks");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    flush_and_purge(rank, size);
    inject(rank);
    // Rank 0 finalizes (says bye) only after rank 1 has looked.
    int looked = 0;
    if (rank == 1) {
        CHECK(!p2p::said_bye(0), "rank 0 said bye before finalizing");
        CHECK_MPI(MPI_Send(&looked, 1, MPI_INT, 0, 13, MPI_COMM_WORLD));
    }
    if (rank == 0) CHECK_MPI(MPI_Recv(&looked, 1, MPI_INT, 1, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Finalize();
    return 0;
}
