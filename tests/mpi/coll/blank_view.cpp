/* Collectives over a communicator with a gap, as
 * BLANK recovery leaves it (FT_CONTRACTS.md: group->world[i] == -1 marks a
 * failed rank; the extent stays, collectives run over the live ranks).
 *
 * Until recovery builds such communicators, this program makes one itself:
 * it dups MPI_COMM_WORLD, the victim (COLL_FAILURE_VICTIM, set by
 * failure_driver.c) dies with SIGKILL, and every survivor gives the dup a
 * private group in which the victim's entry is -1 (the only place this test
 * reaches into libftmpi's internals: internal/comm.hpp's plain structs).
 * Then each collective, under each algorithm, must succeed among the
 * survivors with results over the live ranks only, leave the gap's
 * positions in receive buffers untouched, and refuse the gap as a root
 * (MPI_ERR_ROOT). Exit 0 = all right; 1 = one line says what was wrong. */
#include "internal/comm.hpp"
#include "mpi-ext.h"
#include "mpi.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr int N = 16;          // elements per block
constexpr int untouched = -7;  // what receive buffers hold before a call

int rank, size, victim;
MPI_Comm blank;
std::string where;  // collective and algorithm under test

[[noreturn]] void fail(const std::string &what) {
    std::printf("rank %d: %s: %s\n", rank, where.c_str(), what.c_str());
    std::fflush(stdout);
    _exit(1);
}

void ok(int rc, const char *call) {
    if (rc != MPI_SUCCESS) fail(std::string(call) + " returned " + std::to_string(rc));
}

int value(int r, int i) {
    return r * 1000 + i + 1;
}
bool live(int r) {
    return r != victim;
}

// Block b of a buffer laid out by comm rank must hold `expect(i)` when b is
// live and `untouched` at the gap.
template <class Expect>
void check_blocks(const std::vector<int> &buf, Expect expect) {
    for (int b = 0; b < size; ++b)
        for (int i = 0; i < N; ++i) {
            const int want = live(b) ? expect(b, i) : untouched;
            if (buf[static_cast<size_t>(b * N + i)] != want)
                fail("block " + std::to_string(b) + "[" + std::to_string(i) +
                     "] = " + std::to_string(buf[static_cast<size_t>(b * N + i)]) + ", want " + std::to_string(want));
        }
}

long live_sum(int i, int upto /* exclusive */) {
    long sum = 0;
    for (int r = 0; r < upto; ++r)
        if (live(r)) sum += value(r, i);
    return sum;
}

