// placement/sliding: one harness::placement::Placement per job, built from
// the launcher's map (rank extents, rank → host, failed hosts) and kept
// between failures, so its count of slides per dimension steers the next
// slide as in the library. fail() plans before it applies: a buffer too
// small for the moves changes nothing.
#include "sliding.hpp"

#include <harness/placement/placement.hpp>
#include <harness/policy/kit/config.hpp>
#include <harness/policy/kit/text.hpp>

#include <memory>
#include <stdexcept>
#include <variant>

namespace harness::policy::placements {

namespace {

namespace hp = harness::placement;

struct Sliding {
    hp::Placement placement;
    hp::Method method;
};

std::vector<int> copy_ints(const int32_t *values, int count, const char *what) {
    if (count > 0 && !values) throw std::invalid_argument(std::string("layout: no ") + what);
    return std::vector<int>(values, values + (count > 0 ? count : 0));
}

hp::Placement placement_of(const harness_policy_layout &layout) {
    if (layout.dims < 1 || layout.dims > 6)
        throw std::invalid_argument("layout: " + std::to_string(layout.dims) + " dimensions (1 to 6)");
    hp::HostGrid grid(copy_ints(layout.host_extents, layout.dims, "host extents"), layout.torus != 0);
    std::string spares(kit::text_of(layout.spares));
    if (!spares.empty()) hp::SparePattern::parse(spares).check(grid);
    std::vector<int> rank_extents = copy_ints(layout.rank_extents, layout.dims, "rank extents");
    std::vector<int> rank_host = copy_ints(layout.rank_host, layout.ranks, "rank hosts");
    std::vector<int> failed = copy_ints(layout.failed_hosts, layout.failed_count, "failed hosts");
    return hp::Placement(std::move(grid), std::move(rank_extents), std::move(rank_host), failed);
}

void *open(const harness_policy_config *config, const harness_policy_layout *layout, char *why,
           size_t why_len) noexcept {
    return kit::guarded_open(why, why_len, [&]() -> void * {
        kit::Config c(config);
        std::string method_text = c.take("method").value_or("hybrid(all)");
        c.finish();
        if (!layout || layout->struct_size < sizeof(harness_policy_layout))
            throw std::invalid_argument("missing or too small layout");
        hp::Placement placement = placement_of(*layout);
        hp::Method method;
        try {
            method = hp::Method::parse(method_text, layout->dims);
        } catch (const std::exception &e) {
            throw std::invalid_argument("method '" + method_text + "': " + e.what());
        }
        return new Sliding{std::move(placement), std::move(method)};
    });
}

// The substitution fail() would apply, or the joined refusals.
hp::Outcome plan(const Sliding &s, int host, const std::vector<int> &avoid) {
    std::string reasons;
    for (int degree : s.method.degrees) {
        hp::Outcome outcome = s.placement.plan(host, degree, avoid);
        if (std::holds_alternative<hp::Substitution>(outcome)) return outcome;
        reasons += (reasons.empty() ? "" : "; ") + std::get<hp::Refusal>(outcome).reason;
    }
    return hp::Refusal{reasons.empty() ? "no method given" : reasons};
}

int32_t fail_avoiding(void *placement, int32_t host, const int32_t *avoid_hosts, int32_t avoid_count,
                      harness_policy_move *moves, int32_t max_moves, int32_t *count, char *method, size_t method_len,
                      char *why, size_t why_len) noexcept {
    return kit::guarded(why, why_len, [&]() -> int32_t {
        if (!placement || !count || (max_moves > 0 && !moves) || (avoid_count > 0 && !avoid_hosts)) {
            kit::write_text(why, why_len, "missing placement, moves, count or avoided hosts");
            return HARNESS_POLICY_INVALID;
        }
        const std::vector<int> avoid = copy_ints(avoid_hosts, avoid_count, "avoided hosts");
        auto &s = *static_cast<Sliding *>(placement);
        if (host < 0 || host >= s.placement.grid().size()) {
            kit::write_text(why, why_len, "host " + std::to_string(host) + " is outside the grid");
            return HARNESS_POLICY_INVALID;
        }
        if (s.placement.failed(host)) {
            kit::write_text(why, why_len, "host " + std::to_string(host) + " has already failed");
            return HARNESS_POLICY_INVALID;
        }
        hp::Outcome planned = plan(s, host, avoid);
        if (auto *refusal = std::get_if<hp::Refusal>(&planned)) {
            kit::write_text(why, why_len, refusal->reason);
            return HARNESS_POLICY_REFUSED;
        }
        const auto &needed = std::get<hp::Substitution>(planned).moves;
        if (static_cast<int64_t>(needed.size()) > max_moves) {
            *count = static_cast<int32_t>(needed.size());  // the buffer it takes
            kit::write_text(why, why_len,
                            std::to_string(needed.size()) + " moves, room for " + std::to_string(max_moves));
            return HARNESS_POLICY_TOO_MANY;
        }
        hp::Outcome applied = s.placement.fail(host, s.method, avoid);
        const auto &substitution = std::get<hp::Substitution>(applied);
        for (std::size_t i = 0; i < substitution.moves.size(); ++i)
            moves[i] = {substitution.moves[i].rank, substitution.moves[i].from, substitution.moves[i].to};
        *count = static_cast<int32_t>(substitution.moves.size());
        kit::write_text(method, method_len,
                        substitution.degree < 0 ? std::string() : std::to_string(substitution.degree) + "D");
        return HARNESS_POLICY_OK;
    });
}

int32_t fail(void *placement, int32_t host, harness_policy_move *moves, int32_t max_moves, int32_t *count, char *method,
             size_t method_len, char *why, size_t why_len) noexcept {
    return fail_avoiding(placement, host, nullptr, 0, moves, max_moves, count, method, method_len, why, why_len);
}

void close(void *placement) noexcept {
    delete static_cast<Sliding *>(placement);
}

}  // namespace

const harness_policy_placement_ops *sliding_ops() {
    static const harness_policy_placement_ops table = {sizeof(harness_policy_placement_ops), open, fail, close,
                                                       fail_avoiding};
    return &table;
}

}  // namespace harness::policy::placements
