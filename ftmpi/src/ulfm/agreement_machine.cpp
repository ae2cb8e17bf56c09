// One agreement instance at one process: its state machine (agreement_machine.hpp, README.md "The agreement").
#include "agreement_machine.hpp"

#include "mpi-ext.h"

#include <algorithm>

namespace ftmpi::ulfm {
namespace {
// Live members up to which an epoch's tree is flat (see new_epoch).
constexpr int flat_tree_limit = 16;
}  // namespace

using wire::Bits;
using wire::Carried;
using wire::Kind;
using wire::Message;
using wire::Value;

Machine::Machine(uint32_t instance, int n, int me, const Bits &gaps, const Bits &known_failed, Value contribution,
                 std::shared_ptr<Outcome> outcome)
    : instance_(instance), n_(n), me_(me), gaps_(gaps), failed_(known_failed), contribution_(std::move(contribution)),
      outcome_(std::move(outcome)) {
    wire::unite(failed_, gaps_);
    new_epoch();
}

void Machine::new_epoch() {
    // Position of this process among the live members, and the tree over
    // positions (the same at every process of the epoch: it depends only on
    // the live count). Up to flat_tree_limit members a flat tree: the root's
    // children are all the others, so each of the four passes is one message
    // latency instead of log2 of the count; the root sending a few more
    // messages per pass costs less than the extra hops, above all when ranks
    // outnumber cores and every hop waits for a process to be scheduled.
    // Larger: the binomial tree, whose parent clears the lowest set bit and
    // whose children set one bit below it.
    std::vector<int> live;
    for (int r = 0; r < n_; ++r)
        if (!wire::test(failed_, r)) live.push_back(r);
    const int count = static_cast<int>(live.size());
    const int pos = static_cast<int>(std::find(live.begin(), live.end(), me_) - live.begin());
    if (pos == count) {
        // The others count this process as failed (a fence it has not acted
        // on yet): it is no participant, and must not wait for them forever.
        finished_ = true;
        if (!decided_) {
            outcome_->code = MPIX_ERR_PROC_FAILED;
            outcome_->ready.store(true, std::memory_order_release);
        }
        return;
    }
    children_.clear();
    if (count <= flat_tree_limit) {
        parent_ = pos == 0 ? -1 : live[0];
        if (pos == 0) children_.assign(live.begin() + 1, live.end());
    } else {
        parent_ = pos == 0 ? -1 : live[static_cast<size_t>(pos & (pos - 1))];
        for (int bit = 1; bit < count; bit <<= 1) {
            if (pos != 0 && (pos & bit) != 0) break;  // bits at and above the lowest set one belong to the parent
            if ((pos | bit) < count) children_.push_back(live[static_cast<size_t>(pos | bit)]);
        }
    }
    got_up_.assign(children_.size(), false);
    got_ack_.assign(children_.size(), false);
    got_done_.assign(children_.size(), false);
    phase_ = Phase::gather;
    gathered_ = contribution_;
    carried_ = Carried::nothing;
    carried_ballot_.assign(failed_.size(), 0);
    carried_value_ = Value{~0u, 0, Bits(failed_.size(), 0)};
    if (decided_)
        carry(Carried::decision, failed_, *decided_);
    else if (accepted_)
        carry(Carried::proposal, accepted_->first, accepted_->second);
}

void Machine::carry(Carried kind, const Bits &ballot, const Value &value) {
    // A decision beats any proposal; among proposals the highest ballot wins
    // (the Paxos rule that keeps a possibly decided value).
    if (kind == Carried::nothing || carried_ == Carried::decision) return;
    if (kind == Carried::decision || carried_ == Carried::nothing || wire::ballot_less(carried_ballot_, ballot)) {
        carried_ = kind;
        carried_ballot_ = ballot;
        carried_value_ = value;
    }
}

void Machine::learn_failed(const Bits &failed) {
    if (finished_) return;
    if (wire::unite(failed_, failed)) new_epoch();
}

int Machine::child_slot(int rank) const {
    auto it = std::find(children_.begin(), children_.end(), rank);
    return it == children_.end() ? -1 : static_cast<int>(it - children_.begin());
}

bool Machine::all_children(const std::vector<bool> &got) const {
    return std::all_of(got.begin(), got.end(), [](bool b) { return b; });
}

Message Machine::message(Kind kind, const Value &value) const {
    Message m;
    m.kind = kind;
    m.instance = instance_;
    m.sender = me_;
    m.ballot = failed_;
    m.value = value;
    m.carried_ballot.assign(failed_.size(), 0);
    m.carried_value.failed.assign(failed_.size(), 0);
    return m;
}

void Machine::send_children(Kind kind, const Value &value) {
    for (int c : children_) outbox_.emplace_back(c, message(kind, value));
}

void Machine::decide(const Value &v) {
    if (decided_) return;  // uniformity: every decision of an instance is the same value
    decided_ = v;
    outcome_->value = v;
    outcome_->ready.store(true, std::memory_order_release);
}

void Machine::receive(const Message &m) {
    if (finished_ || m.instance != instance_) return;
    if (m.kind == Kind::released) {
        // The sender forgot the instance: everyone decided. From the parent
        // it is a release: pass it on to this epoch's subtree and forget.
        // From a child it means that child's subtree has nothing more to
        // send (no up, ack or done will come): count it as all three, so
        // this process still answers its own parent. From anyone else it is
        // just the decision.
        decide(m.value);
        if (m.sender == parent_) {
            on_release(m.value);
        } else if (const int slot = child_slot(m.sender); slot >= 0) {
            got_up_[static_cast<size_t>(slot)] = true;
            got_ack_[static_cast<size_t>(slot)] = true;
            got_done_[static_cast<size_t>(slot)] = true;
            carry(Carried::decision, failed_, *decided_);
        }
        return;
    }
    // A larger ballot names failures this process has not seen yet.
    if (!wire::subset(m.ballot, failed_)) {
        wire::unite(failed_, m.ballot);
        new_epoch();
        if (finished_) return;
    }
    if (m.ballot != failed_) {
        // An older epoch's message. A decision is a decision in any epoch.
        if (m.kind == Kind::commit || m.kind == Kind::release) decide(m.value);
        return;
    }
    const int slot = child_slot(m.sender);
    switch (m.kind) {
    case Kind::up:
        if (slot < 0 || got_up_[static_cast<size_t>(slot)]) return;
        got_up_[static_cast<size_t>(slot)] = true;
        wire::combine(gathered_, m.value);
        carry(m.carried, m.carried_ballot, m.carried_value);
        break;
    case Kind::ack:
        if (slot >= 0) got_ack_[static_cast<size_t>(slot)] = true;
        break;
    case Kind::done:
        if (slot >= 0) got_done_[static_cast<size_t>(slot)] = true;
        break;
    case Kind::propose:
        if (m.sender == parent_) on_propose(m.value);
        break;
    case Kind::commit:
        if (m.sender == parent_)
            on_commit(m.value);
        else
            decide(m.value);
        break;
    case Kind::release:
        if (m.sender == parent_)
            on_release(m.value);
        else
            decide(m.value);
        break;
    case Kind::released: break;  // handled above
    }
}

void Machine::on_propose(const Value &v) {
    accepted_ = std::make_pair(failed_, v);
    if (children_.empty()) {
        outbox_.emplace_back(parent_, message(Kind::ack, v));
        phase_ = Phase::await_parent;
    } else {
        send_children(Kind::propose, v);
        std::fill(got_ack_.begin(), got_ack_.end(), false);
        phase_ = Phase::acks;
    }
}

void Machine::on_commit(const Value &v) {
    decide(v);
    if (children_.empty()) {
        outbox_.emplace_back(parent_, message(Kind::done, *decided_));
        phase_ = Phase::await_parent;
    } else {
        send_children(Kind::commit, *decided_);
        phase_ = Phase::dones;
    }
}

void Machine::on_release(const Value &v) {
    decide(v);
    send_children(Kind::release, *decided_);
    finished_ = true;
}

void Machine::root_gathered() {
    if (carried_ == Carried::decision) {
        root_commit(carried_value_);
        return;
    }
    if (carried_ == Carried::proposal) {
        proposal_ = carried_value_;
    } else {
        // A fresh value: the contributions, and every failure known in this
        // epoch (gaps are not failures).
        proposal_ = gathered_;
        for (int r = 0; r < n_; ++r)
            if (wire::test(failed_, r) && !wire::test(gaps_, r)) wire::set(proposal_.failed, r);
    }
    accepted_ = std::make_pair(failed_, proposal_);
    if (children_.empty()) {
        root_commit(proposal_);
        return;
    }
    send_children(Kind::propose, proposal_);
    phase_ = Phase::acks;
}

void Machine::root_commit(const Value &v) {
    decide(v);
    if (children_.empty()) {
        finished_ = true;  // nobody else is alive to tell
        return;
    }
    send_children(Kind::commit, *decided_);
    phase_ = Phase::dones;
}

void Machine::progress() {
    // One step can enable the next (a root without children decides at once).
    for (;;) {
        const Phase before = phase_;
        step();
        if (finished_ || phase_ == before) return;
    }
}

void Machine::step() {
    if (finished_) return;
    switch (phase_) {
    case Phase::gather:
        // A decided process does not wait for its children's ups: the
        // decision beats anything they could carry, and a child that already
        // forgot the instance would never send one. The root commits at
        // once; any other process sends its decision up.
        if (decided_) carry(Carried::decision, failed_, *decided_);
        if (!decided_ && !all_children(got_up_)) return;
        if (parent_ < 0) {
            root_gathered();
        } else {
            Message up = message(Kind::up, gathered_);
            up.carried = carried_;
            up.carried_ballot = carried_ballot_;
            up.carried_value = carried_value_;
            outbox_.emplace_back(parent_, std::move(up));
            phase_ = Phase::await_parent;
        }
        break;
    case Phase::acks:
        if (!all_children(got_ack_)) return;
        if (parent_ < 0) {
            root_commit(proposal_);
        } else {
            outbox_.emplace_back(parent_, message(Kind::ack, accepted_->second));
            phase_ = Phase::await_parent;
        }
        break;
    case Phase::dones:
        if (!all_children(got_done_)) return;
        if (parent_ < 0) {
            send_children(Kind::release, *decided_);
            finished_ = true;
        } else {
            outbox_.emplace_back(parent_, message(Kind::done, *decided_));
            phase_ = Phase::await_parent;
        }
        break;
    case Phase::await_parent: break;
    }
}

}  // namespace ftmpi::ulfm
