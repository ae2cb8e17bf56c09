// Spare patterns qD(r,s): which hosts are spares, and how many.
#include <harness/placement/spare_pattern.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace harness::placement {

SparePattern SparePattern::parse(std::string_view text) {
    SparePattern p;
    std::string s(text);
    for (char &c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    int used = 0;
    if (std::sscanf(s.c_str(), "%dD(%d,%d)%n", &p.q, &p.r, &p.s, &used) != 3 || used != static_cast<int>(s.size()))
        throw std::invalid_argument("bad spare pattern '" + std::string(text) + "': expected qD(r,s), e.g. 2D(2,1)");
    if (p.q < 1 || p.r < 0 || p.r > p.q || p.s < 1)
        throw std::invalid_argument("bad spare pattern '" + std::string(text) + "': needs q >= 1, 0 <= r <= q, s >= 1");
    return p;
}

std::string SparePattern::describe() const {
    return std::to_string(q) + "D(" + std::to_string(r) + "," + std::to_string(s) + ")";
}

void SparePattern::check(const HostGrid &grid) const {
    if (grid.dims() != q)
        throw std::invalid_argument("spare pattern " + describe() + " is for " + std::to_string(q) + "D grids, not " +
                                    grid.describe());
    for (int d = 0; d < r; ++d)
        if (s >= grid.extent(d))
            throw std::invalid_argument("spare pattern " + describe() + " leaves no working host on " +
                                        grid.describe());
}

bool SparePattern::is_spare(const HostGrid &grid, int host) const {
    for (int d = 0; d < r; ++d)
        if (grid.coord(host, d) >= grid.extent(d) - s) return true;
    return false;
}

std::vector<int> SparePattern::working_extents(const HostGrid &grid) const {
    std::vector<int> e = grid.extents();
    for (int d = 0; d < r; ++d) e[d] -= s;
    return e;
}

int SparePattern::spare_count(const HostGrid &grid) const {
    long working = 1;
    for (int e : working_extents(grid)) working *= e;
    return grid.size() - static_cast<int>(working);
}

double SparePattern::spare_ratio(const HostGrid &grid) const {
    return static_cast<double>(spare_count(grid)) / grid.size();
}

double SparePattern::spare_ratio_formula(double hosts) const {
    const double side = std::pow(hosts, 1.0 / q);
    return 1.0 - std::pow(side - s, r) * std::pow(side, q - r) / hosts;
}

}  // namespace harness::placement
