// The daemon's handlers under stress: forked and service processes that die
// (kill -9) before, during, or while their arguments are still being
// written; callers that vanish while their call runs in a thread; many
// clients at once in every mode. Each ends with the caller getting an answer
// (a result, or HARNESS_ERR_CRASHED for its own call) within a bound, and the
// daemon serving the next call.
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <future>
#include <set>
#include <sstream>

#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace harness;
using namespace harness::it;

namespace {

Daemon &daemon() {
    static std::unique_ptr<Daemon> d = [] {
        test::DaemonOptions o;
        o.vm = "handlers";
        o.extra_args = {"--load", "examples/math"};
        return Daemon::start(o);
    }();
    return *d;
}

// The direct children of a process, from /proc/PID/task/*/children.
std::set<pid_t> children_of(pid_t pid) {
    std::set<pid_t> out;
    std::string tasks = "/proc/" + std::to_string(pid) + "/task";
    DIR *dir = ::opendir(tasks.c_str());
    if (!dir) return out;
    while (dirent *e = ::readdir(dir)) {
        if (e->d_name[0] == '.') continue;
        std::ifstream in(tasks + "/" + e->d_name + "/children");
        for (pid_t child; in >> child;) out.insert(child);
    }
    ::closedir(dir);
    return out;
}

// Waits for a child of the daemon that was not in before; 0 if none came.
pid_t new_child(const std::set<pid_t> &before, std::chrono::milliseconds timeout = 3s) {
    pid_t found = 0;
    test::wait_until(
        [&] {
            for (pid_t c : children_of(daemon().pid()))
                if (!before.count(c) && process_alive(c)) found = c;
            return found != 0;
        },
        timeout);
    return found;
}

// Bytes waiting unread in the sockets of process pid (a stopped service:
// what the daemon has written to it so far). Reads each socket's queue
// through a duplicate of its descriptor (pidfd_getfd).
std::size_t unread_socket_bytes(pid_t pid) {
    int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (pidfd < 0) return 0;
    std::size_t total = 0;
    std::string fds = "/proc/" + std::to_string(pid) + "/fd";
    if (DIR *dir = ::opendir(fds.c_str())) {
        while (dirent *e = ::readdir(dir)) {
            if (e->d_name[0] == '.') continue;
            char target[64] = {};
            std::string link = fds + "/" + e->d_name;
            if (::readlink(link.c_str(), target, sizeof target - 1) <= 0 || std::strncmp(target, "socket:", 7) != 0)
                continue;
            int fd = static_cast<int>(::syscall(SYS_pidfd_getfd, pidfd, std::atoi(e->d_name), 0));
            if (fd < 0) continue;
            int queued = 0;
            if (::ioctl(fd, FIONREAD, &queued) == 0 && queued > 0) total += static_cast<std::size_t>(queued);
            ::close(fd);
        }
        ::closedir(dir);
    }
    ::close(pidfd);
    return total;
}

hlib::CallOptions opts(harness_mode mode, std::chrono::milliseconds timeout = 5s) {
    hlib::CallOptions o;
    o.mode = mode;
    o.timeout = timeout;
    return o;
}

void check_still_serving() {
    Daemon &d = daemon();
    REQUIRE_MESSAGE(d.running(), "hcored died; stderr:\n" << d.stderr_tail());
    auto vm = connect(d);
    auto add = value_of(vm.get_function(kMath, "add"));
    for (auto mode : {HARNESS_MODE_INLINE, HARNESS_MODE_THREAD, HARNESS_MODE_FORK, HARNESS_MODE_SERVICE}) {
        CAPTURE(static_cast<int>(mode));
        CHECK(value_of(vm.call<std::int64_t>(add, opts(mode), std::int64_t{2}, std::int64_t{2})) == 4);
    }
}

}  // namespace

TEST_CASE("a service process killed while idle is replaced on the next call") {
    auto vm = connect(daemon());
    auto pid = value_of(vm.get_function(kMath, "pid"));
    auto first = value_of(vm.call<std::int64_t>(pid, opts(HARNESS_MODE_SERVICE)));
    REQUIRE(first != daemon().pid());
    REQUIRE(::kill(static_cast<pid_t>(first), SIGKILL) == 0);
    REQUIRE(test::wait_until([&] { return !process_alive(static_cast<pid_t>(first)); }, 3s));

    // The call after the death may still find the old service (CRASHED); the
    // one after that must run in a new service process.
    std::optional<std::int64_t> second;
    for (int i = 0; i < 3 && !second; ++i) {
        auto r = vm.call<std::int64_t>(pid, opts(HARNESS_MODE_SERVICE));
        if (r)
            second = *r;
        else
            CHECK_MESSAGE(r.error().status == HARNESS_ERR_CRASHED, describe(r.error()));
    }
    REQUIRE(second.has_value());
    CHECK(*second != first);
    CHECK(*second != daemon().pid());
    CHECK(value_of(vm.call<std::int64_t>(pid, opts(HARNESS_MODE_SERVICE))) == *second);
    check_still_serving();
}

