// REBUILD joining at the engine level, without the
// recovery part: a 3-rank job (no VM: a broken connection is a failure at
// once) in which rank 2 SIGKILLs itself; rank 0 starts a replacement of
// rank 2 (this program again, FTMPI_RESTARTED=1, FTMPI_INCARNATION=1,
// FTMPI_ROUND=1), which runs MPI_Init up to the recovery's join
// (runtime::init_before_join: wire-up as a replacement, engine, world) and
// so connects to ranks 0 and 1. The survivors check p2p::wait_joined, admit and peer_incarnation,
// then exchange messages with the replacement on MPI_COMM_WORLD both ways.
// Also checked: wait_joined for an incarnation that never comes returns
// MPIX_ERR_PROC_FAILED at its deadline, not later.
#include "internal/comm.hpp"
#include "internal/p2p.hpp"
#include "runtime/init.hpp"

#include <mpi-ext.h>
#include <mpi.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace p2p = ftmpi::p2p;

namespace {

int me = -1;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            std::fprintf(stderr, "join_engine: rank %d: ", me);                                                        \
            std::fprintf(stderr, __VA_ARGS__);                                                                         \
            std::fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__);                                                    \
            std::fflush(stderr);                                                                                       \
            _exit(1);                                                                                                  \
        }                                                                                                              \
    } while (0)

constexpr int tag = 77;

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

