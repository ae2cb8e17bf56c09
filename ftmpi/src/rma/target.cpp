// The target side of a window: a handler that takes the requests other
// members (and this one) send to the window's private communicator,
// applies them to this process's memory (apply.cpp), grants and releases
// locks (locks.cpp) and sends the replies. It is the advance function of a
// p2p generalized request that stays pending while the window lives, so it
// runs on whichever thread progresses the engine: a thread of this process
// waiting in MPI, or the progress thread when none is, which is what lets a
// passive-target epoch progress while the target computes outside MPI.
// The engine calls one advance at a time, without its lock held, so the
// handler may use p2p's non-blocking calls; it never blocks.
#include "target.hpp"

#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"

#include <cstring>
#include <list>

namespace ftmpi::rma {
namespace {

struct OutgoingReply {
    MPI_Request request = MPI_REQUEST_NULL;
    std::vector<char> data;
};

struct HandlerState {
    MPI_Request receive = MPI_REQUEST_NULL;  // the request message being received
    int source = -1;
    std::vector<char> message;
    std::list<OutgoingReply> replies;  // sends not complete yet (their data lives here)
};

// At most this many requests per advance, so one busy window does not keep
// the progress engine from the rest of its work.
constexpr int requests_per_turn = 64;

void send_reply(MPI_Win win, HandlerState &s, int origin, int tag, std::vector<char> &&data) {
    OutgoingReply &r = s.replies.emplace_back();
    r.data = std::move(data);
    // An origin that failed or a revoked window: the origin's own receive
    // reports it, nothing to keep here.
    if (p2p::isend(r.data.data(), static_cast<int>(r.data.size()), MPI_BYTE, origin, tag, win->comm, p2p::Channel::user,
                   &r.request) != MPI_SUCCESS)
        r.request = MPI_REQUEST_NULL;
}

void reply_code(MPI_Win win, int origin, int reply_tag, int code, void *ctx) {
    std::vector<char> data(reply_code_bytes);
    const int64_t c = code;
    std::memcpy(data.data(), &c, sizeof c);
    send_reply(win, *static_cast<HandlerState *>(ctx), origin, reply_tag, std::move(data));
}

void handle(MPI_Win win, HandlerState &s, int origin, const std::vector<char> &message) {
    Header h;
    if (message.size() < sizeof h) return;  // not one of ours: nobody waits for a reply we could address
    std::memcpy(&h, message.data(), sizeof h);
    const size_t block_bytes = static_cast<size_t>(h.blocks) * sizeof(Block);
    if (message.size() < sizeof h + block_bytes + h.data_bytes)
        return reply_code(win, origin, h.reply_tag, MPI_ERR_INTERN, &s);
    std::vector<Block> blocks(h.blocks);
    if (block_bytes > 0) std::memcpy(blocks.data(), message.data() + sizeof h, block_bytes);
    const char *data = message.data() + sizeof h + block_bytes;

    std::lock_guard lk(win->target_mutex);
    switch (h.kind) {
    case Kind::lock: return request_lock(win, origin, h.lock_type, h.reply_tag, reply_code, &s);
    case Kind::unlock: {
        const int code = release_lock(win, origin, reply_code, &s);
        return reply_code(win, origin, h.reply_tag, code, &s);
    }
    default: {
        std::vector<char> reply(reply_code_bytes);
        reply.reserve(reply_code_bytes + h.fetch_bytes);
        apply_operation(win, h, blocks.data(), data, reply);
        send_reply(win, s, origin, h.reply_tag, std::move(reply));
    }
    }
}

// Finds the next request message and starts receiving it; false when none
// is there.
bool take_request(MPI_Win win, HandlerState &s) {
    int flag = 0;
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Status st{};
    if (PMPI_Improbe(MPI_ANY_SOURCE, tag_request, win->comm, &flag, &m, &st) != MPI_SUCCESS) {
        if (p2p::is_revoked(win->comm)) return false;
        // ULFM: an ANY_SOURCE probe stops at an unacknowledged failure.
        // Nothing else receives from ANY_SOURCE on the private
        // communicator, so acknowledging there is private too; this turn
        // looks at each live member instead.
        PMPIX_Comm_failure_ack(win->comm);
        for (int r = 0; r < win->size && flag == 0; ++r)
            if (!p2p::is_failed(win->worlds[static_cast<size_t>(r)]) &&
                PMPI_Improbe(r, tag_request, win->comm, &flag, &m, &st) != MPI_SUCCESS)
                flag = 0;
    }
    if (flag == 0) return false;
    int count = 0;
    PMPI_Get_count(&st, MPI_BYTE, &count);
    s.message.resize(static_cast<size_t>(count));
    s.source = st.MPI_SOURCE;
    if (PMPI_Imrecv(s.message.data(), count, MPI_BYTE, &m, &s.receive) != MPI_SUCCESS) {
        s.receive = MPI_REQUEST_NULL;
        return false;
    }
    return true;
}

bool advance(MPI_Win win, HandlerState &s, MPI_Status *status) {
    // The handler's probes, receives and sends poll the engine, which would
    // run every other window's handler inside this one, each again inside
    // the others: with a few dozen windows that nesting never ends. None of
    // these calls waits for another advance, so they need none.
    p2p::AdvancesDeferred no_nesting;
    const bool stopping = win->stopping.load();
    for (int n = 0; n < requests_per_turn; ++n) {
        if (s.receive == MPI_REQUEST_NULL && (stopping || !take_request(win, s))) break;
        int flag = 0;
        MPI_Status st{};
        const int rc = p2p::test_all(1, &s.receive, &flag, &st);
        if (flag == 0) break;
        s.receive = MPI_REQUEST_NULL;
        if (rc == MPI_SUCCESS) handle(win, s, s.source, s.message);
    }
    const uint64_t epoch = p2p::failure_epoch();
    if (epoch != win->seen_failures) {
        std::lock_guard lk(win->target_mutex);
        win->seen_failures = epoch;
        release_failed(win, reply_code, &s);
    }
    for (auto it = s.replies.begin(); it != s.replies.end();) {
        int flag = 1;
        if (it->request != MPI_REQUEST_NULL) p2p::test_all(1, &it->request, &flag, MPI_STATUSES_IGNORE);
        it = flag != 0 ? s.replies.erase(it) : std::next(it);
    }
    if (stopping && s.receive == MPI_REQUEST_NULL && s.replies.empty()) {
        status->MPI_ERROR = MPI_SUCCESS;
        return true;
    }
    return false;
}

}  // namespace

int start_handler(MPI_Win win) {
    auto state = std::make_shared<HandlerState>();
    win->seen_failures = p2p::failure_epoch();
    win->handler = p2p::make_event_driven([win, state](MPI_Status *status) { return advance(win, *state, status); });
    return win->handler != MPI_REQUEST_NULL ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

void stop_handler(MPI_Win win) {
    if (win->handler == MPI_REQUEST_NULL) return;
    win->stopping = true;
    MPI_Request r = win->handler;
    p2p::wait_all(1, &r, MPI_STATUSES_IGNORE);
    win->handler = MPI_REQUEST_NULL;
}

}  // namespace ftmpi::rma
