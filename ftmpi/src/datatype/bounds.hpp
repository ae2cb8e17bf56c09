// Lower/upper and true bounds of a new type, gathered over the copies of its
// children (MPI-3.1 §4.1.6). A type with no copies has all bounds 0.
#pragma once

#include "type.hpp"

#include <algorithm>

namespace ftmpi::dt {

struct Bounds {
    bool any = false;
    Aint lb = 0, ub = 0, true_lb = 0, true_ub = 0;

    // A copy of `old` displaced by `disp` bytes.
    void add(const Type &old, Aint disp) {
        const Aint l = disp + old.lb, u = disp + old.ub;
        const Aint tl = disp + old.true_lb, tu = disp + old.true_ub;
        if (!any) {
            lb = l, ub = u, true_lb = tl, true_ub = tu;
            any = true;
            return;
        }
        lb = std::min(lb, l);
        ub = std::max(ub, u);
        true_lb = std::min(true_lb, tl);
        true_ub = std::max(true_ub, tu);
    }
    void apply(Type &t) const {
        t.lb = lb;
        t.ub = ub;
        t.true_lb = true_lb;
        t.true_ub = true_ub;
    }
};

}  // namespace ftmpi::dt
