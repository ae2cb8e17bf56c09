// Host grids: coordinates, distances and their textual form.
#include <harness/placement/host_grid.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace harness::placement {

namespace {

constexpr int max_dims = 6;
constexpr long max_hosts = 1L << 24;  // keeps per-host arrays and int host numbers safe

}  // namespace

HostGrid::HostGrid(std::vector<int> extents, bool torus) : extents_(std::move(extents)), torus_(torus), size_(1) {
    if (extents_.empty() || static_cast<int>(extents_.size()) > max_dims)
        throw std::invalid_argument("a host grid has 1 to " + std::to_string(max_dims) + " dimensions");
    long size = 1;
    for (int e : extents_) {
        if (e < 1) throw std::invalid_argument("a host grid's extents are at least 1");
        strides_.push_back(static_cast<int>(size));
        size *= e;
        if (size > max_hosts) throw std::invalid_argument("a host grid has at most 2^24 hosts");
    }
    size_ = static_cast<int>(size);
}

HostGrid HostGrid::parse(std::string_view text, bool torus) {
    std::vector<int> extents;
    std::string rest(text);
    if (rest.empty()) throw std::invalid_argument("empty grid: expected e.g. 100x100 or 12x12x12");
    std::size_t pos = 0;
    while (true) {
        std::size_t end = rest.find_first_of("xX", pos);
        std::string part = rest.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        char *stop = nullptr;
        long value = std::strtol(part.c_str(), &stop, 10);
        if (part.empty() || *stop != '\0' || value < 2 || value > 1 << 20)
            throw std::invalid_argument("bad grid '" + std::string(text) +
                                        "': expected extents of at least 2 joined by x, e.g. 100x100");
        extents.push_back(static_cast<int>(value));
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return HostGrid(std::move(extents), torus);
}

Coords HostGrid::coords(int host) const {
    Coords c(extents_.size());
    for (int d = 0; d < dims(); ++d) c[d] = coord(host, d);
    return c;
}

int HostGrid::host(const Coords &c) const {
    int h = 0;
    for (int d = 0; d < dims(); ++d) h += c[d] * strides_[d];
    return h;
}

int HostGrid::hops(int dim, int from, int to) const {
    int straight = std::abs(to - from);
    return torus_ ? std::min(straight, extents_[dim] - straight) : straight;
}

int HostGrid::distance(int a, int b) const {
    int total = 0;
    for (int d = 0; d < dims(); ++d) total += hops(d, coord(a, d), coord(b, d));
    return total;
}

std::string HostGrid::describe() const {
    std::string out;
    for (int d = 0; d < dims(); ++d) out += (d ? "x" : "") + std::to_string(extents_[d]);
    return out + (torus_ ? " torus" : " mesh");
}

}  // namespace harness::placement
