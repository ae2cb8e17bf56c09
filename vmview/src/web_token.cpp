#include <harness/vmview/web_token.hpp>

#include <string_view>

namespace harness::vmview {

std::string web_token(const VmKey &key) {
    // A fixed label: changing it (say, to rotate every token) means a new "v".
    constexpr std::string_view kLabel = "harness web view token v1";
    const auto *label = reinterpret_cast<const std::uint8_t *>(kLabel.data());
    return to_hex(hmac_sha256(key, {std::span<const std::uint8_t>(label, kLabel.size())}));
}

}  // namespace harness::vmview
