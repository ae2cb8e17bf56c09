#include "grid_layout.hpp"

#include <harness/placement/spare_pattern.hpp>

#include <sstream>
#include <stdexcept>

namespace harness::ftmpirun {

namespace {

Result<std::vector<int>> parse_extents(const std::string &text) {
    std::vector<int> extents;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, 'x');) {
        if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos ||
            std::stoi(part) < 1)
            return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                              "--grid " + text + ": want extents from 1 joined by x, e.g. 4x4 or 2x3x2");
        extents.push_back(std::stoi(part));
    }
    if (extents.empty() || extents.size() > 6 || text.back() == 'x')
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "--grid " + text + ": want 1 to 6 extents, e.g. 4x4");
    return extents;
}

std::string join(const std::vector<int> &v, char sep) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? std::string(1, sep) : "") + std::to_string(v[i]);
    return s;
}

// Row-major, dimension 0 fastest.
int number_of(const std::vector<int> &coord, const std::vector<int> &extents) {
    int n = 0, stride = 1;
    for (std::size_t d = 0; d < extents.size(); ++d) {
        n += coord[d] * stride;
        stride *= extents[d];
    }
    return n;
}
std::vector<int> coord_of(int n, const std::vector<int> &extents) {
    std::vector<int> c(extents.size());
    for (std::size_t d = 0; d < extents.size(); ++d) {
        c[d] = n % extents[d];
        n /= extents[d];
    }
    return c;
}

}  // namespace

std::vector<int> GridLayout::missing() const {
    std::vector<int> out;
    for (int g = 0; g < grid_size(); ++g)
        if (host_of_grid[static_cast<std::size_t>(g)] < 0) out.push_back(g);
    return out;
}

std::string GridLayout::place(int grid_host) const {
    return "(" + join(coord_of(grid_host, host_extents), ',') + ")";
}

Result<GridLayout> make_grid_layout(const std::string &grid, const std::string &spares, const std::vector<Host> &hosts,
                                    int np) {
    GridLayout g;
    auto extents = parse_extents(grid);
    if (!extents) return extents.error();
    g.rank_extents = *extents;
    long ranks = 1;
    for (int e : g.rank_extents) ranks *= e;
    if (ranks != np)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "--grid " + grid + " has " + std::to_string(ranks) + " ranks, the job " + std::to_string(np));
    g.host_extents = g.rank_extents;
    if (!spares.empty()) {
        placement::SparePattern pattern;
        try {
            pattern = placement::SparePattern::parse(spares);
        } catch (const std::invalid_argument &e) {
            return make_error(HARNESS_ERR_INVALID_ARGUMENT, "--spares " + spares + ": " + e.what());
        }
        if (pattern.q != static_cast<int>(g.rank_extents.size()))
            return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                              "--spares " + spares + " is for a " + std::to_string(pattern.q) +
                                  "-dimensional grid, --grid " + grid + " has " +
                                  std::to_string(g.rank_extents.size()));
        for (int d = 0; d < pattern.r; ++d) g.host_extents[static_cast<std::size_t>(d)] += pattern.s;
        g.spares = pattern.describe();
    }
    long size = 1;
    for (int e : g.host_extents) size *= e;
    if (size > 1 << 20) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "the host grid is too large");
    g.host_of_grid.assign(static_cast<std::size_t>(size), -1);
    g.grid_of_host.assign(hosts.size(), -1);
    const std::string host_grid = join(g.host_extents, 'x');
    bool with_coords = false;
    for (const auto &h : hosts) with_coords |= !h.coord.empty();
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        const Host &h = hosts[i];
        int number = static_cast<int>(i);
        if (with_coords) {
            if (h.coord.empty())
                return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                                  "host " + h.member_id + " has no coord= while others have (give every host one)");
            bool inside = h.coord.size() == g.host_extents.size();
            for (std::size_t d = 0; inside && d < h.coord.size(); ++d) inside = h.coord[d] < g.host_extents[d];
            if (!inside)
                return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                                  "host " + h.member_id + " coord=" + join(h.coord, ',') + " is outside the " +
                                      host_grid + " host grid");
            number = number_of(h.coord, g.host_extents);
        } else if (number >= size) {
            continue;  // more hosts than places: the extra ones are not in the grid
        }
        if (g.host_of_grid[static_cast<std::size_t>(number)] >= 0)
            return make_error(
                HARNESS_ERR_INVALID_ARGUMENT,
                "hosts " + hosts[static_cast<std::size_t>(g.host_of_grid[static_cast<std::size_t>(number)])].member_id +
                    " and " + h.member_id + " share the grid place " + g.place(number));
        g.host_of_grid[static_cast<std::size_t>(number)] = static_cast<int>(i);
        g.grid_of_host[i] = number;
    }
    // Ranks on the working block, in order: its coordinates are the rank's.
    for (int r = 0; r < np; ++r) {
        int number = number_of(coord_of(r, g.rank_extents), g.host_extents);
        if (g.host_of_grid[static_cast<std::size_t>(number)] < 0)
            return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                              "no host at grid place " + g.place(number) + " for rank " + std::to_string(r) + " (the " +
                                  host_grid + " host grid" + (spares.empty() ? "" : " of --spares " + g.spares) +
                                  " needs " + std::to_string(size) + " hosts, " +
                                  (with_coords ? "coord= leaves that place empty)"
                                               : "the host list gives " + std::to_string(hosts.size()) + ")"));
        g.rank_grid.push_back(number);
    }
    return g;
}

}  // namespace harness::ftmpirun
