// The rule for when a process's own daemon counts as lost
// (ftmpi/src/runtime/daemon_watch.hpp), on a clock the test moves: a gone
// daemon (closed, refused) after the short bound, a silent one (timeouts)
// only after the long one, the latest sign deciding, an answer resetting.
#include "runtime/daemon_watch.hpp"

#include <doctest/doctest.h>

using ftmpi::runtime::DaemonWatch;
using namespace std::chrono_literals;

namespace {

const harness::Error closed = harness::make_error(HARNESS_ERR_UNREACHABLE, "connection closed by the daemon");
const harness::Error refused = harness::make_error(HARNESS_ERR_UNREACHABLE, "connect: Connection refused");
const harness::Error timed_out = harness::make_error(HARNESS_ERR_TIMEOUT, "no reply before the deadline");

}  // namespace

TEST_CASE("a closed connection or a refused connect: lost after FTMPI_DAEMON_LOST_MS") {
    const auto t0 = DaemonWatch::Clock::time_point{} + 1h;
    DaemonWatch w({1000ms, 60000ms}, t0);
    w.failed(closed);
    CHECK_FALSE(w.lost(t0 + 999ms));
    w.failed(refused);
    auto why = w.lost(t0 + 1000ms);
    REQUIRE(why);
    CHECK(*why == "its daemon has not answered for 1000 ms (peer unreachable: connect: Connection refused)");
}

TEST_CASE("a silent daemon (timeouts, connection open) is lost only after FTMPI_DAEMON_HUNG_MS") {
    const auto t0 = DaemonWatch::Clock::time_point{} + 1h;
    DaemonWatch w({1000ms, 60000ms}, t0);
    w.failed(timed_out);
    CHECK_FALSE(w.lost(t0 + 5s));
    CHECK_FALSE(w.lost(t0 + 59999ms));
    auto why = w.lost(t0 + 60s);
    REQUIRE(why);
    CHECK(why->find("has not answered for 60000 ms (its connection open, no answer") != std::string::npos);
    CHECK(w.silent_until() == t0 + 60s);
}

TEST_CASE("the latest sign decides; an answer starts the count again") {
    const auto t0 = DaemonWatch::Clock::time_point{} + 1h;
    DaemonWatch w({1000ms, 60000ms}, t0);
    w.failed(timed_out);
    CHECK_FALSE(w.lost(t0 + 3s));
    w.failed(closed);  // silent for 3 s, then its connection closed: killed
    CHECK(w.lost(t0 + 3s));
    w.answered(t0 + 4s);
    CHECK_FALSE(w.lost(t0 + 10s));  // nothing failed since
    w.failed(closed);
    CHECK_FALSE(w.lost(t0 + 4900ms));
    CHECK(w.lost(t0 + 5s));
}

TEST_CASE("which errors are the daemon's silence, and which are its answers") {
    CHECK(DaemonWatch::unanswered(closed));
    CHECK(DaemonWatch::unanswered(timed_out));
    CHECK(DaemonWatch::unanswered(harness::make_error(HARNESS_ERR_PROTOCOL, "bad frame")));
    CHECK_FALSE(DaemonWatch::unanswered(harness::make_error(HARNESS_ERR_NOT_FOUND, "no vm/events")));
    CHECK(DaemonWatch::silent(timed_out));
    CHECK_FALSE(DaemonWatch::silent(refused));
}
