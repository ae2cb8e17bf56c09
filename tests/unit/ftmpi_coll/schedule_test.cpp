// The collective Schedule (ftmpi/src/coll/schedule.*) and some algorithms
// built on it, run by p simulated ranks in one process over the fake engine
// (fake_engine.hpp), with and without a dead rank:
//   * rounds run in order and a round's steps run after its messages, in the
//     blocking (run) and the non-blocking (start + a generalized request)
//     execution alike;
//   * with a dead rank nobody hangs, the error reaches every rank whose
//     result depends on the dead one and no other (degraded mode: error
//     markers instead of data), and a rank that succeeds has the right data;
//   * a strict collective (agree_at_end) ends the same way everywhere.
#include "algorithms.hpp"
#include "fake_engine.hpp"
#include "schedule.hpp"
#include "tree.hpp"

#include "internal/p2p.hpp"

#include "mpi-ext.h"

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

namespace {

using ftmpi::coll::Schedule;

enum class Mode { blocking, nonblocking };

// Runs the schedule that `build` makes on each live rank of `world`; returns
// each rank's code (dead ranks: -1).
std::vector<int> run_everywhere(fake::World &world, Mode mode, const std::function<void(Schedule &)> &build) {
    std::vector<int> codes(static_cast<size_t>(world.size()), -1);
    std::mutex mutex;
    world.run([&](MPI_Comm comm) {
        int code;
        if (mode == Mode::blocking) {
            Schedule s(comm);
            build(s);
            code = s.run();
        } else {
            auto s = std::make_unique<Schedule>(comm);
            build(*s);
            MPI_Request request = MPI_REQUEST_NULL;
            code = Schedule::start(std::move(s), &request);
            if (code == MPI_SUCCESS) {
                MPI_Status status{};
                const int waited = ftmpi::p2p::wait_all(1, &request, &status);
                code = waited == MPI_ERR_IN_STATUS ? status.MPI_ERROR : waited;
            }
        }
        std::lock_guard lock(mutex);
        codes[static_cast<size_t>(comm->rank)] = code;
    });
    return codes;
}

std::string name(Mode m) {
    return m == Mode::blocking ? "blocking" : "non-blocking";
}

// True when vrank v's path to the root of a binomial tree passes a dead rank.
bool cut_off(int rank, int root, int p, const fake::World &world) {
    for (int v = ftmpi::coll::tree::to_vrank(rank, root, p); v != 0;) {
        v = ftmpi::coll::tree::parent(v);
        if (world.dead(ftmpi::coll::tree::to_rank(v, root, p))) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("rounds run in order; a round's steps run after its messages") {
    for (Mode mode : {Mode::blocking, Mode::nonblocking})
        for (int p = 1; p <= 5; ++p) {
            INFO(name(mode), " p=", p);
            fake::World world(p, {});
            std::vector<std::vector<int>> seen(static_cast<size_t>(p));
            std::vector<std::unique_ptr<int[]>> cells;
            for (int r = 0; r < p; ++r) cells.emplace_back(new int[4]{r, -1, -1, -1});
            const auto codes = run_everywhere(world, mode, [&](Schedule &s) {
                const int r = s.rank();
                int *c = cells[static_cast<size_t>(r)].get();  // mine, from left, mine*10, from left
                s.send(&c[0], 1, MPI_INT, (r + 1) % p);
                s.recv(&c[1], 1, MPI_INT, (r + p - 1) % p);
                s.then([c, &seen, r] {
                    seen[static_cast<size_t>(r)].push_back(c[1]);  // the round's receive is complete here
                    c[2] = c[1] * 10;
                    return MPI_SUCCESS;
                });
                s.send(&c[2], 1, MPI_INT, (r + 1) % p);
                s.recv(&c[3], 1, MPI_INT, (r + p - 1) % p);
            });
            for (int r = 0; r < p; ++r) {
                const int left = (r + p - 1) % p, second = (r + 2 * p - 2) % p;
                CHECK(codes[static_cast<size_t>(r)] == MPI_SUCCESS);
                CHECK(seen[static_cast<size_t>(r)] == std::vector<int>{left});
                CHECK(cells[static_cast<size_t>(r)][3] == second * 10);
            }
        }
}

TEST_CASE("a failing step ends the schedule with its code and skips later steps") {
    fake::World world(2, {});
    std::vector<int> later(2, 0);
    const auto codes = run_everywhere(world, Mode::blocking, [&](Schedule &s) {
        const int r = s.rank();
        s.then([r] { return r == 1 ? MPI_ERR_OP : MPI_SUCCESS; });
        s.then([&later, r] {
            later[static_cast<size_t>(r)] = 1;
            return MPI_SUCCESS;
        });
    });
    CHECK(codes == std::vector<int>{MPI_SUCCESS, MPI_ERR_OP});
    CHECK(later == std::vector<int>{1, 0});
}

TEST_CASE("binomial bcast with a dead rank: its subtree and parent fail, the others get the data, nobody hangs") {
    for (Mode mode : {Mode::blocking, Mode::nonblocking})
        for (int p = 2; p <= 9; ++p)
            for (int root = 0; root < p; ++root)
                for (int dead = -1; dead < p; ++dead) {
                    INFO(name(mode), " p=", p, " root=", root, " dead=", dead);
                    fake::World world(p, dead < 0 ? std::vector<int>{} : std::vector<int>{dead});
                    std::vector<std::vector<int>> data(static_cast<size_t>(p), std::vector<int>(3, 0));
                    data[static_cast<size_t>(root)] = {7, 8, 9 + root};
                    const auto codes = run_everywhere(world, mode, [&](Schedule &s) {
                        ftmpi::coll::bcast_binomial(s, data[static_cast<size_t>(s.rank())].data(), 3, MPI_INT, root);
                    });
                    for (int r = 0; r < p; ++r) {
                        if (r == dead) continue;
                        const int code = codes[static_cast<size_t>(r)];
                        REQUIRE(code != fake::kHung);
                        // The dead rank's parent fails too: its send to the dead rank does.
                        const bool parent_of_dead = dead >= 0 && dead != root &&
                            ftmpi::coll::tree::to_rank(
                                ftmpi::coll::tree::parent(ftmpi::coll::tree::to_vrank(dead, root, p)), root, p) == r;
                        if (root == dead || cut_off(r, root, p, world) || parent_of_dead) {
                            CHECK_MESSAGE(code == MPIX_ERR_PROC_FAILED, "rank ", r, " should fail");
                        } else {
                            CHECK_MESSAGE(code == MPI_SUCCESS, "rank ", r, " should succeed");
                            CHECK(data[static_cast<size_t>(r)] == std::vector<int>{7, 8, 9 + root});
                        }
                    }
                }
}

TEST_CASE("collectives that combine every rank's data fail at every survivor when one rank is dead") {
    using Build = std::function<void(Schedule &, const int *, int *)>;
    const std::vector<std::pair<std::string, Build>> algorithms = {
        {"allreduce_recursive_doubling",
         [](Schedule &s, const int *in, int *out) {
             ftmpi::coll::allreduce_recursive_doubling(s, in, out, 2, MPI_INT, MPI_SUM);
         }},
        {"allreduce_ring",
         [](Schedule &s, const int *in, int *out) { ftmpi::coll::allreduce_ring(s, in, out, 2, MPI_INT, MPI_SUM); }},
        {"allreduce_reduce_bcast",
         [](Schedule &s, const int *in, int *out) {
             ftmpi::coll::allreduce_reduce_bcast(s, in, out, 2, MPI_INT, MPI_SUM);
         }},
        {"barrier_dissemination", [](Schedule &s, const int *, int *) { ftmpi::coll::barrier_dissemination(s); }},
        {"barrier_tree", [](Schedule &s, const int *, int *) { ftmpi::coll::barrier_tree(s); }},
    };
    for (const auto &[algorithm, build] : algorithms)
        for (Mode mode : {Mode::blocking, Mode::nonblocking})
            for (int p = 2; p <= 8; ++p)
                for (int dead = -1; dead < p; ++dead) {
                    INFO(algorithm, " ", name(mode), " p=", p, " dead=", dead);
                    fake::World world(p, dead < 0 ? std::vector<int>{} : std::vector<int>{dead});
                    std::vector<std::vector<int>> in(static_cast<size_t>(p)),
                        out(static_cast<size_t>(p), std::vector<int>(2, 0));
                    for (int r = 0; r < p; ++r) in[static_cast<size_t>(r)] = {r, 1};
                    const auto codes = run_everywhere(world, mode, [&](Schedule &s) {
                        const auto r = static_cast<size_t>(s.rank());
                        build(s, in[r].data(), out[r].data());
                    });
                    for (int r = 0; r < p; ++r) {
                        if (r == dead) continue;
                        const int code = codes[static_cast<size_t>(r)];
                        REQUIRE(code != fake::kHung);
                        if (dead >= 0) {
                            CHECK_MESSAGE(code == MPIX_ERR_PROC_FAILED, "rank ", r, " got ", code);
                        } else {
                            CHECK(code == MPI_SUCCESS);
                            if (algorithm.rfind("allreduce", 0) == 0)
                                CHECK(out[static_cast<size_t>(r)] == std::vector<int>{p * (p - 1) / 2, p});
                        }
                    }
                }
}

TEST_CASE("a strict collective ends the same way at every survivor") {
    for (Mode mode : {Mode::blocking, Mode::nonblocking})
        for (int p = 2; p <= 7; ++p)
            for (int dead = -1; dead < p; ++dead) {
                INFO(name(mode), " p=", p, " dead=", dead);
                fake::World world(p, dead < 0 ? std::vector<int>{} : std::vector<int>{dead});
                const int root = 0;
                std::vector<int> data(static_cast<size_t>(p), 0);
                data[root] = 42;
                const auto codes = run_everywhere(world, mode, [&](Schedule &s) {
                    ftmpi::coll::bcast_binomial(s, &data[static_cast<size_t>(s.rank())], 1, MPI_INT, root);
                    s.agree_at_end();
                });
                // Without the agreement a rank outside the dead one's subtree
                // would succeed; with it every survivor fails alike.
                for (int r = 0; r < p; ++r) {
                    if (r == dead) continue;
                    CHECK(codes[static_cast<size_t>(r)] == (dead < 0 ? MPI_SUCCESS : MPIX_ERR_PROC_FAILED));
                    if (dead < 0) CHECK(data[static_cast<size_t>(r)] == 42);
                }
            }
}
