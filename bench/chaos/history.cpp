#include "history.hpp"

#include <cstdio>

namespace harness::chaos {

namespace {

std::string ms(std::int64_t ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
    return buf;
}

}  // namespace

std::string describe(const Op &op) {
    std::string s = "c" + std::to_string(op.client) + " ";
    switch (op.kind) {
    case OpKind::put: s += "put " + op.key + " (" + op.value + ")"; break;
    case OpKind::get: s += "get " + op.key; break;
    case OpKind::cas: s += "cas " + op.key + " (exp " + std::to_string(op.expected) + ", " + op.value + ")"; break;
    }
    s += " -> ";
    if (op.indeterminate) {
        s += "? (indeterminate)";
    } else {
        switch (op.kind) {
        case OpKind::put: s += "v" + std::to_string(op.version); break;
        case OpKind::get: s += op.found ? op.got + " v" + std::to_string(op.version) : "absent"; break;
        case OpKind::cas: s += (op.found ? "ok v" : "failed, v") + std::to_string(op.version); break;
        }
    }
    s += " [" + ms(op.call_ns) + ", " + (op.indeterminate ? "?" : ms(op.return_ns)) + "]";
    return s;
}

}  // namespace harness::chaos
