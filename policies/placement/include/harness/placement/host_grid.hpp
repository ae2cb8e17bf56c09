// A host grid: the hosts of a job laid out on a Cartesian network (mesh or
// torus) of any number of dimensions. Hosts are numbered row-major with
// dimension 0 varying fastest, so host (x, y) of a 2D grid is x + y * X.
// Distances and routes follow the network: on a torus a dimension wraps.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace harness::placement {

using Coords = std::vector<int>;

class HostGrid {
public:
    // Extents must be at least 1 each; throws std::invalid_argument otherwise.
    HostGrid(std::vector<int> extents, bool torus);

    // Parses "100x100" or "12x12x12" (1 to 6 dimensions, each at least 2).
    // Throws std::invalid_argument with a one-line reason.
    static HostGrid parse(std::string_view text, bool torus);

    int dims() const { return static_cast<int>(extents_.size()); }
    int extent(int dim) const { return extents_[dim]; }
    const std::vector<int> &extents() const { return extents_; }
    bool torus() const { return torus_; }
    int size() const { return size_; }

    Coords coords(int host) const;
    int host(const Coords &coords) const;
    int coord(int host, int dim) const { return (host / strides_[dim]) % extents_[dim]; }
    int stride(int dim) const { return strides_[dim]; }

    // Hops between two coordinates along one dimension, and between hosts.
    int hops(int dim, int from, int to) const;
    int distance(int a, int b) const;

    // "100x100 mesh" / "12x12x12 torus".
    std::string describe() const;

private:
    std::vector<int> extents_;
    std::vector<int> strides_;
    bool torus_;
    int size_;
};

}  // namespace harness::placement
