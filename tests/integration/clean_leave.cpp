// A clean stop: a daemon stopped with SIGTERM tells the others it is going,
// and they mark it left at once — long before the heartbeat timeout (20 s
// here, so a failure declaration cannot explain it). A daemon killed with
// kill -9 cannot say so and is still declared failed after the timeout, not
// left.
#include "it_support.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::it;

namespace {

// d's view of member `id`: "alive", "left", "failed", or "" when not listed.
std::string state_of(hlib::VirtualMachine &vm, const std::string &id) {
    auto members = vm.members();
    if (!members) return "";
    for (const auto &m : *members)
        if (m.id == id) return m.alive ? "alive" : m.left ? "left" : "failed";
    return "";
}

}  // namespace

TEST_CASE("a daemon stopped with SIGTERM is marked left by the others at once") {
    Vm vm = start_vm(3, {"--heartbeat-ms", "100", "--heartbeat-timeout-ms", "20000"});
    auto view = connect(vm[0]);
    const std::string leaving = vm[2].id();
    REQUIRE(state_of(view, leaving) == "alive");

    auto stopped_at = Clock::now();
    vm[2].stop();
    CHECK_MESSAGE(test::wait_until([&] { return state_of(view, leaving) == "left"; }, 3s),
                  "state after the stop: " << state_of(view, leaving) << "\n"
                                           << vm[0].stderr_tail());
    MESSAGE("marked left " << std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - stopped_at).count()
                           << " ms after SIGTERM (heartbeat timeout 20000 ms)");
    CHECK(vm[0].stderr_text().find("member " + leaving + " left the VM") != std::string::npos);
    // The other survivor agrees, and the one that stayed is still alive.
    auto other = connect(vm[1]);
    CHECK(test::wait_until([&] { return state_of(other, leaving) == "left"; }, 3s));
    CHECK(state_of(view, vm[1].id()) == "alive");
}

TEST_CASE("a daemon killed with kill -9 is declared failed after the timeout, not left") {
    Vm vm = start_vm(2, {"--heartbeat-ms", "50", "--heartbeat-timeout-ms", "600"});
    auto view = connect(vm[0]);
    const std::string victim = vm[1].id();
    vm[1].kill_hard();
    CHECK(test::wait_until([&] { return state_of(view, victim) == "failed"; }, 5s));
    CHECK(state_of(view, victim) != "left");
}
