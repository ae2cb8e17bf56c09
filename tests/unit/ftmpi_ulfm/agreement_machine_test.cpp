// The ULFM agreement's state machine (ftmpi/src/ulfm/agreement_machine.*)
// driven in one process: n machines, one per simulated member, joined by a
// simulated network, with members killed at every point of the protocol.
//
// The network is what the board (agreement_board.cpp) and the p2p engine
// give a machine: FIFO channels per (sender, receiver), every message
// encoded and decoded with agreement_wire (so the framing is exercised too);
// a message for an instance not started yet is kept until it starts, one for
// an instance already forgotten is answered `released` with the decision.
// A killed member sends nothing more; each of its messages still in flight
// is delivered or lost (both happen: a complete eager message stays
// receivable, an incomplete one is dropped). Every survivor learns every
// failure, at a time of the scheduler's choosing.
//
// After each run (no event left), the checks are the agreement's promises
// (ftmpi/src/ulfm/README.md "Why it is correct"):
//   * termination: every survivor decided with MPI_SUCCESS and forgot the
//     instance;
//   * uniform agreement: every decision, including those of members that
//     decided and then died, is the same value;
//   * validity: the flag is the AND of the contributions of a set of members
//     that contains every survivor, and the agreed failed set is exactly the
//     members whose contribution is missing (gaps are in neither);
//     unacked is the OR over the same contributions.
#include "agreement_machine.hpp"

#include "mpi-ext.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ftmpi::ulfm::Machine;
using ftmpi::ulfm::Outcome;
namespace wire = ftmpi::ulfm::wire;

constexpr uint32_t kInstance = 7;

// One failure: `victim` dies once `at` events have run (counted from the
// start of the run).
struct Kill {
    int victim;
    int at;
};

struct Plan {
    int n = 1;
    std::vector<int> gaps;    // BLANK members: not processes
    std::vector<Kill> kills;  // in order of `at`
    unsigned seed = 1;        // event order and in-flight losses
    int unacked_member = -1;  // this member contributes unacked = 1
    // Whether members send messages of a later instance (the `ping`
    // event), from which boards learn who decided, as when the program
    // agrees again; without them boards learn it only from the instance's
    // own messages, and machines mostly clean up with messages.
    bool settle = false;
};

std::string describe(const Plan &p) {
    std::ostringstream s;
    s << "n=" << p.n << " seed=" << p.seed << " gaps={";
    for (int g : p.gaps) s << g << ' ';
    s << "} kills={";
    for (const Kill &k : p.kills) s << k.victim << "@" << k.at << ' ';
    s << "} settle=" << p.settle;
    return s.str();
}

class Simulation {
public:
    explicit Simulation(const Plan &plan) : plan_(plan), n_(plan.n), rng_(plan.seed) {
        words_ = wire::words_for(n_);
        gaps_.assign(words_, 0);
        for (int g : plan.gaps) wire::set(gaps_, g);
        members_.resize(static_cast<size_t>(n_));
        for (int r = 0; r < n_; ++r) {
            Member &m = at(r);
            m.is_gap = wire::test(gaps_, r);
            m.known.assign(words_, 0);
            m.outcome = std::make_shared<Outcome>();
            m.peer_decided.assign(static_cast<size_t>(n_), false);
            m.said_all_settled.assign(static_cast<size_t>(n_), 0);
            m.sent_settled.assign(static_cast<size_t>(n_), 0);
        }
    }

    // Runs events until none is left; returns how many ran (bounded, so a
    // livelock fails the test instead of hanging it).
    int run() {
        int events = 0;
        for (;;) {
            while (next_kill_ < plan_.kills.size() && plan_.kills[next_kill_].at <= events)
                kill(plan_.kills[next_kill_++].victim);
            std::vector<Event> ready = enabled();
            if (ready.empty()) {
                if (next_kill_ < plan_.kills.size()) {
                    kill(plan_.kills[next_kill_++].victim);
                    continue;
                }
                return events;
            }
            std::uniform_int_distribution<size_t> pick(0, ready.size() - 1);
            apply(ready[pick(rng_)]);
            if (++events > 100000) return events;
        }
    }

