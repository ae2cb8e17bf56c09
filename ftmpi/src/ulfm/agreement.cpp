// ft::agree / ft::iagree and the request the MPIX_ bindings
// wait on. The protocol is in agreement_machine.cpp, the message handling in
// agreement_board.cpp; README.md says why it is correct.
#include "agreement.hpp"
#include "agreement_board.hpp"
#include "participants.hpp"

#include "../internal/comm.hpp"
#include "../internal/p2p.hpp"

namespace ftmpi::ulfm {
namespace {
wire::Value to_wire(int n, const ft::Agreement &a) {
    wire::Value v;
    v.flag = a.flag;
    v.unacked = a.unacked ? 1u : 0u;
    v.failed.assign(wire::words_for(n), 0);
    for (int r : a.failed)
        if (r >= 0 && r < n) wire::set(v.failed, r);
    if (a.acked) {
        v.acked.assign(wire::words_for(n), 0);
        for (int r : *a.acked)
            if (r >= 0 && r < n) wire::set(v.acked, r);
    }
    return v;
}

ft::Agreement from_wire(int n, const wire::Value &v) {
    ft::Agreement a;
    a.flag = v.flag;
    a.unacked = v.unacked != 0;
    for (int r = 0; r < n; ++r)
        if (wire::test(v.failed, r)) a.failed.push_back(r);
    if (!v.acked.empty()) {
        a.acked.emplace();
        for (int r = 0; r < n; ++r)
            if (wire::test(v.acked, r)) a.acked->push_back(r);
    }
    return a;
}
}  // namespace

int start_agreement(MPI_Comm comm, const ft::Agreement &contribution, OnDecided on_decided, MPI_Request *request) {
    if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
    // Every member numbers its agreements on comm the same way: the n-th
    // call here meets the n-th call everywhere else.
    const uint32_t instance = comm->ft.agreements.fetch_add(1);
    const int n = participant_count(comm);
    auto board = board_of(comm);
    auto outcome = start_instance(board, comm, instance, to_wire(n, contribution));
    *request = p2p::make_generalized([board, outcome, n, on_decided = std::move(on_decided)](MPI_Status *st) {
        // The board's own request, when alive, has run the work in this pass already.
        if (!outcome->ready.load(std::memory_order_acquire) && !driven(board)) try_advance(board);
        if (!outcome->ready.load(std::memory_order_acquire)) return false;
        const ft::Agreement decided = from_wire(n, outcome->value);
        st->MPI_ERROR = on_decided ? on_decided(outcome->code, decided) : outcome->code;
        return true;
    });
    return MPI_SUCCESS;
}
}  // namespace ftmpi::ulfm

namespace ftmpi::ft {
int iagree(MPI_Comm comm, Agreement &a, MPI_Request *request) {
    return ulfm::start_agreement(
        comm, a,
        [&a](int code, const Agreement &decided) {
            a = decided;
            return code;
        },
        request);
}

int agree(MPI_Comm comm, Agreement &a) {
    MPI_Request r = MPI_REQUEST_NULL;
    if (int err = iagree(comm, a, &r); err != MPI_SUCCESS) return err;
    MPI_Status st;
    p2p::wait_all(1, &r, &st);
    return st.MPI_ERROR;
}
}  // namespace ftmpi::ft
