// Small frames between forked ranks: ping-pong with checked payloads, and
// streams between every pair at 2, 4 and 8 ranks with per-pair order,
// referenced and copied sends, rings small enough to wrap and fill, and many
// senders into one receiver. Every rank waits the engine's way (spin, then
// block on wait_fd), so the wake-ups are exercised throughout.
#include "rank_harness.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <sys/wait.h>

using namespace shmtest;

namespace {

ftmpi_frame eager(int tag) {
    ftmpi_frame f{};
    f.kind = FTMPI_FRAME_EAGER;
    f.tag = tag;
    return f;
}

uint64_t seed_of(int from, int to, int seq) {
    return static_cast<uint64_t>(from) * 1000003u + static_cast<uint64_t>(to) * 7919u + static_cast<uint64_t>(seq);
}

void check_all_ok(const Outcome &o) {
    for (size_t r = 0; r < o.status.size(); ++r) {
        INFO("rank " << r << " status " << o.status[r]);
        CHECK(WIFEXITED(o.status[r]));
        CHECK(WEXITSTATUS(o.status[r]) == 0);
    }
    CHECK(shm_files(o.job).empty());
}

// Rank 0 sends frame k, rank 1 answers it; both check every byte.
void pingpong(Rank &r, int iterations, size_t max_len, bool report) {
    const int other = 1 - r.rank();
    std::vector<char> buf(max_len + 1);
    auto receive = [&](int k, uint64_t seed) {
        auto &q = r.received[static_cast<size_t>(other)];
        r.wait_until([&] { return !q.empty(); }, 20000, "ping-pong frame");
        Received got = std::move(q.front());
        q.pop_front();
        expect(got.frame.tag == k, "frame out of order");
        expect(got.frame.source == other, "wrong source");
        expect(got.data.size() == static_cast<size_t>(k) % (max_len + 1), "wrong length");
        expect_pattern(got.data.data(), got.data.size(), seed, 0, "ping-pong payload");
    };
    const auto start = Clock::now();
    for (int k = 0; k < iterations; ++k) {
        const size_t len = static_cast<size_t>(k) % (max_len + 1);
        buf.resize(len);
        if (r.rank() == 0) {
            fill(buf, seed_of(0, 1, k));
            expect(r.send(other, eager(k), buf.data(), len, FTMPI_SEND_COPY) == FTMPI_TRANSPORT_OK, "send");
            receive(k, seed_of(1, 0, k));
        } else {
            receive(k, seed_of(0, 1, k));
            fill(buf, seed_of(1, 0, k));
            expect(r.send(other, eager(k), buf.data(), len, FTMPI_SEND_COPY) == FTMPI_TRANSPORT_OK, "send");
        }
    }
    if (report && r.rank() == 0) {
        double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / iterations;
        std::fprintf(stderr, "shm ping-pong: %d round trips of 0..%zu bytes, %.2f us each\n", iterations, max_len, us);
    }
    r.goodbye();
}

// Every rank streams `count` frames to every other; odd frames are copied,
// even ones referenced (their buffers live until on_sent).
void all_pairs(Rank &r, int count, size_t max_len) {
    const int n = r.size();
    std::vector<int> next(static_cast<size_t>(n), 0);
    auto len_of = [&](int from, int to, int k) {
        return static_cast<size_t>(k * 37 + from * 11 + to * 5) % (max_len + 1);
    };
    r.frame_hook = [&](int peer, const ftmpi_frame &f, const ftmpi_landing &landing) {
        if (f.kind == FTMPI_FRAME_BYE) return;
        int k = next[static_cast<size_t>(peer)]++;
        expect(f.kind == FTMPI_FRAME_EAGER && f.tag == k, "frame from rank " + std::to_string(peer) + " out of order");
        expect(f.length == len_of(peer, r.rank(), k) && landing.keep == f.length, "wrong length");
        expect_pattern(landing.dst, landing.keep, seed_of(peer, r.rank(), k), 0, "payload");
    };
    std::vector<std::vector<char>> arriving(static_cast<size_t>(n));
    r.header_hook = [&](int peer, const ftmpi_frame &f, ftmpi_landing *out) {
        auto &b = arriving[static_cast<size_t>(peer)];
        b.assign(f.length, 0);
        out->dst = b.data();
        out->keep = f.length;
    };
    std::deque<std::vector<char>> held;
    std::vector<char> scratch;
    uint64_t token = 1;
    for (int k = 0; k < count; ++k) {
        for (int d = 1; d < n; ++d) {
            const int to = (r.rank() + d) % n;
            const size_t len = len_of(r.rank(), to, k);
            const bool copy = k % 2 == 1;
            std::vector<char> &buf = copy ? scratch : held.emplace_back();
            buf.resize(len);
            fill(buf, seed_of(r.rank(), to, k));
            int s = r.send(to, eager(k), buf.data(), len, copy ? FTMPI_SEND_COPY : 0, token++);
            expect(s == FTMPI_TRANSPORT_OK || (!copy && s == FTMPI_TRANSPORT_PENDING),
                   "send status " + std::to_string(s));
            if (copy) std::fill(scratch.begin(), scratch.end(), '\x77');  // a copied send must not read it again
        }
        r.ops->progress(r.t);
    }
    r.wait_until(
        [&] {
            for (int p = 0; p < n; ++p)
                if (p != r.rank() && next[static_cast<size_t>(p)] != count) return false;
            return r.pending_tokens.empty();
        },
        50000, "every frame received and every referenced send completed");
    r.goodbye();
}

}  // namespace

