// One agreement instance at one process: its state machine (agreement_machine.hpp, README.md "The agreement").
#include "agreement_machine.hpp"

#include "mpi-ext.h"

#include <algorithm>

namespace ftmpi::ulfm {
namespace {
// Live members up to which an epoch runs all-to-all, and up to which its
// tree is flat (see new_epoch).
constexpr int all_to_all_limit = 2;
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
    cleanup_owed_ = false;  // a new epoch runs its own protocol to the end
    // Up to all_to_all_limit members every process is its own root (the
    // peers are its "children"): each sends its up to every peer, computes
    // the epoch's proposal from all of them (the same at every process: one
    // up per member and ballot), accepts it and acks to every peer, and
    // decides once every peer acked: two message latencies to the decision
    // instead of four. With two members that is as many messages as the
    // tree sends (3 each way). With 3 and 4 ranks on 2 cores it was slower
    // than the flat tree (36 messages instead of 18 at 4: each costs the
    // receiver a wake-up or a poll), so larger epochs use the tree.
    all_to_all_ = count <= all_to_all_limit;
    if (all_to_all_) {
        parent_ = -1;
        for (int r : live)
            if (r != me_) children_.push_back(r);
    } else if (count <= flat_tree_limit) {
        parent_ = pos == 0 ? -1 : live[0];
        if (pos == 0) children_.assign(live.begin() + 1, live.end());
    } else {
        parent_ = pos == 0 ? -1 : live[static_cast<size_t>(pos & (pos - 1))];
        for (int bit = 1; bit < count; bit <<= 1) {
            if (pos != 0 && (pos & bit) != 0) break;  // bits at and above the lowest set one belong to the parent
            if ((pos | bit) < count) children_.push_back(live[static_cast<size_t>(pos | bit)]);
        }
    }
    const size_t slot_words = wire::words_for(static_cast<int>(children_.size()));
    got_up_.assign(slot_words, 0);
    got_ack_.assign(slot_words, 0);
    got_done_.assign(slot_words, 0);
    phase_ = Phase::gather;
    gathered_ = contribution_;
    carried_ = Carried::nothing;
    carried_ballot_.assign(failed_.size(), 0);
    carried_value_ = Value{~0u, 0, Bits(failed_.size(), 0)};
    if (decided_)
        carry(Carried::decision, failed_, *decided_);
    else if (accepted_)
        carry(Carried::proposal, accepted_->first, accepted_->second);
    if (!all_to_all_) return;
    if (decided_) {
        // Nothing to agree on: tell every peer the decision.
        send_children(Kind::done, *decided_);
        phase_ = Phase::dones;
        return;
    }
    Message up = message(Kind::up, gathered_);
    up.carried = carried_;
    up.carried_ballot = carried_ballot_;
    up.carried_value = carried_value_;
    for (int peer : children_) outbox_.emplace_back(peer, up);
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

void Machine::flush_cleanup() {
    if (!cleanup_owed_ || finished_) return;
    cleanup_owed_ = false;
    if (all_to_all_)
        send_children(Kind::done, *decided_);
    else
        outbox_.emplace_back(parent_, message(Kind::done, *decided_));
}

void Machine::settled_everywhere(const std::vector<uint32_t> &said_all_settled,
                                 const std::vector<uint32_t> &sent_settled) {
    // Every participant decided: nobody will ask this process anything
    // about the instance again. But the processes of this epoch that wait
    // for a message from it must get one, or learn the same news, since
    // its board may not be there to answer once it is idle:
    // * its parent waits for its done unless the parent said it knows;
    // * a child waits for the commit of this epoch (sent once it collects
    //   dones), and one that sent its done waits for its release;
    // * a peer of an all-to-all epoch waits for its done unless this
    //   process told it that it decided (the peer, decided too, then
    //   learns the news itself); one that sent its done gets this one's.
    const auto said = [&](int r) { return said_all_settled[static_cast<size_t>(r)] > instance_; };
    const auto told = [&](int r) { return sent_settled[static_cast<size_t>(r)] > instance_; };
    if (!decided_ || finished_) return;
    if (parent_ >= 0 && !said(parent_)) return;
    if (all_to_all_) {
        if (phase_ != Phase::dones) return;
        if (wire::count(got_done_) > 0) {
            flush_cleanup();
        } else if (!std::all_of(children_.begin(), children_.end(), told)) {
            return;
        }
    } else if (!children_.empty()) {
        if (phase_ != Phase::dones) return;
        const Message release = message(Kind::release, *decided_);
        for (size_t slot = 0; slot < children_.size(); ++slot)
            if (wire::test(got_done_, static_cast<int>(slot))) outbox_.emplace_back(children_[slot], release);
    }
    finished_ = true;
}

void Machine::learn_failed(const Bits &failed) {
    if (finished_) return;
    if (wire::unite(failed_, failed)) new_epoch();
}

int Machine::child_slot(int rank) const {
    auto it = std::find(children_.begin(), children_.end(), rank);
    return it == children_.end() ? -1 : static_cast<int>(it - children_.begin());
}

bool Machine::all_children(const Bits &got) const {
    return static_cast<size_t>(wire::count(got)) == children_.size();
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
    if (children_.empty()) return;
    const Message m = message(kind, value);
    for (int c : children_) outbox_.emplace_back(c, m);
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
            mark(got_up_, slot);
            mark(got_ack_, slot);
            mark(got_done_, slot);
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
        if (m.kind == Kind::commit || m.kind == Kind::release || m.kind == Kind::done) decide(m.value);
        return;
    }
    const int slot = child_slot(m.sender);
    switch (m.kind) {
    case Kind::up:
        if (slot < 0 || wire::test(got_up_, slot)) return;
        mark(got_up_, slot);
        wire::combine(gathered_, m.value);
        carry(m.carried, m.carried_ballot, m.carried_value);
        break;
    case Kind::ack:
        if (slot >= 0) mark(got_ack_, slot);
        break;
    case Kind::done:
        // Sent only by a process that decided, with its decision.
        decide(m.value);
        if (slot >= 0) mark(got_done_, slot);
        // A peer of an all-to-all epoch that sent its done waits for this
        // process's: holding it back would only keep both waiting.
        if (all_to_all_) flush_cleanup();
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
        got_ack_.assign(got_ack_.size(), 0);
        phase_ = Phase::acks;
    }
}

void Machine::on_commit(const Value &v) {
    decide(v);
    if (children_.empty()) {
        cleanup_owed_ = true;  // the done waits for flush_cleanup (or is not needed: settled_everywhere)
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

void Machine::choose_proposal() {
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
}

void Machine::root_gathered() {
    if (carried_ == Carried::decision) {
        root_commit(carried_value_);
        return;
    }
    choose_proposal();
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
    if (all_to_all_) {
        step_all_to_all();
        return;
    }
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

// An all-to-all epoch (new_epoch): every peer's up, then every peer's ack,
// then every peer's done. A decision from anyone ends the first two at once.
void Machine::step_all_to_all() {
    switch (phase_) {
    case Phase::gather:
        if (!decided_ && carried_ == Carried::decision) decide(carried_value_);
        if (!decided_) {
            if (!all_children(got_up_)) return;
            // Every process of the epoch holds the same ups, so all choose
            // the same proposal (the Paxos rule: the highest ballot's
            // proposal any member accepted, else a fresh value).
            choose_proposal();
            send_children(Kind::ack, proposal_);
            phase_ = Phase::acks;
            return;
        }
        break;
    case Phase::acks:
        if (!decided_ && !all_children(got_ack_)) return;
        decide(proposal_);  // every live member accepted it (or someone decided: the same value)
        break;
    case Phase::dones:
        if (!all_children(got_done_)) return;
        flush_cleanup();  // the peers wait for this process's done as it waited for theirs
        finished_ = true;
        return;
    case Phase::await_parent: return;  // not used in an all-to-all epoch
    }
    cleanup_owed_ = true;  // the dones wait for flush_cleanup (or are not needed: settled_everywhere)
    phase_ = Phase::dones;
}

}  // namespace ftmpi::ulfm
