// A peer killed with SIGKILL never hangs a survivor: one blocked on the
// victim's full ring, one waiting for a single-copy completion, and one in
// the middle of receiving a frame in pieces all get on_peer_lost; drop()
// ends such waits without on_peer_lost or on_sent. The survivors' own files
// are gone after close; the victim's stay (the daemon cleans what a dead
// job left) and the test removes them.
#include "rank_harness.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

using namespace shmtest;

namespace {

constexpr int parent = 2;  // note target: the parent, in a 2-rank job

// The victim (rank 1) connects, tells the parent, and never progresses again.
void idle_victim(Rank &r) {
    r.note(parent);
    r.await_note(120000);
}

void expect_lost(Rank &r, int peer) {
    r.wait_until([&] { return !r.lost.empty(); }, 20000, "on_peer_lost");
    expect(r.lost.size() == 1 && r.lost[0] == peer, "lost the wrong peer");
    expect(r.sent_tokens.empty(), "on_sent for a send to a dead peer");
    expect(!r.ops->connected(r.t, peer), "still connected");
    expect(r.ops->flushed(r.t) != 0, "sends to a dead peer still queued");
    ftmpi_frame f{};
    f.kind = FTMPI_FRAME_EAGER;
    expect(r.send(peer, f, nullptr, 0, FTMPI_SEND_COPY) == FTMPI_TRANSPORT_PEER_LOST, "send to a dead peer");
}

void run_kill(std::function<void(Rank &)> survivor, std::function<void(Rank &)> victim,
              std::map<int, std::map<std::string, std::string>> env = {}) {
    JobSpec spec;
    spec.env = std::move(env);
    spec.victims = {1};
    spec.body = [&](Rank &r) { r.rank() == 0 ? survivor(r) : victim(r); };
    spec.parent = [](Parent &p) {
        p.await_note_from(1, 20000);  // connected, idle
        p.await_note_from(0, 20000);  // the survivor is blocked on it
        p.kill_rank(1);
    };
    Outcome o = run_job(spec);
    CHECK(WIFEXITED(o.status[0]));
    CHECK(WEXITSTATUS(o.status[0]) == 0);
    CHECK(WIFSIGNALED(o.status[1]));
    CHECK(shm_files(o.job, 0).empty());
    CHECK(!shm_files(o.job, 1).empty());  // nothing closed the victim's inbox
    remove_shm_files(o.job, 1);
}

// Fills the victim's ring and queues more behind it.
void fill_ring(Rank &r) {
    std::vector<char> buf(1000, 'q');
    ftmpi_frame f{};
    f.kind = FTMPI_FRAME_EAGER;
    for (int k = 0; k < 600; ++k)
        expect(r.send(1, f, buf.data(), buf.size(), FTMPI_SEND_COPY) == FTMPI_TRANSPORT_OK, "send");
    expect(r.ops->flushed(r.t) == 0, "the ring did not fill");
}

}  // namespace

TEST_CASE("kill -9 of a receiver whose ring is full: the sender gets on_peer_lost") {
    run_kill(
        [](Rank &r) {
            fill_ring(r);
            r.note(parent);
            expect_lost(r, 1);
        },
        idle_victim);
}

TEST_CASE("kill -9 of a receiver that owes a single-copy completion: the sender gets on_peer_lost") {
    run_kill(
        [](Rank &r) {
            std::vector<char> buf(size_t{1} << 20, 'c');
            ftmpi_frame f{};
            f.kind = FTMPI_FRAME_DATA;
            expect(r.send(1, f, buf.data(), buf.size(), 0, 42) == FTMPI_TRANSPORT_PENDING, "data send not pending");
            r.note(parent);
            expect_lost(r, 1);
        },
        idle_victim, {{0, single_copy_env}, {1, single_copy_env}});
}

TEST_CASE("kill -9 of a sender in the middle of a frame sent in pieces: the receiver gets on_peer_lost") {
    std::map<int, std::map<std::string, std::string>> env;
    for (int rank : {0, 1}) env[rank] = {{"FTMPI_SHM_CMA", "0"}, {"FTMPI_SHM_RING_BYTES", "16384"}};
    run_kill(
        [](Rank &r) {
            bool header = false, frame = false;
            std::vector<char> landing(size_t{1} << 20);
            r.header_hook = [&](int, const ftmpi_frame &, ftmpi_landing *out) {
                header = true;
                out->dst = landing.data();
                out->keep = landing.size();
            };
            r.frame_hook = [&](int, const ftmpi_frame &, const ftmpi_landing &) { frame = true; };
            r.wait_until([&] { return header; }, 20000, "the header of the large frame");
            r.note(parent);
            expect_lost(r, 1);
            expect(!frame, "a frame the dead sender never finished was delivered");
        },
        [](Rank &r) {
            std::vector<char> buf(size_t{1} << 20, 'p');
            ftmpi_frame f{};
            f.kind = FTMPI_FRAME_DATA;
            expect(r.send(0, f, buf.data(), buf.size(), 0, 7) == FTMPI_TRANSPORT_PENDING, "data send not pending");
            idle_victim(r);
        },
        env);
}

