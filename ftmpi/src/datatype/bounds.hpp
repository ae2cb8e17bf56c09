// Lower/upper and true bounds of a new type, gathered over the copies of its
// children (MPI-3.1 §4.1.6). A type with no copies has all bounds 0.
#pragma once

#include "type.hpp"

#include <algorithm>

namespace ftmpi::dt {

struct Bounds {
    bool any = false;       // a copy was added (lb, ub)
    bool any_data = false;  // a copy with data was added (true bounds)
    Aint lb = 0, ub = 0, true_lb = 0, true_ub = 0;

    // A copy of `old` displaced by `disp` bytes. A child without data
    // (contiguous of 0) still has bounds but no true bounds.
    void add(const Type &old, Aint disp) {
        const Aint l = disp + old.lb, u = disp + old.ub;
        lb = any ? std::min(lb, l) : l;
        ub = any ? std::max(ub, u) : u;
        any = true;
        if (old.size == 0) return;
        const Aint tl = disp + old.true_lb, tu = disp + old.true_ub;
        true_lb = any_data ? std::min(true_lb, tl) : tl;
        true_ub = any_data ? std::max(true_ub, tu) : tu;
        any_data = true;
    }
    void apply(Type &t) const {
        t.lb = lb;
        t.ub = ub;
        t.true_lb = true_lb;
        t.true_ub = true_ub;
    }
};

}  // namespace ftmpi::dt
