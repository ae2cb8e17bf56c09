// The small collectives the communicator constructors need
// (allgather of fixed-size records, max-agreement), written directly on
// ftmpi::p2p's collective channel so that the comm part depends on no
// collective algorithm.
//
// A "scope" is the set of processes taking part: `members` are ranks of
// `comm` (an intracommunicator), every member calls with the same list in the
// same order, and members[0] collects and answers (a linear gather + bcast is
// plenty for constructors, which are rare). With a `bridge`
// intercommunicator, the two sides' leaders also exchange their results, so
// both groups agree (Intercomm_create, Intercomm_merge, dup of an intercomm).
//
// Failure: every wait can end in an error from p2p (MPIX_ERR_PROC_FAILED);
// the leader then still answers every member with the error, so no member is
// left waiting, and all live members return the same code.
#pragma once

#include "../internal/comm.hpp"

#include <cstdint>
#include <vector>

namespace ftmpi::comm {

// Tags on the collective channel reserved for the comm part. Collective
// algorithms use small tags; MPI_Comm_create_group adds the user's tag
// (0..MPI_TAG_UB) to create_group_tag_base.
constexpr int agree_tag = 0x7e000000;
constexpr int gather_tag = 0x7e000010;
constexpr int bridge_tag = 0x7e000020;
constexpr int share_tag = 0x7e000030;              // share_from_root
constexpr int create_group_tag_base = 0x40000000;  // up to + MPI_TAG_UB + 2
// Everything from here up is taken (the dynamic part's announce tag
// 0x7c000000, idup, the agreements above, p2p::ft_tag_base): other parts'
// user-tag ranges end below it.
constexpr int announce_and_idup_floor = 0x7c000000;
// MPI_Comm_idup's agreements: idup_tag(n) for the communicator's n-th idup.
constexpr int idup_tag_base = 0x7d000000;
constexpr int idup_tag(uint32_t n) {
    return idup_tag_base + static_cast<int>(n % 0x100000) * 4;
}

struct Scope {
    MPI_Comm comm = MPI_COMM_NULL;    // an intracommunicator holding the members
    std::vector<int> members;         // ranks in comm; members[0] leads
    MPI_Comm bridge = MPI_COMM_NULL;  // intercommunicator to the other side, or null
    int remote_leader = 0;            // the other side's leader, a rank in bridge
    int tag = agree_tag;              // base tag (uses tag, tag+1, tag+2)
};

// Every member of comm (gaps left out), leader the lowest rank.
Scope whole(MPI_Comm intracomm);
// Every member of comm, `leader` (a rank of comm) first.
Scope led_by(MPI_Comm intracomm, int leader);

// value := max over every member (both sides with a bridge).
int agree_max(const Scope &, uint32_t &value);

// Exchange `len` bytes per member: `all` receives members.size() * len
// bytes in member order (only this side's members, even with a bridge).
int allgather(const Scope &, const void *mine, size_t len, std::vector<unsigned char> &all);

// Leader-held int data reaches every member: without a bridge the leader's
// own `data`; with a bridge the leaders first swap their `data`, so every
// member ends with the other side's (Intercomm_create's remote group).
int share(const Scope &, std::vector<int> &data);

// Allocates a context id agreed by the scope (and the bridge's other side).
int allocate_context(const Scope &, uint32_t *context);
// The scope that agrees on a context for a communicator derived from
// `parent` (its members; on an intercommunicator, both sides), with base tag
// `tag`.
Scope context_scope(MPI_Comm parent, int tag = agree_tag);

// Forgets a context id when its communicator is freed.
void release_context(uint32_t context);

// Context ids the members compute alike from a seed they share (a shrink:
// the parent's id and the agreement's number), so that reserving one needs
// no message: each member reserves it before a fault-tolerant agreement and
// the agreement's AND says whether it was free everywhere. They lie in a
// range of their own (bit 30 set; allocated ids stay far below it, the
// recovery's shadows are above 2^31) and are never handed out twice by a
// process, like allocated ids. Two seeds may give the same id: the second
// reservation then fails and the caller allocates instead.
uint32_t derived_context(uint64_t seed);
// Reserves a derived id; false when this process ever held it.
bool reserve_derived_context(uint32_t context);
// Gives back a reservation no communicator was made with.
void unreserve_derived_context(uint32_t context);

}  // namespace ftmpi::comm
