// The records in a slot's ring.
//
// A ring is `size` bytes (a power of two) addressed by monotonically growing
// byte counters: the sender owns `head`, the owner of the inbox owns `tail`.
// Records start on a cache line and take a whole number of lines; a record's
// fixed part never wraps (it is at most one line), its data may (it is copied
// in two pieces). The sender writes records, then publishes them all with
// one release store of head, so the owner never sees half a record.
#pragma once

#include "segment.hpp"

#include <ftmpi/transport.h>

#include <algorithm>
#include <cstring>

namespace ftmpi::shm {

enum RecordType : uint32_t {
    record_frame = 1,     // header + frame + first bytes of its payload (maybe all)
    record_piece = 2,     // header + more payload of the frame in progress
    record_cma = 3,       // header + frame + CmaDescriptor: read the payload from the sender
    record_cma_done = 4,  // header only: aux = cookie, bytes = CmaStatus
};

enum CmaStatus : uint32_t {
    cma_read = 0,     // the receiver read the payload: the sender's buffer is free
    cma_refused = 1,  // the kernel refused: send the payload through the ring, never use CMA again
};

struct RecordHeader {
    uint32_t type;
    uint32_t bytes;  // data bytes after the fixed part (cma_done: the status)
    uint64_t aux;    // cma, cma_done: the sender's cookie
};

constexpr size_t max_cma_iov = 32;

// Follows the frame in a record_cma.
struct CmaDescriptor {
    int32_t pid;
    uint32_t count;
    uint64_t reserved;
    struct {
        uint64_t base, len;
    } iov[max_cma_iov];
};

constexpr size_t frame_fixed = sizeof(RecordHeader) + sizeof(ftmpi_frame);  // 64
constexpr size_t piece_fixed = sizeof(RecordHeader);
static_assert(frame_fixed == cache_line, "a frame record's fixed part is one cache line");
static_assert(sizeof(ftmpi_frame) == 48, "the frame header is 48 bytes");

constexpr size_t round_line(size_t n) {
    return (n + cache_line - 1) & ~(cache_line - 1);
}

constexpr size_t cma_bytes(size_t count) {
    return frame_fixed + offsetof(CmaDescriptor, iov) + count * sizeof(CmaDescriptor::iov[0]);
}

// A view of one ring.
struct Ring {
    char *base = nullptr;
    size_t size = 0;  // a power of two

    // Copies n bytes in at byte counter pos (wrapping).
    void put(uint64_t pos, const void *src, size_t n) const {
        size_t at = static_cast<size_t>(pos) & (size - 1);
        size_t first = std::min(n, size - at);
        std::memcpy(base + at, src, first);
        if (n > first) std::memcpy(base, static_cast<const char *>(src) + first, n - first);
    }
    void get(uint64_t pos, void *dst, size_t n) const {
        size_t at = static_cast<size_t>(pos) & (size - 1);
        size_t first = std::min(n, size - at);
        std::memcpy(dst, base + at, first);
        if (n > first) std::memcpy(static_cast<char *>(dst) + first, base, n - first);
    }
};

}  // namespace ftmpi::shm
