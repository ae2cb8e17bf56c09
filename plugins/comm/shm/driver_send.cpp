// Sending: records into a peer's ring, the per-peer queue, single-copy
// descriptors and their completions (see driver.hpp and README.md).
#include "driver.hpp"

#include <cerrno>
#include <unistd.h>

namespace ftmpi::shm {

namespace {

// Copies n bytes from an iovec list, starting at (seg, off), into the ring.
void gather(const Ring &ring, uint64_t pos, const iovec *iov, size_t count, size_t &seg, size_t &off, size_t n) {
    while (n > 0 && seg < count) {
        size_t take = std::min(n, iov[seg].iov_len - off);
        ring.put(pos, static_cast<const char *>(iov[seg].iov_base) + off, take);
        pos += take;
        n -= take;
        off += take;
        if (off == iov[seg].iov_len) {
            ++seg;
            off = 0;
        }
    }
}

// The smallest piece worth a record while the ring is nearly full.
constexpr size_t min_piece = 2048;

}  // namespace

size_t Driver::room(Peer &p, size_t need) {
    size_t free = p.out_ring.size - static_cast<size_t>(p.out_head - p.out_tail);
    if (free < need) {
        p.out_tail = load_acquire(p.out->tail);
        free = p.out_ring.size - static_cast<size_t>(p.out_head - p.out_tail);
    }
    return free;
}

// Wakes the owner of p's inbox if it said it may sleep. Called after a store
// the owner looks at before it sleeps (a ring's head, `posted`): the owner
// sets `sleeping`, then looks; we store, then read `sleeping`, with a full
// fence between on both sides, so one of the two sees the other.
void wake_if_sleeping(Peer &p) {
    SegmentHeader &h = *p.seg.header;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (load_relaxed(h.sleeping) != 0 && exchange_seq(h.sleeping, 0u) != 0) {
        char one = 1;
        [[maybe_unused]] ssize_t n = ::write(p.wake_fd, &one, 1);  // EAGAIN: it has bytes to wake up already
    }
}

void notify(Peer &p) {
    std::atomic_ref<uint64_t>(p.seg.header->posted).fetch_add(1, std::memory_order_relaxed);
    wake_if_sleeping(p);
}

// Records need no `posted`: the owner reads every ring's head while it polls,
// and a shared counter bumped per message would move its cache line between
// the cores for every record.
void Driver::publish(Peer &p) {
    store_release(p.out->head, p.out_head);
    wake_if_sleeping(p);
}

int Driver::send(int peer, const ftmpi_frame &f, const iovec *iov, int iovcnt, unsigned flags, uint64_t token) {
    if (peer < 0 || peer >= size_ || peer == rank_) return FTMPI_TRANSPORT_ERROR;
    Peer &p = peers_[static_cast<size_t>(peer)];
    if (!p.attached) return p.exited ? FTMPI_TRANSPORT_PEER_LOST : FTMPI_TRANSPORT_ERROR;  // exited: dead at wire-up
    if (!p.alive) return FTMPI_TRANSPORT_PEER_LOST;
    const bool payload = ftmpi_frame_has_payload(&f);
    const size_t len = payload ? static_cast<size_t>(f.length) : 0;
    const size_t count = payload && iov && iovcnt > 0 ? static_cast<size_t>(iovcnt) : 0;
    size_t total = 0;
    for (size_t i = 0; i < count; ++i) total += iov[i].iov_len;
    if (total != len) return FTMPI_TRANSPORT_ERROR;
    const bool copy = flags & FTMPI_SEND_COPY;
    const bool cma =
        kind_of(f) == FTMPI_FRAME_DATA && !copy && p.cma_send && len >= settings_.cma_min && count <= max_cma_iov;
    const size_t piece_cap = p.out_ring.size / 4;

    // Fast path: nothing queued ahead and the whole frame fits in one record.
    if (p.queue.empty() && !cma && len + frame_fixed <= piece_cap) {
        const size_t need = round_line(frame_fixed + len);
        if (room(p, need) >= need) {
            RecordHeader rh{record_frame, static_cast<uint32_t>(len), 0};
            p.out_ring.put(p.out_head, &rh, sizeof rh);
            p.out_ring.put(p.out_head + sizeof rh, &f, sizeof f);
            size_t seg = 0, off = 0;
            gather(p.out_ring, p.out_head + frame_fixed, iov, count, seg, off, len);
            p.out_head += need;
            publish(p);
            return FTMPI_TRANSPORT_OK;
        }
    }

    Outgoing o;
    o.cma = cma;
    o.header = f;
    o.iov.assign(iov, iov + count);
    o.left = len;
    o.token = token;
    if (cma) o.cookie = p.next_cookie++;
    const uint64_t start = p.out_head;
    bool done = false;
    if (p.queue.empty()) done = cma ? write_cma(p, o) : try_write(p, o);
    if (p.out_head != start) publish(p);
    if (done && !cma) return FTMPI_TRANSPORT_OK;
    if (copy && !cma) {
        // Keep the rest; the caller's buffer is free when we return.
        std::vector<char> rest(o.left);
        size_t at = 0;
        for (size_t s = o.seg; s < o.iov.size(); ++s) {
            size_t from = s == o.seg ? o.seg_off : 0;
            std::memcpy(rest.data() + at, static_cast<const char *>(o.iov[s].iov_base) + from, o.iov[s].iov_len - from);
            at += o.iov[s].iov_len - from;
        }
        o.owned = std::move(rest);
        o.iov.assign(1, iovec{o.owned.data(), o.owned.size()});
        o.seg = o.seg_off = 0;
    } else {
        o.report = true;
    }
    const bool was_busy = busy(p);
    p.queue.push_back(std::move(o));
    queue_changed(p, was_busy);
    if (!p.queue.front().posted && p.queue.size() == 1) want_room(p, p.need_room);
    return copy && !cma ? FTMPI_TRANSPORT_OK : FTMPI_TRANSPORT_PENDING;
}

// Writes as much of a streamed frame as the ring takes; true when all of it is in.
bool Driver::try_write(Peer &p, Outgoing &o) {
    const size_t piece_cap = p.out_ring.size / 4;  // pieces small enough to pipeline with the reader
    while (true) {
        const size_t fixed = o.header_sent ? piece_fixed : frame_fixed;
        const size_t want = std::min(o.left, piece_cap - fixed);
        const size_t free = room(p, fixed + want);
        if (free < fixed + std::min(want, min_piece)) {
            p.need_room = fixed + std::min(want, min_piece);
            return false;
        }
        const size_t chunk = std::min(want, free - fixed);
        RecordHeader rh{o.header_sent ? record_piece : record_frame, static_cast<uint32_t>(chunk), 0};
        p.out_ring.put(p.out_head, &rh, sizeof rh);
        if (!o.header_sent) p.out_ring.put(p.out_head + sizeof rh, &o.header, sizeof o.header);
        gather(p.out_ring, p.out_head + fixed, o.iov.data(), o.iov.size(), o.seg, o.seg_off, chunk);
        p.out_head += round_line(fixed + chunk);
        o.header_sent = true;
        o.left -= chunk;
        if (o.left == 0) return true;
    }
}

// Posts a single-copy descriptor; true once it is in the ring.
bool Driver::write_cma(Peer &p, Outgoing &o) {
    const size_t bytes = cma_bytes(o.iov.size());
    const size_t need = round_line(bytes);
    if (room(p, need) < need) {
        p.need_room = need;
        return false;
    }
    CmaDescriptor d{};
    d.pid = static_cast<int32_t>(::getpid());
    d.count = static_cast<uint32_t>(o.iov.size());
    for (size_t i = 0; i < o.iov.size(); ++i)
        d.iov[i] = {reinterpret_cast<uint64_t>(o.iov[i].iov_base), static_cast<uint64_t>(o.iov[i].iov_len)};
    RecordHeader rh{record_cma, 0, o.cookie};
    p.out_ring.put(p.out_head, &rh, sizeof rh);
    p.out_ring.put(p.out_head + sizeof rh, &o.header, sizeof o.header);
    p.out_ring.put(p.out_head + frame_fixed, &d, bytes - frame_fixed);
    p.out_head += need;
    o.posted = true;
    return true;
}

// Completions owed to the peer go ahead of its queue: they are not frames, and
// holding them behind a descriptor of ours could deadlock two senders.
bool Driver::push_dones(Peer &p) {
    while (!p.dones.empty()) {
        if (room(p, cache_line) < cache_line) {
            p.need_room = cache_line;
            return false;
        }
        auto [cookie, status] = p.dones.front();
        RecordHeader rh{record_cma_done, status, cookie};
        p.out_ring.put(p.out_head, &rh, sizeof rh);
        p.out_head += cache_line;
        p.dones.pop_front();
    }
    return true;
}

// Asks the receiver to kick us when it frees room; room already there makes
// the next progress() push (the receiver stores tail then reads want_space,
// we store want_space then read tail: one of the two sees the other).
void Driver::want_room(Peer &p, size_t need) {
    p.need_room = std::max(p.need_room, need);
    if (load_relaxed(p.out->want_space) == 0) store_seq(p.out->want_space, 1u);  // set: the kick is still due
    p.out_tail = load_seq(p.out->tail);
    if (room(p, p.need_room) >= p.need_room) more_ = true;
}

void Driver::push_queue(int peer) {
    Peer &p = peers_[static_cast<size_t>(peer)];
    if (!p.alive || !p.attached || !busy(p)) return;
    const bool was_busy = busy(p);
    const uint64_t start = p.out_head;
    p.need_room = 0;
    bool blocked = !push_dones(p);
    std::vector<uint64_t> sent;
    while (!blocked && !p.queue.empty()) {
        Outgoing &o = p.queue.front();
        if (o.cma) {
            if (!o.posted && !write_cma(p, o)) blocked = true;
            break;  // nothing passes a descriptor before its completion
        }
        if (!try_write(p, o)) {
            blocked = true;
            break;
        }
        if (o.report) sent.push_back(o.token);
        p.queue.pop_front();
    }
    if (p.out_head != start) publish(p);
    queue_changed(p, was_busy);
    if (blocked) want_room(p, p.need_room);
    for (uint64_t token : sent) sink_.on_sent(sink_.ctx, token);
}

void Driver::on_cma_done(int peer, uint64_t cookie, uint32_t status) {
    Peer &p = peers_[static_cast<size_t>(peer)];
    if (p.queue.empty() || !p.queue.front().cma || !p.queue.front().posted || p.queue.front().cookie != cookie)
        return;  // not ours (a dropped and forgotten send)
    Outgoing &o = p.queue.front();
    if (status == cma_refused) {
        // The receiver has the header and waits for the payload in pieces.
        p.cma_send = false;
        o.cma = o.posted = false;
        o.header_sent = true;
        for (Outgoing &later : p.queue) later.cma = false;  // not posted yet: they go as frames
        more_ = true;
        return;
    }
    const bool was_busy = busy(p);
    const uint64_t token = o.token;
    p.queue.pop_front();
    queue_changed(p, was_busy);
    sink_.on_sent(sink_.ctx, token);
}

}  // namespace ftmpi::shm
