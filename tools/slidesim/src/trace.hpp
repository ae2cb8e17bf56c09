// slidesim --fail: one given failure sequence, step by step — which degree
// handled each failure, the moves, C_max — and the final rank map, as text
// (a picture of the grid for 2D) or as one JSON document. The answer a
// placement plugin must give for the same case.
#pragma once

#include <harness/placement/host_grid.hpp>
#include <harness/placement/method.hpp>
#include <harness/placement/spare_pattern.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace slidesim {

// "12" (a host number) or "3:2" / "3:2:1" (coordinates). Throws std::invalid_argument.
int parse_host(const harness::placement::HostGrid &grid, const std::string &text);

// Returns the exit status: 0 when every failure was handled, 3 when one was refused (the trace stops there).
int trace(std::ostream &out, const harness::placement::HostGrid &grid, const harness::placement::SparePattern &pattern,
          const harness::placement::Method &method, const std::vector<int> &failures, bool periodic, bool json);

}  // namespace slidesim
