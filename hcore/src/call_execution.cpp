#include "call_execution.hpp"

#include <harness/common/signature.hpp>

namespace harness::hcore {

Outcome ok_outcome(std::span<const std::uint8_t> result) {
    Packer p;
    p.bytes(result);
    return {HARNESS_OK, p.take()};
}

Outcome error_outcome(int status, std::string_view message) {
    Packer p;
    p.str(message);
    return {status == HARNESS_OK ? HARNESS_ERR_INTERNAL : status, p.take()};
}

Outcome error_outcome(const Error &e) {
    return error_outcome(e.status, e.message);
}

namespace {

// A plugin's error text, or the status name when it wrote none.
std::string plugin_message(const harness_buf &err, int status, const harness_function &f) {
    std::string why = err.len ? std::string(reinterpret_cast<const char *>(err.data), err.len)
                              : std::string(harness_status_string(status));
    return std::string(f.name) + ": " + why;
}

}  // namespace

Outcome execute_call(const LoadedPlugin &plugin, const harness_function &f, std::size_t function_index,
                     std::span<const std::uint8_t> args, int raw_fd, const harness_host_api *host) {
    harness_buf err{};
    harness_call_ctx ctx{sizeof(harness_call_ctx), plugin.state, host, &err};
    struct FreeErr {
        harness_buf &b;
        ~FreeErr() { harness_buf_free(&b); }
    } free_err{err};

    switch (f.convention) {
    case HARNESS_CALL_RAW: {
        if (raw_fd < 0) return error_outcome(HARNESS_ERR_NOT_SUPPORTED, "RAW functions need a stream connection");
        int status = f.raw(&ctx, raw_fd);
        if (status != HARNESS_OK) return error_outcome(status, plugin_message(err, status, f));
        return ok_outcome({});
    }
    case HARNESS_CALL_PACKED: {
        harness_reader reader = harness_reader_make(args.data(), args.size());
        Packer out;
        int status = f.packed(&ctx, &reader, out.c_buf());
        if (status != HARNESS_OK) return error_outcome(status, plugin_message(err, status, f));
        if (out.failed()) return error_outcome(HARNESS_ERR_INTERNAL, "out of memory packing the reply");
        return ok_outcome(out.view());
    }
    case HARNESS_CALL_AUTO: {
        const Signature &sig = plugin.signatures.at(function_index);
        auto values = unpack_values(sig, args);
        if (!values) return error_outcome(values.error().status, std::string(f.name) + ": " + values.error().message);
        harness_value result{};
        int status = f.automatic(&ctx, values->data(), values->size(), &result);
        if (status != HARNESS_OK) {
            release_value(result);
            return error_outcome(status, plugin_message(err, status, f));
        }
        if (static_cast<int>(result.type) != sig.result) {
            release_value(result);
            return error_outcome(HARNESS_ERR_PLUGIN_FAILED,
                                 std::string(f.name) + " returned " + type_name(static_cast<int>(result.type)) +
                                     " but its signature says " + sig.to_string());
        }
        Packer out;
        pack_value(out, result);
        release_value(result);
        return ok_outcome(out.view());
    }
    }
    return error_outcome(HARNESS_ERR_NOT_SUPPORTED, "unknown calling convention");
}

Bytes encode_outcome(const Outcome &o) {
    Packer p;
    p.i32(o.status).bytes(o.body);
    return p.take();
}

Result<Outcome> decode_outcome(std::span<const std::uint8_t> bytes) {
    Unpacker u(bytes);
    Outcome o;
    if (!u.i32(o.status) || !u.bytes(o.body) || !u.done())
        return make_error(HARNESS_ERR_CRASHED, "the handler process sent a malformed reply");
    return o;
}

}  // namespace harness::hcore
