// MPI_Comm_join: two processes connected by a socket become an
// intercommunicator of the two.
//
// Each writes who it is on the socket (magic, job id, world rank, its count
// of joins so far, its known world ranks and TCP contact) and reads the
// other's. Processes of one job then build the intercommunicator with
// comm::connect_groups over MPI_COMM_SELF; their bridge's tag is the join
// count of the one with the lower world rank, which no other bridge between
// the two uses. Processes of two jobs first number each other after the
// world ranks each knows, as accept/connect does (foreign.hpp): the one
// whose job id sorts first expects the other's connection and says so on
// the socket, the other then connects.
#include "dynamic/port_name.hpp"

#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/p2p.hpp"
#include "internal/pmpi.hpp"
#include "internal/runtime.hpp"
#include "mpi-ext.h"
#include "runtime/log.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>

#include <vector>

namespace ftmpi::dynamic {
namespace {

constexpr char join_magic[8] = {'F', 'T', 'M', 'P', 'I', 'J', 'N', '1'};
constexpr int join_bridge_tag_base = 0x30000000;

struct JoinRecord {
    char magic[8];
    char job[112];  // NUL-padded
    int32_t world;
    uint32_t joins;
    int32_t known;     // known_world_ranks(): its number for a process of another job
    char record[120];  // its TCP contact record, NUL-padded ("" without a network)
};
// How long the process that expects the other job's connection waits for it
// (the other process is running, in MPI_Comm_join).
constexpr int foreign_connection_ms = 20000;

// Waits until a non-blocking socket is ready for `events`: 0 or errno.
int wait_ready(int fd, short events) {
    pollfd p{fd, events, 0};
    while (poll(&p, 1, -1) < 0)
        if (errno != EINTR) return errno;
    return 0;
}

// Writes or reads all of `len` bytes (partial transfers, EINTR, a
// non-blocking socket): 0, or errno (EPIPE for a socket closed early).
int write_all(int fd, const char *p, size_t len) {
    while (len > 0) {
        const ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (int e = wait_ready(fd, POLLOUT)) return e;
            continue;
        }
        if (n < 0) return errno;
        p += n;
        len -= static_cast<size_t>(n);
    }
    return 0;
}

int read_all(int fd, char *p, size_t len) {
    while (len > 0) {
        const ssize_t n = recv(fd, p, len, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (int e = wait_ready(fd, POLLIN)) return e;
            continue;
        }
        if (n < 0) return errno;
        if (n == 0) return EPIPE;
        p += n;
        len -= static_cast<size_t>(n);
    }
    return 0;
}

int io_error(const char *what, int e) {
    log::error("MPI_Comm_join: %s the socket: %s", what, std::strerror(e));
    return e == EBADF || e == ENOTSOCK ? MPI_ERR_ARG : MPI_ERR_OTHER;
}

// The two processes belong to two jobs: each numbers the other after the
// world ranks it knows; the one whose job id sorts first expects the
// other's connection, says so with one byte, and the other connects.
int join_jobs(int fd, const JoinRecord &mine, const JoinRecord &theirs, MPI_Comm *intercomm) {
    if (mine.record[0] == '\0' || theirs.record[0] == '\0') {
        log::error("MPI_Comm_join: the other process belongs to job %s, this one to job %s, and %s no network",
                   theirs.job, mine.job, mine.record[0] == '\0' ? "this one has" : "it has");
        return MPI_ERR_OTHER;
    }
    const int peer = mine.known;  // the other process, here
    const bool expecting = std::strcmp(mine.job, theirs.job) < 0;
    char ready = 1;
    p2p::ForeignPeer f;
    f.peer = peer;
    f.world = theirs.world;
    f.alias_there = theirs.known;
    f.record.assign(theirs.record, strnlen(theirs.record, sizeof theirs.record));
    f.job = theirs.job;
    f.job_first = !expecting;
    if (expecting) {
        p2p::expect_foreign({f});
        if (int e = write_all(fd, &ready, 1)) return io_error("writing to", e);
        p2p::wait_connected({peer}, foreign_connection_ms, "the process of the other job did not connect in time");
    } else {
        if (int e = read_all(fd, &ready, 1)) return io_error("reading from", e);
        p2p::reach_foreign({f}, foreign_connection_ms);
    }
    if (p2p::is_failed(peer)) {
        log::error("MPI_Comm_join: the process of job %s could not be reached", theirs.job);
        return MPIX_ERR_PROC_FAILED;
    }
    const std::vector<int> me_there{theirs.known};
    // A bridge between two numbers no other bridge joins: any tag is free.
    return comm::connect_groups(MPI_COMM_SELF, 0, peer, join_bridge_tag_base, intercomm, &me_there);
}

int join(int fd, MPI_Comm *intercomm) {
    static std::atomic<uint32_t> joins{0};
    const std::string &job = job_id();
    if (job.size() >= sizeof(JoinRecord::job)) {
        log::error("MPI_Comm_join: job id %s is too long to send", job.c_str());
        return MPI_ERR_OTHER;
    }
    JoinRecord mine{}, theirs{};
    std::memcpy(mine.magic, join_magic, sizeof join_magic);
    std::memcpy(mine.job, job.data(), job.size());
    mine.world = runtime::world_rank();
    mine.joins = joins.fetch_add(1);
    mine.known = p2p::known_world_ranks();
    const std::string record = p2p::own_contact();
    if (record.size() < sizeof mine.record) std::memcpy(mine.record, record.data(), record.size());
    // Both write first: a record is far smaller than a socket's buffer.
    if (int e = write_all(fd, reinterpret_cast<const char *>(&mine), sizeof mine)) return io_error("writing to", e);
    if (int e = read_all(fd, reinterpret_cast<char *>(&theirs), sizeof theirs)) return io_error("reading from", e);
    if (std::memcmp(theirs.magic, join_magic, sizeof join_magic) != 0) {
        log::error("MPI_Comm_join: the other end of the socket is not an FT-MPI process in MPI_Comm_join");
        return MPI_ERR_OTHER;
    }
    theirs.job[sizeof theirs.job - 1] = '\0';
    theirs.record[sizeof theirs.record - 1] = '\0';
    if (job != theirs.job) {
        if (theirs.known < 0 || theirs.world < 0) {
            log::error("MPI_Comm_join: the other process sent a malformed record");
            return MPI_ERR_OTHER;
        }
        return join_jobs(fd, mine, theirs, intercomm);
    }
    if (theirs.world < 0 || theirs.world >= p2p::known_world_ranks()) {
        log::error("MPI_Comm_join: the other process says it is process %d, which this job does not have",
                   static_cast<int>(theirs.world));
        return MPI_ERR_OTHER;
    }
    if (theirs.world == mine.world) {
        // Both ends in this process: the bridge's two directions could not be told apart.
        log::error("MPI_Comm_join: both ends of the socket are this process");
        return MPI_ERR_OTHER;
    }
    // The lower world rank's count.
    uint32_t n = mine.world < theirs.world ? mine.joins
        : theirs.world < mine.world        ? theirs.joins
                                           : std::min(mine.joins, theirs.joins);
    const int tag = join_bridge_tag_base + 4 * static_cast<int>(n % 0x3000000u);
    return comm::connect_groups(MPI_COMM_SELF, 0, theirs.world, tag, intercomm);
}

}  // namespace
}  // namespace ftmpi::dynamic

extern "C" int MPI_Comm_join(int fd, MPI_Comm *intercomm) noexcept {
    const char *fn = "MPI_Comm_join";
    if (intercomm == nullptr) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    *intercomm = MPI_COMM_NULL;
    if (fd < 0) return ftmpi::comm::raise_unattached(MPI_ERR_ARG, fn);
    return ftmpi::comm::raise_unattached(ftmpi::comm::code_of([&] { return ftmpi::dynamic::join(fd, intercomm); }), fn);
}
FTMPI_PMPI(Comm_join)
