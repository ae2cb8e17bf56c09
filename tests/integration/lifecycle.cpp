// hcored's life: a second instance on the same root or port fails at once
// with a clear message (and leaves the first one serving), SIGTERM/SIGINT and
// HALT end it with status 0, its Unix socket removed and its service
// processes gone; and hconsole drives a running VM (members --json before and
// after a kill -9).
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <set>

using namespace harness;
using namespace harness::it;

namespace {

std::vector<std::string> hcored_command(const std::filesystem::path &root, const std::string &listen, bool foreground) {
    std::vector<std::string> argv{test::hcored_path().string(), "--root", root.string(), "--listen", listen};
    if (foreground) argv.push_back("--foreground");
    return argv;
}

void check_serving(Daemon &d) {
    REQUIRE_MESSAGE(d.running(), "hcored died; stderr:\n" << d.stderr_tail());
    auto vm = connect(d);
    CHECK(vm.local().ping(hlib::deadline_in(3s)).ok());
}

bool exited_zero(int wait_status) {
    return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
}

// hconsole members --json through the daemon of root (or --hcore), parsed.
nlohmann::json hconsole_members(const Daemon &d, const std::filesystem::path &key, bool over_tcp) {
    std::vector<std::string> argv{
        hconsole_path().string(), "--root", d.root().string(), "--key", key.string(), "--timeout", "3000"};
    if (over_tcp) argv.insert(argv.end(), {"--hcore", d.tcp().to_string()});
    argv.insert(argv.end(), {"members", "--json"});
    auto r = run_program(argv, 10s);
    INFO("stderr: " << r.err);
    REQUIRE_FALSE(r.timed_out);
    REQUIRE(r.exit_code() == 0);
    auto doc = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_MESSAGE(!doc.is_discarded(), "not one JSON document: " << r.out);
    REQUIRE(doc.contains("members"));
    REQUIRE(doc["members"].is_array());
    return doc["members"];
}

}  // namespace

TEST_CASE("a second hcored on the same root fails at once with a clear message; the first keeps serving") {
    auto first = Daemon::start();
    for (bool foreground : {true, false}) {
        CAPTURE(foreground);
        auto port = test::free_port();
        auto r = run_program(hcored_command(first->root(), "127.0.0.1:" + std::to_string(port), foreground), 10s);
        INFO("stdout: " << r.out << "\nstderr: " << r.err);
        REQUIRE_FALSE(r.timed_out);
        CHECK(r.exit_code() != 0);
        CHECK(r.exit_code() != -1);
        CHECK(r.err.find("already uses root") != std::string::npos);
        CHECK(r.err.find(std::to_string(first->pid())) != std::string::npos);  // names the holder
        CHECK(r.out.find("hcored ready") == std::string::npos);
    }
    check_serving(*first);
    CHECK(std::filesystem::exists(first->unix_socket()));  // the loser did not remove the winner's socket
}

