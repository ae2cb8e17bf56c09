// The daemon fixture itself, against fake daemons (shell scripts that behave
// like hcored or misbehave in one way each) and, when built, the real hcored.
#include "daemon_fixture.hpp"

#include <harness/common/crypto.hpp>

#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fstream>

namespace fs = std::filesystem;
using namespace harness::test;

namespace {

// Writes an executable /bin/sh script; $LISTEN, $ROOT and $VM hold the
// fixture's --listen, --root and --vm arguments, and all arguments are saved
// in $ROOT/args.
fs::path fake_daemon(const TempDir &dir, const std::string &name, const std::string &body) {
    fs::path file = dir.path() / name;
    std::ofstream out(file);
    out << "#!/bin/sh\n"
           "echo \"$@\" > \"$2/args\"\n"
           "while [ $# -gt 0 ]; do\n"
           "  case \"$1\" in\n"
           "    --listen) LISTEN=$2; shift ;;\n"
           "    --root) ROOT=$2; shift ;;\n"
           "    --vm) VM=$2; shift ;;\n"
           "  esac\n"
           "  shift\n"
           "done\n"
        << body << "\n";
    out.close();
    fs::permissions(file, fs::perms::owner_all);
    return file;
}

const char *kReady = "echo \"hcored ready vm=$VM id=fake-1 tcp=$LISTEN udp=$LISTEN unix=$ROOT/var/hcored.sock\"";

std::string read_text(const fs::path &f) {
    std::ifstream in(f);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool pid_alive(pid_t pid) {
    return ::kill(pid, 0) == 0;
}

}  // namespace

TEST_CASE("parse_ready_line") {
    auto r = parse_ready_line(
        "hcored ready vm=demo id=a1b2 tcp=127.0.0.1:7001 udp=127.0.0.1:7002 unix=/tmp/x y/hcored.sock");
    REQUIRE(r.has_value());
    CHECK(r->vm == "demo");
    CHECK(r->id == "a1b2");
    CHECK(r->tcp == harness::Endpoint{"127.0.0.1", 7001});
    CHECK(r->udp == harness::Endpoint{"127.0.0.1", 7002});
    CHECK(r->unix_socket == "/tmp/x y/hcored.sock");

    CHECK_FALSE(parse_ready_line("hcored starting").has_value());
    CHECK_FALSE(parse_ready_line("hcored ready vm=demo tcp=h:1 udp=h:2 unix=/s").has_value());  // no id
    CHECK_FALSE(parse_ready_line("hcored ready vm=demo id=x tcp=h:99999 udp=h:2 unix=/s").has_value());
    CHECK_FALSE(parse_ready_line("hcored ready vm=demo id=x tcp=h:1 udp=h:2").has_value());  // no unix
}

TEST_CASE("wait_until") {
    CHECK(wait_until([] { return true; }, 0ms));
    auto start = std::chrono::steady_clock::now();
    CHECK(wait_until([&] { return std::chrono::steady_clock::now() - start > 30ms; }, 2000ms));
    auto before = std::chrono::steady_clock::now();
    CHECK_FALSE(wait_until([] { return false; }, 100ms));
    CHECK(std::chrono::steady_clock::now() - before >= 100ms);
}

TEST_CASE("free ports, key files and temp dirs") {
    CHECK(free_port() != 0);

    fs::path kept;
    {
        TempDir dir;
        kept = dir.path();
        CHECK(fs::is_directory(kept));
        CHECK(kept.string().rfind("/tmp/", 0) == 0);
        fs::path key = write_vm_key(dir.path() / "keys" / "vm.key");
        struct stat st {};
        REQUIRE(::stat(key.c_str(), &st) == 0);
        CHECK((st.st_mode & 0777) == 0600);
        auto first = harness::load_key(key);
        REQUIRE(first.ok());
        CHECK(first->bytes.size() == 32);
        write_vm_key(key);
        auto second = harness::load_key(key);
        REQUIRE(second.ok());
        CHECK(first->bytes != second->bytes);

        install_example_plugins(dir.path());
        CHECK(fs::is_regular_file(dir.path() / "lib" / "examples" / "math.so"));
        CHECK(fs::is_regular_file(dir.path() / "lib" / "examples" / "math.json"));
    }
    if (!std::getenv("HARNESS_TEST_KEEP")) CHECK_FALSE(fs::exists(kept));
}

TEST_CASE("a daemon that prints its ready line") {
    TempDir dir;
    fs::path script = fake_daemon(dir, "ok.sh", std::string(kReady) + "\necho after-ready\nexec sleep 1000");
    fs::path key = write_vm_key(dir.path() / "vm.key");
    auto d =
        Daemon::start({.vm = "fakevm", .key_file = key, .extra_args = {"--join", "127.0.0.1:1"}, .binary = script});
    CHECK(d->vm() == "fakevm");
    CHECK(d->id() == "fake-1");
    CHECK(d->tcp().host == "127.0.0.1");
    CHECK(d->tcp().port != 0);
    CHECK(d->udp() == d->tcp());
    CHECK(d->unix_socket() == d->root() / "var" / "hcored.sock");
    CHECK(d->key_file() == key);
    CHECK(d->running());
    CHECK(d->wait_for_stdout("after-ready", 2000ms));
    CHECK(fs::is_regular_file(d->root() / "lib" / "examples" / "math.so"));
    std::string args = read_text(d->root() / "args");
    CHECK(args.find("--foreground") != std::string::npos);
    CHECK(args.find("--key " + key.string()) != std::string::npos);
    CHECK(args.find("--join 127.0.0.1:1") != std::string::npos);
    CHECK(args.find("--listen 127.0.0.1:" + std::to_string(d->tcp().port)) != std::string::npos);

    int status = d->stop();
    CHECK_FALSE(d->running());
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGTERM);
}