    // The checks listed at the top; failures are reported with the plan.
    void check() const {
        INFO(describe(plan_));
        std::optional<wire::Value> first;
        for (int r = 0; r < n_; ++r) {
            const Member &m = at(r);
            if (m.is_gap) continue;
            if (!m.dead) {
                CHECK_MESSAGE(m.outcome->ready.load(), "survivor ", r, " did not decide");
                CHECK_MESSAGE(m.outcome->code == MPI_SUCCESS, "survivor ", r, " got code ", m.outcome->code);
                CHECK_MESSAGE(m.forgotten, "survivor ", r, " never finished the instance");
            }
            if (!m.outcome->ready.load() || m.outcome->code != MPI_SUCCESS) continue;
            const wire::Value &v = m.outcome->value;
            if (!first) {
                first = v;
                continue;
            }
            CHECK_MESSAGE(v.flag == first->flag, "member ", r, " decided another flag");
            CHECK_MESSAGE(v.unacked == first->unacked, "member ", r, " decided another unacked");
            CHECK_MESSAGE(v.failed == first->failed, "member ", r, " decided another failed set");
            CHECK_MESSAGE(v.acked == first->acked, "member ", r, " decided another acked set");
        }
        REQUIRE_MESSAGE(first.has_value(), "nobody decided");
        uint32_t unacked = 0;
        wire::Bits acked(words_, ~0u);
        for (int r = 0; r < n_; ++r) {
            const Member &m = at(r);
            const bool included = (first->flag & (1u << r)) == 0;
            const bool failed = wire::test(first->failed, r);
            if (m.is_gap) {
                CHECK_MESSAGE(!included, "gap ", r, " contributed");
                CHECK_MESSAGE(!failed, "gap ", r, " is in the failed set");
                continue;
            }
            CHECK_MESSAGE(included != failed, "member ", r, " is ",
                          included ? "both included and failed" : "neither included nor failed");
            if (!m.dead) CHECK_MESSAGE(included, "survivor ", r, " was left out");
            if (failed) CHECK_MESSAGE(m.dead, "live member ", r, " is in the failed set");
            if (included && r == plan_.unacked_member) unacked = 1;
            if (included)
                for (size_t w = 0; w < words_; ++w) acked[w] &= contribution(r).acked[w];
        }
        CHECK(first->unacked == unacked);
        CHECK_MESSAGE(first->acked == acked, "the acked set is not the intersection of the included contributions");
    }

private:
    struct Member {
        bool is_gap = false;
        bool dead = false;
        bool started = false;
        bool forgotten = false;  // the board dropped the machine
        // It was dropped because everyone decided (settled_everywhere).
        bool settled = false;
        // What its board learned from the messages' settled/all_settled
        // fields: which members decided, and whether all did.
        std::vector<bool> peer_decided;
        bool all_decided = false;
        std::vector<uint32_t> said_all_settled;  // by member: the highest all_settled it sent here
        std::vector<uint32_t> sent_settled;      // by member: the highest settled sent to it
        std::optional<wire::Value> decision;     // kept for `released` answers
        std::unique_ptr<Machine> machine;
        std::shared_ptr<Outcome> outcome;
        std::deque<wire::Message> stash;  // arrived before the instance started
        wire::Bits known;                 // failures learned
    };
    // flush: the board's timer sends a cleanup the machine held back;
    // ping: a message of a later instance from a to b, which b's board
    // reads for its settled/all_settled fields only.
    enum class Kind { start, deliver, learn, flush, ping };
    struct Event {
        Kind kind;
        int a;  // start, flush: member; deliver, ping: sender; learn: learner
        int b;  // deliver, ping: receiver; learn: the failed member
    };

    Member &at(int r) { return members_[static_cast<size_t>(r)]; }
    const Member &at(int r) const { return members_[static_cast<size_t>(r)]; }

    wire::Value contribution(int r) const {
        wire::Value v;
        v.flag = ~(1u << r);
        v.unacked = r == plan_.unacked_member ? 1u : 0u;
        v.failed.assign(words_, 0);
        // Each even member has not acknowledged its successor: the decided
        // acked set is the intersection over the contributions included.
        v.acked.assign(words_, ~0u);
        if (r % 2 == 0) {
            const int s = (r + 1) % n_;
            v.acked[static_cast<size_t>(s) / 32] &= ~(1u << (s % 32));
        }
        return v;
    }

