// MPI_Probe/Iprobe and the matched-probe family
// MPI_Mprobe/Improbe/Mrecv/Imrecv.
#include "internal/ft.hpp"
#include "mpi-ext.h"
#include "p2p/binding.hpp"
#include "p2p/checks.hpp"
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

using namespace ftmpi::p2p;

// The message MPI_Mprobe returns for source MPI_PROC_NULL.
ftmpi_predefined_message_u ftmpi_message_no_proc;

namespace {

int probe(int source, int tag, MPI_Comm comm, bool block, bool take, int *flag, MPI_Message *message,
          MPI_Status *status) {
    if (int e = check_common(comm, 0, MPI_BYTE)) return e;
    if (int e = check_source(comm, source)) return e;
    if (int e = check_recv_tag(tag, Channel::user)) return e;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        empty_status(status);
        if (status) status->MPI_SOURCE = MPI_PROC_NULL;
        if (take) *message = MPI_MESSAGE_NO_PROC;
        return MPI_SUCCESS;
    }
    if (ftmpi::ft::blocks_user_ops(comm)) return MPIX_ERR_PROC_FAILED;  // NOP mode
    int world = source == MPI_ANY_SOURCE ? -1 : ftmpi::comm::world_rank_of(comm, source);
    std::unique_ptr<Unexpected> taken;
    auto &engine = Engine::get();
    int e;
    do {
        // ULFM: an ANY_SOURCE probe on a comm with an unacknowledged failed
        // member ends with MPIX_ERR_PROC_FAILED (ftstate asked without the lock).
        const uint64_t seen = engine.reported_epoch();
        if (world == -1 && ftmpi::ft::any_source_blocked(comm)) return MPIX_ERR_PROC_FAILED;
        e = engine.probe(world, tag, comm, comm->context, block, take, flag, status, take ? &taken : nullptr, seen);
    } while (e == Engine::probe_again);
    if (e != MPI_SUCCESS) return e;
    if (take) {
        if (*flag) {
            auto *m = new ftmpi_message_s();
            m->message = std::move(taken);
            m->comm = comm;
            *message = m;
        } else {
            *message = MPI_MESSAGE_NULL;
        }
    }
    return MPI_SUCCESS;
}

int matched_receive(void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message, MPI_Request *request) {
    if (!message || *message == MPI_MESSAGE_NULL) return MPI_ERR_REQUEST;
    if (*message == MPI_MESSAGE_NO_PROC) {
        // Receiving from MPI_PROC_NULL: an empty, already complete receive.
        MPI_Request r;
        if (int e = start_recv(buf, count, type, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_SELF, Channel::user, &r))
            return e;
        *request = r;
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    MPI_Message m = *message;
    if (int e = check_common(m->comm, count, type)) return e;
    auto *r = new ftmpi_request_s();
    r->kind = RequestKind::recv;
    r->buf = buf;
    r->count = count;
    r->type = type;
    r->comm = m->comm;
    r->context = m->comm->context;
    r->rank_arg = MPI_ANY_SOURCE;
    r->tag = MPI_ANY_TAG;
    Engine::get().receive_message(r, std::move(m->message));
    delete m;
    *message = MPI_MESSAGE_NULL;
    *request = r;
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) noexcept {
    KeepStatusError keep(status);
    return guarded(comm, "MPI_Probe", [&] {
        int flag;
        return probe(source, tag, comm, true, false, &flag, nullptr, status);
    });
}
FTMPI_PMPI(Probe)

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) noexcept {
    KeepStatusError keep(status);
    if (!flag) return ftmpi::comm::raise(comm, MPI_ERR_ARG, "MPI_Iprobe");
    return guarded(comm, "MPI_Iprobe", [&] { return probe(source, tag, comm, false, false, flag, nullptr, status); });
}
FTMPI_PMPI(Iprobe)

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status) noexcept {
    KeepStatusError keep(status);
    if (!message) return ftmpi::comm::raise(comm, MPI_ERR_ARG, "MPI_Mprobe");
    return guarded(comm, "MPI_Mprobe", [&] {
        int flag;
        return probe(source, tag, comm, true, true, &flag, message, status);
    });
}
FTMPI_PMPI(Mprobe)

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status) noexcept {
    KeepStatusError keep(status);
    if (!message || !flag) return ftmpi::comm::raise(comm, MPI_ERR_ARG, "MPI_Improbe");
    return guarded(comm, "MPI_Improbe", [&] { return probe(source, tag, comm, false, true, flag, message, status); });
}
FTMPI_PMPI(Improbe)

// Each matched receive twice: the int form and the large-count (`_c`) form.
#define FTMPI_MATCHED_RECEIVES(Suffix, Count)                                                                          \
    int MPI_Mrecv##Suffix(void *buf, Count count, MPI_Datatype type, MPI_Message *message,                             \
                          MPI_Status *status) noexcept {                                                               \
        KeepStatusError keep(status);                                                                                  \
        MPI_Comm comm = message && *message && *message != MPI_MESSAGE_NO_PROC ? (*message)->comm : MPI_COMM_WORLD;    \
        return guarded(comm, "MPI_Mrecv" #Suffix, [&] {                                                                \
            MPI_Request r;                                                                                             \
            if (int e = matched_receive(buf, count, type, message, &r)) return e;                                      \
            return wait_one(&r, status);                                                                               \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Mrecv##Suffix)                                                                                          \
    int MPI_Imrecv##Suffix(void *buf, Count count, MPI_Datatype type, MPI_Message *message,                            \
                           MPI_Request *request) noexcept {                                                            \
        MPI_Comm comm = message && *message && *message != MPI_MESSAGE_NO_PROC ? (*message)->comm : MPI_COMM_WORLD;    \
        if (!request) return ftmpi::comm::raise(comm, MPI_ERR_ARG, "MPI_Imrecv" #Suffix);                              \
        return guarded(comm, "MPI_Imrecv" #Suffix,                                                                     \
                       [&] { return matched_receive(buf, count, type, message, request); });                           \
    }                                                                                                                  \
    FTMPI_PMPI(Imrecv##Suffix)
FTMPI_MATCHED_RECEIVES(, int)
FTMPI_MATCHED_RECEIVES(_c, MPI_Count)
#undef FTMPI_MATCHED_RECEIVES

}  // extern "C"
