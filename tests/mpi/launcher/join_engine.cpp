// Owner: core (ftjoin). REBUILD joining at the engine level, without the
// recovery part: a 3-rank job (no VM: a broken connection is a failure at
// once) in which rank 2 SIGKILLs itself; rank 0 starts a replacement of
// rank 2 (this program again, FTMPI_RESTARTED=1, FTMPI_INCARNATION=1,
// FTMPI_ROUND=1), which brings up only the engine and MPI_COMM_WORLD (not
// MPI_Init: that would enter the recovery's join) and connects to ranks 0
// and 1. The survivors check p2p::wait_joined, admit and peer_incarnation,
// then exchange messages with the replacement on MPI_COMM_WORLD both ways.
// Also checked: wait_joined for an incarnation that never comes returns
// MPIX_ERR_PROC_FAILED at its deadline, not later.
#include "internal/comm.hpp"
#include "internal/p2p.hpp"
#include "p2p/engine.hpp"
#include "runtime/wireup.hpp"
#include "transport/tcp.hpp"

#include <mpi.h>
#include <mpi-ext.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

namespace p2p = ftmpi::p2p;

namespace {

int me = -1;

#define CHECK(cond, ...)                                                            \
    do {                                                                            \
        if (!(cond)) {                                                              \
            std::fprintf(stderr, "join_engine: rank %d: ", me);                     \
            std::fprintf(stderr, __VA_ARGS__);                                      \
            std::fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__);                 \
            std::fflush(stderr);                                                    \
            _exit(1);                                                               \
        }                                                                           \
    } while (0)

constexpr int tag = 77;

// The replacement: engine + world communicator only, as MPI_Init would set
// them up before the recovery's join.
int run_replacement() {
    ftmpi::runtime::JobInfo job;
    job.job = std::getenv("FTMPI_JOB") ? std::getenv("FTMPI_JOB") : "join";
    job.rank = std::atoi(std::getenv("FTMPI_RANK"));
    job.size = std::atoi(std::getenv("FTMPI_SIZE"));
    job.wireup = std::getenv("FTMPI_WIREUP");
    job.restarted = true;
    job.incarnation = 1;
    job.round = 1;
    me = job.rank;
    auto &engine = p2p::Engine::get();
    engine.set_identity(job.incarnation, job.round);
    std::string error = engine.start(
        job.rank, job.size,
        [&](const std::string &address) {
            ftmpi::transport::Contact c{address, job.incarnation, job.round};
            return ftmpi::runtime::exchange_contacts(job, c.record(), std::chrono::seconds(10));
        },
        ftmpi::runtime::listen_host(job));
    CHECK(error.empty(), "replacement engine did not start: %s", error.c_str());
    ftmpi::comm::init_world(job.rank, job.size);
    CHECK(p2p::peer_incarnation(job.rank) == 1, "own incarnation %d", p2p::peer_incarnation(job.rank));
    CHECK(!p2p::is_failed(0) && !p2p::is_failed(1), "a live rank was taken for failed");
    for (int from = 0; from < 2; ++from) {
        int v = -1;
        MPI_Status st;
        CHECK(p2p::recv(&v, 1, MPI_INT, from, tag, MPI_COMM_WORLD, p2p::Channel::user, &st) == MPI_SUCCESS,
              "recv from %d failed", from);
        CHECK(v == 100 + from, "got %d from %d", v, from);
        int reply = 200 + from;
        CHECK(p2p::send(&reply, 1, MPI_INT, from, tag, MPI_COMM_WORLD, p2p::Channel::user) == MPI_SUCCESS,
              "send to %d failed", from);
    }
    ftmpi::comm::finalize_world();
    engine.finalize();
    std::printf("join_engine: replacement of rank 2 exchanged messages with ranks 0 and 1\n");
    std::fflush(stdout);
    return 0;
}

bool wait_for(const std::function<bool()> &cond, int deadline_ms) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(deadline_ms);
    while (!cond()) {
        if (std::chrono::steady_clock::now() > end) return false;
        MPI_Status st;
        int flag = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, 9999, MPI_COMM_SELF, &flag, &st);  // makes progress
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    if (const char *r = std::getenv("FTMPI_RESTARTED"); r && std::strcmp(r, "1") == 0) return run_replacement();
    MPI_Init(&argc, &argv);
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 3, "run with 3 ranks");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(std::getenv("FTMPI_WIREUP") && std::strncmp(std::getenv("FTMPI_WIREUP"), "dir:", 4) == 0,
          "needs the dir: wire-up");
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 2) raise(SIGKILL);

    CHECK(wait_for([] { return p2p::is_failed(2); }, 20000), "rank 2's death was not noticed");
    CHECK(p2p::peer_incarnation(2) == 0, "incarnation of rank 2 before the join: %d", p2p::peer_incarnation(2));

    // No replacement yet: wait_joined ends at its deadline with an error.
    auto t0 = std::chrono::steady_clock::now();
    int e = p2p::wait_joined({2}, {1}, 300);
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(e == MPIX_ERR_PROC_FAILED, "wait_joined without a replacement returned %d", e);
    CHECK(waited >= 0.29 && waited < 5.0, "wait_joined's 300 ms deadline took %.3f s", waited);

    pid_t child = -1;
    if (me == 0) {
        child = fork();
        CHECK(child >= 0, "fork failed");
        if (child == 0) {
            setenv("FTMPI_RANK", "2", 1);
            setenv("FTMPI_RESTARTED", "1", 1);
            setenv("FTMPI_INCARNATION", "1", 1);
            setenv("FTMPI_ROUND", "1", 1);
            execv("/proc/self/exe", argv);
            _exit(127);
        }
    }
    t0 = std::chrono::steady_clock::now();
    e = p2p::wait_joined({2}, {1}, 20000);
    CHECK(e == MPI_SUCCESS, "the replacement did not connect (%d)", e);
    CHECK(p2p::is_failed(2), "rank 2 is not failed any more before admit");
    CHECK(p2p::peer_incarnation(2) == 0, "incarnation %d before admit", p2p::peer_incarnation(2));
    p2p::admit(2, 1);
    double join_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    CHECK(!p2p::is_failed(2), "rank 2 is still failed after admit");
    CHECK(p2p::peer_incarnation(2) == 1, "incarnation %d after admit", p2p::peer_incarnation(2));

    int v = 100 + me, back = -1;
    CHECK(p2p::send(&v, 1, MPI_INT, 2, tag, MPI_COMM_WORLD, p2p::Channel::user) == MPI_SUCCESS, "send to 2 failed");
    MPI_Status st;
    CHECK(p2p::recv(&back, 1, MPI_INT, 2, tag, MPI_COMM_WORLD, p2p::Channel::user, &st) == MPI_SUCCESS,
          "recv from 2 failed");
    CHECK(back == 200 + me, "got %d back from the replacement", back);
    // The survivors still talk to each other.
    int other = 1 - me, got = -1;
    CHECK(MPI_Sendrecv(&v, 1, MPI_INT, other, 5, &got, 1, MPI_INT, other, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS,
          "sendrecv between survivors failed");
    CHECK(got == 100 + other, "survivor exchange got %d", got);
    std::printf("join_engine: rank %d admitted the replacement of rank 2 (incarnation 1) %.1f ms after it was started\n",
                me, join_ms);
    std::fflush(stdout);
    if (me == 0) {
        int status = 0;
        CHECK(waitpid(child, &status, 0) == child, "waitpid failed");
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the replacement ended with status %d", status);
    }
    MPI_Finalize();
    return 0;
}