TEST_CASE("a daemon that exits before it is ready: the error carries its stderr") {
    TempDir dir;
    fs::path script = fake_daemon(dir, "dies.sh", "echo 'cannot open the frobnicator' >&2\nexit 3");
    try {
        auto d = Daemon::start({.install_examples = false, .binary = script});
        FAIL("start should have thrown");
    } catch (const std::runtime_error &e) {
        std::string what = e.what();
        CHECK(what.find("exited before it was ready") != std::string::npos);
        CHECK(what.find("cannot open the frobnicator") != std::string::npos);
        CHECK(what.find(script.string()) != std::string::npos);
    }
}

TEST_CASE("a missing binary is reported before anything starts") {
    CHECK_THROWS_WITH_AS(Daemon::start({.install_examples = false, .binary = "/nonexistent/hcored"}),
                         doctest::Contains("cannot run /nonexistent/hcored"), std::runtime_error);
}

TEST_CASE("a silent daemon times out and is killed") {
    TempDir dir;
    fs::path pidfile = dir.path() / "pid";
    fs::path script = fake_daemon(dir, "silent.sh", "echo $$ > " + pidfile.string() + "\nexec sleep 1000");
    auto before = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH_AS(Daemon::start({.install_examples = false, .ready_timeout = 300ms, .binary = script}),
                         doctest::Contains("no ready line within 300 ms"), std::runtime_error);
    CHECK(std::chrono::steady_clock::now() - before < 5s);
    pid_t pid = std::stoi(read_text(pidfile));
    CHECK_FALSE(pid_alive(pid));
}

TEST_CASE("kill_hard is SIGKILL") {
    TempDir dir;
    fs::path script = fake_daemon(dir, "ok.sh", std::string(kReady) + "\nexec sleep 1000");
    auto d = Daemon::start({.install_examples = false, .binary = script});
    pid_t pid = d->pid();
    d->kill_hard();
    CHECK_FALSE(d->running());
    REQUIRE(d->exit_status().has_value());
    CHECK(WIFSIGNALED(*d->exit_status()));
    CHECK(WTERMSIG(*d->exit_status()) == SIGKILL);
    CHECK_FALSE(pid_alive(pid));
}

TEST_CASE("stop escalates to SIGKILL when SIGTERM is ignored, and ends what the daemon forked") {
    TempDir dir;
    fs::path child = dir.path() / "child";
    fs::path script = fake_daemon(dir, "stubborn.sh",
                                  "trap '' TERM\n"
                                  "sleep 1000 &\n"
                                  "echo $! > " +
                                      child.string() + "\n" + kReady + "\nwhile :; do sleep 1; done");
    auto d = Daemon::start({.install_examples = false, .stop_timeout = 300ms, .binary = script});
    REQUIRE(wait_until([&] { return fs::file_size(child) > 0; }, 2000ms));
    pid_t forked = std::stoi(read_text(child));
    CHECK(pid_alive(forked));
    auto before = std::chrono::steady_clock::now();
    int status = d->stop();
    CHECK(std::chrono::steady_clock::now() - before < 3s);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    // The sleep is in the daemon's process group; stop() killed it too (it
    // may take a moment to be reaped by init).
    CHECK(wait_until(
        [&] {
            return !pid_alive(forked) ||
                read_text("/proc/" + std::to_string(forked) + "/stat").find(") Z") != std::string::npos;
        },
        2000ms));
}

TEST_CASE("a stopped (SIGSTOP) daemon is still ended by the destructor") {
    TempDir dir;
    fs::path script = fake_daemon(dir, "ok.sh", std::string(kReady) + "\nexec sleep 1000");
    pid_t pid = 0;
    {
        auto d = Daemon::start({.install_examples = false, .binary = script});
        pid = d->pid();
        d->signal(SIGSTOP);
    }
    CHECK_FALSE(pid_alive(pid));
}

TEST_CASE("the real hcored starts, answers with its ready line and stops on SIGTERM") {
    if (hcored_path().empty()) {
        MESSAGE("hcored is not built; skipped");
        return;
    }
    auto d = Daemon::start({.vm = "fixture"});
    CHECK(d->vm() == "fixture");
    CHECK_FALSE(d->id().empty());
    CHECK(d->tcp().port != 0);
    CHECK(fs::exists(d->unix_socket()));
    CHECK(fs::exists(d->key_file()));
    int status = d->stop();
    INFO("stderr: " << d->stderr_tail());
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