    std::vector<Event> enabled() const {
        std::vector<Event> out;
        for (int r = 0; r < n_; ++r) {
            const Member &m = at(r);
            if (m.is_gap || m.dead) continue;
            if (!m.started) out.push_back({Kind::start, r, 0});
            for (int f = 0; f < n_; ++f)
                if (at(f).dead && !wire::test(m.known, f)) out.push_back({Kind::learn, r, f});
            if (m.machine && m.machine->owes_cleanup()) out.push_back({Kind::flush, r, 0});
            if (plan_.settle && decided_here(r))
                for (int to = 0; to < n_; ++to)
                    if (to != r && !at(to).is_gap && !at(to).dead &&
                        (!at(to).peer_decided[static_cast<size_t>(r)] || (m.all_decided && !at(to).all_decided)))
                        out.push_back({Kind::ping, r, to});
        }
        for (const auto &[link, queue] : channels_)
            if (!queue.empty()) out.push_back({Kind::deliver, link.first, link.second});
        return out;
    }

    void apply(const Event &e) {
        switch (e.kind) {
        case Kind::start: start(e.a); break;
        case Kind::learn: learn(e.a, e.b); break;
        case Kind::deliver: deliver(e.a, e.b); break;
        case Kind::flush:
            at(e.a).machine->flush_cleanup();
            work(e.a);
            break;
        case Kind::ping:
            at(e.a).sent_settled[static_cast<size_t>(e.b)] = settled_field(e.a);
            learn_settled(e.b, e.a, settled_field(e.a), all_settled_field(e.a));
            work(e.b);
            break;
        }
    }

    bool decided_here(int r) const {
        const Member &m = at(r);
        return m.outcome->ready.load() && m.outcome->code == MPI_SUCCESS;
    }
    // The fields the board fills in as a message leaves member r.
    uint32_t settled_field(int r) const { return decided_here(r) ? kInstance + 1 : kInstance; }
    uint32_t all_settled_field(int r) const { return at(r).all_decided ? kInstance + 1 : 0; }
    // What the board of `to` does with them (agreement_board.cpp).
    void learn_settled(int to, int from, uint32_t settled, uint32_t all_settled) {
        Member &m = at(to);
        uint32_t &said = m.said_all_settled[static_cast<size_t>(from)];
        said = std::max(said, all_settled);
        if (settled > kInstance) m.peer_decided[static_cast<size_t>(from)] = true;
        if (all_settled > kInstance) m.all_decided = true;
        if (!decided_here(to)) return;
        for (int r = 0; r < n_; ++r)
            if (r != to && !at(r).is_gap && !m.peer_decided[static_cast<size_t>(r)]) return;
        m.all_decided = true;
    }

    void start(int r) {
        Member &m = at(r);
        m.started = true;
        m.machine = std::make_unique<Machine>(kInstance, n_, r, gaps_, m.known, contribution(r), m.outcome);
        while (!m.stash.empty() && m.machine) {
            wire::Message msg = std::move(m.stash.front());
            m.stash.pop_front();
            m.machine->receive(msg);
            work(r);
        }
        work(r);
    }

    void learn(int r, int failed) {
        Member &m = at(r);
        wire::set(m.known, failed);
        if (m.machine) {
            m.machine->learn_failed(m.known);
            work(r);
        }
    }

    void deliver(int from, int to) {
        std::vector<int32_t> ints = std::move(channels_[{from, to}].front());
        channels_[{from, to}].pop_front();
        Member &m = at(to);
        if (m.dead) return;
        wire::Message msg;
        REQUIRE(wire::decode(ints.data(), ints.size(), n_, msg));
        REQUIRE(msg.sender == from);
        learn_settled(to, from, msg.settled, msg.all_settled);
        if (!m.started) {
            m.stash.push_back(std::move(msg));
            return;
        }
        if (m.machine) {
            m.machine->receive(msg);
            work(to);
            return;
        }
        // Forgotten: answer a late message with the decision, as the board
        // does while it is active. A member that forgot the instance
        // because everyone decided, in a run without failures and without
        // later instances (pings), has an idle board: nobody may be left
        // waiting for its answer. (After failures a board may linger until
        // such answers come, which README.md accepts; with later instances
        // the board is active for them.)
        if (!m.decision || msg.kind == wire::Kind::released || msg.kind == wire::Kind::release) return;
        if (m.settled && plan_.kills.empty() && !plan_.settle) return;
        wire::Message answer;
        answer.kind = wire::Kind::released;
        answer.instance = msg.instance;
        answer.sender = to;
        answer.ballot.assign(words_, 0);
        answer.value = *m.decision;
        answer.carried_ballot.assign(words_, 0);
        answer.carried_value.failed.assign(words_, 0);
        send(to, from, answer);
    }

