#include "linearizability.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <unordered_set>

namespace harness::chaos {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// The register of one key: absent is version 0.
struct State {
    bool found = false;
    std::string value;
    std::int64_t version = 0;
    bool operator==(const State &) const = default;
};

State written(const State &s, const std::string &value) {
    return State{true, value, s.version + 1};
}

// Whether op may take effect on s, and the state after it.
bool step(const State &s, const Op &op, State *next) {
    switch (op.kind) {
    case OpKind::put: *next = written(s, op.value); return op.indeterminate || op.version == next->version;
    case OpKind::get:
        *next = s;
        return op.found == s.found && (!s.found || (op.got == s.value && op.version == s.version));
    case OpKind::cas: {
        const bool applies = s.version == op.expected;
        *next = applies ? written(s, op.value) : s;
        if (op.indeterminate) return true;
        return op.found ? applies && op.version == next->version : !applies && op.version == s.version;
    }
    }
    return false;
}

struct Explored {
    std::vector<std::uint64_t> linearized;
    State state;
    bool operator==(const Explored &) const = default;
};

struct ExploredHash {
    std::size_t operator()(const Explored &e) const {
        std::size_t h = std::hash<std::string>{}(e.state.value) ^ static_cast<std::size_t>(e.state.version) * 31;
        for (auto w : e.linearized) h = h * 1000003u ^ std::hash<std::uint64_t>{}(w);
        return h;
    }
};

enum class Search { linearizable, violation, gave_up };

// Wing & Gong / Lowe over a doubly linked list of call and return events.
class Checker {
public:
    // after[i]: an operation that must be placed before op i (-1: none).
    Checker(const std::vector<Op> &ops, const std::vector<std::ptrdiff_t> &after) : ops_(ops), after_(after) {
        const std::size_t n = ops.size();
        struct Event {
            std::int64_t time;
            bool call;
            std::size_t op;
        };
        std::vector<Event> events;
        events.reserve(2 * n);
        for (std::size_t i = 0; i < n; ++i) {
            events.push_back({ops[i].call_ns, true, i});
            events.push_back({ops[i].indeterminate ? kNever : ops[i].return_ns, false, i});
        }
        // At equal times a call goes first: the two operations overlap (the lenient reading).
        std::stable_sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
            return a.time != b.time ? a.time < b.time : a.call && !b.call;
        });
        // Node 0 is the head; event k is node k + 1.
        const std::size_t nodes = events.size() + 1;
        prev_.assign(nodes, 0);
        next_.assign(nodes, 0);
        op_.assign(nodes, 0);
        call_.assign(nodes, false);
        match_.assign(nodes, 0);
        std::vector<std::size_t> call_node(n, 0);
        for (std::size_t k = 0; k < events.size(); ++k) {
            const std::size_t node = k + 1;
            prev_[node] = node - 1;
            next_[node - 1] = node;
            next_[node] = 0;
            op_[node] = events[k].op;
            call_[node] = events[k].call;
            if (events[k].call) {
                call_node[events[k].op] = node;
            } else {
                match_[call_node[events[k].op]] = node;
            }
        }
    }

    Search run(Clock::time_point deadline) {
        const std::size_t words = (ops_.size() + 63) / 64;
        std::vector<std::uint64_t> linearized(words, 0);
        std::unordered_set<Explored, ExploredHash> cache;
        struct Frame {
            std::size_t node;
            State state;
        };
        std::vector<Frame> stack;
        State state;
        std::size_t node = next_[0];
        std::uint64_t steps = 0;
        while (next_[0] != 0) {
            if ((++steps & 4095) == 0 && Clock::now() > deadline) return Search::gave_up;
            if (call_[node]) {
                const std::size_t op = op_[node];
                const std::ptrdiff_t first = after_[op];
                const bool ready = first < 0 ||
                    (linearized[static_cast<std::size_t>(first) / 64] >> (static_cast<std::size_t>(first) % 64)) & 1;
                State after;
                if (ready && step(state, ops_[op], &after)) {
                    auto bits = linearized;
                    bits[op / 64] |= std::uint64_t{1} << (op % 64);
                    if (cache.insert(Explored{bits, after}).second) {
                        stack.push_back({node, state});
                        state = std::move(after);
                        linearized = std::move(bits);
                        lift(node);
                        node = next_[0];
                        continue;
                    }
                }
                node = next_[node];
            } else {
                // A completion with its operation not yet placed: undo the last choice.
                if (stack.empty()) return Search::violation;
                Frame top = std::move(stack.back());
                stack.pop_back();
                const std::size_t op = op_[top.node];
                linearized[op / 64] &= ~(std::uint64_t{1} << (op % 64));
                state = std::move(top.state);
                unlift(top.node);
                node = next_[top.node];
            }
        }
        return Search::linearizable;
    }

private:
    void unlink(std::size_t n) {
        next_[prev_[n]] = next_[n];
        if (next_[n]) prev_[next_[n]] = prev_[n];
    }
    void relink(std::size_t n) {
        next_[prev_[n]] = n;
        if (next_[n]) prev_[next_[n]] = n;
    }
    void lift(std::size_t call) {
        unlink(call);
        unlink(match_[call]);
    }
    void unlift(std::size_t call) {
        relink(match_[call]);
        relink(call);
    }

    const std::vector<Op> &ops_;
    const std::vector<std::ptrdiff_t> &after_;
    std::vector<std::size_t> prev_, next_, op_, match_;
    std::vector<bool> call_;
};

