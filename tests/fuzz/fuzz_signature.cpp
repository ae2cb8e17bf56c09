// libFuzzer target: AUTO signatures and argument checking.
// Input: signature text, a NUL byte, then packed arguments. Properties: a
// parsed signature prints to a text that parses to the same signature, and
// arguments accepted by unpack_values pack back to the same bytes.
#include <harness/common/signature.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

using namespace harness;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const auto *nul = static_cast<const std::uint8_t *>(std::memchr(data, 0, size));
    std::size_t text_len = nul ? static_cast<std::size_t>(nul - data) : size;
    std::string_view text(reinterpret_cast<const char *>(data), text_len);
    auto sig = parse_signature(text);
    if (!sig) return 0;
    auto printed = sig->to_string();
    auto again = parse_signature(printed);
    if (!again || !(again.value() == sig.value()) || again->to_string() != printed) std::abort();
    if (!nul) return 0;

    std::span<const std::uint8_t> packed(nul + 1, size - text_len - 1);
    auto values = unpack_values(sig.value(), packed);
    if (!values) return 0;
    if (values->size() != sig->args.size()) std::abort();
    Packer p;
    for (std::size_t i = 0; i < values->size(); ++i) {
        if (static_cast<int>((*values)[i].type) != sig->args[i]) std::abort();
        pack_value(p, (*values)[i]);
    }
    if (!std::equal(p.view().begin(), p.view().end(), packed.begin(), packed.end())) std::abort();
    return 0;
}
