// Substitution methods: a sliding degree (0D … qD) or a hybrid, the ordered
// list of degrees tried for each failure until one can handle it.
//   "0d", "1D", "2d", "qd" (the grid's dimension count)
//   "hybrid(2D+1D+0D)"  in this order
//   "hybrid(all)"       every degree, highest first
//   "hybrid(-2D)"       every degree but 2D, highest first
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace harness::placement {

struct Method {
    std::vector<int> degrees;  // tried in this order; one entry for a plain method

    // Parses a method for a grid of `dims` dimensions; a degree above dims is
    // refused. Throws std::invalid_argument with a one-line reason.
    static Method parse(std::string_view text, int dims);
    bool hybrid() const { return degrees.size() > 1; }
    std::string describe() const;  // "1D", "hybrid(3D+2D+1D+0D)"
};

}  // namespace harness::placement