// Indeterminate writes whose value no read returned are interchangeable
// when they have the same effect (a put; a cas of the same expected
// version): which of them happened cannot be told, only how many. Their
// values become one placeholder, and each may only be placed after the one
// of its group invoked before it — a valid order using a later one can swap
// it for the earlier, which was pending as long. Without this the search
// tries every subset of them.
Search search(std::vector<Op> ops, Clock::time_point deadline) {
    std::unordered_set<std::string> read;
    for (const auto &op : ops)
        if (op.kind == OpKind::get && !op.indeterminate && op.found) read.insert(op.got);
    std::map<std::pair<int, std::int64_t>, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        Op &op = ops[i];
        if (!op.indeterminate || op.kind == OpKind::get || read.count(op.value)) continue;
        op.value = "\x01unread";
        groups[{static_cast<int>(op.kind), op.kind == OpKind::cas ? op.expected : 0}].push_back(i);
    }
    std::vector<std::ptrdiff_t> after(ops.size(), -1);
    for (auto &[group, members] : groups) {
        std::stable_sort(members.begin(), members.end(),
                         [&](std::size_t a, std::size_t b) { return ops[a].call_ns < ops[b].call_ns; });
        for (std::size_t k = 1; k < members.size(); ++k)
            after[members[k]] = static_cast<std::ptrdiff_t>(members[k - 1]);
    }
    return Checker(ops, after).run(deadline);
}

// The history as it stood at time t: operations invoked by then, those not
// completed by then with an unknown outcome (reads of unknown outcome dropped).
std::vector<Op> cut_at(const std::vector<Op> &ops, std::int64_t t) {
    std::vector<Op> out;
    for (const auto &op : ops) {
        if (op.call_ns > t) continue;
        Op o = op;
        if (!o.indeterminate && o.return_ns > t) o.indeterminate = true;
        if (o.indeterminate && o.kind == OpKind::get) continue;
        out.push_back(std::move(o));
    }
    return out;
}

// Fills the witness and window of a violating key history: the shortest
// non-linearizable cut, by binary search over completion times (a cut of a
// linearizable history is linearizable, so the property is monotone).
void find_window(const std::vector<Op> &ops, Clock::time_point deadline, KeyVerdict *v) {
    std::vector<std::int64_t> ends;
    for (const auto &op : ops)
        if (!op.indeterminate) ends.push_back(op.return_ns);
    std::sort(ends.begin(), ends.end());
    std::size_t lo = 0, hi = ends.size() - 1;  // the cut at ends[hi] is known to fail
    while (lo < hi) {
        std::size_t mid = (lo + hi) / 2;
        if (search(cut_at(ops, ends[mid]), deadline) == Search::linearizable)
            lo = mid + 1;
        else
            hi = mid;
    }
    const std::int64_t t = ends[hi];
    for (const auto &op : ops)
        if (!op.indeterminate && op.return_ns == t) v->witness = op;
    const Op &w = v->witness;
    std::vector<Op> earlier_writes;
    for (const auto &op : cut_at(ops, t)) {
        const std::int64_t end = op.indeterminate ? kNever : op.return_ns;
        if (end >= w.call_ns)
            v->window.push_back(op);
        else if (op.kind != OpKind::get)
            earlier_writes.push_back(op);
    }
    std::sort(earlier_writes.begin(), earlier_writes.end(),
              [](const Op &a, const Op &b) { return a.return_ns < b.return_ns; });
    const std::size_t keep = std::min<std::size_t>(3, earlier_writes.size());
    v->window.insert(v->window.begin(), earlier_writes.end() - static_cast<std::ptrdiff_t>(keep), earlier_writes.end());
    std::sort(v->window.begin(), v->window.end(), [](const Op &a, const Op &b) { return a.call_ns < b.call_ns; });
}

}  // namespace

KeyVerdict check_key(std::vector<Op> ops, std::chrono::milliseconds budget) {
    KeyVerdict v;
    if (!ops.empty()) v.key = ops.front().key;
    std::erase_if(ops, [](const Op &op) { return op.indeterminate && op.kind == OpKind::get; });
    v.ops = ops.size();
    const auto deadline = Clock::now() + budget;
    switch (search(ops, deadline)) {
    case Search::linearizable: return v;
    case Search::gave_up: v.gave_up = true; return v;
    case Search::violation: break;
    }
    v.linearizable = false;
    find_window(ops, deadline, &v);
    return v;
}

Verdict check_history(const History &history, std::chrono::milliseconds budget_per_key) {
    std::map<std::string, std::vector<Op>> by_key;
    for (const auto &op : history) by_key[op.key].push_back(op);
    Verdict verdict;
    verdict.ops = history.size();
    for (auto &[key, ops] : by_key) {
        verdict.keys.push_back(check_key(std::move(ops), budget_per_key));
        const auto &k = verdict.keys.back();
        verdict.linearizable = verdict.linearizable && k.linearizable;
        verdict.gave_up = verdict.gave_up || k.gave_up;
    }
    return verdict;
}

}  // namespace harness::chaos
