// Runs the shm driver in N forked processes, one per rank of a test job.
//
// The parent forks the ranks, optionally acts while they run (kills one, for
// instance), waits for them with a deadline (killing them all when it
// passes) and reports each one's exit status. In a rank, Rank wraps the ops
// table with a recording sink and the engine's way of waiting: spin on
// progress() a little, then prepare_wait() and poll() on wait_fd() until the
// test's deadline; no sleeps. A rank fails by throwing; its message goes to
// stderr and its exit status is 1.
#pragma once

#include <ftmpi/comm_shm.h>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace shmtest {

using Clock = std::chrono::steady_clock;

struct Received {
    ftmpi_frame frame{};
    std::vector<char> data;  // the landed bytes (keep of them)
};

class Rank {
public:
    Rank(int rank, int size, std::vector<int> note_fds_read, std::vector<int> note_fds_write);
    ~Rank();

    int rank() const { return rank_; }
    int size() const { return size_; }
    const ftmpi_transport_ops *ops = nullptr;
    ftmpi_transport *t = nullptr;

    void open(const std::string &job, int incarnation = 0, int round = 0);
    void connect_all(int timeout_ms = 10000);
    // This host's address for a rank of that incarnation and round.
    std::string address_of(int incarnation, int round);
    void close();

    // How long wait_until spins on progress() before it blocks on wait_fd.
    std::chrono::microseconds spin{20};
    // Drives progress until done() or the deadline (then throws).
    void wait_until(const std::function<bool()> &done, int timeout_ms, const char *what);
    // One frame with a payload; COPY or referenced (the buffer must live until on_sent).
    int send(int peer, ftmpi_frame f, const void *data, size_t len, unsigned flags, uint64_t token = 0);
    int send_control(int peer, uint8_t kind);
    // Sends bye to every peer and waits for theirs and for an empty queue.
    void goodbye(int timeout_ms = 10000);

    // Sink state.
    std::vector<std::deque<Received>> received;
    std::set<uint64_t> pending_tokens;  // sends that answered PENDING
    std::vector<uint64_t> sent_tokens;  // on_sent, in order
    std::vector<int> lost;              // on_peer_lost
    std::vector<int> joined;            // on_joined
    std::function<void(int, const ftmpi_frame &, ftmpi_landing *)> header_hook;
    std::function<void(int, const ftmpi_frame &, const ftmpi_landing &)> frame_hook;

    // Notes between processes: a byte in a pipe. to == size(): the parent.
    void note(int to);
    void await_note(int timeout_ms);

private:
    static void on_header(void *ctx, int peer, const ftmpi_frame *f, ftmpi_landing *out);
    static void on_frame(void *ctx, int peer, const ftmpi_frame *f, const ftmpi_landing *landing);
    static void on_sent(void *ctx, uint64_t token);
    static void on_peer_lost(void *ctx, int peer);
    static void on_joined(void *ctx, int peer);

    int rank_, size_;
    std::vector<int> read_fds_, write_fds_;
    std::vector<std::vector<char>> arriving_;
    ftmpi_transport_sink sink_{};
};

// A rank's environment that sends data frames of 16 KiB and more by single
// copy (below FTMPI_SHM_CMA_MIN, 4 MiB by default, they go through the ring).
inline const std::map<std::string, std::string> single_copy_env{{"FTMPI_SHM_CMA_MIN", "16K"}};

struct JobSpec {
    int ranks = 2;
    std::map<int, std::map<std::string, std::string>> env;  // per rank, set before open()
    std::function<void(Rank &)> body;
    // Runs in the parent while the ranks run; notes from rank r arrive by
    // await_note_from(r).
    std::function<void(class Parent &)> parent;
    int timeout_ms = 60000;
    std::set<int> victims;  // ranks the test kills: their status is not checked
};

class Parent {
public:
    std::vector<int> pids;
    std::string job;
    void await_note_from(int rank, int timeout_ms);
    // SIGKILL, and returns once the rank has ended (not yet reaped).
    void kill_rank(int rank);
    void note_rank(int rank);
    // Starts a replacement of `rank` (a REBUILD incarnation): it opens the
    // driver with that incarnation and round and runs body (which joins).
    void spawn(int rank, int incarnation, int round, std::function<void(Rank &)> body);
    std::function<pid_t(int, int, int, std::function<void(Rank &)>)> spawner;
    std::vector<int> spawned;    // their pids
    std::vector<int> read_fds;   // per rank: notes to the parent
    std::vector<int> write_fds;  // per rank: notes to the rank
};

struct Outcome {
    std::string job;
    std::vector<int> status;          // waitpid status per rank
    std::vector<int> spawned_status;  // of Parent::spawn's processes, in order
};

// Forks and runs the job; returns each rank's status. Throws on timeout.
Outcome run_job(const JobSpec &);

// Names in /dev/shm of the job ("ftmpi.<job>.<rank>.…"), for one rank or all (-1).
std::vector<std::string> shm_files(const std::string &job, int rank = -1);
void remove_shm_files(const std::string &job, int rank);

// A deterministic payload byte and a checker.
inline char pattern(uint64_t seed, size_t i) {
    return static_cast<char>((seed * 131 + i * 31 + (i >> 9)) & 0xff);
}
void fill(std::vector<char> &buf, uint64_t seed);
void expect_pattern(const char *data, size_t n, uint64_t seed, size_t offset, const std::string &what);
void expect(bool cond, const std::string &what);

}  // namespace shmtest
