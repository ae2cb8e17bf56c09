// Lower/upper and true bounds of a new type, gathered over the copies of its
// children (MPI-3.1 §4.1.6–4.1.7). A type with no copies has all bounds 0.
// Explicit bounds (from resized children) win over the data's, as MPI-1's
// MPI_LB/MPI_UB markers did.
#pragma once

#include "type.hpp"

#include <algorithm>

namespace ftmpi::dt {

struct Bounds {
    bool any_lb = false, any_ub = false;  // a copy set lb (ub)
    bool any_data = false;                // a copy with data was added (true bounds)
    Aint lb = 0, ub = 0, true_lb = 0, true_ub = 0;
    bool has_explicit_lb = false, has_explicit_ub = false;
    Aint explicit_lb = 0, explicit_ub = 0;

    // A copy of `old` displaced by `disp` bytes. A child without data
    // (contiguous of 0) still has bounds but no true bounds. A bare marker
    // (MPI_LB, or a type with only MPI_LB markers in it) sets only its own
    // bound: the type map { (LB,10) } has lb 10, ub 0 and extent -10, as
    // MPI-1 defines ub over the data and the UB markers alone.
    void add(const Type &old, Aint disp) {
        const bool marks_lb_only = old.size == 0 && old.explicit_lb && !old.explicit_ub;
        const bool marks_ub_only = old.size == 0 && old.explicit_ub && !old.explicit_lb;
        const Aint l = disp + old.lb, u = disp + old.ub;
        if (!marks_ub_only) {
            lb = any_lb ? std::min(lb, l) : l;
            any_lb = true;
        }
        if (!marks_lb_only) {
            ub = any_ub ? std::max(ub, u) : u;
            any_ub = true;
        }
        if (old.explicit_lb) {
            explicit_lb = has_explicit_lb ? std::min(explicit_lb, l) : l;
            has_explicit_lb = true;
        }
        if (old.explicit_ub) {
            explicit_ub = has_explicit_ub ? std::max(explicit_ub, u) : u;
            has_explicit_ub = true;
        }
        if (old.size == 0) return;
        const Aint tl = disp + old.true_lb, tu = disp + old.true_ub;
        true_lb = any_data ? std::min(true_lb, tl) : tl;
        true_ub = any_data ? std::max(true_ub, tu) : tu;
        any_data = true;
    }
    void apply(Type &t) const {
        t.lb = has_explicit_lb ? explicit_lb : lb;
        t.ub = has_explicit_ub ? explicit_ub : ub;
        t.explicit_lb = has_explicit_lb;
        t.explicit_ub = has_explicit_ub;
        t.true_lb = true_lb;
        t.true_ub = true_ub;
    }
};

}  // namespace ftmpi::dt