    // What the board does after feeding a machine: progress, send its
    // outbox, drop it once finished (keeping the decision).
    void work(int r) {
        Member &m = at(r);
        if (!m.machine) return;
        m.machine->progress();
        const bool settle = m.machine->decided() && m.all_decided;
        if (settle) m.machine->settled_everywhere(m.said_all_settled, m.sent_settled);
        for (const auto &[dest, msg] : m.machine->outbox()) send(r, dest, msg);
        m.machine->clear_outbox();
        if (m.machine->finished()) {
            m.settled = settle;
            if (m.machine->decided()) m.decision = m.machine->decision();
            m.machine.reset();
            m.forgotten = true;
        }
    }

    void send(int from, int to, const wire::Message &msg) {
        REQUIRE(to >= 0);
        REQUIRE(to < n_);
        REQUIRE_MESSAGE(!at(to).is_gap, "a message to gap ", to);
        if (at(to).dead && wire::test(at(from).known, to)) return;  // isend to a known-failed peer fails
        wire::Message out = msg;
        out.settled = settled_field(from);
        out.all_settled = all_settled_field(from);
        uint32_t &sent = at(from).sent_settled[static_cast<size_t>(to)];
        sent = std::max(sent, out.settled);
        channels_[{from, to}].push_back(wire::encode(out, n_));
    }

    void kill(int victim) {
        Member &m = at(victim);
        if (m.dead || m.is_gap) return;
        m.dead = true;
        m.machine.reset();
        // Each message it sent that is still in flight arrives or is lost.
        std::bernoulli_distribution lost(0.5);
        for (auto &[link, queue] : channels_) {
            if (link.first != victim) continue;
            std::deque<std::vector<int32_t>> kept;
            for (auto &msg : queue)
                if (!lost(rng_)) kept.push_back(std::move(msg));
            queue = std::move(kept);
        }
    }

    Plan plan_;
    int n_;
    size_t words_ = 0;
    wire::Bits gaps_;
    std::vector<Member> members_;
    std::map<std::pair<int, int>, std::deque<std::vector<int32_t>>> channels_;
    std::mt19937 rng_;
    size_t next_kill_ = 0;
};

int run_and_check(const Plan &plan) {
    Simulation sim(plan);
    const int events = sim.run();
    sim.check();
    return events;
}

// Ordered lists of distinct victims of length `k` among the non-gap members.
void victim_orders(int n, const std::vector<int> &gaps, int k, std::vector<int> &cur,
                   std::vector<std::vector<int>> &out) {
    if (static_cast<int>(cur.size()) == k) {
        out.push_back(cur);
        return;
    }
    for (int r = 0; r < n; ++r) {
        if (std::find(gaps.begin(), gaps.end(), r) != gaps.end()) continue;
        if (std::find(cur.begin(), cur.end(), r) != cur.end()) continue;
        cur.push_back(r);
        victim_orders(n, gaps, k, cur, out);
        cur.pop_back();
    }
}

}  // namespace

TEST_CASE("failure-free: every member decides the AND of all contributions") {
    for (int n = 1; n <= 9; ++n)
        for (unsigned seed = 1; seed <= 20; ++seed) {
            Plan p;
            p.n = n;
            p.seed = seed;
            p.unacked_member = static_cast<int>(seed % static_cast<unsigned>(n));
            run_and_check(p);
            p.settle = true;
            run_and_check(p);
        }
}

TEST_CASE("one failure at every point of the protocol, every victim") {
    for (int n = 2; n <= 7; ++n) {
        const int length = run_and_check(Plan{n, {}, {}, 1, -1});
        for (int victim = 0; victim < n; ++victim)
            for (int at = 0; at <= length; ++at)
                for (unsigned seed = 1; seed <= 3; ++seed) {
                    Plan p;
                    p.n = n;
                    p.kills = {{victim, at}};
                    p.seed = seed * 7919u + static_cast<unsigned>(at);
                    p.unacked_member = (victim + 1) % n;
                    p.settle = seed == 2;
                    run_and_check(p);
                }
    }
}