void run_all(int root) {
    const std::string algo = where;
    std::vector<int> mine(static_cast<size_t>(N * size)), out(static_cast<size_t>(N * size), untouched);
    for (int i = 0; i < N * size; ++i) mine[static_cast<size_t>(i)] = value(rank, i);
    std::vector<int> counts(static_cast<size_t>(size), N), displs(static_cast<size_t>(size));
    std::vector<int> bytedispls(static_cast<size_t>(size));
    std::vector<MPI_Datatype> types(static_cast<size_t>(size), MPI_INT);
    for (int r = 0; r < size; ++r) {
        displs[static_cast<size_t>(r)] = r * N;
        bytedispls[static_cast<size_t>(r)] = r * N * static_cast<int>(sizeof(int));
    }
    auto fresh = [&](const char *name) {
        where = algo + " " + name + " root " + std::to_string(root);
        out.assign(out.size(), untouched);
    };

    fresh("barrier");
    ok(MPI_Barrier(blank), "MPI_Barrier");

    fresh("bcast");
    std::vector<int> data(N);
    for (int i = 0; i < N; ++i) data[static_cast<size_t>(i)] = rank == root ? value(root, i) : untouched;
    ok(MPI_Bcast(data.data(), N, MPI_INT, root, blank), "MPI_Bcast");
    for (int i = 0; i < N; ++i)
        if (data[static_cast<size_t>(i)] != value(root, i)) fail("wrong data");

    fresh("reduce");
    ok(MPI_Reduce(mine.data(), out.data(), N, MPI_INT, MPI_SUM, root, blank), "MPI_Reduce");
    if (rank == root)
        for (int i = 0; i < N; ++i)
            if (out[static_cast<size_t>(i)] != live_sum(i, size)) fail("wrong sum");

    fresh("allreduce");
    ok(MPI_Allreduce(mine.data(), out.data(), N, MPI_INT, MPI_SUM, blank), "MPI_Allreduce");
    for (int i = 0; i < N; ++i)
        if (out[static_cast<size_t>(i)] != live_sum(i, size)) fail("wrong sum");

    fresh("iallreduce");
    MPI_Request req;
    ok(MPI_Iallreduce(mine.data(), out.data(), N, MPI_INT, MPI_MAX, blank, &req), "MPI_Iallreduce");
    ok(MPI_Wait(&req, MPI_STATUS_IGNORE), "MPI_Wait");
    const int top = live(size - 1) ? size - 1 : size - 2;
    for (int i = 0; i < N; ++i)
        if (out[static_cast<size_t>(i)] != value(top, i)) fail("wrong max");

    fresh("gather");
    ok(MPI_Gather(mine.data(), N, MPI_INT, out.data(), N, MPI_INT, root, blank), "MPI_Gather");
    if (rank == root) check_blocks(out, [](int b, int i) { return value(b, i); });

    fresh("gatherv");
    ok(MPI_Gatherv(mine.data(), N, MPI_INT, out.data(), counts.data(), displs.data(), MPI_INT, root, blank),
       "MPI_Gatherv");
    if (rank == root) check_blocks(out, [](int b, int i) { return value(b, i); });

    fresh("igather");
    ok(MPI_Igather(mine.data(), N, MPI_INT, out.data(), N, MPI_INT, root, blank, &req), "MPI_Igather");
    ok(MPI_Wait(&req, MPI_STATUS_IGNORE), "MPI_Wait");
    if (rank == root) check_blocks(out, [](int b, int i) { return value(b, i); });

    fresh("scatter");
    ok(MPI_Scatter(mine.data(), N, MPI_INT, out.data(), N, MPI_INT, root, blank), "MPI_Scatter");
    for (int i = 0; i < N; ++i)
        if (out[static_cast<size_t>(i)] != value(root, rank * N + i)) fail("wrong block");

    fresh("scatterv");
    ok(MPI_Scatterv(mine.data(), counts.data(), displs.data(), MPI_INT, out.data(), N, MPI_INT, root, blank),
       "MPI_Scatterv");
    for (int i = 0; i < N; ++i)
        if (out[static_cast<size_t>(i)] != value(root, rank * N + i)) fail("wrong block");

    fresh("allgather");
    ok(MPI_Allgather(mine.data(), N, MPI_INT, out.data(), N, MPI_INT, blank), "MPI_Allgather");
    check_blocks(out, [](int b, int i) { return value(b, i); });

    fresh("allgatherv");
    ok(MPI_Allgatherv(mine.data(), N, MPI_INT, out.data(), counts.data(), displs.data(), MPI_INT, blank),
       "MPI_Allgatherv");
    check_blocks(out, [](int b, int i) { return value(b, i); });

    // Alltoall: block b of the result came from rank b, which sent its block
    // number `rank`: value(b, rank * N + i).
    const auto from = [](int b, int i) { return value(b, rank * N + i); };
    fresh("alltoall");
    ok(MPI_Alltoall(mine.data(), N, MPI_INT, out.data(), N, MPI_INT, blank), "MPI_Alltoall");
    check_blocks(out, from);

    fresh("alltoallv");
    ok(MPI_Alltoallv(mine.data(), counts.data(), displs.data(), MPI_INT, out.data(), counts.data(), displs.data(),
                     MPI_INT, blank),
       "MPI_Alltoallv");
    check_blocks(out, from);

    fresh("alltoallw");
    ok(MPI_Alltoallw(mine.data(), counts.data(), bytedispls.data(), types.data(), out.data(), counts.data(),
                     bytedispls.data(), types.data(), blank),
       "MPI_Alltoallw");
    check_blocks(out, from);

    // Reduce_scatter: rank r gets block r of the sum over the live ranks.
    fresh("reduce_scatter_block");
    ok(MPI_Reduce_scatter_block(mine.data(), out.data(), N, MPI_INT, MPI_SUM, blank), "MPI_Reduce_scatter_block");
    for (int i = 0; i < N; ++i)
        if (out[static_cast<size_t>(i)] != live_sum(rank * N + i, size)) fail("wrong block sum");

    fresh("reduce_scatter");
    ok(MPI_Reduce_scatter(mine.data(), out.data(), counts.data(), MPI_INT, MPI_SUM, blank), "MPI_Reduce_scatter");
    for (int i = 0; i < N; ++i)
        if (out[static_cast<size_t>(i)] != live_sum(rank * N + i, size)) fail("wrong block sum");

    fresh("scan");
    ok(MPI_Scan(mine.data(), out.data(), N, MPI_INT, MPI_SUM, blank), "MPI_Scan");
    for (int i = 0; i < N; ++i)
        if (out[static_cast<size_t>(i)] != live_sum(i, rank + 1)) fail("wrong prefix");

    fresh("exscan");
    ok(MPI_Exscan(mine.data(), out.data(), N, MPI_INT, MPI_SUM, blank), "MPI_Exscan");
    const int first_live = live(0) ? 0 : 1;
    if (rank != first_live)
        for (int i = 0; i < N; ++i)
            if (out[static_cast<size_t>(i)] != live_sum(i, rank)) fail("wrong prefix");

    // The gap as a root: an argument error, raised at once everywhere.
    fresh("gap as root");
    int cls = MPI_SUCCESS;
    MPI_Error_class(MPI_Bcast(data.data(), N, MPI_INT, victim, blank), &cls);
    if (cls != MPI_ERR_ROOT) fail("Bcast with the gap as root: class " + std::to_string(cls) + ", want MPI_ERR_ROOT");
    MPI_Error_class(MPI_Gather(mine.data(), N, MPI_INT, out.data(), N, MPI_INT, victim, blank), &cls);
    if (cls != MPI_ERR_ROOT) fail("Gather with the gap as root: class " + std::to_string(cls));
}