TEST_CASE("ping-pong of small frames, default ring (round trip measured)") {
    JobSpec spec;
    spec.body = [](Rank &r) { pingpong(r, 20000, 0, true); };
    check_all_ok(run_job(spec));
}

TEST_CASE("ping-pong with payloads up to 3000 bytes through a 4 KiB ring (wrap-around, pieces)") {
    JobSpec spec;
    spec.env[0]["FTMPI_SHM_RING_BYTES"] = "4096";
    spec.env[1]["FTMPI_SHM_RING_BYTES"] = "4096";
    spec.body = [](Rank &r) { pingpong(r, 5000, 3000, false); };
    check_all_ok(run_job(spec));
}

TEST_CASE("streams between every pair keep per-pair order under load") {
    for (int n : {2, 4, 8}) {
        for (const char *ring : {"8192", "262144"}) {
            INFO(n << " ranks, ring " << ring);
            JobSpec spec;
            spec.ranks = n;
            for (int r = 0; r < n; ++r) spec.env[r]["FTMPI_SHM_RING_BYTES"] = ring;
            spec.body = [n](Rank &r) { all_pairs(r, n == 8 ? 600 : 1500, 3000); };
            check_all_ok(run_job(spec));
        }
    }
}

TEST_CASE("many senders into one receiver") {
    JobSpec spec;
    spec.ranks = 8;
    for (int r = 0; r < 8; ++r) spec.env[r]["FTMPI_SHM_RING_BYTES"] = "16384";
    spec.body = [](Rank &r) {
        const int count = 3000;
        if (r.rank() == 0) {
            std::vector<int> next(8, 0);
            r.frame_hook = [&](int peer, const ftmpi_frame &f, const ftmpi_landing &landing) {
                if (f.kind == FTMPI_FRAME_BYE) return;
                int k = next[static_cast<size_t>(peer)]++;
                expect(f.tag == k && landing.keep == static_cast<size_t>(k % 200), "frame out of order or wrong size");
                expect_pattern(landing.dst, landing.keep, seed_of(peer, 0, k), 0, "payload");
            };
            std::vector<char> landing(256);
            r.header_hook = [&](int, const ftmpi_frame &f, ftmpi_landing *out) {
                out->dst = landing.data();
                out->keep = f.length;
            };
            r.wait_until(
                [&] {
                    for (int p = 1; p < 8; ++p)
                        if (next[static_cast<size_t>(p)] != count) return false;
                    return true;
                },
                50000, "all frames of all senders");
        } else {
            std::vector<char> buf;
            for (int k = 0; k < count; ++k) {
                buf.resize(static_cast<size_t>(k % 200));
                fill(buf, seed_of(r.rank(), 0, k));
                expect(r.send(0, eager(k), buf.data(), buf.size(), FTMPI_SEND_COPY) == FTMPI_TRANSPORT_OK, "send");
                r.ops->progress(r.t);
            }
        }
        r.goodbye();
    };
    check_all_ok(run_job(spec));
}