TEST_CASE("two failures in every order, the second at several distances from the first") {
    const int distances[] = {0, 1, 2, 3, 5, 8, 13, 21};
    for (int n = 3; n <= 6; ++n) {
        const int length = run_and_check(Plan{n, {}, {}, 1, -1});
        std::vector<std::vector<int>> orders;
        std::vector<int> cur;
        victim_orders(n, {}, 2, cur, orders);
        for (const auto &order : orders)
            for (int at = 0; at <= length; at += 2)
                for (int d : distances) {
                    Plan p;
                    p.n = n;
                    p.kills = {{order[0], at}, {order[1], at + d}};
                    p.seed = static_cast<unsigned>(1000 * at + 10 * d + order[0]);
                    p.settle = d % 2 == 1;
                    run_and_check(p);
                }
    }
}

TEST_CASE("everyone but one dies, in every order") {
    for (int n = 2; n <= 5; ++n) {
        std::vector<std::vector<int>> orders;
        std::vector<int> cur;
        victim_orders(n, {}, n - 1, cur, orders);
        for (const auto &order : orders)
            for (int spacing = 0; spacing <= 6; ++spacing)
                for (unsigned seed = 1; seed <= 4; ++seed) {
                    Plan p;
                    p.n = n;
                    for (size_t i = 0; i < order.size(); ++i)
                        p.kills.push_back({order[i], static_cast<int>(i) * spacing});
                    p.seed = seed + 100u * static_cast<unsigned>(spacing);
                    p.settle = seed % 2 == 0;
                    run_and_check(p);
                }
    }
}

TEST_CASE("BLANK gaps take no part and are never reported failed") {
    for (int n = 3; n <= 7; ++n)
        for (int gap = 0; gap < n; ++gap) {
            const int length = run_and_check(Plan{n, {gap}, {}, 1, -1});
            for (int victim = 0; victim < n; ++victim) {
                if (victim == gap) continue;
                for (int at = 0; at <= length; at += 3) {
                    Plan p;
                    p.n = n;
                    p.gaps = {gap};
                    p.kills = {{victim, at}};
                    p.seed = static_cast<unsigned>(31 * at + victim);
                    run_and_check(p);
                }
            }
        }
}

TEST_CASE("random failure orders from printed seeds") {
    std::mt19937 rng(20261125);
    for (int i = 0; i < 3000; ++i) {
        Plan p;
        p.n = std::uniform_int_distribution<int>(2, 12)(rng);
        p.seed = static_cast<unsigned>(rng());
        const int victims = std::uniform_int_distribution<int>(0, p.n - 1)(rng);
        std::vector<int> order(static_cast<size_t>(p.n));
        for (int r = 0; r < p.n; ++r) order[static_cast<size_t>(r)] = r;
        std::shuffle(order.begin(), order.end(), rng);
        int at = 0;
        for (int k = 0; k < victims; ++k) {
            at += std::uniform_int_distribution<int>(0, 12)(rng);
            p.kills.push_back({order[static_cast<size_t>(k)], at});
        }
        p.unacked_member = std::uniform_int_distribution<int>(-1, p.n - 1)(rng);
        p.settle = i % 2 == 1;
        run_and_check(p);
    }
}

TEST_CASE("a message that does not fit the communicator is refused") {
    wire::Message m;
    m.kind = wire::Kind::commit;
    m.instance = kInstance;
    m.sender = 2;
    m.ballot.assign(wire::words_for(40), 0);
    wire::set(m.ballot, 33);
    m.value.flag = 5;
    m.value.failed.assign(wire::words_for(40), 0);
    m.value.acked.assign(wire::words_for(40), 0);
    wire::set(m.value.acked, 35);
    m.carried_ballot.assign(wire::words_for(40), 0);
    m.carried_value.failed.assign(wire::words_for(40), 0);
    std::vector<int32_t> ints = wire::encode(m, 40);
    CHECK(ints.size() == wire::message_ints(40));

    wire::Message back;
    REQUIRE(wire::decode(ints.data(), ints.size(), 40, back));
    CHECK(back.kind == wire::Kind::commit);
    CHECK(back.sender == 2);
    CHECK(back.value.flag == 5u);
    CHECK(wire::test(back.ballot, 33));
    CHECK(back.value.acked == m.value.acked);
    CHECK(back.carried_value.acked == wire::Bits(wire::words_for(40), ~0u));  // not said: no constraint

    CHECK_FALSE(wire::decode(ints.data(), ints.size() - 1, 40, back));  // short
    CHECK_FALSE(wire::decode(ints.data(), ints.size(), 8, back));       // another communicator size
    ints[0] = 99;                                                       // no such kind
    CHECK_FALSE(wire::decode(ints.data(), ints.size(), 40, back));
}
