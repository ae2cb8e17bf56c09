// The decision table: which algorithm (and segment size) a collective runs,
// by the number of ranks taking part and the message size. One rule a line,
// easy to read and to diff:
//
//   # collective   ranks   bytes          algorithm           options
//   allreduce      3-      0-65535        recursive_doubling
//   allreduce      3-      65536-         ring
//   bcast          3-      256K-          pipeline            seg=64K
//
// ranks and bytes are ranges: `N` (exactly N), `N-M` (both included), `N-`
// (N and up) or `*` (any); numbers may end in K, M or G (times 1024). The
// first line of a collective that contains the call's (ranks, bytes) decides.
// `#` starts a comment. What "bytes" means per collective is in
// coll/README.md (the message for Bcast/Reduce/Allreduce/Scan, one rank's
// block for Gather/Scatter/Allgather, one peer's block for Alltoall, the
// whole vector for Reduce_scatter, 0 for Barrier).
//
// Parsing is strict: an unknown collective or algorithm, a bad range, seg=
// on an algorithm that has no segments, anything left over on a line is an
// error naming the file and line.
#pragma once

#include "algorithm_names.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ftmpi::coll {

// A decimal size with an optional K, M or G suffix (times 1024); nullopt
// when it is not one.
std::optional<size_t> parse_size(std::string_view);

struct Rule {
    Collective collective;
    int ranks_low, ranks_high;     // inclusive
    size_t bytes_low, bytes_high;  // inclusive
    uint8_t algorithm;             // 1.. (algorithm_names.hpp)
    int segment;                   // bytes; 0 = the algorithm's default
};

class Table {
public:
    // Parses `text`; `source` names it in errors ("default_table.txt").
    // On error returns false and sets *error to "source:line: what".
    bool parse(std::string_view text, const std::string &source, std::string *error);

    // The first rule of collective c containing (ranks, bytes), or null.
    const Rule *find(Collective c, int ranks, size_t bytes) const;

    bool empty() const;
    size_t size() const;

private:
    std::array<std::vector<Rule>, collective_count> rules_;
};

}  // namespace ftmpi::coll
