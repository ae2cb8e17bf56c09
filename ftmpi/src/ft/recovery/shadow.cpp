// The private communicator the recovery agrees on.
//
// Why not agree on comm itself: the agreement keeps per-context state that
// outlives a decision (it still answers and releases), shaped by the group
// it started with, while the recovery changes comm's group in place. So
// each shape of comm gets its own shadow: same group, its own context id
// (derived from comm's, plus the number of recoveries so far, the same at
// every member), and the recovery's purge of comm's context never touches
// the agreement's messages.
#include "recovery.hpp"

#include "../../comm/objects.hpp"

#include <map>
#include <mutex>

namespace ftmpi::ft::recovery {
namespace {
struct Shadow {
    uint32_t epoch = 0;
    MPI_Comm comm = MPI_COMM_NULL;
};
std::mutex shadows_mu;
std::map<uint32_t, Shadow> &shadows() {
    static auto *m = new std::map<uint32_t, Shadow>;  // outlives static destructors
    return *m;
}

// Context ids the comm part allocates grow by 2 from 4 and stay far below
// 2^31; shadows live above it (even, like every context).
uint32_t shadow_context(uint32_t context, uint32_t epoch) {
    return 0x80000000u | (context << 7) | ((epoch & 63u) << 1);
}
}  // namespace

MPI_Comm agreement_comm(MPI_Comm comm) {
    std::lock_guard lock(shadows_mu);
    Shadow &s = shadows()[comm->context];
    if (s.comm == MPI_COMM_NULL) {
        comm::retain(comm->group);
        s.comm = comm::make_comm(comm->group, nullptr, shadow_context(comm->context, s.epoch), comm);
        s.comm->name = "recovery agreements";
    }
    return s.comm;
}

uint32_t shadow_epoch(MPI_Comm comm) {
    std::lock_guard lock(shadows_mu);
    return shadows()[comm->context].epoch;
}

void next_shadow(MPI_Comm comm, uint32_t epoch) {
    MPI_Comm old = MPI_COMM_NULL;
    {
        std::lock_guard lock(shadows_mu);
        Shadow &s = shadows()[comm->context];
        old = s.comm;
        s.comm = MPI_COMM_NULL;
        s.epoch = epoch;
    }
    comm::release(old);  // an agreement still finishing holds its own reference
}

bool is_agreement_comm(MPI_Comm comm) {
    return comm->context >= 0x80000000u;
}

void forget_shadow(uint32_t context) {
    if (context >= 0x80000000u) return;  // a shadow itself
    MPI_Comm old = MPI_COMM_NULL;
    {
        std::lock_guard lock(shadows_mu);
        auto it = shadows().find(context);
        if (it == shadows().end()) return;
        old = it->second.comm;
        shadows().erase(it);
    }
    comm::release(old);
}

}  // namespace ftmpi::ft::recovery
