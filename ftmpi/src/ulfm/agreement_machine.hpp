// One agreement instance at one process: the state machine of
// the tree agreement (README.md "The agreement"). It never waits: the board
// (agreement_board.cpp) feeds it messages and failure news and sends what
// it puts in its outbox. A machine lives past its decision (the program has
// its answer then) until the instance is released, because a process that
// restarts an epoch may still need this one's answer.
#pragma once

#include "agreement_wire.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ftmpi::ulfm {

// Where a machine's decision goes (shared with the program's request, which
// may be tested after the machine is gone).
struct Outcome {
    std::atomic<bool> ready{false};  // set after value, read without the board's lock
    int code = 0;                    // MPI_SUCCESS, or MPIX_ERR_PROC_FAILED when the others count this process failed
    wire::Value value;
};

class Machine {
public:
    // n members, this process is `me`; `gaps` are members that are not
    // processes (BLANK), `known_failed` the failures known at the call.
    Machine(uint32_t instance, int n, int me, const wire::Bits &gaps, const wire::Bits &known_failed,
            wire::Value contribution, std::shared_ptr<Outcome> outcome);

    // Members declared failed since (a superset of the previous call's set).
    void learn_failed(const wire::Bits &failed);
    void receive(const wire::Message &);
    // Moves on as far as the messages so far allow.
    void progress();

    // Cleanup after the decision. A decided leaf of a tree (and a decided
    // process of an all-to-all epoch) owes its done: it is held back, since
    // when the program agrees again soon, the next instance's messages tell
    // everyone that this one is decided everywhere at no cost
    // (settled_everywhere). The board sends it (flush_cleanup) when that
    // news is slow to come.
    bool owes_cleanup() const { return cleanup_owed_ && !finished_; }
    void flush_cleanup();
    // Every participant has decided this instance (the board learned it
    // from the participants' messages): a decided machine finishes, once
    // nobody of its epoch waits for it. By participant: the highest
    // all_settled each said to this process, the highest settled this
    // process said to each.
    void settled_everywhere(const std::vector<uint32_t> &said_all_settled, const std::vector<uint32_t> &sent_settled);

    // The messages to send, (destination, message); the board sends them
    // and clears the outbox (which keeps its room for the next ones).
    std::vector<std::pair<int, wire::Message>> &outbox() { return outbox_; }
    void clear_outbox() { outbox_.clear(); }
    bool decided() const { return decided_.has_value(); }
    bool finished() const { return finished_; }
    const wire::Value &decision() const { return *decided_; }
    uint32_t instance() const { return instance_; }

private:
    enum class Phase { gather, await_parent, acks, dones };

    void step();
    void new_epoch();
    void decide(const wire::Value &);
    void on_propose(const wire::Value &);
    void on_commit(const wire::Value &);
    void on_release(const wire::Value &);
    void step_all_to_all();
    void choose_proposal();
    void root_gathered();
    void root_commit(const wire::Value &);
    void carry(wire::Carried kind, const wire::Bits &ballot, const wire::Value &value);
    bool all_children(const wire::Bits &got) const;
    static void mark(wire::Bits &got, int slot) { wire::set(got, slot); }
    int child_slot(int rank) const;
    wire::Message message(wire::Kind, const wire::Value &) const;
    void send_children(wire::Kind, const wire::Value &);

    const uint32_t instance_;
    const int n_, me_;
    const wire::Bits gaps_;
    wire::Bits failed_;  // the ballot: failed members and gaps
    const wire::Value contribution_;
    std::shared_ptr<Outcome> outcome_;

    std::optional<std::pair<wire::Bits, wire::Value>> accepted_;  // latest proposal held
    std::optional<wire::Value> decided_;
    bool finished_ = false;
    bool cleanup_owed_ = false;

    // The current epoch: all-to-all (children_ are then every other live
    // member), or a tree over the live members in rank order, rooted at the
    // lowest.
    bool all_to_all_ = false;
    Phase phase_ = Phase::gather;
    int parent_ = -1;
    std::vector<int> children_;
    wire::Bits got_up_, got_ack_, got_done_;  // by child slot
    wire::Value gathered_;                    // contributions of this subtree so far
    wire::Carried carried_ = wire::Carried::nothing;
    wire::Bits carried_ballot_;
    wire::Value carried_value_;
    wire::Value proposal_;  // root: this epoch's proposal

    std::vector<std::pair<int, wire::Message>> outbox_;
};

}  // namespace ftmpi::ulfm
