// See launcher_actions.hpp.
#include "launcher_actions.hpp"

#include <cstring>
#include <exception>

namespace harness::policy::detail {

namespace {

void write_why(char *why, size_t why_len, const std::string &text) {
    if (!why || why_len == 0) return;
    std::size_t n = std::min(text.size(), why_len - 1);
    std::memcpy(why, text.data(), n);
    why[n] = '\0';
}

template <class Call>
int32_t answer(char *why, size_t why_len, Call &&call) noexcept {
    try {
        std::string refused = call();
        if (refused.empty()) return HARNESS_POLICY_OK;
        write_why(why, why_len, refused);
    } catch (const std::exception &e) {
        write_why(why, why_len, std::string("the launcher failed: ") + e.what());
    } catch (...) {
        write_why(why, why_len, "the launcher failed");
    }
    return HARNESS_POLICY_REFUSED;
}

Launcher &of(void *launcher) {
    return *static_cast<Launcher *>(launcher);
}

int32_t start_on(void *launcher, int32_t rank, int32_t host, char *why, size_t why_len) noexcept {
    return answer(why, why_len, [&] { return of(launcher).start_on(rank, host); });
}

int32_t migrate(void *launcher, int32_t rank, int32_t avoid_switch, char *why, size_t why_len) noexcept {
    return answer(why, why_len, [&] { return of(launcher).migrate(rank, avoid_switch != 0); });
}

int32_t promote(void *launcher, int32_t rank, char *why, size_t why_len) noexcept {
    return answer(why, why_len, [&] { return of(launcher).promote(rank); });
}

int32_t leave_out(void *launcher, int32_t rank, const char *reason) noexcept {
    return answer(nullptr, 0, [&] {
        of(launcher).leave_out(rank, reason ? reason : "");
        return std::string();
    });
}

}  // namespace

harness_policy_actions actions_for(Launcher &launcher) {
    harness_policy_actions a{};
    a.struct_size = sizeof a;
    a.launcher = &launcher;
    a.start_on = start_on;
    a.migrate = migrate;
    a.promote = promote;
    a.leave_out = leave_out;
    return a;
}

}  // namespace harness::policy::detail
