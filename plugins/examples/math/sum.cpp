#include "math.hpp"

#include <harness/common/plugin.hpp>

#include <string>

namespace harness::examples::math {

int sum(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept {
    std::int64_t total = 0;
    std::int64_t count = 0;
    while (harness_peek_type(args) != 0) {
        int tag = harness_peek_type(args);
        if (tag != HARNESS_T_I64) {
            set_call_error(ctx,
                           "sum: item " + std::to_string(count + 1) + " is not an i64 (type tag " +
                               std::to_string(tag) + ")");
            return HARNESS_ERR_TYPE_MISMATCH;
        }
        std::int64_t v = 0;
        if (harness_unpack_i64(args, &v) != 0) {
            set_call_error(ctx, "sum: item " + std::to_string(count + 1) + " is truncated");
            return HARNESS_ERR_INVALID_ARGUMENT;
        }
        if (__builtin_add_overflow(total, v, &total)) {
            set_call_error(ctx, "sum: the total overflows i64");
            return HARNESS_ERR_INVALID_ARGUMENT;
        }
        ++count;
    }
    harness_pack_i64(out, total);
    harness_pack_i64(out, count);
    if (out->error) {
        set_call_error(ctx, "sum: out of memory");
        return HARNESS_ERR_INTERNAL;
    }
    return HARNESS_OK;
}

}  // namespace harness::examples::math