void force(const char *collective, const char *algorithm) {
    if (FTMPI_Coll_force(collective, algorithm) != MPI_SUCCESS)
        fail(std::string("FTMPI_Coll_force refused ") + collective + "=" + (algorithm ? algorithm : "(null)"));
}

}  // namespace

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *v = std::getenv("COLL_FAILURE_VICTIM");
    victim = v ? std::atoi(v) : size - 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ok(MPI_Comm_dup(MPI_COMM_WORLD, &blank), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(blank, MPI_ERRORS_RETURN);
    ok(MPI_Barrier(blank), "warm-up barrier");
    if (rank == victim) raise(SIGKILL);

    // The gap: a private group (the dup's may be shared) with -1 for the victim.
    auto *group = new ftmpi_group_s;
    group->world = blank->group->world;
    group->rank = blank->group->rank;
    group->world[static_cast<size_t>(victim)] = -1;
    blank->group = group;  // the old group's reference is kept (never freed here)

    int extent = 0;
    MPI_Comm_size(blank, &extent);
    if (extent != size) fail("MPI_Comm_size is not the extent");

    const int roots[] = {(victim + 1) % size, live(size - 1) ? size - 1 : size - 2};
    struct Config {
        const char *name;
        std::vector<std::pair<const char *, const char *>> algorithms;
    };
    const Config configs[] = {
        {"automatic", {}},
        {"tree/binomial/doubling/bruck/linear",
         {{"BARRIER", "tree"},
          {"BCAST", "binomial"},
          {"ALLREDUCE", "recursive_doubling"},
          {"GATHER", "binomial"},
          {"SCATTER", "binomial"},
          {"ALLGATHER", "bruck"},
          {"ALLTOALL", "linear"},
          {"SCAN", "recursive_doubling"},
          {"EXSCAN", "recursive_doubling"},
          {"REDUCE_SCATTER", "ring"}}},
        {"dissemination/pipeline/ring/linear/pairwise",
         {{"BARRIER", "dissemination"},
          {"BCAST", "pipeline"},
          {"ALLREDUCE", "ring"},
          {"GATHER", "linear"},
          {"SCATTER", "linear"},
          {"ALLGATHER", "ring"},
          {"ALLTOALL", "pairwise"},
          {"SCAN", "linear"},
          {"EXSCAN", "linear"},
          {"REDUCE_SCATTER", "reduce_scatterv"}}},
        {"reduce_bcast", {{"ALLREDUCE", "reduce_bcast"}}},
        {"rabenseifner/bruck/recursive_halving",
         {{"ALLREDUCE", "rabenseifner"}, {"ALLTOALL", "bruck"}, {"REDUCE_SCATTER", "recursive_halving"}}},
    };
    for (const Config &config : configs) {
        for (const auto &[collective, algorithm] : config.algorithms) force(collective, algorithm);
        for (int root : roots) {
            where = config.name;
            run_all(root);
        }
        for (const auto &[collective, algorithm] : config.algorithms) force(collective, nullptr);
    }
    std::printf("rank %d: every collective ran over the live ranks of the gapped communicator\n", rank);
    std::fflush(stdout);
    _exit(0);
}
