// Operations from this origin: the checks of a communication call, its
// request message (header, target blocks, packed data), the receive of its
// reply, and their completion by the synchronisation calls or by the
// request of an R* call. Every operation is answered by its target, so an
// operation is complete at the target once its reply arrived; a failed
// target or a revoked window completes both messages with the error, so no
// wait here outlives a failure notice.
#include "origin.hpp"

#include "direct.hpp"
#include "target.hpp"

#include "../internal/datatype.hpp"
#include "../internal/op.hpp"
#include "../internal/p2p.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

namespace ftmpi::rma {
namespace {

int next_reply_tag(MPI_Win win) {
    std::lock_guard lk(win->origin_mutex);
    return tag_reply_base + static_cast<int>(win->next_tag++ % static_cast<uint32_t>(tag_reply_span));
}

int check_buffer(int count, MPI_Datatype type) {
    if (count < 0) return MPI_ERR_COUNT;
    if (!dt::valid(type)) return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

size_t bytes_of(int count, MPI_Datatype type) {
    return static_cast<size_t>(count) * dt::size(type);
}

bool carries_origin_data(const Operation &op) {
    return op.kind == Kind::put || op.kind == Kind::compare_and_swap ||
        ((op.kind == Kind::accumulate || op.kind == Kind::get_accumulate) && op.op != MPI_NO_OP);
}

// The code of a completed pair (send, reply receive), then the reply's.
int settle(Pending &p, int rc, const MPI_Status st[2]) {
    int code = rc;
    if (rc == MPI_ERR_IN_STATUS) code = st[1].MPI_ERROR != MPI_SUCCESS ? st[1].MPI_ERROR : st[0].MPI_ERROR;
    if (code == MPI_SUCCESS) {
        int64_t c = MPI_ERR_INTERN;
        if (p.reply.size() >= reply_code_bytes) std::memcpy(&c, p.reply.data(), sizeof c);
        code = static_cast<int>(c);
    }
    if (code == MPI_SUCCESS && p.result != nullptr) {
        const size_t len = p.reply.size() - reply_code_bytes;
        dt::unpack(p.reply.data() + reply_code_bytes, len, 0, p.result, p.result_count, p.result_type);
    }
    p.done = true;
    p.code = code;
    return code;
}

// Waits for one claimed operation (no mutex held) and records its outcome.
void wait_claimed(MPI_Win win, Pending &p) {
    MPI_Request reqs[2] = {p.send, p.recv};
    MPI_Status st[2]{};
    const int rc = p2p::wait_all(2, reqs, st);
    std::lock_guard lk(win->origin_mutex);
    p.send = p.recv = MPI_REQUEST_NULL;
    settle(p, rc, st);
    p.claimed = false;
}

// The request of an R* call: completes when its operation does.
MPI_Request request_for(MPI_Win win, std::shared_ptr<Pending> p) {
    return p2p::make_generalized([win, p](MPI_Status *status) {
        {
            std::lock_guard lk(win->origin_mutex);
            if (p->done) {
                status->MPI_ERROR = p->code;
                return true;
            }
            if (p->claimed) return false;
            p->claimed = true;
        }
        // Tested without the mutex: the test runs other advances, which may
        // take it.
        MPI_Request reqs[2] = {p->send, p->recv};
        MPI_Status st[2]{};
        int flag = 0;
        const int rc = p2p::test_all(2, reqs, &flag, st);
        std::lock_guard lk(win->origin_mutex);
        p->claimed = false;
        if (flag == 0) return false;
        p->send = p->recv = MPI_REQUEST_NULL;
        status->MPI_ERROR = settle(*p, rc, st);
        return true;
    });
}

MPI_Request completed_request(int code = MPI_SUCCESS) {
    return p2p::make_generalized([code](MPI_Status *status) {
        status->MPI_ERROR = code;
        return true;
    });
}

// The target is in this origin's access epoch and alive (MPI_PROC_NULL: always).
int check_target(MPI_Win win, int target) {
    if (target == MPI_PROC_NULL) return MPI_SUCCESS;
    if (!in_access_epoch(win, target)) return MPI_ERR_RMA_SYNC;
    return check_peer(win, target);
}

int check_operation(MPI_Win win, const Operation &op, MPI_Datatype *basic) {
    if (int e = check_window(win)) return e;
    if (op.target != MPI_PROC_NULL && (op.target < 0 || op.target >= win->size)) return MPI_ERR_RANK;
    if (int e = check_buffer(op.target_count, op.target_type)) return e;
    if (carries_origin_data(op))
        if (int e = check_buffer(op.origin_count, op.origin_type)) return e;
    if (op.result != nullptr || op.kind == Kind::get)
        if (int e = check_buffer(op.result_count, op.result_type)) return e;
    if (op.kind == Kind::compare_and_swap && op.compare == nullptr) return MPI_ERR_BUFFER;
    const size_t target_bytes = bytes_of(op.target_count, op.target_type);
    if (carries_origin_data(op) && op.kind != Kind::compare_and_swap &&
        bytes_of(op.origin_count, op.origin_type) != target_bytes)
        return MPI_ERR_TYPE;
    if (op.result != nullptr && bytes_of(op.result_count, op.result_type) != target_bytes) return MPI_ERR_TYPE;
    if (op.kind == Kind::accumulate || op.kind == Kind::get_accumulate) {
        if (predefined_op_index(op.op) < 0) return MPI_ERR_OP;  // RMA takes predefined ops only
        // Nothing to combine: no element whose type could disagree with another's.
        if (target_bytes == 0) return check_target(win, op.target);
        *basic = basic_of(op.target_type);
        if (*basic == MPI_DATATYPE_NULL || predefined_type_index(*basic) < 0) return MPI_ERR_TYPE;
        if (carries_origin_data(op) && basic_of(op.origin_type) != *basic) return MPI_ERR_TYPE;
        if (!op::valid(op.op, *basic)) return MPI_ERR_OP;
    }
    if (op.kind == Kind::compare_and_swap) {
        if (predefined_type_index(op.target_type) < 0) return MPI_ERR_TYPE;
        if (!op::valid(MPI_BAND, op.target_type) && !op::valid(MPI_LAND, op.target_type))
            return MPI_ERR_TYPE;  // CAS takes integer, logical and byte types
    }
    return check_target(win, op.target);
}

// An operation on this process's own memory of a window without a shared
// segment (MPI_Win_create, dynamic windows): applied now, under the mutex
// the target handler applies others' operations with, instead of a message
// to itself that the epoch's end would wait for. Its result is in place
// when the call returns, as under Open MPI and MPICH, which programs rely
// on (mpi4py's tests free a compare-and-swap's result buffer before the
// fence). Not in a PSCW epoch: there the exposure of this process may not
// have begun yet.
bool applies_here(MPI_Win win, int target) {
    if (target != win->rank) return false;
    std::lock_guard lk(win->origin_mutex);
    return win->epoch == Epoch::fence || win->epoch == Epoch::lock || win->epoch == Epoch::lock_all;
}

int apply_here(MPI_Win win, const Header &h, const std::vector<Block> &blocks, const char *data, void *result,
               int result_count, MPI_Datatype result_type) {
    thread_local std::vector<char> reply;  // the code, then fetched data; reused
    reply.assign(reply_code_bytes, 0);
    {
        std::lock_guard lk(win->target_mutex);
        apply_operation(win, h, blocks.data(), data, reply);
    }
    return take_local_reply(reply, result, result_count, result_type);
}

// An operation on a target this process maps (direct.hpp), or on its own
// memory (applies_here): applied now, from the origin buffer itself when it
// is contiguous.
int start_direct(MPI_Win win, const Operation &op, const Header &h, const std::vector<Block> &blocks,
                 size_t target_bytes, MPI_Request *request) {
    const char *data = nullptr;
    std::vector<char> packed;
    if (op.kind == Kind::compare_and_swap) {
        packed.resize(2 * target_bytes);
        dt::pack(op.origin, 1, op.target_type, 0, packed.data(), target_bytes);
        dt::pack(op.compare, 1, op.target_type, 0, packed.data() + target_bytes, target_bytes);
        data = packed.data();
    } else if (h.data_bytes > 0 && dt::contiguous(op.origin_type)) {
        data = static_cast<const char *>(op.origin) + dt::true_lb(op.origin_type);
    } else if (h.data_bytes > 0) {
        packed.resize(h.data_bytes);
        dt::pack(op.origin, op.origin_count, op.origin_type, 0, packed.data(), h.data_bytes);
        data = packed.data();
    }
    void *result = h.fetch_bytes > 0 ? op.result : nullptr;
    const int code = reaches_directly(win, op.target)
        ? direct_operation(win, op.target, h, blocks, data, result, op.result_count, op.result_type)
        : apply_here(win, h, blocks, data, result, op.result_count, op.result_type);
    if (request == nullptr) return code;
    *request = completed_request(code);  // the request reports the outcome
    return MPI_SUCCESS;
}

}  // namespace

bool in_access_epoch(MPI_Win win, int target) {
    std::lock_guard lk(win->origin_mutex);
    switch (win->epoch) {
    case Epoch::fence:
    case Epoch::lock_all: return true;
    case Epoch::lock: return win->locked.count(target) != 0;
    case Epoch::start:
        return std::find(win->start_group.begin(), win->start_group.end(), target) != win->start_group.end();
    default: return false;
    }
}

int start_operation(MPI_Win win, const Operation &op, MPI_Request *request) {
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    if (int e = check_operation(win, op, &basic)) return e;
    // An operation that moves no data has nothing to do at its target.
    if (op.target == MPI_PROC_NULL || bytes_of(op.target_count, op.target_type) == 0) {
        if (request != nullptr) *request = completed_request();
        return MPI_SUCCESS;
    }
    const size_t t = static_cast<size_t>(op.target);
    Header h;
    h.kind = op.kind;
    const MPI_Aint unit = win->flavor == MPI_WIN_FLAVOR_DYNAMIC ? 1 : win->disp_units[t];
    h.offset = static_cast<int64_t>(op.disp) * unit;
    thread_local std::vector<Block> blocks;  // reused: most operations are one block
    blocks_of(op.target_count, op.target_type, blocks);
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        for (const Block &b : blocks)
            if (h.offset + b.offset < 0 || h.offset + b.offset + static_cast<int64_t>(b.length) > win->sizes[t])
                return MPI_ERR_RMA_RANGE;
    h.blocks = static_cast<uint32_t>(blocks.size());
    if (basic != MPI_DATATYPE_NULL) {  // accumulates (the table lookups are linear)
        h.op = predefined_op_index(op.op);
        h.basic = predefined_type_index(basic);
    }
    const size_t target_bytes = bytes_of(op.target_count, op.target_type);
    if (carries_origin_data(op)) h.data_bytes = op.kind == Kind::compare_and_swap ? 2 * target_bytes : target_bytes;
    if (op.kind != Kind::put && op.kind != Kind::accumulate) h.fetch_bytes = target_bytes;

    if (reaches_directly(win, op.target) || applies_here(win, op.target))
        return start_direct(win, op, h, blocks, target_bytes, request);

    auto p = std::make_shared<Pending>();
    p->target = op.target;
    p->message.resize(sizeof h + blocks.size() * sizeof(Block) + h.data_bytes);
    char *at = p->message.data();
    std::memcpy(at, &h, sizeof h);
    if (!blocks.empty()) std::memcpy(at + sizeof h, blocks.data(), blocks.size() * sizeof(Block));
    char *data = at + sizeof h + blocks.size() * sizeof(Block);
    if (op.kind == Kind::compare_and_swap) {
        dt::pack(op.origin, 1, op.target_type, 0, data, target_bytes);
        dt::pack(op.compare, 1, op.target_type, 0, data + target_bytes, target_bytes);
    } else if (h.data_bytes > 0) {
        dt::pack(op.origin, op.origin_count, op.origin_type, 0, data, h.data_bytes);
    }
    if (h.fetch_bytes > 0) {
        p->result = op.result;
        p->result_count = op.result_count;
        p->result_type = op.result_type;
    }
    p->reply.resize(reply_code_bytes + h.fetch_bytes);
    p->requested = request != nullptr;
    h.reply_tag = next_reply_tag(win);
    std::memcpy(at, &h, sizeof h);

    if (int e = p2p::isend(p->message.data(), static_cast<int>(p->message.size()), MPI_BYTE, op.target, tag_request,
                           win->comm, p2p::Channel::user, &p->send))
        return e;
    // Posted after the send: a reply that comes first waits as an unexpected message.
    if (int e = p2p::irecv(p->reply.data(), static_cast<int>(p->reply.size()), MPI_BYTE, op.target, h.reply_tag,
                           win->comm, p2p::Channel::user, &p->recv)) {
        p2p::wait_all(1, &p->send, MPI_STATUSES_IGNORE);  // fails too: the window is revoked or the target failed
        return e;
    }
    {
        std::lock_guard lk(win->origin_mutex);
        win->pending.push_back(p);
    }
    if (request != nullptr) *request = request_for(win, p);
    return MPI_SUCCESS;
}

int complete_operations(MPI_Win win, int target) {
    // Direct operations (direct.hpp) are complete at their targets already;
    // their stores become visible to the target with this fence.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    {
        std::lock_guard lk(win->origin_mutex);
        if (win->pending.empty()) return MPI_SUCCESS;  // only direct operations (or none) since the last completion
    }
    const auto mine = [target](const Pending &p) { return target < 0 || p.target == target; };
    for (;;) {
        std::vector<std::shared_ptr<Pending>> claimed;
        bool others = false;  // operations another thread is testing right now
        {
            std::lock_guard lk(win->origin_mutex);
            for (auto &p : win->pending) {
                if (p->done || !mine(*p)) continue;
                if (p->claimed) {
                    others = true;
                    continue;
                }
                p->claimed = true;
                claimed.push_back(p);
            }
        }
        if (claimed.empty() && !others) break;
        for (auto &p : claimed) wait_claimed(win, *p);
        if (claimed.empty()) std::this_thread::yield();  // another thread's test is short
    }
    int worst = MPI_SUCCESS;
    std::lock_guard lk(win->origin_mutex);
    for (auto it = win->pending.begin(); it != win->pending.end();) {
        Pending &p = **it;
        if (!p.done || !mine(p)) {
            ++it;
            continue;
        }
        if (!p.requested && worst == MPI_SUCCESS) worst = p.code;
        it = win->pending.erase(it);  // an R* request keeps its own reference
    }
    return worst;
}

int lock_request(MPI_Win win, Kind kind, int target, int lock_type) {
    if (int e = check_peer(win, target)) return e;
    Header h;
    h.kind = kind;
    h.lock_type = lock_type;
    h.reply_tag = next_reply_tag(win);
    std::vector<char> reply(reply_code_bytes);
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (int e = p2p::isend(&h, static_cast<int>(sizeof h), MPI_BYTE, target, tag_request, win->comm, p2p::Channel::user,
                           &reqs[0]))
        return e;
    if (int e = p2p::irecv(reply.data(), static_cast<int>(reply.size()), MPI_BYTE, target, h.reply_tag, win->comm,
                           p2p::Channel::user, &reqs[1])) {
        p2p::wait_all(1, &reqs[0], MPI_STATUSES_IGNORE);
        return e;
    }
    MPI_Status st[2]{};
    Pending p;
    p.reply = std::move(reply);
    return settle(p, p2p::wait_all(2, reqs, st), st);
}

}  // namespace ftmpi::rma
