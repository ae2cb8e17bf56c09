#include "vm_service_kit/names.hpp"

#include <string>

namespace harness::vmsvc {

Result<void> check_name(std::string_view what, std::string_view name) {
    auto bad = [&](const std::string &why) {
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          std::string(what) + " '" + std::string(name.substr(0, 64)) + "': " + why);
    };
    if (name.empty()) return bad("empty");
    if (name.size() > kMaxNameLength) return bad("longer than " + std::to_string(kMaxNameLength) + " characters");
    for (char c : name) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
            c == ':' || c == '/' || c == '-';
        if (!ok) return bad("only A-Z a-z 0-9 _ . : / - are allowed");
    }
    std::size_t start = 0;
    while (start <= name.size()) {
        auto end = name.find('/', start);
        if (end == std::string_view::npos) end = name.size();
        auto segment = name.substr(start, end - start);
        if (segment.empty()) return bad("empty path segment");
        if (segment == "." || segment == "..") return bad("'.' and '..' segments are not allowed");
        start = end + 1;
    }
    return {};
}

}  // namespace harness::vmsvc