// The replacement: MPI_Init up to (not including) the recovery's join.
int run_replacement() {
    bool restarted = false;
    CHECK(ftmpi::runtime::init_before_join(MPI_THREAD_SINGLE, nullptr, &restarted) == MPI_SUCCESS && restarted,
          "the replacement did not initialize as one");
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    struct {
        int rank;
    } job{me};
    CHECK(p2p::peer_incarnation(job.rank) == 1, "own incarnation %d", p2p::peer_incarnation(job.rank));
    CHECK(!p2p::is_failed(0) && !p2p::is_failed(1), "a live rank was taken for failed");
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int from = 0; from < 2; ++from) {
        int v = -1;
        MPI_Status st;
        int e = p2p::recv(&v, 1, MPI_INT, from, tag, MPI_COMM_WORLD, p2p::Channel::user, &st);
        CHECK(e == MPI_SUCCESS, "recv from %d failed (%d; failed: %d)", from, e, p2p::is_failed(from));
        CHECK(v == 100 + from, "got %d from %d", v, from);
        int reply = 200 + from;
        CHECK(p2p::send(&reply, 1, MPI_INT, from, tag, MPI_COMM_WORLD, p2p::Channel::user) == MPI_SUCCESS,
              "send to %d failed", from);
    }
    // Fellow replacements of the same round (ranks 2..size-1) find each other.
    for (int peer = 2; peer < size; ++peer) {
        if (peer == me) continue;
        CHECK(wait_for([peer] { return !p2p::is_failed(peer) && p2p::peer_incarnation(peer) == 1; }, 20000),
              "fellow replacement %d never connected", peer);
        int v = 300 + me, got = -1;
        MPI_Status st;
        CHECK(p2p::send(&v, 1, MPI_INT, peer, tag + 1, MPI_COMM_WORLD, p2p::Channel::user) == MPI_SUCCESS,
              "send to fellow %d failed", peer);
        CHECK(p2p::recv(&got, 1, MPI_INT, peer, tag + 1, MPI_COMM_WORLD, p2p::Channel::user, &st) == MPI_SUCCESS &&
                  got == 300 + peer,
              "exchange with fellow %d failed (got %d)", peer, got);
    }
    MPI_Finalize();
    std::printf("join_engine: replacement of rank %d exchanged messages with the survivors and its fellows\n", me);
    std::fflush(stdout);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    if (const char *r = std::getenv("FTMPI_RESTARTED"); r && std::strcmp(r, "1") == 0) return run_replacement();
    MPI_Init(&argc, &argv);
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 3, "run with 3 or more ranks");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(std::getenv("FTMPI_WIREUP") && std::strncmp(std::getenv("FTMPI_WIREUP"), "dir:", 4) == 0,
          "needs the dir: wire-up");
    MPI_Barrier(MPI_COMM_WORLD);
    if (me >= 2) raise(SIGKILL);  // ranks 2.. die; 0 and 1 survive
    std::vector<int> dead, ones;
    for (int r = 2; r < size; ++r) {
        dead.push_back(r);
        ones.push_back(1);
    }

    CHECK(wait_for(
              [&] {
                  for (int r : dead)
                      if (!p2p::is_failed(r)) return false;
                  return true;
              },
              20000),
          "the deaths were not noticed");
    CHECK(p2p::peer_incarnation(2) == 0, "incarnation of rank 2 before the join: %d", p2p::peer_incarnation(2));

    // No replacement yet: wait_joined ends at its deadline with an error.
    auto t0 = std::chrono::steady_clock::now();
    int e = p2p::wait_joined(dead, ones, 300);
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(e == MPIX_ERR_PROC_FAILED, "wait_joined without a replacement returned %d", e);
    CHECK(waited >= 0.29 && waited < 5.0, "wait_joined's 300 ms deadline took %.3f s", waited);

    // Rank 0 starts the replacements, highest rank first: a lower one then
    // sees the higher one's new record, the higher one may have read the
    // lower one's old record (the slow path of the same-round rule).
    std::vector<pid_t> children;
    if (me == 0) {
        for (int k = size - 1; k >= 2; --k) {
            pid_t child = fork();
            CHECK(child >= 0, "fork failed");
            if (child == 0) {
                setenv("FTMPI_RANK", std::to_string(k).c_str(), 1);
                setenv("FTMPI_RESTARTED", "1", 1);
                setenv("FTMPI_INCARNATION", "1", 1);
                setenv("FTMPI_ROUND", "1", 1);
                execv("/proc/self/exe", argv);
                _exit(127);
            }
            children.push_back(child);
        }
    }
    t0 = std::chrono::steady_clock::now();
    e = p2p::wait_joined(dead, ones, 20000);
    CHECK(e == MPI_SUCCESS, "the replacements did not connect (%d)", e);
    for (int r : dead) {
        CHECK(p2p::is_failed(r), "rank %d is not failed any more before admit", r);
        CHECK(p2p::peer_incarnation(r) == 0, "incarnation %d of rank %d before admit", p2p::peer_incarnation(r), r);
        p2p::admit(r, 1);
        CHECK(!p2p::is_failed(r), "rank %d is still failed after admit", r);
        CHECK(p2p::peer_incarnation(r) == 1, "incarnation %d of rank %d after admit", p2p::peer_incarnation(r), r);
    }
    double join_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

    int v = 100 + me;
    for (int r : dead) {
        int back = -1;
        CHECK(p2p::send(&v, 1, MPI_INT, r, tag, MPI_COMM_WORLD, p2p::Channel::user) == MPI_SUCCESS, "send to %d failed",
              r);
        MPI_Status st;
        CHECK(p2p::recv(&back, 1, MPI_INT, r, tag, MPI_COMM_WORLD, p2p::Channel::user, &st) == MPI_SUCCESS,
              "recv from %d failed", r);
        CHECK(back == 200 + me, "got %d back from the replacement of %d", back, r);
    }
    // The survivors still talk to each other.
    int other = 1 - me, got = -1;
    CHECK(MPI_Sendrecv(&v, 1, MPI_INT, other, 5, &got, 1, MPI_INT, other, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS,
          "sendrecv between survivors failed");
    CHECK(got == 100 + other, "survivor exchange got %d", got);
    std::printf("join_engine: rank %d admitted %zu replacement(s) (incarnation 1) %.1f ms after they were started\n",
                me, dead.size(), join_ms);
    std::fflush(stdout);
    MPI_Finalize();  // before waiting for the child: its MPI_Finalize waits for our bye
    for (pid_t child : children) {
        int status = 0;
        CHECK(waitpid(child, &status, 0) == child, "waitpid failed");
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a replacement ended with status %d", status);
    }
    return 0;
}
