// The rank-to-host map of a stencil job on a host grid, and the substitution
// of failed hosts by the sliding methods of Hori et al. ("Sliding
// substitution of failed nodes"):
//
//   0D  the failed host's rank moves to the nearest free host (fewest hops;
//       lowest host number among equals).
//   kD  (1 <= k <= q) the ranks of a k-dimensional slab slide by one host
//       along a dimension d: every line along d that goes through the slab
//       shifts its ranks from the failed host's position onwards to the
//       next usable host, so that the failed host's hyperplane section is
//       vacated in the whole slab. 1D moves one line, qD moves the whole
//       half-space beyond the failed host.
//
// A free host is one that is neither failed nor hosting a rank: a spare, or
// a host vacated by an earlier slide. A slide goes towards the spares (the
// high end of d) or, when that is impossible, towards the low end, into
// hosts vacated earlier; it does not wrap around a torus. A kD slide is
// impossible when one of its lines has no free host left beyond the failed
// position in either direction; the dimension with the most slides so far
// is tried first, because uneven slide directions leave fewer hosts that a
// later failure cannot slide away from.
//
// The logical grid of ranks has the working block's extents (see
// SparePattern); rank numbers are row-major with dimension 0 fastest.
#pragma once

#include "host_grid.hpp"
#include "method.hpp"
#include "spare_pattern.hpp"

#include <string>
#include <variant>
#include <vector>

namespace harness::placement {

// One rank moving from one host to another; from is the failed host for the
// rank that was lost.
struct Move {
    int rank;
    int from;
    int to;
};

struct Substitution {
    int degree = -1;        // the method that handled it; -1: the host held no rank, nothing moves
    int dim = -1;           // the dimension a slide goes along (degree >= 1)
    int step = 0;           // +1: towards the high end (the spares), -1: towards the low end
    std::vector<int> span;  // the other dimensions a slide spans (degree - 1 of them)
    // In pipeline order: along each line, the rank moving into the free host
    // comes first, then the one moving into the host it left, and so on.
    std::vector<Move> moves;
};

struct Refusal {
    std::string reason;  // one line, e.g. "1D sliding: no line from host 12 has a free host left"
};

using Outcome = std::variant<Substitution, Refusal>;

class Placement {
public:
    // The failure-free start: ranks on the working block of `pattern`, in order.
    Placement(HostGrid grid, const SparePattern &pattern);
    // A map from elsewhere (a running job): the logical grid's extents, the
    // host of each rank, the hosts already failed and, optionally, the slides
    // so far per dimension (slides(), kept by the caller between failures so
    // the preference for uneven directions survives). Throws
    // std::invalid_argument when the map is inconsistent.
    Placement(HostGrid grid, std::vector<int> logical_extents, std::vector<int> rank_to_host,
              const std::vector<int> &failed_hosts, std::vector<int> slides = {});

    const HostGrid &grid() const { return grid_; }
    const std::vector<int> &logical_extents() const { return logical_; }
    const std::vector<int> &rank_to_host() const { return rank_to_host_; }
    int ranks() const { return static_cast<int>(rank_to_host_.size()); }
    int host_of(int rank) const { return rank_to_host_[rank]; }
    int rank_on(int host) const { return host_to_rank_[host]; }  // -1: none
    bool failed(int host) const { return failed_[host] != 0; }
    bool free(int host) const { return failed_[host] == 0 && host_to_rank_[host] < 0; }
    int failed_count() const;
    const std::vector<int> &slides() const { return slides_; }  // slides so far along each dimension

    // What `degree` would do for a failure of `host`; changes nothing.
    Outcome plan(int host, int degree) const;
    // The same with no move onto a host of `avoid` (e.g. the hosts behind a
    // switch that lost others): those hosts are no spares for it, and a
    // substitution that would still move a rank onto one (a slide through
    // an occupied host) is refused.
    Outcome plan(int host, int degree, const std::vector<int> &avoid) const;

    // A failure of `host`: tries the method's degrees in order and applies the
    // first that can handle it. On a refusal (every degree refused; the
    // reasons are joined) nothing changes, so the caller can fall back.
    // Failing a failed host, or one outside the grid, throws
    // std::invalid_argument.
    Outcome fail(int host, const Method &method);
    // The same, each degree planned with plan(host, degree, avoid).
    Outcome fail(int host, const Method &method, const std::vector<int> &avoid);

private:
    Outcome plan_0d(int host) const;
    Outcome plan_slide(int host, int degree) const;
    bool plan_slab(int host, int dim, int step, const std::vector<int> &span, std::vector<Move> &moves) const;
    bool shift_line(int start, int dim, int step, int failed_host, std::vector<Move> &moves) const;
    void apply(int host, const Substitution &substitution);

    HostGrid grid_;
    std::vector<int> logical_;
    std::vector<int> rank_to_host_;
    std::vector<int> host_to_rank_;
    std::vector<char> failed_;
    std::vector<int> slides_;  // slides so far along each dimension
};

}  // namespace harness::placement