TEST_CASE("a handler killed in the middle of a call: that call gets CRASHED at once, the next one works") {
    auto vm = connect(daemon());
    auto sleep = value_of(vm.get_function(kMath, "sleep_ms"));
    for (auto mode : {HARNESS_MODE_FORK, HARNESS_MODE_SERVICE}) {
        CAPTURE(static_cast<int>(mode));
        auto before = children_of(daemon().pid());
        auto t0 = Clock::now();
        auto call = vm.call_async<std::int64_t>(sleep, opts(mode, 20s), std::int64_t{15000});
        pid_t handler = new_child(before);
        REQUIRE(handler != 0);
        REQUIRE(::kill(handler, SIGKILL) == 0);
        REQUIRE(call.wait_for(5s) == std::future_status::ready);
        CHECK(Clock::now() - t0 < 5s);  // not the 15 s sleep, nor the 20 s deadline
        auto r = call.get();
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().status == HARNESS_ERR_CRASHED);
        CHECK(value_of(vm.call<std::int64_t>(sleep, opts(mode), std::int64_t{1})) == 1);
    }
    check_still_serving();
}

TEST_CASE("a service process killed while a call's arguments are still being written to it") {
    // Freeze the echo service so it stops reading, queue a call whose
    // arguments cannot fit in the socket buffer, then kill the service: the
    // daemon is in the middle of writing to a process that just died.
    auto vm = connect(daemon());
    auto echo = value_of(vm.get_function(kMath, "echo"));
    auto before = children_of(daemon().pid());
    REQUIRE(value_of(vm.call<std::string>(echo, opts(HARNESS_MODE_SERVICE), std::string("start"))) == "start");
    pid_t service = new_child(before);
    REQUIRE(service != 0);
    REQUIRE(::kill(service, SIGSTOP) == 0);

    std::string big(4u << 20, 'b');
    auto queued = vm.call_async<std::string>(echo, opts(HARNESS_MODE_SERVICE, 20s), big);
    auto second = vm.call_async<std::string>(echo, opts(HARNESS_MODE_SERVICE, 20s), std::string("queued"));
    // Wait until the daemon is writing the arguments (it can only wait for
    // the frozen service).
    REQUIRE_MESSAGE(test::wait_until([&] { return unread_socket_bytes(service) >= (64u << 10); }, 10s),
                    "the daemon never wrote the call to the service; " << unread_socket_bytes(service)
                                                                       << " bytes queued");
    CHECK(queued.wait_for(0ms) == std::future_status::timeout);
    REQUIRE(::kill(service, SIGKILL) == 0);

    for (auto *f : {&queued, &second}) {
        REQUIRE(f->wait_for(5s) == std::future_status::ready);
        auto r = f->get();
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().status == HARNESS_ERR_CRASHED);
    }
    check_still_serving();
    CHECK(value_of(vm.call<std::string>(echo, opts(HARNESS_MODE_SERVICE), big)) == big);
}

TEST_CASE("a caller that disconnects while its call runs in a thread or a fork does not hurt the daemon") {
    auto key = read_key(daemon().key_file());
    for (auto mode : {HARNESS_MODE_THREAD, HARNESS_MODE_FORK, HARNESS_MODE_SERVICE}) {
        CAPTURE(static_cast<int>(mode));
        {
            auto c = RawClient::tcp(daemon().tcp());
            REQUIRE(c.authenticate(key));
            Packer args;
            args.i64(200);
            auto body = call_body(kMath, "sleep_ms", mode, HARNESS_CALL_AUTO, args.view());
            REQUIRE(c.send_frame(request_header(protocol::Type::call, 1, body.size()), body));
        }  // closed before the reply
        // A longer call in the same mode ends after the abandoned one did (same
        // service queue, or simply later): the daemon has sent into the void by then.
        auto vm = connect(daemon());
        auto sleep = value_of(vm.get_function(kMath, "sleep_ms"));
        CHECK(value_of(vm.call<std::int64_t>(sleep, opts(mode), std::int64_t{400})) == 400);
    }
    check_still_serving();
}

TEST_CASE("many clients at once, in every mode and over every transport, each get their own answers") {
    constexpr int kClients = 12;
    constexpr int kCalls = 15;
    std::vector<std::future<std::string>> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.push_back(std::async(std::launch::async, [c]() -> std::string {
            try {
                auto vm = connect(daemon(), c % 2 == 1);
                auto add = vm.get_function(kMath, "add");
                auto echo = vm.get_function(kMath, "echo");
                if (!add || !echo) return "get_function failed";
                for (int i = 0; i < kCalls; ++i) {
                    hlib::CallOptions o;
                    o.mode = static_cast<harness_mode>(1 + (c + i) % 4);
                    o.transport = (i % 3 == 0) ? hlib::Transport::udp : hlib::Transport::tcp;
                    o.timeout = 10s;
                    auto sum = vm.call<std::int64_t>(*add, o, std::int64_t{c}, std::int64_t{i * 1000});
                    if (!sum) return "add: " + sum.error().describe();
                    if (*sum != c + i * 1000) return "add returned " + std::to_string(*sum);
                    std::string text = "client " + std::to_string(c) + " call " + std::to_string(i);
                    auto back = vm.call<std::string>(*echo, o, text);
                    if (!back) return "echo: " + back.error().describe();
                    if (*back != text) return "echo returned " + *back;
                }
                return "";
            } catch (const std::exception &e) {
                return e.what();
            }
        }));
    }
    for (auto &f : clients) {
        REQUIRE(f.wait_for(40s) == std::future_status::ready);
        CHECK(f.get() == "");
    }
    check_still_serving();
}
