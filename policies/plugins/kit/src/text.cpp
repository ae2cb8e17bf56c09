// See text.hpp.
#include <harness/policy/kit/text.hpp>

#include <algorithm>

namespace harness::policy::kit {

void write_text(char *buf, std::size_t len, std::string_view text) noexcept {
    if (!buf || len == 0) return;
    std::size_t n = std::min(text.size(), len - 1);
    for (std::size_t i = 0; i < n; ++i) buf[i] = (text[i] == '\n' || text[i] == '\r') ? ' ' : text[i];
    buf[n] = '\0';
}

}  // namespace harness::policy::kit
