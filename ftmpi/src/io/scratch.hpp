// Reusable buffers for the two-phase exchange (two_phase.cpp). A collective
// access moves its data through three large buffers: what a member sends to
// the aggregators, what an aggregator receives, and the block it writes or
// reads at once. Fresh ones cost a page fault every 4 KiB on each call (and
// std::vector also zero-fills them), which made a 1 MiB collective write
// 20 times slower than the file access itself. A file keeps one idle set.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>

namespace ftmpi::io {

// An uninitialised byte buffer that only grows.
class ScratchBuffer {
public:
    // At least n bytes (n = 0 gives a valid pointer too); the contents are
    // unspecified after growing.
    unsigned char *get(std::size_t n) {
        if (n > capacity_ || !bytes_) {
            bytes_.reset(new unsigned char[n > 0 ? n : 1]);
            capacity_ = n;
        }
        return bytes_.get();
    }
    std::size_t capacity() const { return capacity_; }

private:
    std::unique_ptr<unsigned char[]> bytes_;
    std::size_t capacity_ = 0;
};

struct ScratchSet {
    ScratchBuffer to_aggregators;  // a member's outgoing pieces (a read: the replies)
    ScratchBuffer at_aggregator;   // an aggregator's incoming pieces
    ScratchBuffer block;           // an aggregator's file block
};

// Hands out sets so that calls which overlap (threads on one file) never
// share one; keeps at most one idle set, and none larger than kKeepAtMost.
class ScratchPool {
public:
    static constexpr std::size_t kKeepAtMost = std::size_t{256} << 20;

    std::unique_ptr<ScratchSet> take() {
        std::lock_guard lock(mutex_);
        if (idle_) return std::move(idle_);
        return std::make_unique<ScratchSet>();
    }
    void give(std::unique_ptr<ScratchSet> set) {
        const std::size_t held = set->to_aggregators.capacity() + set->at_aggregator.capacity() + set->block.capacity();
        if (held > kKeepAtMost) return;
        std::lock_guard lock(mutex_);
        if (!idle_) idle_ = std::move(set);
    }

private:
    std::mutex mutex_;
    std::unique_ptr<ScratchSet> idle_;
};

}  // namespace ftmpi::io