TEST_CASE("drop() ends waits on a peer without on_peer_lost or on_sent") {
    JobSpec spec;
    spec.victims = {1};
    spec.body = [](Rank &r) {
        if (r.rank() == 1) return idle_victim(r);
        fill_ring(r);
        std::vector<char> buf(size_t{1} << 20, 'd');
        ftmpi_frame f{};
        f.kind = FTMPI_FRAME_DATA;
        expect(r.send(1, f, buf.data(), buf.size(), 0, 9) == FTMPI_TRANSPORT_PENDING, "data send not pending");
        r.ops->drop(r.t, 1);
        expect(r.ops->flushed(r.t) != 0, "queued sends survive drop");
        expect(!r.ops->connected(r.t, 1), "connected after drop");
        expect(r.send(1, f, buf.data(), buf.size(), 0, 10) == FTMPI_TRANSPORT_PEER_LOST, "send after drop");
        r.note(parent);
        r.await_note(20000);  // the parent killed the dropped peer and saw it end
        for (int i = 0; i < 1000; ++i) r.ops->progress(r.t);
        expect(r.ops->prepare_wait(r.t) == 0, "a dropped peer's end still wakes the driver");
        r.ops->progress(r.t);
        expect(r.lost.empty(), "on_peer_lost for a dropped peer");
        expect(r.sent_tokens.empty(), "on_sent for a dropped peer's send");
    };
    spec.parent = [](Parent &p) {
        p.await_note_from(1, 20000);
        p.await_note_from(0, 20000);
        p.kill_rank(1);
        p.note_rank(0);
    };
    Outcome o = run_job(spec);
    CHECK(WIFEXITED(o.status[0]));
    CHECK(WEXITSTATUS(o.status[0]) == 0);
    CHECK(shm_files(o.job, 0).empty());
    remove_shm_files(o.job, 1);
}

TEST_CASE("kill -9 of one rank in the middle of a 4-rank stream: the others lose it and finish among themselves") {
    constexpr int ranks = 4, victim = 3, count = 3000;
    JobSpec spec;
    spec.ranks = ranks;
    spec.victims = {victim};
    for (int r = 0; r < ranks; ++r) spec.env[r]["FTMPI_SHM_RING_BYTES"] = "16384";
    spec.body = [](Rank &r) {
        std::vector<int> next(ranks, 0);
        std::vector<char> landing(2048);
        r.header_hook = [&](int, const ftmpi_frame &f, ftmpi_landing *out) {
            out->dst = landing.data();
            out->keep = f.length;
        };
        r.frame_hook = [&](int peer, const ftmpi_frame &f, const ftmpi_landing &l) {
            if (f.kind != FTMPI_FRAME_EAGER) return;
            const int k = next[static_cast<size_t>(peer)]++;
            expect(f.tag == k && l.keep == static_cast<size_t>(k % 1500), "frame out of order or wrong size");
            expect_pattern(l.dst, l.keep, static_cast<uint64_t>(peer) * 100000 + static_cast<uint64_t>(k), 0,
                           "payload");
        };
        std::vector<char> buf;
        ftmpi_frame f{};
        f.kind = FTMPI_FRAME_EAGER;
        for (int k = 0; k < count; ++k) {
            if (r.rank() == victim && k == count / 3) {
                r.note(ranks);  // to the parent: kill me now
                r.await_note(120000);
            }
            buf.resize(static_cast<size_t>(k % 1500));
            fill(buf, static_cast<uint64_t>(r.rank()) * 100000 + static_cast<uint64_t>(k));
            f.tag = k;
            for (int p = 0; p < ranks; ++p) {
                if (p == r.rank()) continue;
                int s = r.send(p, f, buf.data(), buf.size(), FTMPI_SEND_COPY);
                expect(s == FTMPI_TRANSPORT_OK || (p == victim && s == FTMPI_TRANSPORT_PEER_LOST), "send");
            }
            r.ops->progress(r.t);
        }
        r.wait_until(
            [&] {
                for (int p = 0; p < victim; ++p)
                    if (p != r.rank() && next[static_cast<size_t>(p)] != count) return false;
                return r.lost.size() == 1;
            },
            50000, "every live rank's frames and the victim lost");
        expect(r.lost[0] == victim && next[victim] <= count / 3, "lost the wrong rank, or too much from it");
        for (int p = 0; p < victim; ++p)
            if (p != r.rank()) expect(r.send_control(p, FTMPI_FRAME_BYE) == FTMPI_TRANSPORT_OK, "bye");
        r.wait_until(
            [&] {
                for (int p = 0; p < victim; ++p)
                    if (p != r.rank() && !r.ops->bye_received(r.t, p)) return false;
                return r.ops->flushed(r.t) != 0;
            },
            20000, "byes of the live ranks");
    };
    spec.parent = [](Parent &p) {
        p.await_note_from(victim, 30000);
        p.kill_rank(victim);
    };
    Outcome o = run_job(spec);
    for (int r = 0; r < victim; ++r) {
        INFO("rank " << r);
        CHECK(WIFEXITED(o.status[static_cast<size_t>(r)]));
        CHECK(WEXITSTATUS(o.status[static_cast<size_t>(r)]) == 0);
        CHECK(shm_files(o.job, r).empty());
    }
    CHECK(WIFSIGNALED(o.status[victim]));
    remove_shm_files(o.job, victim);
}
