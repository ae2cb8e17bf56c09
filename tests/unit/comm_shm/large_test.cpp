// Large data frames sent without a copy, both ways at once, interleaved with
// small eager frames: by single copy (process_vm_readv), by the pipelined
// copy through the ring (FTMPI_SHM_CMA=0 at both ends), and by the fallback
// when the receiver refuses single copy (FTMPI_SHM_CMA=0 at the receiver
// only). Landings truncate (keep < length) or drop everything (keep 0); each
// byte kept is checked, and the bytes past `keep` must stay untouched.
#include "rank_harness.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

using namespace shmtest;

namespace {

constexpr size_t guard = 64;
constexpr char guard_byte = '\x5a';

const size_t sizes[] = {20000, size_t{1} << 20, 3 * (size_t{1} << 20) + 17, 5 * (size_t{1} << 20) + 1, 40000};

size_t keep_of(size_t i, size_t len) {
    switch (i % 4) {
    case 0: return len;
    case 1: return len / 2 + 3;
    case 2: return 0;
    default: return len - 1;
    }
}

uint64_t seed_of(int from, size_t i) {
    return static_cast<uint64_t>(from) * 7777u + i * 13u + 5u;
}

void exchange_large(Rank &r) {
    const int other = 1 - r.rank();
    const size_t count = sizeof sizes / sizeof sizes[0];
    // Receiving: data frame i, then eager frame i (its tag), in that order.
    std::vector<char> landing;
    size_t next = 0;
    bool expect_data = true;
    r.header_hook = [&](int peer, const ftmpi_frame &f, ftmpi_landing *out) {
        expect(peer == other, "frame from a stranger");
        if (f.kind == FTMPI_FRAME_DATA) {
            expect(expect_data && f.tag == static_cast<int>(next) && f.length == sizes[next],
                   "data frame out of order");
            const size_t keep = keep_of(next, f.length);
            landing.assign(keep + guard, guard_byte);
            out->dst = keep ? landing.data() : nullptr;
            out->keep = keep;
        } else {
            landing.assign(f.length, 0);
            out->dst = landing.data();
            out->keep = f.length;
        }
    };
    r.frame_hook = [&](int, const ftmpi_frame &f, const ftmpi_landing &l) {
        if (f.kind == FTMPI_FRAME_BYE) return;
        if (f.kind == FTMPI_FRAME_DATA) {
            const size_t keep = keep_of(next, f.length);
            expect(l.keep == keep, "landing changed");
            expect_pattern(landing.data(), keep, seed_of(other, next), 0, "data frame " + std::to_string(next));
            for (size_t g = 0; g < guard; ++g) expect(landing[keep + g] == guard_byte, "written past keep");
            expect_data = false;
        } else {
            expect(!expect_data && f.kind == FTMPI_FRAME_EAGER && f.tag == static_cast<int>(next),
                   "eager out of order");
            expect_pattern(landing.data(), f.length, seed_of(other, next) + 1, 0, "eager frame");
            expect_data = true;
            ++next;
        }
    };
    // Sending: all at once; the data buffers are referenced until on_sent.
    std::vector<std::vector<char>> data(count);
    std::vector<char> small(300);
    for (size_t i = 0; i < count; ++i) {
        data[i].resize(sizes[i]);
        fill(data[i], seed_of(r.rank(), i));
        // Three pieces of unequal size, as a non-contiguous datatype would give.
        const size_t a = sizes[i] / 3, b = sizes[i] / 2;
        iovec iov[3] = {{data[i].data(), a}, {data[i].data() + a, b - a}, {data[i].data() + b, sizes[i] - b}};
        ftmpi_frame f{};
        f.kind = FTMPI_FRAME_DATA;
        f.tag = static_cast<int>(i);
        f.source = r.rank();
        f.length = sizes[i];
        int s = r.ops->send(r.t, other, &f, iov, 3, 0, i + 1);
        expect(s == FTMPI_TRANSPORT_OK || s == FTMPI_TRANSPORT_PENDING, "data send");
        if (s == FTMPI_TRANSPORT_PENDING) r.pending_tokens.insert(i + 1);
        small.resize(100 + i);
        fill(small, seed_of(r.rank(), i) + 1);
        ftmpi_frame e{};
        e.kind = FTMPI_FRAME_EAGER;
        e.tag = static_cast<int>(i);
        expect(r.send(other, e, small.data(), small.size(), FTMPI_SEND_COPY) == FTMPI_TRANSPORT_OK, "eager send");
    }
    r.wait_until([&] { return next == count && r.pending_tokens.empty(); }, 50000,
                 "all large frames received and all sends completed");
    r.goodbye();
}

void run(const char *what, std::map<int, std::map<std::string, std::string>> env) {
    INFO(what);
    JobSpec spec;
    spec.env = std::move(env);
    spec.body = exchange_large;
    Outcome o = run_job(spec);
    for (size_t r = 0; r < o.status.size(); ++r) {
        INFO("rank " << r);
        CHECK(WIFEXITED(o.status[r]));
        CHECK(WEXITSTATUS(o.status[r]) == 0);
    }
    CHECK(shm_files(o.job).empty());
}

}  // namespace

TEST_CASE("large data frames by single copy (process_vm_readv)") {
    run("cma", {{0, single_copy_env}, {1, single_copy_env}});
}

TEST_CASE("large data frames with the default threshold: the ring below it, single copy above") {
    run("default", {});
}

TEST_CASE("large data frames by pipelined copy through the ring (FTMPI_SHM_CMA=0)") {
    run("copy", {{0, {{"FTMPI_SHM_CMA", "0"}}}, {1, {{"FTMPI_SHM_CMA", "0"}}}});
    run("copy, 16 KiB ring",
        {{0, {{"FTMPI_SHM_CMA", "0"}, {"FTMPI_SHM_RING_BYTES", "16384"}}},
         {1, {{"FTMPI_SHM_CMA", "0"}, {"FTMPI_SHM_RING_BYTES", "16384"}}}});
}

TEST_CASE("a receiver that refuses single copy gets the payload through the ring") {
    // Rank 1 refuses: rank 0's first descriptor is answered "refused" and
    // sent again in pieces, later ones go by copy at once; rank 1 itself
    // sends by copy.
    run("refused", {{0, single_copy_env}, {1, {{"FTMPI_SHM_CMA", "0"}}}});
}
