// hcored --services and --plugin-path with real daemons: the listed services
// load in order before the ready line, from a plugin directory outside the
// root; one that cannot be found is a warning and the daemon serves on; the
// test fixture's default ("") loads none; a malformed list is refused at once;
// a SIGTERM while a service thread calls another plugin still stops it.
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <csignal>
#include <fstream>

using namespace harness;
using namespace harness::it;

namespace {

hlib::Daemon client_of(const Daemon &d) {
    auto conn = hlib::Connection::open_unix(d.unix_socket(), read_key(d.key_file()), hlib::deadline_in(5s));
    REQUIRE_MESSAGE(conn.ok(), (conn ? "" : describe(conn.error())));
    return hlib::Daemon(std::move(conn.value()));
}

std::vector<std::string> loaded_names(const Daemon &d) {
    auto client = client_of(d);
    std::vector<std::string> out;
    for (const auto &c : value_of(client.loaded(hlib::deadline_in(5s)))) out.push_back(c.name.to_string());
    return out;
}

}  // namespace

TEST_CASE("the fixture's daemons load no services") {
    auto d = Daemon::start({});
    CHECK(loaded_names(*d).empty());
}

TEST_CASE("services load in the listed order from --plugin-path, before the ready line") {
    test::DaemonOptions o;
    o.install_examples = false;  // <root>/lib stays empty: only the plugin path has them
    o.services = "examples/hostapi,examples/math";
    o.extra_args = {"--plugin-path", test::built_plugins_dir().string()};
    auto d = Daemon::start(o);
    // Loaded already when the ready line came: no waiting needed.
    CHECK(loaded_names(*d) == std::vector<std::string>{"examples/hostapi", "examples/math"});
    CHECK(d->stderr_text().find("from plugin-path") != std::string::npos);
}

TEST_CASE("HARNESS_PLUGIN_PATH is a ':'-separated search path") {
    test::TempDir empty;
    test::DaemonOptions o;
    o.install_examples = false;
    o.services = "examples/math";
    o.env = {"HARNESS_PLUGIN_PATH=" + empty.path().string() + ":" + test::built_plugins_dir().string()};
    auto d = Daemon::start(o);
    CHECK(loaded_names(*d) == std::vector<std::string>{"examples/math"});
}

TEST_CASE("a service that cannot be found is a warning; the daemon serves and loads the rest") {
    test::DaemonOptions o;
    o.install_examples = false;
    o.services = "examples/nosuchservice,examples/math";
    o.extra_args = {"--plugin-path", test::built_plugins_dir().string()};
    auto d = Daemon::start(o);
    CHECK(loaded_names(*d) == std::vector<std::string>{"examples/math"});
    std::string log = d->stderr_text();
    CHECK(log.find("VM service examples/nosuchservice not loaded, the daemon runs without it") != std::string::npos);
    auto client = client_of(*d);
    CHECK(client.ping(hlib::deadline_in(2s)).ok());
}

TEST_CASE("a service whose init fails is a warning too") {
    test::DaemonOptions o;
    o.services = "examples/failinit,examples/math";
    auto d = Daemon::start(o);
    CHECK(loaded_names(*d) == std::vector<std::string>{"examples/math"});
    CHECK(d->stderr_text().find("failinit refuses to start") != std::string::npos);
}

TEST_CASE("the last --services wins, and a malformed list is refused with the reason") {
    test::DaemonOptions o;
    o.services = "examples/math";
    o.extra_args = {"--services", ""};
    auto d = Daemon::start(o);
    CHECK(loaded_names(*d).empty());

    test::TempDir root;
    auto r = run_program({test::hcored_path().string(), "--root", root.path().string(), "--listen", "127.0.0.1:0",
                          "--foreground", "--services", "vm/drd,not a name"},
                         10s);
    CHECK_FALSE(r.exited_ok());
    CHECK_MESSAGE(r.err.find("not a name") != std::string::npos, r.err);
}

TEST_CASE("--help lists the service and plugin path options with their defaults") {
    auto r = run_program({test::hcored_path().string(), "--help"}, 10s);
    REQUIRE(r.exited_ok());
    CHECK(r.out.find("--services") != std::string::npos);
    CHECK(r.out.find("vm/drd,vm/naming,vm/events,vm/spawn_notify") != std::string::npos);
    CHECK(r.out.find("--plugin-path") != std::string::npos);
    CHECK(r.out.find("plugins-root/services") != std::string::npos);  // run from the build tree
}

TEST_CASE("the VM services built in this tree load from the default plugin path") {
    test::DaemonOptions o;
    o.install_examples = false;
    o.services = test::kAllServices;
    auto d = Daemon::start(o);
    CHECK(loaded_names(*d) == std::vector<std::string>{"vm/drd", "vm/naming", "vm/events", "vm/spawn_notify"});
}

TEST_CASE("SIGTERM while vm/events takes its role through vm/drd: the daemon still exits at once") {
    // The events service's role thread calls vm/drd (loading it on first use)
    // while the daemon stops; its fini joins that thread. Repeated because
    // the thread's call and the stop race.
    for (int round = 0; round < 5; ++round) {
        CAPTURE(round);
        test::DaemonOptions o;
        o.install_examples = false;
        o.services = "vm/events";
        auto d = Daemon::start(o);
        d->signal(SIGTERM);
        REQUIRE_MESSAGE(test::wait_until([&] { return !process_alive(d->pid()); }, 5s),
                        "hcored did not exit within 5 s of SIGTERM; stderr:\n"
                            << d->stderr_tail());
        int status = d->stop();
        const bool exited_zero = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        CHECK_MESSAGE(exited_zero, "wait status " << status << "; stderr:\n" << d->stderr_tail());
    }
}
