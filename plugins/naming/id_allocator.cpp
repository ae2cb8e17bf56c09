#include "id_allocator.hpp"

#include <algorithm>
#include <limits>

namespace harness::vmsvc {

Result<std::int64_t> IdAllocator::allocate(const std::string &space, std::int64_t count, std::int64_t term) {
    if (count < 1 || count > limits_.max_count)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "count must be 1.." + std::to_string(limits_.max_count));
    std::lock_guard lock(mutex_);
    if (term != term_) {
        blocks_.clear();
        term_ = term;
    }
    Block &b = blocks_[space];
    if (b.limit - b.next >= count) {
        std::int64_t first = b.next;
        b.next += count;
        return first;
    }
    const std::string key = key_of(space);
    for (int round = 0; round < 32; ++round) {
        auto record = store_.get(key, true);
        if (!record) return record.error();
        std::int64_t next = 1, version = 0;
        if (*record) {
            Unpacker u((*record)->value);
            if (!u.i64(next) || !u.done() || next < 1)
                return make_error(HARNESS_ERR_INTERNAL, "DRD record " + key + " is malformed");
            version = (*record)->version;
        }
        std::int64_t want = std::max(count, limits_.block);
        if (next > std::numeric_limits<std::int64_t>::max() - want)
            return make_error(HARNESS_ERR_BUSY, "id space " + space + " is exhausted");
        Packer value;
        value.i64(next + want);
        // An error leaves it open whether the block was reserved; either way
        // nobody else will get it, so it is simply skipped.
        auto c = store_.cas(key, version, value.view());
        if (!c) return c.error();
        if (c->ok) {
            b.next = next + count;
            b.limit = next + want;
            return next;
        }
    }
    return make_error(HARNESS_ERR_BUSY, "id space " + space + ": other writers keep moving it; retry");
}

}  // namespace harness::vmsvc
