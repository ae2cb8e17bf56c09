// libFuzzer target: a frame as it arrives on a socket — header decode, then
// the body as a pack buffer of arbitrary items. Property: decoding never
// crashes, and a body that unpacks completely re-packs to the same bytes.
#include <harness/common/pack.hpp>
#include <harness/common/protocol.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace harness;

namespace {

// Unpacks every item of body and packs it again into out; false on the first
// bad item.
bool repack(std::span<const std::uint8_t> body, Packer &out) {
    Unpacker u(body);
    while (!u.done()) {
        switch (u.peek_type()) {
        case HARNESS_T_I32: {
            std::int32_t v;
            if (!u.i32(v)) return false;
            out.i32(v);
            break;
        }
        case HARNESS_T_I64: {
            std::int64_t v;
            if (!u.i64(v)) return false;
            out.i64(v);
            break;
        }
        case HARNESS_T_U64: {
            std::uint64_t v;
            if (!u.u64(v)) return false;
            out.u64(v);
            break;
        }
        case HARNESS_T_F64: {
            double v;
            if (!u.f64(v)) return false;
            out.f64(v);
            break;
        }
        case HARNESS_T_BOOL: {
            bool v;
            if (!u.boolean(v)) return false;
            out.boolean(v);
            break;
        }
        case HARNESS_T_STR: {
            std::string_view v;
            if (!u.str_view(v)) return false;
            out.str(v);
            break;
        }
        case HARNESS_T_BYTES: {
            std::span<const std::uint8_t> v;
            if (!u.bytes(v)) return false;
            out.bytes(v);
            break;
        }
        default: return false;
        }
    }
    return !u.failed();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::span<const std::uint8_t> in(data, size);
    auto h = protocol::decode_header(in, 1u << 16);
    if (!h) return 0;
    if (h->body_len > size - protocol::kHeaderSize) return 0;  // still being received
    auto body = in.subspan(protocol::kHeaderSize, h->body_len);

    // A decoded header encodes back to the same 24 bytes.
    auto again = protocol::encode_header(*h);
    if (std::memcmp(again.data(), data, protocol::kHeaderSize) != 0) std::abort();

    Packer out;
    if (repack(body, out)) {
        // NaN payloads and bool encodings are preserved bit for bit, so the
        // re-encoding must be identical.
        if (!std::equal(out.view().begin(), out.view().end(), body.begin(), body.end())) std::abort();
    }
    return 0;
}
