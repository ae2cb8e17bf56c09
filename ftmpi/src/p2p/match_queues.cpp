#include "p2p/match_queues.hpp"

#include <algorithm>

namespace ftmpi::p2p {

namespace {

bool matches(const ftmpi_request_s &r, uint32_t context, int source, int tag) {
    return r.context == context && (r.peer == -1 || r.peer == source) && (r.tag == MPI_ANY_TAG || r.tag == tag);
}

bool matches(const Unexpected &u, uint32_t context, int source, int tag) {
    return !u.claimed && u.context == context && (source == -1 || u.source == source) &&
        (tag == MPI_ANY_TAG || u.tag == tag);
}

}  // namespace

void MatchQueues::reset(int peers) {
    arriving.assign(peers, nullptr);
    arriving_unexpected.assign(peers, nullptr);
}

void MatchQueues::grow(int peers) {
    if (peers <= static_cast<int>(arriving.size())) return;
    arriving.resize(static_cast<size_t>(peers), nullptr);
    arriving_unexpected.resize(static_cast<size_t>(peers), nullptr);
}

void MatchQueues::renew_peer(int peer) {
    arriving[peer] = nullptr;
    arriving_unexpected[peer] = nullptr;
}

uint64_t MatchQueues::register_id(MPI_Request r) {
    r->id = next_id_++;
    by_id[r->id] = r;
    return r->id;
}

void MatchQueues::forget_id(MPI_Request r) {
    if (!r->id) return;
    by_id.erase(r->id);
    r->id = 0;
}

MPI_Request MatchQueues::find_posted(uint32_t context, int source, int tag, bool remove) {
    for (auto it = posted.begin(); it != posted.end(); ++it) {
        if (!matches(**it, context, source, tag)) continue;
        MPI_Request r = *it;
        if (remove) posted.erase(it);
        return r;
    }
    return nullptr;
}

std::list<Unexpected>::iterator MatchQueues::find_unexpected(uint32_t context, int source, int tag, bool whole) {
    return std::find_if(unexpected.begin(), unexpected.end(), [&](const Unexpected &u) {
        return (u.complete || !whole) && matches(u, context, source, tag);
    });
}

void MatchQueues::erase_unexpected(const Unexpected *u) {
    std::erase_if(unexpected, [u](const Unexpected &x) { return &x == u; });
}

bool MatchQueues::receiving_into(MPI_Request r) const {
    if (std::find(arriving.begin(), arriving.end(), r) != arriving.end()) return true;
    return std::any_of(unexpected.begin(), unexpected.end(), [r](const Unexpected &u) { return u.claimed == r; });
}

}  // namespace ftmpi::p2p