TEST_CASE("a second hcored on the same port (TCP or UDP taken) fails with a clear message") {
    auto first = Daemon::start();
    test::TempDir other_root("hcored2");
    auto r = run_program(hcored_command(other_root.path(), first->tcp().to_string(), true), 10s);
    INFO("stderr: " << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() != 0);
    CHECK(r.exit_code() != -1);
    CHECK(r.err.find("cannot listen") != std::string::npos);
    CHECK(r.err.find(first->tcp().to_string()) != std::string::npos);
    CHECK(r.err.find("in use") != std::string::npos);
    check_serving(*first);

    // Only the UDP port of the pair is taken: a UDP port whose TCP twin is
    // free to listen on (after many tests, a TCP connection in TIME_WAIT may
    // hold the twin of a port the kernel hands out for UDP).
    int udp = -1;
    sockaddr_in a{};
    for (int attempt = 0; attempt < 50 && udp < 0; ++attempt) {
        udp = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        REQUIRE(udp >= 0);
        a = {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(udp, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0);
        socklen_t len = sizeof a;
        REQUIRE(::getsockname(udp, reinterpret_cast<sockaddr *>(&a), &len) == 0);
        int tcp = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REQUIRE(tcp >= 0);
        int on = 1;
        ::setsockopt(tcp, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        const bool twin_free = ::bind(tcp, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
        ::close(tcp);
        if (!twin_free) {
            ::close(udp);
            udp = -1;
        }
    }
    REQUIRE(udp >= 0);
    std::string listen = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
    test::TempDir third_root("hcored3");
    auto u = run_program(hcored_command(third_root.path(), listen, true), 10s);
    ::close(udp);
    INFO("stderr: " << u.err);
    REQUIRE_FALSE(u.timed_out);
    CHECK(u.exit_code() != 0);
    CHECK(u.err.find("UDP") != std::string::npos);
}

TEST_CASE("SIGTERM and SIGINT: exit status 0, the Unix socket removed, service processes gone") {
    for (int sig : {SIGTERM, SIGINT}) {
        CAPTURE(sig);
        test::DaemonOptions o;
        o.extra_args = {"--load", "examples/math"};
        auto d = Daemon::start(o);
        REQUIRE(std::filesystem::exists(d->unix_socket()));

        // A long-lived service process the daemon must take down with it.
        auto vm = connect(*d);
        auto pid = vm.get_function(kMath, "pid");
        REQUIRE(pid.ok());
        hlib::CallOptions service;
        service.mode = HARNESS_MODE_SERVICE;
        auto service_pid = vm.call<std::int64_t>(*pid, service);
        REQUIRE_MESSAGE(service_pid.ok(), (service_pid ? "" : describe(service_pid.error())));
        REQUIRE(*service_pid != d->pid());
        REQUIRE(process_alive(static_cast<pid_t>(*service_pid)));

        d->signal(sig);
        // Watch /proc rather than reaping: the fixture kills the daemon's
        // process group once it reaps, which would hide a leaked child.
        REQUIRE(test::wait_until([&] { return !process_alive(d->pid()); }, 5s));
        CHECK_MESSAGE(test::wait_until([&] { return !process_alive(static_cast<pid_t>(*service_pid)); }, 1s),
                      "service process " << *service_pid << " outlived its daemon");
        int status = d->stop();  // reaps
        CHECK_MESSAGE(exited_zero(status), "wait status " << status << "; stderr:\n" << d->stderr_tail());
        CHECK_FALSE(std::filesystem::exists(d->unix_socket()));
    }
}

TEST_CASE("HALT of the whole VM stops every daemon with status 0") {
    Vm vm = start_vm(3);
    auto client = connect(vm[1]);
    auto halted = client.local().halt(true, hlib::deadline_in(5s));
    REQUIRE_MESSAGE(halted.ok(), (halted ? "" : describe(halted.error())));
    for (auto &d : vm.daemons) {
        CAPTURE(d->id());
        REQUIRE(test::wait_until([&] { return !d->running(); }, 5s));
        CHECK(exited_zero(d->exit_status().value_or(-1)));
        CHECK_FALSE(std::filesystem::exists(d->unix_socket()));
    }
}

TEST_CASE("hconsole members --json lists the three members alive, and one failed after a kill -9") {
    if (hconsole_path().empty() || !std::filesystem::exists(hconsole_path())) {
        MESSAGE("hconsole is not built; skipped");
        return;
    }
    Vm vm = start_vm(3);
    std::set<std::string> ids{vm[0].id(), vm[1].id(), vm[2].id()};
    for (bool over_tcp : {false, true}) {
        CAPTURE(over_tcp);
        auto members = hconsole_members(vm[0], vm.key_file, over_tcp);
        REQUIRE(members.size() == 3);
        std::set<std::string> listed;
        for (const auto &m : members) {
            CAPTURE(m.dump());
            listed.insert(m.value("id", ""));
            CHECK(m.value("state", "") == "alive");
            CHECK(m.contains("tcp"));
        }
        CHECK(listed == ids);
        for (const auto &m : members)
            for (auto &d : vm.daemons)
                if (d->id() == m.value("id", "")) CHECK(m.value("tcp", "") == d->tcp().to_string());
    }

    const std::string victim = vm[2].id();
    vm[2].kill_hard();
    nlohmann::json last;
    bool failed_seen = test::wait_until(
        [&] {
            last = hconsole_members(vm[1], vm.key_file, false);
            for (const auto &m : last)
                if (m.value("id", "") == victim) return m.value("state", "") == "failed";
            return false;
        },
        kHeartbeatTimeout + 5s);
    INFO("last answer: " << last.dump());
    REQUIRE(failed_seen);
    REQUIRE(last.size() == 3);
    int alive = 0, failed = 0;
    for (const auto &m : last) {
        alive += m.value("state", "") == "alive";
        failed += m.value("state", "") == "failed";
    }
    CHECK(alive == 2);
    CHECK(failed == 1);
}

TEST_CASE("hconsole reports an unreachable daemon with a one-line reason and a non-zero status") {
    if (hconsole_path().empty() || !std::filesystem::exists(hconsole_path())) {
        MESSAGE("hconsole is not built; skipped");
        return;
    }
    test::TempDir empty("hconsole");
    auto key = test::write_vm_key(empty.path() / "vm.key");
    auto r = run_program({hconsole_path().string(), "--root", empty.path().string(), "--key", key.string(), "--timeout",
                          "2000", "members", "--json"},
                         10s);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() != 0);
    CHECK_FALSE(r.err.empty());
    CHECK(r.out.find("members") == std::string::npos);
}
