// One operation applied to a member's window memory: the target blocks are
// checked against the memory the window exposes (MPI_ERR_RMA_RANGE
// otherwise), then data is copied in (put), out (get), or combined with the
// operation's predefined op (accumulates, through the op part). The target's
// handler applies operations under the window's target mutex; an origin
// with direct access (direct.cpp) applies them to the target's segment
// itself. Accumulates and compare-and-swap also hold the segment's
// cross-process mutex, so they are atomic with respect to each other
// whoever applies them.
#include "direct.hpp"
#include "target.hpp"

#include "../internal/datatype.hpp"
#include "../internal/op.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

namespace ftmpi::rma {
namespace {

// Whether [lo, hi) is attached to a dynamic window: inside one region, or
// across regions attached back to back (two halves of one array).
bool attached(const std::vector<Region> &regions, uintptr_t lo, uintptr_t hi) {
    while (lo < hi) {
        const Region *holding = nullptr;
        for (const Region &r : regions)
            if (lo >= r.base && lo - r.base < r.size) holding = &r;
        if (holding == nullptr) return false;
        lo = holding->base + holding->size;
    }
    return true;
}

// Where the target data starts (*at); false when a block lies outside the
// memory the window exposes (`memory` at a static window).
bool resolve(MPI_Win win, const Region &memory, const Header &h, const Block *blocks, uintptr_t *at) {
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        *at = static_cast<uintptr_t>(h.offset);
        for (uint32_t i = 0; i < h.blocks; ++i) {
            const uintptr_t lo = *at + static_cast<uintptr_t>(blocks[i].offset);
            if (!attached(win->attached, lo, lo + blocks[i].length)) return false;
        }
        return true;
    }
    const int64_t size = static_cast<int64_t>(memory.size);
    for (uint32_t i = 0; i < h.blocks; ++i) {
        const int64_t lo = h.offset + blocks[i].offset;
        if (lo < 0 || lo + static_cast<int64_t>(blocks[i].length) > size) return false;
    }
    *at = memory.base + static_cast<uintptr_t>(h.offset);
    return true;
}

// Holds a window segment's cross-process mutex (none for heap memory). A
// holder killed in the middle leaves it "owner died": the next holder takes
// it over (the dead process's accumulate may be half applied, as it would be
// had it died a moment later).
class SegmentLock {
public:
    explicit SegmentLock(pthread_mutex_t *m) : m_(m) {
        if (m_ != nullptr && pthread_mutex_lock(m_) == EOWNERDEAD) pthread_mutex_consistent(m_);
    }
    ~SegmentLock() {
        if (m_ != nullptr) pthread_mutex_unlock(m_);
    }
    SegmentLock(const SegmentLock &) = delete;
    SegmentLock &operator=(const SegmentLock &) = delete;

private:
    pthread_mutex_t *m_;
};

void scatter(uintptr_t at, const Block *blocks, uint32_t n, const char *from) {
    for (uint32_t i = 0; i < n; ++i) {
        std::memcpy(reinterpret_cast<char *>(at + static_cast<uintptr_t>(blocks[i].offset)), from, blocks[i].length);
        from += blocks[i].length;
    }
}

void gather(uintptr_t at, const Block *blocks, uint32_t n, std::vector<char> &to) {
    for (uint32_t i = 0; i < n; ++i) {
        const char *p = reinterpret_cast<const char *>(at + static_cast<uintptr_t>(blocks[i].offset));
        to.insert(to.end(), p, p + blocks[i].length);
    }
}

size_t total_length(const Block *blocks, uint32_t n) {
    size_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) sum += blocks[i].length;
    return sum;
}

// inout = in op inout over `bytes` of packed elements of `basic`. Types
// whose extent has padding (MPI_DOUBLE_INT) go through their own layout.
int combine_packed(MPI_Op op, MPI_Datatype basic, const char *in, char *inout, size_t bytes) {
    const size_t size = dt::size(basic);
    if (size == 0 || bytes % size != 0) return MPI_ERR_TYPE;
    const int n = static_cast<int>(bytes / size);
    if (static_cast<size_t>(dt::extent(basic)) == size) return op::apply(op, in, inout, n, basic);
    const size_t span = static_cast<size_t>(dt::extent(basic)) * static_cast<size_t>(n);
    std::vector<char> a(span), b(span);
    dt::unpack(in, bytes, 0, a.data(), n, basic);
    dt::unpack(inout, bytes, 0, b.data(), n, basic);
    if (int e = op::apply(op, a.data(), b.data(), n, basic)) return e;
    dt::pack(b.data(), n, basic, 0, inout, bytes);
    return MPI_SUCCESS;
}

void set_code(std::vector<char> &reply, int code) {
    const int64_t c = code;
    std::memcpy(reply.data(), &c, sizeof c);
}

}  // namespace

void apply_operation(MPI_Win win, const Header &h, const Block *blocks, const char *data, std::vector<char> &reply) {
    apply_to(win, Region{reinterpret_cast<uintptr_t>(win->base), static_cast<size_t>(win->bytes)},
             own_segment_lock(win), h, blocks, data, reply);
}

void apply_to(MPI_Win win, const Region &memory, pthread_mutex_t *segment_lock, const Header &h, const Block *blocks,
              const char *data, std::vector<char> &reply) {
    uintptr_t at = 0;
    if (!resolve(win, memory, h, blocks, &at)) return set_code(reply, MPI_ERR_RMA_RANGE);
    const size_t length = total_length(blocks, h.blocks);
    switch (h.kind) {
    case Kind::put:
        if (h.data_bytes != length) return set_code(reply, MPI_ERR_TYPE);
        scatter(at, blocks, h.blocks, data);
        return set_code(reply, MPI_SUCCESS);
    case Kind::get: gather(at, blocks, h.blocks, reply); return set_code(reply, MPI_SUCCESS);
    case Kind::accumulate:
    case Kind::get_accumulate: {
        SegmentLock atomic(segment_lock);
        const MPI_Op op = predefined_op(h.op);
        const MPI_Datatype basic = predefined_type(h.basic);
        if (op == MPI_OP_NULL) return set_code(reply, MPI_ERR_OP);
        if (basic == MPI_DATATYPE_NULL) return set_code(reply, MPI_ERR_TYPE);
        std::vector<char> current;
        current.reserve(length);
        gather(at, blocks, h.blocks, current);
        if (h.kind == Kind::get_accumulate) reply.insert(reply.end(), current.begin(), current.end());
        if (op == MPI_NO_OP) return set_code(reply, MPI_SUCCESS);
        if (h.data_bytes != length) return set_code(reply, MPI_ERR_TYPE);
        if (int e = combine_packed(op, basic, data, current.data(), length)) return set_code(reply, e);
        scatter(at, blocks, h.blocks, current.data());
        return set_code(reply, MPI_SUCCESS);
    }
    case Kind::compare_and_swap: {
        SegmentLock atomic(segment_lock);
        if (h.data_bytes != 2 * length) return set_code(reply, MPI_ERR_TYPE);
        std::vector<char> current;
        gather(at, blocks, h.blocks, current);
        reply.insert(reply.end(), current.begin(), current.end());
        if (std::memcmp(current.data(), data + length, length) == 0) scatter(at, blocks, h.blocks, data);
        return set_code(reply, MPI_SUCCESS);
    }
    default: return set_code(reply, MPI_ERR_INTERN);
    }
}

}  // namespace ftmpi::rma
