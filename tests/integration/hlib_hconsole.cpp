// hconsole against a real three-daemon VM: load, loaded, call with typed
// literals (AUTO and PACKED, TCP and UDP, every daemon or some), JSON output,
// exit statuses with a one-line reason, and the interactive mode on stdin.
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>

using namespace harness;
using namespace harness::it;

namespace {

bool have_hconsole() {
    return !hconsole_path().empty() && std::filesystem::exists(hconsole_path());
}

struct Console {
    Vm &vm;
    std::vector<std::string> base() const {
        return {hconsole_path().string(),
                "--root",
                vm[0].root().string(),
                "--key",
                vm.key_file.string(),
                "--timeout",
                "3000"};
    }
    RunResult run(std::vector<std::string> args) const {
        auto argv = base();
        argv.insert(argv.end(), args.begin(), args.end());
        auto r = run_program(argv, 20s);
        REQUIRE_FALSE(r.timed_out);
        return r;
    }
    nlohmann::json json(std::vector<std::string> args) const {
        args.push_back("--json");
        auto r = run(args);
        INFO("stderr: " << r.err);
        REQUIRE(r.exit_code() == 0);
        auto doc = nlohmann::json::parse(r.out, nullptr, false);
        REQUIRE_MESSAGE(!doc.is_discarded(), "not one JSON document: " << r.out);
        return doc;
    }
};

std::set<std::string> ids_of(const Vm &vm) {
    std::set<std::string> ids;
    for (const auto &d : vm.daemons) ids.insert(d->id());
    return ids;
}

// Non-zero status, nothing on stdout that looks like a result, one line on stderr.
void check_refused(const RunResult &r, const std::string &mentions) {
    CHECK(r.exit_code() != 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_MESSAGE(r.err.find(mentions) != std::string::npos, r.err);
}

}  // namespace

TEST_CASE("hconsole load, loaded and call across the VM") {
    if (!have_hconsole()) {
        MESSAGE("hconsole is not built; skipped");
        return;
    }
    Vm vm = start_vm(3);
    Console hc{vm};

    auto loaded = hc.json({"load", "examples/math", "--all"});
    REQUIRE(loaded["results"].size() == 3);
    std::set<std::string> where;
    for (const auto &r : loaded["results"]) {
        CAPTURE(r.dump());
        CHECK(r.value("version", "") == "1.0.0");
        where.insert(r.value("id", ""));
    }
    CHECK(where == ids_of(vm));

    auto everywhere = hc.json({"loaded"});
    REQUIRE(everywhere["daemons"].size() == 3);
    for (const auto &d : everywhere["daemons"]) {
        CAPTURE(d.dump());
        REQUIRE(d["components"].size() >= 1);
        CHECK(d["components"][0].value("name", "") == "examples/math");
    }

    for (const char *transport : {"", "--udp"}) {
        CAPTURE(transport);
        std::vector<std::string> args{"call", "examples/math", "add", "--all", "40", "i64:2"};
        if (*transport) args.push_back(transport);
        auto sums = hc.json(args);
        REQUIRE(sums["results"].size() == 3);
        for (const auto &r : sums["results"]) CHECK(r.value("value", 0) == 42);
    }

    // Text output: one "ID: value" line per daemon.
    auto text = hc.run({"call", "examples/math", "echo", "--all", "str:two words"});
    CHECK(text.exit_code() == 0);
    for (const auto &id : ids_of(vm)) CHECK(text.out.find(id + ": two words\n") != std::string::npos);

    // Bare literals adapt to the signature: scale is f64(f64,f64).
    auto scaled = hc.json({"call", "examples/math", "scale", "3", "2.5"});
    REQUIRE(scaled["results"].size() == 1);
    CHECK(scaled["results"][0].value("id", "") == vm[0].id());
    CHECK(scaled["results"][0].value("value", 0.0) == 7.5);

    // PACKED: the literals in order, every reply item printed.
    auto summed = hc.json({"call", "examples/math", "sum", "--on", vm[1].id(), "1", "2", "3"});
    REQUIRE(summed["results"].size() == 1);
    CHECK(summed["results"][0].value("id", "") == vm[1].id());
    CHECK(summed["results"][0]["values"] == nlohmann::json::array({6, 3}));

    // Forked per call: each answer comes from another process than the daemon.
    auto pids = hc.json({"call", "examples/math", "pid", "--all", "--mode", "fork"});
    for (const auto &r : pids["results"]) {
        CAPTURE(r.dump());
        for (const auto &d : vm.daemons)
            if (d->id() == r.value("id", "")) CHECK(r.value("value", 0) != d->pid());
    }
}

TEST_CASE("hconsole call errors: one line on stderr and a non-zero status") {
    if (!have_hconsole()) {
        MESSAGE("hconsole is not built; skipped");
        return;
    }
    Vm vm = start_vm(1);
    Console hc{vm};
    REQUIRE(hc.run({"load", "examples/math"}).exit_code() == 0);

    check_refused(hc.run({"call", "examples/math", "add", "i32:1", "2"}), "i32");
    check_refused(hc.run({"call", "examples/math", "add", "1"}), "argument");
    check_refused(hc.run({"call", "examples/math", "nope"}), "nope");
    check_refused(hc.run({"call", "examples/other", "add", "1", "2"}), "examples/other");
    check_refused(hc.run({"call", "examples/math", "add", "i64:x", "2"}), "i64:x");
    check_refused(hc.run({"load", "examples/nope"}), "examples/nope");

    // A plugin failure is that daemon's error line, and the status says so.
    auto failed = hc.run({"call", "examples/math", "fail", "boom"});
    CHECK(failed.exit_code() != 0);
    CHECK(failed.out.find(vm[0].id() + ": error: ") != std::string::npos);
    CHECK(failed.out.find("boom") != std::string::npos);
}

TEST_CASE("hconsole reads commands from stdin when given none") {
    if (!have_hconsole()) {
        MESSAGE("hconsole is not built; skipped");
        return;
    }
    Vm vm = start_vm(1);
    auto script = vm.dir->path() / "commands.txt";
    {
        std::ofstream f(script);
        f << "# a comment\n"
          << "load examples/math\n"
          << "call examples/math add 2 3\n"
          << "call examples/math echo \"quoted words\" --json\n"
          << "quit\n"
          << "call examples/math add 100 100\n";
    }
    Console hc{vm};
    std::string command;
    for (const auto &a : hc.base()) command += "'" + a + "' ";
    auto r = run_program({"/bin/sh", "-c", command + "< '" + script.string() + "'"}, 20s);
    REQUIRE_FALSE(r.timed_out);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code() == 0);
    CHECK(r.out.find("hconsole>") == std::string::npos);  // no prompt when stdin is not a tty
    CHECK(r.out.find(vm[0].id() + ": loaded examples/math") != std::string::npos);
    CHECK(r.out.find(vm[0].id() + ": 5\n") != std::string::npos);
    CHECK(r.out.find(R"("value":"quoted words")") != std::string::npos);
    CHECK(r.out.find("200") == std::string::npos);  // after quit
}
