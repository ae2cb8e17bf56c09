// Port names: formatting, parsing, and this process's job id.
#include "dynamic/port_name.hpp"

#include "settings/values.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace ftmpi::dynamic {
namespace {
constexpr const char *port_prefix = "ftmpi-port:";

// A decimal int in [0, INT_MAX] that fills text[begin, end).
std::optional<int> port_field(const std::string &text, size_t begin, size_t end) {
    if (begin >= end || end - begin > 10) return std::nullopt;
    long long v = 0;
    for (size_t i = begin; i < end; ++i) {
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
        v = v * 10 + (text[i] - '0');
    }
    if (v > INT_MAX) return std::nullopt;
    return static_cast<int>(v);
}
}  // namespace

const std::string &job_id() {
    static const std::string id = [] {
        const auto &env = settings::current();
        const std::string job = env.text(settings::Id::job);
        if (job.empty()) return "pid" + std::to_string(getpid());
        // Job ids count from 1 in each VM: two jobs launched on two VMs
        // (each ftmpirun on a private daemon) may share one; the launch's
        // key tells them apart.
        const std::string key = env.text(settings::Id::job_key);
        return key.empty() ? job : job + "-" + key;
    }();
    return id;
}

std::string format_port(const PortName &p) {
    std::string name = port_prefix + p.job + ":" + std::to_string(p.world) + ":" + std::to_string(p.number);
    return p.address.empty() ? name : name + "@" + p.address;
}

namespace {
// "host:port" with a host and a decimal port.
bool is_address(const std::string &a) {
    const size_t colon = a.rfind(':');
    return colon != std::string::npos && colon > 0 && port_field(a, colon + 1, a.size()).has_value();
}

std::optional<PortName> parse_without_address(const std::string &s) {
    const size_t start = std::strlen(port_prefix);
    if (s.compare(0, start, port_prefix) != 0) return std::nullopt;
    // The last two fields are numbers; the job is what lies before them.
    const size_t last = s.rfind(':');
    if (last == std::string::npos || last < start) return std::nullopt;
    const size_t middle = s.rfind(':', last - 1);
    if (middle == std::string::npos || middle <= start) return std::nullopt;
    auto world = port_field(s, middle + 1, last);
    auto number = port_field(s, last + 1, s.size());
    if (!world || !number) return std::nullopt;
    return PortName{s.substr(start, middle - start), *world, *number, {}};
}
}  // namespace

std::optional<PortName> parse_port(const char *text) {
    if (text == nullptr) return std::nullopt;
    const std::string s(text, strnlen(text, 4096));
    if (const size_t at = s.rfind('@'); at != std::string::npos && is_address(s.substr(at + 1))) {
        if (auto p = parse_without_address(s.substr(0, at))) {
            p->address = s.substr(at + 1);
            return p;
        }
    }
    return parse_without_address(s);
}

}  // namespace ftmpi::dynamic
