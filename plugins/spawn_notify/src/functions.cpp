#include "functions.hpp"

#include "instance.hpp"

#include <harness/common/pack.hpp>
#include <harness/common/plugin.hpp>

#include <chrono>
#include <string>
#include <utility>

namespace harness::vm::spawn {

namespace {

// Reads the arguments in order and remembers the first that is missing or of
// the wrong type, so the caller learns which one.
class Args {
public:
    Args(const char *function, harness_reader *r) : function_(function), r_(r) {}

    std::int64_t i64(const char *field) {
        std::int64_t v = 0;
        if (ok() && harness_unpack_i64(r_, &v) != 0) fail(field, "i64");
        return v;
    }
    std::int32_t i32(const char *field) {
        std::int32_t v = 0;
        if (ok() && harness_unpack_i32(r_, &v) != 0) fail(field, "i32");
        return v;
    }
    bool boolean(const char *field) {
        int v = 0;
        if (ok() && harness_unpack_bool(r_, &v) != 0) fail(field, "bool");
        return v != 0;
    }
    std::string str(const char *field) {
        const char *p = nullptr;
        std::size_t n = 0;
        if (ok() && harness_unpack_str(r_, &p, &n) != 0) fail(field, "str");
        return ok() ? std::string(p, n) : std::string();
    }
    std::span<const std::uint8_t> bytes(const char *field) {
        const void *p = nullptr;
        std::size_t n = 0;
        if (ok() && harness_unpack_bytes(r_, &p, &n) != 0) fail(field, "bytes");
        return ok() ? std::span<const std::uint8_t>(static_cast<const std::uint8_t *>(p), n)
                    : std::span<const std::uint8_t>();
    }
    // A count that must lie in 0..max.
    std::int64_t count(const char *field, std::int64_t max) {
        std::int64_t n = i64(field);
        if (ok() && (n < 0 || n > max))
            error_ = std::string(function_) + ": " + field + " = " + std::to_string(n) + " is outside 0.." +
                std::to_string(max);
        return ok() ? n : 0;
    }
    std::chrono::milliseconds wait_ms(const char *field) {
        std::int64_t ms = i64(field);
        if (ok() && ms < 0) error_ = std::string(function_) + ": " + field + " is negative";
        return std::chrono::milliseconds(std::min(std::max<std::int64_t>(ms, 0), kMaxWaitMs));
    }
    // After the last field: nothing may follow.
    bool finish() {
        if (ok() && !harness_reader_done(r_))
            error_ = std::string(function_) + ": unexpected items after the last argument";
        return ok();
    }
    bool ok() const { return error_.empty(); }
    const std::string &error() const { return error_; }

private:
    void fail(const char *field, const char *type) {
        error_ = std::string(function_) + ": argument " + field + " (" + type + ") is missing or of another type";
    }
    const char *function_;
    harness_reader *r_;
    std::string error_;
};

int invalid(harness_call_ctx *ctx, const std::string &message) {
    set_call_error(ctx, message);
    return HARNESS_ERR_INVALID_ARGUMENT;
}

int failed(harness_call_ctx *ctx, const Error &e) {
    set_call_error(ctx, e.message);
    return e.status;
}

int packed_reply(harness_call_ctx *ctx, harness_buf *out) {
    if (!out->error) return HARNESS_OK;
    set_call_error(ctx, "spawn_notify: out of memory packing the reply");
    return HARNESS_ERR_INTERNAL;
}

Instance &instance(harness_call_ctx *ctx) {
    return *static_cast<Instance *>(ctx->plugin_state);
}

// Runs body behind the common guard; every entry needs the plugin's state.
template <class Body>
int guarded(harness_call_ctx *ctx, const char *function, Body &&body) noexcept {
    if (!ctx || !ctx->plugin_state) return HARNESS_ERR_INTERNAL;
    return guarded_call(ctx, function, std::forward<Body>(body));
}

}  // namespace

int fn_spawn(harness_call_ctx *ctx, harness_reader *r, harness_buf *out) noexcept {
    return guarded(ctx, "spawn", [&] {
        Args a("spawn", r);
        SpawnRequest req;
        std::int64_t argc = a.count("argc", 4096);
        for (std::int64_t i = 0; i < argc && a.ok(); ++i) req.argv.push_back(a.str("argv[i]"));
        std::int64_t envc = a.count("envc", 4096);
        for (std::int64_t i = 0; i < envc && a.ok(); ++i) req.env.push_back(a.str("env[i]"));
        req.cwd = a.str("cwd");
        req.tag = a.str("tag");
        req.notify_topic = a.str("notify_topic");
        if (!a.finish()) return invalid(ctx, a.error());
        Instance &self = instance(ctx);
        auto started = self.table->spawn(req, self.daemon_environment());
        if (!started) return failed(ctx, started.error());
        harness_pack_i64(out, started->handle);
        harness_pack_i64(out, started->pid);
        return packed_reply(ctx, out);
    });
}

int fn_signal(harness_call_ctx *ctx, harness_reader *r, harness_buf *out) noexcept {
    return guarded(ctx, "signal", [&] {
        Args a("signal", r);
        std::int64_t handle = a.i64("handle");
        std::int32_t sig = a.i32("signal");
        bool group = a.boolean("whole_group");
        if (!a.finish()) return invalid(ctx, a.error());
        auto done = instance(ctx).table->signal(handle, sig, group);
        if (!done) return failed(ctx, done.error());
        return packed_reply(ctx, out);
    });
}

int fn_status(harness_call_ctx *ctx, harness_reader *r, harness_buf *out) noexcept {
    return guarded(ctx, "status", [&] {
        Args a("status", r);
        std::int64_t handle = a.i64("handle");
        if (!a.finish()) return invalid(ctx, a.error());
        auto s = instance(ctx).table->status(handle);
        if (!s) return failed(ctx, s.error());
        harness_pack_strn(out, s->state.data(), s->state.size());
        harness_pack_i32(out, s->exit_code);
        harness_pack_i32(out, s->signal);
        harness_pack_strn(out, s->mpi_state.data(), s->mpi_state.size());
        return packed_reply(ctx, out);
    });
}

int fn_wait(harness_call_ctx *ctx, harness_reader *r, harness_buf *out) noexcept {
    return guarded(ctx, "wait", [&] {
        Args a("wait", r);
        std::int64_t after = a.i64("after_event");
        auto wait = a.wait_ms("wait_ms");
        if (!a.finish()) return invalid(ctx, a.error());
        ExitBatch batch = instance(ctx).table->wait(after, wait);
        harness_pack_i64(out, batch.next_event);
        harness_pack_i64(out, static_cast<std::int64_t>(batch.events.size()));
        for (const auto &e : batch.events) {
            harness_pack_i64(out, e.handle);
            harness_pack_strn(out, e.tag.data(), e.tag.size());
            harness_pack_i32(out, e.exit_code);
            harness_pack_i32(out, e.signal);
        }
        return packed_reply(ctx, out);
    });
}

int fn_output(harness_call_ctx *ctx, harness_reader *r, harness_buf *out) noexcept {
    return guarded(ctx, "output", [&] {
        Args a("output", r);
        std::int64_t handle = a.i64("handle");
        std::int64_t after = a.i64("after_line");
        auto wait = a.wait_ms("wait_ms");
        if (!a.finish()) return invalid(ctx, a.error());
        auto reply = instance(ctx).table->output(handle, after, wait);
        if (!reply) return failed(ctx, reply.error());
        harness_pack_i64(out, reply->batch.next_line);
        harness_pack_i64(out, static_cast<std::int64_t>(reply->batch.lines.size()));
        for (const auto &line : reply->batch.lines) {
            harness_pack_i32(out, line.stream);
            harness_pack_strn(out, line.text.data(), line.text.size());
        }
        harness_pack_bool(out, reply->finished);
        return packed_reply(ctx, out);
    });
}

int fn_stdin(harness_call_ctx *ctx, harness_reader *r, harness_buf *out) noexcept {
    return guarded(ctx, "stdin", [&] {
        Args a("stdin", r);
        std::int64_t handle = a.i64("handle");
        auto data = a.bytes("data");
        bool close = a.boolean("close");
        auto wait = a.wait_ms("wait_ms");
        if (!a.finish()) return invalid(ctx, a.error());
        auto taken = instance(ctx).table->write_stdin(handle, data, close, wait);
        if (!taken) return failed(ctx, taken.error());
        harness_pack_i64(out, *taken);
        return packed_reply(ctx, out);
    });
}

}  // namespace harness::vm::spawn
