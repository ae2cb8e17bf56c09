// The shm driver in one process: its ops table, address and reachability,
// admit without a joining peer, the privacy of what it creates, refusing
// another job's segment, and cleaning up at close.
#include "rank_harness.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <sched.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace shmtest;

namespace {

std::string job_name(const char *what) {
    return std::string("basics-") + what + "-" + std::to_string(::getpid());
}

}  // namespace

TEST_CASE("the ops table is complete and versioned") {
    const ftmpi_transport_ops *ops = ftmpi_comm_shm_ops();
    REQUIRE(ops != nullptr);
    CHECK(ops->struct_size == sizeof(ftmpi_transport_ops));
    CHECK(ops->version == FTMPI_TRANSPORT_VERSION);
    CHECK(std::string(ops->name) == "shm");
    const void *slots[] = {
        reinterpret_cast<const void *>(ops->open),         reinterpret_cast<const void *>(ops->close),
        reinterpret_cast<const void *>(ops->address),      reinterpret_cast<const void *>(ops->reachable),
        reinterpret_cast<const void *>(ops->eager_limit),  reinterpret_cast<const void *>(ops->connect),
        reinterpret_cast<const void *>(ops->send),         reinterpret_cast<const void *>(ops->wait_fd),
        reinterpret_cast<const void *>(ops->prepare_wait), reinterpret_cast<const void *>(ops->progress),
        reinterpret_cast<const void *>(ops->wake),         reinterpret_cast<const void *>(ops->drop),
        reinterpret_cast<const void *>(ops->connected),    reinterpret_cast<const void *>(ops->bye_received),
        reinterpret_cast<const void *>(ops->flushed),      reinterpret_cast<const void *>(ops->join),
        reinterpret_cast<const void *>(ops->incarnation),  reinterpret_cast<const void *>(ops->joining_incarnation),
        reinterpret_cast<const void *>(ops->admit)};
    for (const void *slot : slots) CHECK(slot != nullptr);
}

TEST_CASE("open refuses bad arguments with a reason") {
    Rank r(0, 1, {}, {});
    ftmpi_transport_open_args args{};
    args.struct_size = sizeof args;
    args.job = "x";
    args.rank = 3;
    args.size = 2;
    ftmpi_transport_sink sink{};
    sink.struct_size = sizeof sink;
    ftmpi_transport *t = nullptr;
    char err[256] = "";
    CHECK(r.ops->open(&args, &sink, &t, err, sizeof err) == FTMPI_TRANSPORT_ERROR);  // no callbacks
    CHECK(std::strlen(err) > 0);
    r.open(job_name("ok"));  // the harness's sink is complete
    r.close();
}

TEST_CASE("address, reachability, nothing to admit, files private and removed at close") {
    const std::string job = job_name("addr");
    Rank r(0, 2, {}, {});
    r.open(job);
    char address[256];
    REQUIRE(r.ops->address(r.t, address, sizeof address) == FTMPI_TRANSPORT_OK);
    CHECK(std::strchr(address, ';') == nullptr);
    CHECK(std::strchr(address, '=') == nullptr);
    CHECK(r.ops->reachable(r.t, address) == 1);
    CHECK(r.ops->reachable(r.t, "0123456789abcdef-1-2:0") == 0);  // another host or namespace
    CHECK(r.ops->reachable(r.t, "") == 0);
    char tiny[4];
    CHECK(r.ops->address(r.t, tiny, sizeof tiny) == FTMPI_TRANSPORT_ERROR);
    CHECK(r.ops->eager_limit(r.t) > 0);

    CHECK(r.ops->incarnation(r.t, 0) == 0);
    CHECK(r.ops->incarnation(r.t, 1) == -1);  // not attached
    CHECK(r.ops->joining_incarnation(r.t, 1) == -1);
    CHECK(r.ops->admit(r.t, 1, 1) == FTMPI_TRANSPORT_ERROR);  // nothing joining

    // The segment and its FIFO: this user's only.
    struct stat seg {
    }, fifo{};
    REQUIRE(::stat(("/dev/shm/ftmpi." + job + ".0.0").c_str(), &seg) == 0);
    REQUIRE(::stat(("/dev/shm/ftmpi." + job + ".0.0.wake").c_str(), &fifo) == 0);
    CHECK((seg.st_mode & 0777) == 0600);
    CHECK((fifo.st_mode & 0777) == 0600);
    CHECK(S_ISFIFO(fifo.st_mode));
    CHECK(seg.st_uid == ::geteuid());

    // Sends to a peer that was never connected are refused, not queued.
    CHECK(r.send_control(1, FTMPI_FRAME_BYE) == FTMPI_TRANSPORT_ERROR);
    CHECK(r.ops->flushed(r.t) == 1);
    CHECK(r.ops->progress(r.t) == 0);
    r.close();
    CHECK(shm_files(job).empty());
}

