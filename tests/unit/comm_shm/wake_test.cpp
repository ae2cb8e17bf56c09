// A rank blocked in poll() on wait_fd() after prepare_wait() is woken by a
// frame sent to it, and by wake() from another thread; prepare_wait() says
// "do not block" when a frame is already there.
#include "rank_harness.hpp"

#include <doctest/doctest.h>

#include <poll.h>
#include <sys/wait.h>
#include <thread>

using namespace shmtest;

namespace {

// Makes prepare_wait() agree to block (a stale wake byte may need one more progress).
void settle(Rank &r) {
    for (int i = 0; i < 100; ++i) {
        r.ops->progress(r.t);
        if (r.ops->prepare_wait(r.t) == 0) return;
    }
    throw std::runtime_error("prepare_wait never agreed to block on an idle driver");
}

}  // namespace

TEST_CASE("a blocked receiver is woken by each frame") {
    JobSpec spec;
    spec.body = [](Rank &r) {
        const int rounds = 200;
        if (r.rank() == 0) {
            for (int k = 0; k < rounds; ++k) {
                settle(r);
                r.note(1);  // "I am about to block": the frame comes now
                pollfd p{r.ops->wait_fd(r.t), POLLIN, 0};
                const auto start = Clock::now();
                expect(::poll(&p, 1, 10000) == 1, "not woken within 10 s in round " + std::to_string(k));
                expect(Clock::now() - start < std::chrono::seconds(5), "woken late");
                r.wait_until([&] { return !r.received[1].empty(); }, 5000, "the frame after the wake-up");
                expect(r.received[1].front().frame.tag == k, "wrong frame");
                r.received[1].pop_front();
            }
        } else {
            ftmpi_frame f{};
            f.kind = FTMPI_FRAME_EAGER;
            for (int k = 0; k < rounds; ++k) {
                r.await_note(10000);
                f.tag = k;
                expect(r.send(0, f, "x", 1, FTMPI_SEND_COPY) == FTMPI_TRANSPORT_OK, "send");
            }
        }
        r.goodbye();
    };
    Outcome o = run_job(spec);
    for (int status : o.status) CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    CHECK(shm_files(o.job).empty());
}

TEST_CASE("prepare_wait refuses to block when a frame is pending, and wake() from a thread unblocks") {
    JobSpec spec;
    spec.body = [](Rank &r) {
        if (r.rank() == 1) {
            ftmpi_frame f{};
            f.kind = FTMPI_FRAME_EAGER;
            expect(r.send(0, f, "y", 1, FTMPI_SEND_COPY) == FTMPI_TRANSPORT_OK, "send");
            r.note(0);
        } else {
            r.await_note(10000);
            // The frame is published: no blocking now, whatever the order of calls.
            expect(r.ops->prepare_wait(r.t) != 0, "prepare_wait would block with a frame pending");
            r.wait_until([&] { return !r.received[1].empty(); }, 5000, "the pending frame");
            settle(r);
            std::thread waker([&] { r.ops->wake(r.t); });
            pollfd p{r.ops->wait_fd(r.t), POLLIN, 0};
            expect(::poll(&p, 1, 10000) == 1, "wake() did not unblock the poller");
            waker.join();
        }
        r.goodbye();
    };
    Outcome o = run_job(spec);
    for (int status : o.status) CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    CHECK(shm_files(o.job).empty());
}
