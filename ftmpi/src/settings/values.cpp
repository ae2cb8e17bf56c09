// Reading the settings' values (values.hpp).
#include "settings/values.hpp"

#include <atomic>
#include <climits>
#include <cstring>

extern char **environ;

namespace ftmpi::settings {

Values::Environment Values::environment() {
    Environment env;
    for (char **e = environ; e && *e; ++e) {
        if (std::strncmp(*e, "FTMPI_", 6) != 0) continue;
        const char *eq = std::strchr(*e, '=');
        if (eq == nullptr) continue;
        env.emplace(std::string(*e, static_cast<std::size_t>(eq - *e)), eq + 1);
    }
    return env;
}

Values::Values(const Environment &env) : env_(env) {
    for (const Setting &s : table()) {
        Slot &slot = slots_[static_cast<std::size_t>(s.id)];
        if (s.fallback != nullptr) {
            auto fallback = parse(s, s.fallback);
            if (fallback)
                slot.value = std::move(*fallback);
            else
                problems_.push_back("the default of " + std::string(s.env) + ": " + fallback.error().message);
        }
        const auto it = env.find(s.env);
        if (it == env.end() || it->second.empty()) continue;
        slot.set = true;
        slot.given = it->second;
        auto parsed = parse(s, it->second);
        if (parsed) {
            slot.value = std::move(*parsed);
        } else {
            slot.valid = false;
            problems_.push_back(parsed.error().message);
        }
    }
}

int Values::integer(Id id) const {
    const long long n = number(id);
    return n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : static_cast<int>(n);
}

std::optional<bool> Values::optional_flag(Id id) const {
    if (!is_set(id) || !valid(id)) return std::nullopt;
    return flag(id);
}

std::string Values::problems_text() const {
    std::string text;
    for (const std::string &p : problems_) text += (text.empty() ? "" : "; ") + p;
    if (!text.empty()) text += " (ftmpi_info lists every setting)";
    return text;
}

std::vector<std::pair<std::string, std::string>> Values::family(std::string_view prefix) const {
    std::vector<std::pair<std::string, std::string>> found;
    for (const auto &[name, value] : env_)
        if (name.starts_with(prefix) && find(name) == nullptr) found.emplace_back(name, value);
    return found;
}

namespace {

// Never freed: a reference from before MPI_Init (a string's c_str()) stays good.
std::atomic<const Values *> published{nullptr};

}  // namespace

const Values &current() {
    if (const Values *v = published.load(std::memory_order_acquire)) return *v;
    static const Values before_init(Values::environment());
    const Values *expected = nullptr;
    published.compare_exchange_strong(expected, &before_init, std::memory_order_acq_rel);
    return *published.load(std::memory_order_acquire);
}

const Values &read_at_init() {
    static const Values at_init(Values::environment());
    published.store(&at_init, std::memory_order_release);
    return at_init;
}

const Values &read_after_promotion() {
    static const Values promoted(Values::environment());
    published.store(&promoted, std::memory_order_release);
    return promoted;
}

}  // namespace ftmpi::settings
