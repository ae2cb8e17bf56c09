// Placement: one opened placement component for one job, and its opening
// from the launcher's Layout.
#include "policy_state.hpp"

#include <algorithm>
#include <cstddef>

namespace harness::policy {

Result<std::unique_ptr<Placement::State>> open_placement_state(const std::shared_ptr<detail::LoadedComponent> &loaded,
                                                               const detail::ConfigPairs &config,
                                                               const Layout &layout) {
    const int dims = static_cast<int>(layout.host_extents.size());
    if (dims < 1 || dims > 6)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "layout: " + std::to_string(dims) + " host dimensions (1 to 6)");
    if (layout.rank_extents.size() != layout.host_extents.size())
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "layout: " + std::to_string(layout.rank_extents.size()) + " rank dimensions for " +
                              std::to_string(dims) + " host dimensions");
    harness_policy_layout c{};
    c.struct_size = sizeof c;
    c.dims = dims;
    c.host_extents = layout.host_extents.data();
    c.torus = layout.torus ? 1 : 0;
    c.spares = layout.spares.c_str();
    c.rank_extents = layout.rank_extents.data();
    c.ranks = static_cast<std::int32_t>(layout.rank_host.size());
    c.rank_host = layout.rank_host.data();
    c.failed_count = static_cast<std::int32_t>(layout.failed_hosts.size());
    c.failed_hosts = layout.failed_hosts.data();

    auto state = std::make_unique<Placement::State>();
    state->loaded = loaded;
    state->ops = static_cast<const harness_policy_placement_ops *>(loaded->ops);
    if (!state->ops->open || !state->ops->fail)
        return make_error(HARNESS_ERR_NOT_SUPPORTED, "the placement component has no open or fail");
    detail::CConfig cconfig(config);
    char why[512] = {};
    state->handle = state->ops->open(cconfig.get(), &c, why, sizeof why);
    if (!state->handle)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          detail::one_line(*why ? why : "open refused, giving no reason"));
    state->moves_hint = layout.rank_host.size() + 1;
    return state;
}

Placement::Placement(std::unique_ptr<State> state) : state_(std::move(state)) {}

Placement::~Placement() = default;

Result<Substitution> Placement::fail(int host) {
    return fail(host, {});
}

Result<Substitution> Placement::fail(int host, const std::vector<int> &avoid) {
    const harness_policy_placement_ops *ops = state_->ops;
    const bool can_avoid =
        ops->struct_size >= offsetof(harness_policy_placement_ops, fail_avoiding) + sizeof(ops->fail_avoiding) &&
        ops->fail_avoiding;
    if (!avoid.empty() && !can_avoid)
        return make_error(HARNESS_ERR_NOT_SUPPORTED, "the placement component cannot avoid hosts");
    std::size_t room = std::max<std::size_t>(state_->moves_hint, 16);
    // A plugin answers TOO_MANY with the count it needs; two rounds suffice
    // for an honest one, the third guards against one that keeps asking.
    for (int round = 0; round < 3; ++round) {
        std::vector<harness_policy_move> moves(room);
        std::int32_t count = 0;
        char method[32] = {};
        char why[512] = {};
        std::int32_t rc = avoid.empty()
            ? ops->fail(state_->handle, host, moves.data(), static_cast<std::int32_t>(room), &count, method,
                        sizeof method, why, sizeof why)
            : ops->fail_avoiding(state_->handle, host, avoid.data(), static_cast<std::int32_t>(avoid.size()),
                                 moves.data(), static_cast<std::int32_t>(room), &count, method, sizeof method, why,
                                 sizeof why);
        method[sizeof method - 1] = '\0';
        why[sizeof why - 1] = '\0';
        if (rc == HARNESS_POLICY_OK) {
            Substitution out;
            out.method = method;
            count = std::clamp<std::int32_t>(count, 0, static_cast<std::int32_t>(room));
            for (std::int32_t i = 0; i < count; ++i) out.moves.push_back({moves[i].rank, moves[i].from, moves[i].to});
            return out;
        }
        if (rc == HARNESS_POLICY_TOO_MANY) {
            room = std::max<std::size_t>(room * 2, count > 0 ? static_cast<std::size_t>(count) : 0);
            continue;
        }
        std::string reason = detail::one_line(*why ? why : "refused, giving no reason");
        return make_error(rc == HARNESS_POLICY_REFUSED ? HARNESS_ERR_PLUGIN_FAILED : HARNESS_ERR_INVALID_ARGUMENT,
                          reason);
    }
    return make_error(HARNESS_ERR_PLUGIN_FAILED, "the placement asked for ever more room for its moves");
}

}  // namespace harness::policy