TEST_CASE("a rank of another job whose name maps to the same segment is refused") {
    // "x/y" and "x.y" both name their segments "ftmpi.x_y.…": the header's job id tells them apart.
    const std::string base = "iso" + std::to_string(::getpid());
    Rank owner(0, 2, {}, {});
    owner.open(base + "/y");
    Rank intruder(1, 2, {}, {});
    intruder.open(base + ".y");
    char address[256];
    REQUIRE(intruder.ops->address(intruder.t, address, sizeof address) == FTMPI_TRANSPORT_OK);
    const char *addresses[2] = {address, address};
    unsigned char mine[2] = {1, 0};
    char err[256] = "";
    CHECK(intruder.ops->connect(intruder.t, addresses, mine, 2000, err, sizeof err) == FTMPI_TRANSPORT_ERROR);
    CHECK(std::string(err).find("another job") != std::string::npos);
    owner.close();
    intruder.close();
    CHECK(shm_files(base + "_y").empty());
}

TEST_CASE("connect times out with the missing rank named") {
    const std::string job = job_name("timeout");
    Rank r(0, 3, {}, {});
    r.open(job);
    char address[256];
    REQUIRE(r.ops->address(r.t, address, sizeof address) == FTMPI_TRANSPORT_OK);
    const char *addresses[3] = {address, address, address};
    unsigned char mine[3] = {0, 1, 1};
    char err[256] = "";
    CHECK(r.ops->connect(r.t, addresses, mine, 50, err, sizeof err) == FTMPI_TRANSPORT_ERROR);
    CHECK(std::string(err).find("rank 1") != std::string::npos);
    r.close();
    CHECK(shm_files(job).empty());
}

TEST_CASE("a process in another network namespace is not reachable (hosts are modelled so)") {
    const std::string job = job_name("netns");
    Rank r(0, 2, {}, {});
    r.open(job);
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // Its own network namespace, then the address of a driver there.
        std::string text = ::unshare(CLONE_NEWNET) == 0 ? "" : "skip";
        if (text.empty()) {
            Rank other(1, 2, {}, {});
            other.open(job + "-ns");
            char address[256] = "";
            other.ops->address(other.t, address, sizeof address);
            text = address;
        }
        [[maybe_unused]] ssize_t n = ::write(fds[1], text.data(), text.size());
        std::_Exit(0);
    }
    ::close(fds[1]);
    char buf[256] = "";
    ssize_t n = ::read(fds[0], buf, sizeof buf - 1);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    REQUIRE(n > 0);
    const std::string address(buf, static_cast<size_t>(n));
    if (address == "skip") {
        MESSAGE("unshare(CLONE_NEWNET) not permitted here: not checked");
    } else {
        CHECK(r.ops->reachable(r.t, address.c_str()) == 0);
        char mine[256];
        REQUIRE(r.ops->address(r.t, mine, sizeof mine) == FTMPI_TRANSPORT_OK);
        CHECK(address != mine);
    }
    r.close();
    CHECK(shm_files(job).empty());
    CHECK(shm_files(job + "-ns").empty());
}
