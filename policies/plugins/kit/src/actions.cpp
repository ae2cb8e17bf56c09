// See protocol.hpp.
#include <harness/policy/kit/protocol.hpp>

namespace harness::policy::kit {

namespace {

// The launcher's answer: "" for OK, else its reason (or a stand-in when it gave none).
std::string answer(std::int32_t rc, const char *why, const char *action) {
    if (rc == HARNESS_POLICY_OK) return "";
    std::string text = why && *why ? why : std::string(action) + " refused";
    return text;
}

}  // namespace

std::string Actions::start_on(int rank, int host) const {
    if (!a_.start_on) return "the launcher cannot start_on";
    char why[256] = {};
    return answer(a_.start_on(a_.launcher, rank, host, why, sizeof why), why, "start_on");
}

std::string Actions::migrate(int rank, bool avoid_switch) const {
    if (!a_.migrate) return "the launcher cannot migrate";
    char why[256] = {};
    return answer(a_.migrate(a_.launcher, rank, avoid_switch ? 1 : 0, why, sizeof why), why, "migrate");
}

std::string Actions::promote(int rank) const {
    if (!a_.promote) return "the launcher cannot promote";
    char why[256] = {};
    return answer(a_.promote(a_.launcher, rank, why, sizeof why), why, "promote");
}

std::string Actions::leave_out(int rank, const std::string &reason) const {
    if (!a_.leave_out) return "the launcher cannot leave_out";
    return answer(a_.leave_out(a_.launcher, rank, reason.c_str()), nullptr, "leave_out");
}

}  // namespace harness::policy::kit
